"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from companion.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Garbage collection. A server process keeps many long-lived objects (Django,
# compiled templates, the frame caches, hundreds of sockets); with CPython's default
# thresholds a full collection walks all of them every few actions and stalls
# every socket of the process for 60-200 ms (measured: benchmarks/README.md).
# Objects alive after start-up are frozen (never walked again) and collections are
# made rarer. SEGNALINO_GC_THRESHOLDS="700,10,10" restores CPython's defaults.
gc.collect()
gc.freeze()
gc.set_threshold(
    *(int(n) for n in os.environ.get("SEGNALINO_GC_THRESHOLDS", "20000,20,20").split(","))
)
