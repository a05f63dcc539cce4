"""``{% rules_help "adrenaline" "scoring" %}``: a "?" link to one section of a game's
rules summary, placed where that rule applies."""

from __future__ import annotations

import functools

from django import template
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import format_html
from django.utils.translation import get_language, gettext

from games.reference import localise, rules_of, rules_url

register = template.Library()


@register.simple_tag
def rules_help(game: str, section: str) -> str:
    # The same link for the same game, section, language and URLs: made once (it
    # is on every player's track, re-rendered after every damage).
    return _link(str(game), str(section), get_language(), get_script_prefix(), get_urlconf())


@functools.lru_cache(maxsize=1024)
def _link(game: str, section: str, _language: str | None, _prefix: str, _urlconf: object) -> str:
    document = rules_of(game)
    titles = {s["slug"]: s["title"] for s in document["sections"]} if document else {}
    if section not in titles:
        return ""
    label = gettext("Rules: %(topic)s") % {"topic": localise(titles[section])}
    return format_html(
        '<a class="help" href="{}" target="_blank" rel="noopener" aria-label="{}" title="{}">?</a>',
        rules_url(game, section),
        label,
        label,
    )
