from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from games import reference

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path(settings.SEGNALINO_ADMIN_PATH, admin.site.urls),
    path("cards/", reference.card_index, name="cards"),
    path("cards/<slug:game>/<slug:slug>/", reference.card_page, name="card"),
    path("rules/<slug:game>/", reference.rules_page, name="rules"),
    path("", include("companion.urls")),
]
