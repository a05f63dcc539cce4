from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from companion import pwa
from games import reference

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path(settings.SEGNALINO_ADMIN_PATH, admin.site.urls),
    path("cards/", reference.card_index, name="cards"),
    path("cards/<slug:game>/<slug:slug>/", reference.card_page, name="card"),
    path("rules/<slug:game>/", reference.rules_page, name="rules"),
    # The installable app: at the root, so the service worker may serve every page.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("companion.urls")),
]

# 404 and 403 are Django's handlers with our templates (404.html, 403.html); a
# server error and a bad request get pages that need nothing of the request.
handler400 = pwa.bad_request
handler500 = pwa.server_error
