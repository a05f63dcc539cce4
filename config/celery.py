"""The Celery app. With no broker configured tasks run eagerly, in process."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("segnalino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
