"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from config import cores

# A server process started by `make run` or the door runs on one core of its own
# (config/cores.py), pinned before any of its threads start.
cores.pin_from_environment()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.handler import get_asgi_application  # noqa: E402 (Django's, leaving no cycles)

django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402

if not settings.DEBUG and not os.environ.get("DJANGO_SECRET_KEY"):
    # Anyone could sign a cookie claiming any seat with the public key.
    raise ImproperlyConfigured(
        "Set DJANGO_SECRET_KEY (the same in every server process): this server is not in "
        "debug mode and would otherwise sign the phones' seats with a public key. "
        "`make run` makes one for you."
    )

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from companion.origin import SameOriginValidator  # noqa: E402
from companion.routing import websocket_urlpatterns  # noqa: E402
from config import collector, daphne_limits  # noqa: E402

daphne_limits.install()  # a URL over 16 KB is answered (414), not dropped

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Garbage collection: short young collections, and the full one on a clock
# (config/collector.py).
full_collections = collector.install()
