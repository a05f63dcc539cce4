"""The request type of views that read ``request.htmx`` (set by django-htmx's middleware)."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware``: annotate views with it."""

    htmx: HtmxDetails
