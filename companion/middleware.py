"""Request checks that hold for every page, so no view has to remember them."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_noop

from companion.errors import BadRequest


def refuse_nul_bytes(get_response: Callable[[HttpRequest], HttpResponse]):
    """A NUL character in the query or a form field is refused with a 400 before any
    view sees it: no text a player types contains one, and PostgreSQL cannot store it
    (without this, a name or a search with one was a server error)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            from companion.views import _error_response

            error = BadRequest(gettext_noop("The request holds a character that is not allowed."))
            return _error_response(request, error)  # type: ignore[arg-type]
        return get_response(request)

    return middleware


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path:
        return True
    sources = [request.GET, request.POST] if request.method == "POST" else [request.GET]
    for data in sources:
        for key, values in data.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                return True
    return False


#: Features no page of the app uses (the screen wake lock stays allowed).
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), "
    "midi=(), magnetometer=(), gyroscope=(), accelerometer=(), display-capture=()"
)


def security_headers(get_response: Callable[[HttpRequest], HttpResponse]):
    """A Content-Security-Policy that runs the app's own script files only (no inline
    script, no eval), talks to its own address only (the socket included), and may
    not be framed; and a Permissions-Policy that turns off what the app never uses.
    Referrer-Policy, HSTS and the HTTPS redirect are Django's (``config/settings.py``)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        try:
            host = request.get_host()
        except Exception:  # a host that is not allowed: its own error page, no socket
            host = ""
        sockets = f" {'wss' if request.is_secure() else 'ws'}://{host}" if host else ""
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            f"img-src 'self' data:; connect-src 'self'{sockets}; object-src 'none'; "
            "base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
        )
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response

    return middleware


def throttle_admin_login(get_response: Callable[[HttpRequest], HttpResponse]):
    """The admin's login form takes ``ratelimit.ADMIN_LOGIN`` tries per address."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path == _admin_login_path():
            from companion import ratelimit
            from companion.errors import TooMany
            from companion.views import _error_response

            if not ratelimit.take(ratelimit.ADMIN_LOGIN, ratelimit.client_of(request)):
                error = TooMany(gettext_noop("Too many login attempts; wait a few minutes."))
                return _error_response(request, error)  # type: ignore[arg-type]
        return get_response(request)

    return middleware


def _admin_login_path() -> str:
    from django.urls import reverse

    return reverse("admin:login")
