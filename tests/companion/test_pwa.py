"""The installable app and its error pages: the home page lists every declared game
with what the app does for it; a missing page, a refused one and a server error are
our own pages in the phone's language with a way home; the web manifest, the
icons, the service worker and the offline page are served as browsers want them."""

from __future__ import annotations

import json
import re
import struct
import types

import pytest
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import include, path

from companion import offers, pwa
from games.engine.declaration import Game
from games.engine.registry import games, get_engine

pytestmark = pytest.mark.django_db

ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}
ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it-IT,it;q=0.9,en;q=0.5"}


def _h1(html: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    ]


def _broken(request):
    raise RuntimeError("a bug in a view")


def _refused(request):
    raise PermissionDenied


@pytest.fixture
def faulty_urls(settings):
    """The app's URLs and handlers, plus a view that breaks and one that refuses."""
    import config.urls

    urlconf = types.ModuleType("faulty_urls")
    urlconf.urlpatterns = [  # type: ignore[attr-defined]
        path("broken/", _broken),
        path("refused/", _refused),
        path("", include(config.urls.urlpatterns)),
    ]
    for code in (400, 403, 404, 500):
        name = f"handler{code}"
        if hasattr(config.urls, name):
            setattr(urlconf, name, getattr(config.urls, name))
    settings.ROOT_URLCONF = urlconf
    settings.DEBUG = False
    return urlconf


# ---------------------------------------------------------------- home page


def test_the_home_page_says_what_the_app_is_for_and_lists_every_declared_game():
    html = Client().get("/", **ENGLISH).content.decode()
    assert _h1(html) == ["Your game night, on every phone"]
    assert "every phone joins one session and shows the same live board" in html
    declared = games()
    assert len(declared) == 5
    assert html.count('<li class="game"') == 5
    for slug, game in declared.items():
        block = html.split(f'data-game="{slug}"')[1].split('<li class="game"')[0]
        assert str(game.name) in block, slug
        assert f'href="/new/{slug}/"' in block  # a new session (table companion)
        assert f'href="/cards/?game={slug}"' in block and f'href="/rules/{slug}/"' in block
        online = "Online" in block
        assert online == get_engine(slug).seat_bound, f"{slug}: online is {online}"
    assert "Kablamo" in html and "Plastic Attack" in html


def test_a_game_declared_with_only_a_card_list_is_listed_with_its_cards_and_no_session(
    monkeypatch,
):
    """The home page reads the declarations: nothing to add there for a new game."""
    cards_only = Game(slug="chess", name="Chess", module="games.chess.game", catalog="c.json")
    monkeypatch.setattr(offers, "games", lambda: {**games(), "chess": cards_only})
    html = Client().get("/", **ENGLISH).content.decode()
    block = html.split('data-game="chess"')[1].split('<section class="card">')[0]
    assert "Chess" in block and 'href="/cards/?game=chess"' in block
    assert "/new/chess/" not in block and "Table companion" not in block
    assert "Online" not in block and "/rules/chess/" not in block


def test_the_home_page_in_italian_names_the_offers_in_italian():
    html = Client().get("/", **ITALIAN).content.decode()
    assert '<html lang="it">' in html
    assert "La tua serata giochi, su ogni telefono" in html
    assert "Online, anche contro un bot" in html  # Shazamm! and Plastic Attack
    assert "Elenco delle carte" in html
    assert '<label id="join-title" for="code">Entra in un tavolo con il suo codice</label>' in html


def test_the_join_form_is_labelled_and_sends_the_code_to_the_join_page():
    html = Client().get("/", **ENGLISH).content.decode()
    form = html.split('class="thumb-join"')[1]
    assert 'action="/join/"' in form
    assert '<label id="join-title" for="code">Join a table with its code</label>' in form
    assert '<input id="code" name="code"' in form


# ---------------------------------------------------------------- error pages


@pytest.mark.parametrize(
    ("headers", "lang", "title"),
    [(ENGLISH, "en", "Page not found"), (ITALIAN, "it", "Pagina non trovata")],
)
def test_a_missing_page_is_our_404_in_the_phones_language_with_a_way_home(
    faulty_urls, headers, lang, title
):
    response = Client().get("/no/such/page/", **headers)
    assert response.status_code == 404
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert _h1(html) == [title]
    assert 'href="/"' in html and 'href="/static/css/app.css"' in html
    assert '<label for="code">' in html  # a mistyped table link: type the code here
    assert "Not Found" not in html


@pytest.mark.parametrize(
    ("headers", "lang", "title", "home"),
    [
        (ENGLISH, "en", "Something broke on our side", "Home"),
        (ITALIAN, "it", "Qualcosa si è rotto da parte nostra", "Home"),
    ],
)
def test_a_server_error_is_a_styled_500_page_that_needs_nothing_from_the_request(
    faulty_urls, headers, lang, title, home
):
    response = Client(raise_request_exception=False).get("/broken/", **headers)
    assert response.status_code == 500
    assert response["Content-Language"] == lang
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert _h1(html) == [title]
    assert f'<a class="button secondary" href="/">{home}</a>' in html
    assert "<style>" in html and "stylesheet" not in html  # styled, self-contained
    assert "csrf" not in html.lower()


