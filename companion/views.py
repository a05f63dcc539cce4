"""Thin views: parse the request, call a service, render."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import segno
from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_noop as _
from django.views.decorators.http import require_POST, require_safe

from companion import ratelimit, services, taps
from companion.errors import BadRequest, Forbidden, ServiceError, TooMany, error_text, status_for
from companion.htmx import HtmxHttpRequest
from companion.identity import phone_token
from companion.models import GameSession
from companion.offers import game_offers
from companion.recent import recent_tables, remember_table
from companion.rendering import render_frames
from companion.selectors import table_context, viewer_for
from games.engine import EngineError
from games.views import presenter_for


def _error_response(
    request: HtmxHttpRequest, error: ServiceError | EngineError, game: str | None = None
) -> HttpResponse:
    """A clear message and a 4xx: in the page for htmx, as a page otherwise."""
    status = status_for(error)
    text = error_text(error, game)
    if request.htmx:
        response = render(
            request, "companion/partials/messages.html", {"error": text}, status=status
        )
        response["HX-Retarget"] = "#messages"
        response["HX-Reswap"] = "outerHTML"
        return response
    code = request.resolver_match.kwargs.get("code") if request.resolver_match else None
    back_url = reverse("session", args=[code]) if code and status != 404 else None
    # (Not ``error``: the page's banner, ``messages.html``, would say it a second time.)
    return render(
        request, "companion/error.html", {"problem": text, "back_url": back_url}, status=status
    )


def csrf_failure(request: HtmxHttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a post without a valid CSRF token (a page left open too
    long, a form from elsewhere) gets our message and a 403, like any refusal."""
    return _error_response(
        request,
        Forbidden(
            _(
                "This page is out of date or the form came from elsewhere: "
                "reload the page and try again."
            )
        ),
    )


def public_link(request: HtmxHttpRequest, path: str) -> str:
    """An address another phone can open: on ``SEGNALINO_PUBLIC_URL`` when set (the
    table's network under `make run`, or a deployment's public address), so a link
    made on the laptop that opened http://127.0.0.1 still works on a friend's phone."""
    if settings.SEGNALINO_PUBLIC_URL:
        return settings.SEGNALINO_PUBLIC_URL + path
    return request.build_absolute_uri(path)


def _index(raw: Any, field: str) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise BadRequest(_("“%(field)s” must be a whole number."), field=field) from None


# ---------------------------------------------------------------- pages


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    return render(
        request,
        "companion/home.html",
        {"games": game_offers(), "recent": recent_tables(request.session)},
    )


def new_session(request: HtmxHttpRequest, game: str) -> HttpResponse:
    try:
        presenter = presenter_for(game)
    except LookupError:
        return _error_response(
            request, services.NotFound(_("There is no game called “%(game)s”."), game=game[:32])
        )
    if request.method == "GET":
        return render(request, "companion/new.html", presenter.setup_context(request.GET))
    if request.method != "POST":
        return HttpResponse(status=405)
    if not ratelimit.take(ratelimit.CREATE, ratelimit.client_of(request)):
        return _error_response(
            request, TooMany(_("Too many new sessions from here; wait a few minutes."))
        )
    try:
        setup = presenter.parse_setup(request.POST)
        token = phone_token(request.session, create=True)
        session = services.create_session(
            game=game,
            seat_names=setup.names,
            options=setup.options,
            host_token=token,
            edit_policy=request.POST.get("edit_policy", GameSession.EditPolicy.TABLE),
            mode=setup.mode,
            turn_seconds=setup.turn_seconds,
        )
        if setup.host_seat is not None:
            services.claim_seat(session, setup.host_seat, token)
        for seat in setup.bot_seats:
            services.seat_bot(session, seat, token, name=setup.names[seat])
    except (ServiceError, EngineError) as error:
        if request.htmx:
            return _error_response(request, error, game)
        # The same form again, with the reason on top: not a dead end, and the page
        # puts back what the player typed (app.js, data-keep-values).
        context = presenter.setup_context(request.GET)
        context.update(error=error_text(error, game), restore=True)
        return render(request, "companion/new.html", context, status=status_for(error))
    return HttpResponseRedirect(reverse("session", args=[session.code]))


