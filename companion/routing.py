from django.urls import path, re_path

from companion.consumers import NoSuchSocket, SessionConsumer

websocket_urlpatterns = [
    path("ws/s/<str:code>/", SessionConsumer.as_asgi()),
    path("ws/w/<str:spectator_key>/", SessionConsumer.as_asgi()),
    # Any other path is refused at the handshake (a 403), not a server error.
    re_path(r"", NoSuchSocket.as_asgi()),
]
