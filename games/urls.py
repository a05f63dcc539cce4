"""Each game's own pages inside a session: the ``urls`` module its declaration names."""

from django.urls import URLPattern, URLResolver, include, path

from games.engine.registry import games

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include(game.qualified(game.urls))) for game in games().values() if game.urls
]
