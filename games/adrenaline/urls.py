"""Adrenaline's pages inside a session (mounted under ``/s/<code>/`` by ``games.urls``)."""

from django.urls import path

from games.adrenaline import views

urlpatterns = [
    path("adrenaline/shot", views.shot_helper, name="adrenaline_shot"),
]
