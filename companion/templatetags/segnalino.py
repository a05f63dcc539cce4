import secrets
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from companion import fragments
from companion.selectors import SEATS_TEMPLATE, seats_values

register = template.Library()


def key_input(request: Any) -> str:
    """A form's one-time key (``fresh_key()`` in a piece, config/jinja.py): a
    resubmitted form applies once. In a page (rendered for a request) the key is
    made here, so forms work without JavaScript. Live fragments are shared between
    phones, so there the key is left empty and ``app.js`` fills in a fresh one per
    submission."""
    if request is None:
        return _EMPTY_KEY
    return format_html('<input type="hidden" name="key" value="{}">', secrets.token_urlsafe(12))


_EMPTY_KEY = mark_safe('<input type="hidden" name="key" value="">')


# ------------------------------------------------------- the live frame in a page


@register.simple_tag(takes_context=True)
def part(context: template.Context, template_name: str) -> SafeString:
    """``{% part "companion/partials/status.html" %}``: a part of the live frame (a
    Jinja2 template in ``pieces/``) in a page, rendered from the page's values and
    with its request (its forms' CSRF input and one-time keys), as a live table
    renders it from a frame's (``rendering.render_part``)."""
    values: dict[str, Any] = {str(name): value for name, value in context.flatten().items()}
    return fragments.render(template_name, values, request=context.get("request"))


@register.simple_tag(takes_context=True)
def seats_section(context: template.Context) -> str:
    """The seats section for the page's viewer: the fragment of
    ``selectors.seats_values``, as the live table's personal part renders it."""
    values = seats_values(
        context["session"], context["seats"], context["viewer"], oob=bool(context.get("oob"))
    )
    return fragments.render(SEATS_TEMPLATE, values, request=context.get("request"))
