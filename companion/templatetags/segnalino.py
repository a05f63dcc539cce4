from typing import Any

from django import template
from django.utils.safestring import SafeString

from companion import fragments
from companion.selectors import SEATS_TEMPLATE, seats_values

register = template.Library()


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
