import re
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
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


# ------------------------------------------------------- words on a narrow screen

#: A link's parts, each up to and with its "/": "http://", "192.168.1.20:8000/", "w/"...
_URL_PARTS = re.compile(r"[^/]*/+|[^/]+")


@register.filter
def breakable_url(url: str) -> SafeString:
    """``url`` as parts that a narrow screen keeps whole (``.url-part``), so a line
    breaks only after a "/": "http://192.168.1.20:8000/w/" then "ZDPo8gegF7MX-M8Qp/",
    not a code cut in two at a "-" or anywhere, nor its last "/" alone on a line."""
    parts = format_html_join(
        "", '<span class="url-part">{}</span>', ((part,) for part in _URL_PARTS.findall(url))
    )
    return format_html('<span class="url">{}</span>', parts)
