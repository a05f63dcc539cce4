import secrets

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def fresh_key() -> str:
    """A one-time key for this rendering of a form: a resubmitted form applies once."""
    return format_html('<input type="hidden" name="key" value="{}">', secrets.token_urlsafe(12))
