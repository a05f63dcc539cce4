import secrets
from typing import Any

from django import template
from django.template.base import FilterExpression, token_kwargs
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from companion import fragments
from companion.selectors import SEATS_TEMPLATE, seats_values

register = template.Library()


@register.simple_tag(takes_context=True)
def fresh_key(context: template.Context) -> str:
    """A one-time key for this form: a resubmitted form applies once.

    In a full page (rendered for a request) the key is made here, so forms work
    without JavaScript. Live fragments are shared between phones, so there the
    key is left empty and ``app.js`` fills in a fresh one per submission.
    """
    return key_input(context.get("request"))


def key_input(request: Any) -> str:
    """The one-time key's input: a fresh key in a page, an empty one in a live
    fragment (``{% fresh_key %}``, and ``fresh_key()`` in a Jinja2 piece)."""
    if request is None:
        return _EMPTY_KEY
    return format_html('<input type="hidden" name="key" value="{}">', secrets.token_urlsafe(12))


_EMPTY_KEY = mark_safe('<input type="hidden" name="key" value="">')


# ---------------------------------------------------------------- pure fragments


class FragmentNode(template.Node):
    """``{% fragment "game/piece.html" a=x b=y %}``: render a template from these
    values *only* (nothing else of the page reaches it).

    Its HTML is then a function of the template, the language and the values, so
    in a live frame it is taken from the table's last renders when the values are
    the same (``companion.fragments``): the key is the values themselves, never a
    list of what the piece shows that an edit could leave stale. A full page (a
    request in the context) renders it afresh, with the request, so its forms get
    a CSRF input and one-time keys.

    ``{% fragment "piece.html" a=x for item in items %}``: one piece per item, each
    from the values and that item (``a`` and ``item``), in order.

    A node of its own, not a ``simple_tag`` in a ``{% for %}``: a live table walks
    some thirty pieces after every tap (fifteen of them the history's), and the
    generic tag's argument lists and the loop's bookkeeping cost more than the
    look-up of an unchanged piece."""

    def __init__(
        self,
        name: FilterExpression,
        values: dict[str, FilterExpression],
        each: tuple[str, FilterExpression] | None = None,
    ) -> None:
        self.name, self.values, self.each = name, values, each

    def render(self, context: template.Context) -> str:
        name = self.name.resolve(context)
        values = {key: value.resolve(context) for key, value in self.values.items()}
        if self.each is None:
            return fragment(context, name, values)
        item, items = self.each
        return SafeString(
            "".join(
                fragment(context, name, {**values, item: each})
                for each in items.resolve(context, ignore_failures=True) or ()
            )
        )


def fragment(context: template.Context, template_name: str, values: dict[str, Any]) -> str:
    # In a page (a request in the context), rendered afresh with the request, for
    # its forms' CSRF input and one-time keys (``fragments.render``).
    return fragments.render(template_name, values, request=context.get("request"))


@register.tag("fragment")
def fragment_tag(parser: template.base.Parser, token: template.base.Token) -> FragmentNode:
    bits = token.split_contents()[1:]
    each = None
    if len(bits) >= 4 and bits[-4] == "for" and bits[-2] == "in":
        each = (bits[-3], parser.compile_filter(bits[-1]))
        bits = bits[:-4]
    values = token_kwargs(bits[1:], parser)
    if not bits or len(values) != len(bits) - 1:
        raise template.TemplateSyntaxError(
            "{% fragment %} takes a template and name=value pairs, and may end with"
            ' "for item in items": {% fragment "t.html" a=x for item in items %}'
        )
    return FragmentNode(parser.compile_filter(bits[0]), values, each)


class PiecesNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        with fragments.pieces():
            return self.nodelist.render(context)


@register.tag
def pieces(parser: template.base.Parser, token: template.base.Token) -> PiecesNode:
    """``{% pieces %}…{% endpieces %}``: the fragments rendered inside are pieces of
    the fragment around them, each sent alone when it is all that changed there
    (``companion.fragments.pieces``)."""
    if len(token.split_contents()) != 1:
        raise template.TemplateSyntaxError("{% pieces %} takes no arguments")
    nodelist = parser.parse(("endpieces",))
    parser.delete_first_token()
    return PiecesNode(nodelist)


@register.simple_tag(takes_context=True)
def seats_section(context: template.Context) -> str:
    """The seats section for the page's viewer: the fragment of
    ``selectors.seats_values``, as the live table's personal part renders it."""
    values = seats_values(
        context["session"], context["seats"], context["viewer"], oob=bool(context.get("oob"))
    )
    return fragment(context, SEATS_TEMPLATE, values)