def join(request: HtmxHttpRequest) -> HttpResponse:
    code = request.GET.get("code", "")
    if not code:
        return render(request, "companion/join.html")
    try:
        session = services.find_session(code, ratelimit.client_of(request))
    except ServiceError as error:
        return render(
            request,
            "companion/join.html",
            {"error": error_text(error), "code": code[:16]},
            status=error.status,
        )
    return HttpResponseRedirect(reverse("session", args=[session.code]))


@require_safe
def session_page(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        session = services.find_session(code, ratelimit.client_of(request))
    except ServiceError as error:
        return _error_response(request, error)
    if session.code != code:
        return HttpResponseRedirect(reverse("session", args=[session.code]))
    if services.enforce_deadline(session):
        session.refresh_from_db()
    # Made now, so the socket this page opens already knows the phone when it sits.
    token = phone_token(request.session, create=True)
    seats = list(session.seats.all())
    viewer = viewer_for(session, seats, token)
    context = table_context(session, viewer, seats=seats)
    remember_table(request.session, session.code)
    context["join_url"] = public_link(request, reverse("join_code", args=[session.code]))
    context["watch_url"] = public_link(request, reverse("watch", args=[session.spectator_key]))
    context["ws_path"] = reverse("session", args=[session.code]).replace("/s/", "/ws/s/", 1)
    context["game_name"] = presenter_for(session.game).name
    return render(request, "companion/session.html", context)


@require_safe
def watch(request: HtmxHttpRequest, spectator_key: str) -> HttpResponse:
    try:
        session = services.get_watched_session(spectator_key)
    except ServiceError as error:
        return _error_response(request, error)
    seats = list(session.seats.all())
    viewer = viewer_for(session, seats, "", spectator=True)
    context = table_context(session, viewer, seats=seats)
    context["ws_path"] = f"/ws/w/{session.spectator_key}/"
    # The watch link is what a TV or a laptop opens: on a wide screen the page lays
    # every board out at once (static/css/app.css, "TV layout"); on a phone it is
    # the usual column.
    context["tv"] = True
    context["game_name"] = presenter_for(session.game).name
    return render(request, "companion/session.html", context)


@require_safe
def join_code(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return session_page(request, code)


@require_safe
def qr_code(request: HtmxHttpRequest, code: str) -> HttpResponse:
    try:
        session = services.find_session(code, ratelimit.client_of(request))
    except ServiceError as error:
        return _error_response(request, error)
    url = public_link(request, reverse("join_code", args=[session.code]))
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=6, dark="#111", light="#fff", border=2, xmldecl=False
    )
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


# ---------------------------------------------------------------- writes


def _after_write(
    request: HtmxHttpRequest, session: GameSession, version: int | None = None
) -> HttpResponse:
    """htmx: the fresh fragments for this phone; plain POST: back to the table.

    A phone whose socket is live says so (``X-Segnalino-Live``): the update reaches
    it on the socket like every other phone, so the reply is only an
    acknowledgement (and clears any error shown), and rendering it does not delay
    the other phones' frames. ``version`` is the one the write produced, if it says.
    """
    if request.htmx and request.headers.get("X-Segnalino-Live") == "1":
        if version is None:  # a seat or host change: the game's version did not move
            version = session.version
        ack = render_to_string("companion/partials/messages.html", {"oob": True})
        return HttpResponse(ack + f'<div id="ack" hidden data-version="{version}"></div>')
    if request.htmx:
        session.refresh_from_db()
        seats = list(session.seats.all())
        viewer = viewer_for(session, seats, phone_token(request.session))
        html = render_frames(session, viewer, seats=seats) + str(
            render_to_string("companion/partials/messages.html", {"oob": True})
        )
        return HttpResponse(html)
    return HttpResponseRedirect(reverse("session", args=[session.code]))


def _write(
    request: HtmxHttpRequest,
    code: str,
    operation: Callable[[GameSession, str], object],
    *,
    reload: Callable[[Any], bool] | None = None,
) -> HttpResponse:
    """Run ``operation(session, phone token)``; an int it returns is the new version.

    ``reload``: given what the operation returned, whether the phone loads its table
    again (htmx's ``HX-Refresh``, as "play again" answers with ``HX-Redirect``):
    the phone that sat down or left its own seat, whose page puts its own board
    first and marks it, where a live frame replaces pieces and never moves them.
    Nothing is rendered for it. A refusal leaves the page as it is."""
    if request.method != "POST":
        return HttpResponse(status=405)
    try:
        session = services.get_session(code)
    except ServiceError as error:
        return _error_response(request, error)
    try:
        result = operation(session, phone_token(request.session, create=True))
    except (ServiceError, EngineError) as error:
        return _error_response(request, error, session.game)
    if reload is not None:
        if request.htmx and reload(result):
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        result = None  # it said whether to reload, not a version
    return _after_write(request, session, result if isinstance(result, int) else None)


def _tap(request: HtmxHttpRequest, code: str, name: str) -> HttpResponse:
    """A game action or an undo posted by a phone whose socket is down (or that has
    no JavaScript): the same tap as over the socket (``companion/taps.py``)."""
    token = phone_token(request.session, create=True)
    try:
        applied = taps.TAPS[name](code, request.POST, token)
    except (ServiceError, EngineError) as error:
        if not request.htmx:
            return _error_response(request, error, taps.game_of(code))
        status, html = taps.refusal(error, taps.game_of(code), request.path, request.POST)
        response = HttpResponse(html, status=status)
        response["HX-Retarget"] = "#messages"
        response["HX-Reswap"] = "outerHTML"
        return response
    assert applied.session is not None  # a tap always says which session
    return _after_write(request, applied.session, applied.action.version)


@require_POST
def act(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _tap(request, code, "act")


@require_POST
def undo(request: HtmxHttpRequest, code: str) -> HttpResponse:
    return _tap(request, code, "undo")


@require_POST
def claim(request: HtmxHttpRequest, code: str, index: int) -> HttpResponse:
    return _write(
        request,
        code,
        lambda session, token: services.claim_seat(session, index, token),
        reload=lambda seat: True,
    )


def rejoin(request: HtmxHttpRequest, code: str, index: int, key: str) -> HttpResponse:
    """A player's own link to move their seat of a game with hidden cards to this
    phone: a page that asks, then the move (the key is checked by ``claim_seat``)."""
    if request.method == "POST":
        return _write(
            request,
            code,
            lambda session, token: services.claim_seat(session, index, token, rejoin_key=key),
        )
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    try:
        session = services.find_session(code, ratelimit.client_of(request))
    except ServiceError as error:
        return _error_response(request, error)
    seat = session.seats.filter(index=index).first()
    if seat is None:
        return _error_response(request, services.NotFound(_("This rejoin link is not valid.")))
    return render(request, "companion/rejoin.html", {"session": session, "seat": seat})


@require_POST
def free(request: HtmxHttpRequest, code: str, index: int) -> HttpResponse:
    return _write(
        request,
        code,
        lambda session, token: services.free_seat(session, index, token),
        reload=bool,  # the phone left its own seat, not the host another's
    )


@require_POST
def bot(request: HtmxHttpRequest, code: str, index: int) -> HttpResponse:
    return _write(request, code, lambda session, token: services.seat_bot(session, index, token))


@require_POST
def rename(request: HtmxHttpRequest, code: str, index: int) -> HttpResponse:
    return _write(
        request,
        code,
        lambda session, token: services.rename_seat(
            session, index, request.POST.get("name", ""), token
        ),
    )


@require_POST
def play_again(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """ "Play again": the same seats in a new session of the same game; the tapping
    phone goes there (the others get the link on their table, live)."""
    try:
        session = services.get_session(code)
        new = services.play_again(session, phone_token(request.session, create=True))
    except ServiceError as error:
        return _error_response(request, error, taps.game_of(code))
    url = reverse("session", args=[new.code])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)


@require_POST
def host(request: HtmxHttpRequest, code: str) -> HttpResponse:
    def operation(session: GameSession, token: str) -> None:
        if request.POST.get("end") == "1":
            services.end_session(session, token)
        else:
            services.set_edit_policy(session, request.POST.get("edit_policy", ""), token)

    return _write(request, code, operation)