def test_the_500_page_renders_even_when_the_request_cannot_say_its_language(faulty_urls):
    request = types.SimpleNamespace()  # nothing a broken request could be trusted with
    response = pwa.server_error(request)  # type: ignore[arg-type]
    assert response.status_code == 500
    assert "Something broke on our side" in response.content.decode()


def test_a_refused_page_is_our_403_in_italian(faulty_urls):
    response = Client().get("/refused/", **ITALIAN)
    assert response.status_code == 403
    html = response.content.decode()
    assert _h1(html) == ["Non permesso"] and 'href="/"' in html


def test_a_request_for_a_host_not_allowed_is_our_400(faulty_urls):
    response = Client().get("/", HTTP_HOST="evil.example", **ITALIAN)
    assert response.status_code == 400
    html = response.content.decode()
    assert _h1(html) == ["Questa richiesta non si può leggere"] and 'href="/"' in html


# ---------------------------------------------------------------- the installable app


def _png_size(name: str) -> tuple[int, int]:
    found = finders.find(name)
    assert isinstance(found, str), name
    with open(found, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", name
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_manifest_makes_the_app_installable_in_the_phones_language():
    response = Client().get("/manifest.webmanifest", **ITALIAN)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    data = json.loads(response.content)
    assert data["short_name"] == "Segnalino"
    assert data["name"] == "Segnalino: la serata giochi sul telefono"
    assert data["lang"] == "it"
    assert data["start_url"] == "/" and data["scope"] == "/"
    assert data["display"] == "standalone"
    assert data["theme_color"] == data["background_color"] == "#14161a"
    icons = {(icon["sizes"], icon.get("purpose", "any")): icon for icon in data["icons"]}
    assert set(icons) == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
        ("any", "any"),
    }
    for (sizes, _purpose), icon in icons.items():
        name = icon["src"].removeprefix("/static/")
        if icon["type"] == "image/png":
            assert _png_size(name) == tuple(int(n) for n in sizes.split("x"))
        else:
            assert icon["type"] == "image/svg+xml"
            with open(finders.find(name)) as file:  # type: ignore[arg-type]
                assert file.read().startswith("<svg")
    english = json.loads(Client().get("/manifest.webmanifest", **ENGLISH).content)
    assert english["name"] == "Segnalino: game night companion"


def test_every_page_links_the_manifest_the_theme_colour_and_a_real_favicon():
    html = Client().get("/", **ENGLISH).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#14161a">' in html
    assert '<link rel="icon" href="/static/icons/icon.svg" type="image/svg+xml">' in html
    assert 'href="data:,"' not in html  # the empty favicon is gone
    assert 'data-service-worker="/sw.js"' in html


def test_the_service_worker_is_served_at_the_root_as_a_script_never_from_a_stale_copy():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    config = json.loads(script.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["version"] == pwa.shell_version()
    assert config["offline"] == {"en": "/offline/?lang=en", "it": "/offline/?lang=it"}
    assert "/static/css/app.css" in config["shell"] and "/static/js/app.js" in config["shell"]
    # Only static files and the offline page are kept: no page, fragment or API.
    assert all(url.startswith("/static/") for url in config["shell"])


def test_the_shell_holds_every_static_file_a_page_asks_for():
    """A page that asks for a file the worker does not keep would break offline."""
    for url in ("/", "/offline/", "/cards/"):
        html = Client().get(url, **ENGLISH).content.decode()
        wanted = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
        assert wanted, url
        missing = wanted - {f"/static/{name}" for name in pwa.SHELL}
        assert missing == set(), f"{url} asks for {missing}, which the service worker does not keep"


def test_a_change_to_a_kept_file_gives_the_cache_a_new_name(tmp_path, monkeypatch):
    before = pwa.shell_version()
    changed = tmp_path / "app.css"
    changed.write_text("body{color:red}")
    real_find = finders.find
    monkeypatch.setattr(
        finders,
        "find",
        lambda name, **kw: str(changed) if name == "css/app.css" else real_find(name, **kw),
    )
    monkeypatch.setattr(pwa, "_versions", {})
    assert pwa.shell_version() != before


@pytest.mark.parametrize(
    ("lang", "title", "retry"),
    [("en", "You are offline", "Try again"), ("it", "Sei senza connessione", "Riprova")],
)
def test_the_offline_page_says_the_table_comes_back_and_offers_a_retry(lang, title, retry):
    response = Client().get(f"/offline/?lang={lang}", **ENGLISH)
    assert response.status_code == 200
    assert response["Content-Language"] == lang
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert _h1(html) == [title]
    assert f'<button type="submit" class="button">{retry}</button>' in html
    assert 'id="live"' not in html and "hx-ext" not in html  # no table, no socket
