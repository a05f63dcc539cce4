import secrets

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def fresh_key(context: template.Context) -> str:
    """A one-time key for this form: a resubmitted form applies once.

    In a full page (rendered for a request) the key is made here, so forms work
    without JavaScript. Live fragments are shared between phones, so there the
    key is left empty and ``app.js`` fills in a fresh one per submission.
    """
    value = secrets.token_urlsafe(12) if context.get("request") is not None else ""
    return format_html('<input type="hidden" name="key" value="{}">', value)
