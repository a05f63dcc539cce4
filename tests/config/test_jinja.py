"""The pieces' Jinja2 environment reads as Django's templates would (config/jinja.py):
a presenter's keys, Django's message ids and escaping, and numbers as digits."""

from __future__ import annotations

import datetime

import jinja2
import markupsafe
import pytest
from django.template import engines
from django.utils import translation
from django.utils.safestring import SafeString
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from companion.management.commands import makemessages
from config.jinja import escape as jinja_escape
from config.jinja import outer_context
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


# ------------------------------------------------------- calls and globals


def test_a_function_that_takes_the_context_still_sees_the_loops_variables():
    # Jinja2's own rule, kept by the shorter call (config.jinja.Context.call).
    @jinja2.pass_context
    def seen(context):
        return context.get("y")

    source = "{% for x in xs %}{% set y = x * 10 %}{{ seen() }},{% endfor %}"
    assert piece(source, xs=[1, 2], seen=seen) == "10,20,"


def test_a_function_given_the_outer_context_gets_the_templates_own():
    @outer_context
    def request_of(context):
        return f"{context.get('request')}/{context.get('y')}"

    source = "{% for x in xs %}{% set y = x * 10 %}{{ f() }},{% endfor %}"
    assert piece(source, xs=[1, 2], f=request_of, request="r") == "r/None,r/None,"


def test_plain_and_other_callables_are_called_as_jinja2_calls_them():
    class Shouting:
        def __call__(self, word):
            return word.upper()

    @jinja2.pass_environment
    def environment_name(environment):
        return type(environment).__name__

    def stops():
        raise StopIteration

    source = "{{ shout('hi') }} {{ join('a', 'b', sep='-') }} {{ env() }} [{{ stops() }}]"
    values = {
        "shout": Shouting(),
        "join": lambda *words, sep: sep.join(words),
        "env": environment_name,
        "stops": stops,
    }
    assert piece(source, **values) == "HI a-b Environment []"


def test_a_templates_own_globals_go_over_the_environments_without_changing_them():
    env = engines["jinja2"].env
    source = "{{ fragment }}|{{ range(3)|list|length }}"
    mine = env.from_string(source, globals={"fragment": "mine"})
    assert mine.render() == "mine|3"
    assert env.globals["fragment"] is not None and env.globals["fragment"] != "mine"
    assert env.from_string("{{ fragment is callable }}").render() == "True"


def test_html_marked_safe_is_written_as_it_is_and_everything_else_escaped():
    class Card:
        def __html__(self):
            return "<b>card</b>"

        def __str__(self):
            return "<card>"

    class Quoted(SafeString):
        def __html__(self):
            return "&quot;quoted&quot;"

    values = {
        "text": "Anna <3 & Bruno",
        "piece": SafeString('<li id="history-1">Anna</li>'),
        "message": Markup("Cos'è <em>successo</em>"),
        "number": 12,
        "card": Card(),
        "quoted": Quoted("ignored"),
    }
    source = "{{ text }}|{{ piece }}|{{ message }}|{{ number }}|{{ card }}|{{ quoted }}"
    assert piece(source, **values) == (
        "Anna &lt;3 &amp; Bruno|"
        '<li id="history-1">Anna</li>|'
        "Cos'è <em>successo</em>|"
        "12|"
        "<b>card</b>|"
        "&quot;quoted&quot;"
    )


@given(st.one_of(st.text(), st.integers(), st.booleans(), st.none()))
def test_a_plain_value_is_escaped_exactly_as_markupsafe_escapes_it(value):
    written = jinja_escape(value)
    assert written == markupsafe.escape(value)
    assert type(written) is Markup
