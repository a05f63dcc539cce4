"""The project's template backend: counts shown as the same digits in every language,
and a fraction or a date shown raw caught by the suite (config/template_backend.py)."""

from __future__ import annotations

import datetime

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.utils import translation

from tests.conftest import ShownRaw

COUNTS = [0, 7, -3, 12, 1234, 1234567]


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_count_is_written_as_django_localized_would_write_it(language):
    template = engines["django"].from_string("{{ n }}|{% load l10n %}{{ n|localize }}")
    with translation.override(language):
        for n in COUNTS:
            plain, localized = template.render({"n": n}).split("|")
            assert plain == localized == str(n)


@pytest.mark.parametrize(
    ("language", "powerups"), [("en", "2 power-ups"), ("it", "2 potenziamenti")]
)
def test_a_piece_of_a_live_table_shows_a_players_counts(language, powerups):
    cubes = {"red": 3, "blue": 0, "yellow": 1}
    values = {"slug": "banshee", "cubes": cubes, "powerups": 2, "weapons": 1}
    with translation.override(language):
        html = render_to_string("adrenaline/gear_summary.html", values)
    assert "3/0/1" in html and powerups in html


@pytest.mark.parametrize(
    "value", [2.5, datetime.date(2026, 11, 27), datetime.datetime(2026, 11, 27, 18, 0)]
)
def test_a_fraction_or_a_date_shown_raw_fails_the_test_that_renders_it(value):
    template = engines["django"].from_string("<p>{{ value }}</p>")
    with pytest.raises(ShownRaw, match="format it on purpose"):
        template.render({"value": value})


def test_a_fraction_formatted_on_purpose_is_localized():
    template = engines["django"].from_string(
        "{% load l10n %}{{ value|floatformat:1 }} {{ value|localize }}"
    )
    with translation.override("it"):
        assert template.render({"value": 2.5}) == "2,5 2,5"
