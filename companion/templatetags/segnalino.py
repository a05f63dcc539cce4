import json
import secrets
from typing import Any

from django import template
from django.template.base import FilterExpression
from django.utils import translation
from django.utils.html import format_html

from companion.lru import LRU

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


# ---------------------------------------------------------------- memo

_MEMO = LRU(4096)


class MemoNode(template.Node):
    def __init__(self, nodelist: template.NodeList, keys: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.keys = keys

    def render(self, context: template.Context) -> str:
        # Only live fragments: a full page makes one-time keys and a CSRF input.
        if context.get("request") is not None or context.get("csrf_token"):
            return self.nodelist.render(context)
        key = (
            id(self),
            translation.get_language(),
            *(_hashable(k.resolve(context)) for k in self.keys),
        )
        html = _MEMO.get(key)
        if html is None:
            html = self.nodelist.render(context)
            _MEMO.put(key, html)
        return html


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return json.dumps(value, sort_keys=True, default=str)
    return value


@register.tag
def memo(parser: template.base.Parser, token: template.base.Token) -> MemoNode:
    """``{% memo k1 k2 … %}…{% endmemo %}``: the body rendered once per key, per process.

    For the costly, repeated pieces of live fragments (one player's board, say):
    the keys must name *everything* the body shows, including whatever makes it
    differ between viewers (editing rights, hidden cards); the language is added
    here. A full page (a request in the context) is always rendered afresh.
    """
    keys = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not keys:
        raise template.TemplateSyntaxError("memo needs at least one key")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, keys)
