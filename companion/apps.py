from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompanionConfig(AppConfig):
    name = "companion"
    verbose_name = _("Table sessions")
