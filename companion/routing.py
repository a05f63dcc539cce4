from django.urls import path

from companion.consumers import SessionConsumer

websocket_urlpatterns = [
    path("ws/s/<str:code>/", SessionConsumer.as_asgi()),
    path("ws/w/<str:code>/<str:spectator_key>/", SessionConsumer.as_asgi()),
]
