"""The installable app: web manifest, service worker, offline page and error pages.

The service worker (``templates/pwa/sw.js``) keeps the static shell and the offline
page, and nothing else: pages, htmx fragments and the API always come from the
network, so a phone without a connection sees "you are offline", never an old
table as if it were live. Its cache is named after a hash of everything it keeps
(``shell_version``), so a deploy that changes any of it replaces the old cache.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

#: The app's background and the browser's bar around it (``static/css/app.css``).
BACKGROUND = "#14161a"

#: Static files every page needs, kept by the service worker for offline use
#: (``tests/companion/test_pwa.py`` checks the pages ask for nothing else).
SHELL = (
    "css/app.css",
    "js/app.js",
    "js/pwa.js",
    "django_htmx/htmx-2.min.js",
    "django_htmx/ext/hx-ws-2.min.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/icon-maskable-512.png",
)

SERVICE_WORKER_TEMPLATE = "pwa/sw.js"

_versions: dict[tuple[str, ...], str] = {}


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def offline_urls() -> dict[str, str]:
    """The offline page in each language, as the service worker keeps it."""
    return {code: f"{reverse('offline')}?lang={code}" for code in _languages()}


def _offline_html(code: str) -> str:
    with translation.override(code):
        return render_to_string("offline.html", {"lang": code, "home_url": reverse("home")})


def shell_version() -> str:
    """A hash of the static files the service worker keeps, of the offline page in
    every language and of the worker's own code: it names the cache, so changing
    any of them makes browsers install the new worker and drop the old cache."""
    urls = tuple(static(name) for name in SHELL)
    if urls in _versions and not settings.DEBUG:
        return _versions[urls]
    digest = hashlib.sha256()
    for name, url in zip(SHELL, urls, strict=True):
        digest.update(url.encode())
        path = finders.find(name)
        if isinstance(path, str):
            with open(path, "rb") as file:
                digest.update(file.read())
    for code in _languages():
        digest.update(_offline_html(code).encode())
    digest.update(get_template(SERVICE_WORKER_TEMPLATE).template.source.encode())  # type: ignore[attr-defined]
    version = digest.hexdigest()[:16]
    _versions[urls] = version
    return version


# ---------------------------------------------------------------- views


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web manifest, in the reader's language."""
    icons: list[dict[str, Any]] = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    home = reverse("home")
    data = {
        "id": home,
        "name": gettext("Segnalino: game night companion"),
        "short_name": "Segnalino",
        "description": gettext(
            "Every phone at the table shows the same live board, and some games "
            "play online with hidden hands."
        ),
        "lang": translation.get_language(),
        "dir": "ltr",
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": BACKGROUND,
        "categories": ["games", "entertainment"],
        "icons": icons,
    }
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1),
        content_type="application/manifest+json; charset=utf-8",
    )
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    patch_cache_control(response, no_cache=True)
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: at the root, so it may look after every page of the app."""
    config = {
        "version": shell_version(),
        "shell": [static(name) for name in SHELL],
        "offline": offline_urls(),
        "defaultLanguage": settings.LANGUAGE_CODE,
    }
    response = render(
        request,
        SERVICE_WORKER_TEMPLATE,
        {"config": json.dumps(config, indent=1)},
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    # Browsers check for a new worker on every visit; never from a stale copy.
    patch_cache_control(response, no_cache=True, max_age=0)
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when a page cannot be reached, in the
    language it asks for (it keeps one copy per language)."""
    code = request.GET.get("lang", "")
    if code not in _languages():
        code = translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(code):
        response = render(request, "offline.html", {"lang": code, "home_url": reverse("home")})
    response["Content-Language"] = code
    return response


# ---------------------------------------------------------------- error pages


def _standalone_error(request: HttpRequest, template: str, status: int) -> HttpResponse:
    """An error page that needs nothing of the request that may have broken: the
    language the phone asks for, the home address, and a self-contained template."""
    try:
        code = translation.get_language_from_request(request)
    except Exception:  # whatever broke, the page must still render
        code = settings.LANGUAGE_CODE
    try:
        home = reverse("home")
    except NoReverseMatch:
        home = "/"
    try:
        with translation.override(code):
            html: str = render_to_string(template, {"lang": code, "home_url": home})
    except Exception:  # a page that cannot render: the plainest one
        html = f'<!doctype html><title>{status}</title><h1>{status}</h1><a href="/">Segnalino</a>'
    response = HttpResponse(html, status=status)
    response["Content-Language"] = code
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``."""
    return _standalone_error(request, "500.html", 500)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400`` (a request Django could not make sense of, a host not allowed)."""
    return _standalone_error(request, "400.html", 400)
