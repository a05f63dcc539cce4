"""The pieces' Jinja2 environment reads as Django's templates would (config/jinja.py):
a presenter's keys, Django's message ids and escaping, and numbers as digits."""

from __future__ import annotations

import datetime

import pytest
from django.template import engines
from django.utils import translation

from companion.management.commands import makemessages
from tests.conftest import ShownRaw
from tests.test_translations import REPO, entries


def piece(source: str, **values) -> str:
    return engines["jinja2"].from_string(source).render(values)


def test_a_dicts_key_is_found_before_a_method_of_the_same_name():
    # Django's ``a.items`` is the key "items" of a presenter's dict; Jinja2 alone
    # would find the dict's method.
    assert piece("{{ p.items }}|{{ p.values }}", p={"items": 3, "values": "x"}) == "3|x"
    assert piece("{{ p.missing }}|{{ p.missing.deeper }}", p={}) == "|"  # empty, as Django


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "Free Anna &lt;3's seat · 2 power-ups"), ("it", "potenziamenti")],
)
def test_a_message_with_values_escapes_the_values_not_the_message(language, text):
    source = (
        "{% trans name=name %}Free {{ name }}'s seat{% endtrans %} · "
        "{% trans n=n %}{{ n }} power-up{% pluralize n %}{{ n }} power-ups{% endtrans %}"
    )
    with translation.override(language):
        assert text in piece(source, name="Anna <3", n=2)


def test_a_plain_message_is_written_as_djangos_translate_tag_writes_it():
    # Django marks the translation of a template's literal safe: the catalog's text,
    # apostrophe and all.
    with translation.override("it"):
        django = engines["django"].from_string('{% load i18n %}{% translate "What happened" %}')
        assert piece('{{ _("What happened") }}') == django.render({}) == "Cos'è successo"


@pytest.mark.parametrize(
    "value", [2.5, datetime.date(2026, 11, 27), datetime.datetime(2026, 11, 27, 18, 0)]
)
def test_a_fraction_or_a_date_shown_raw_in_a_piece_fails_the_test(value):
    with pytest.raises(ShownRaw, match="format it on purpose"):
        piece("<p>{{ value }}</p>", value=value)


def test_every_message_of_the_pieces_is_in_the_italian_catalog_and_translated():
    catalog = {
        msgid: strings
        for msgid, strings, fuzzy in entries(REPO / "locale" / "it" / "LC_MESSAGES" / "django.po")
        if not fuzzy
    }
    found = makemessages.messages()
    assert len(found) > 100  # the pieces hold most of a live table's words
    missing = [
        (file, line, singular)
        for file, line, _context, singular, plural in found
        if not all(catalog.get(singular + (plural or ""), [""]))
    ]
    assert missing == []
