"""The Jinja2 environment of the live frame's pieces (``pieces/``).

A piece (``companion.fragments``: a template rendered from its values alone, kept
by them in a live table) is rendered after every tap that changes it: a damage
re-renders that player's track, a cube their cubes. Django's template engine
spends some ten microseconds on each ``{{ value }}`` it writes (the look-up
through its context, the check for lazy strings, the escape); Jinja2 compiles a
template to Python and writes the same value in under one. The pieces are the
templates a live table renders most, so they are written for Jinja2; the pages
and the frame around the pieces stay Django's (benchmarks/README.md, "Fourteenth
pass").

What a piece may use, so that it reads as its Django counterpart would:

* ``a.b`` looks ``b`` up as a key first when ``a`` is a dict (as Django does):
  the presenters hand dicts, and Jinja2's own order (attribute first) would find
  a dict's ``items`` or ``values`` method before a key of that name, and pay a
  raised ``AttributeError`` for every other key.
* ``{{ _("text") }}`` is Django's ``{% translate "text" %}`` (escaped as any
  value), ``{% trans n=x %}…{{ n }}…{% pluralize %}…{% endtrans %}`` its
  ``{% blocktranslate count n=x %}`` (the text as written, the values escaped):
  the same message ids, so one catalog serves both engines; ``make messages``
  finds the pieces' strings with Jinja2's own extractor
  (``companion/management/commands/makemessages.py``).
* ``fragment(name, **values)`` nests a piece; ``url(name, *args)``,
  ``fresh_key()``, ``rules_help(game, section)`` and ``{{ csrf_input }}`` are the
  Django tags of the same names.
* A value shown raw is written as ``str()`` writes it, as the Django backend's
  ``use_l10n=False`` does (``config/template_backend.py``): whole numbers. A
  fraction or a date goes through Django's localization here (:func:`shown`), and
  the test suite fails any that reaches a piece raw.
"""

from __future__ import annotations

import datetime
import decimal
from typing import Any

import jinja2
from django.urls import reverse
from django.utils import formats, translation
from django.utils.safestring import SafeString
from markupsafe import Markup

#: What a piece writes as ``str()`` does; anything else goes through :func:`localized`.
PLAIN = frozenset({str, int, bool, SafeString, Markup, type(None)})


def localized(value: Any) -> Any:
    """A fraction or a date shown raw in a piece, localized as Django would."""
    if isinstance(value, float | decimal.Decimal | datetime.date | datetime.time):
        return formats.localize(value)
    return value


def shown(value: Any) -> Any:
    return value if type(value) in PLAIN else localized(value)


class Environment(jinja2.Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        # A presenter's dict: its key, as Django's ``a.b`` finds it.
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@jinja2.pass_context
def fragment(context: jinja2.runtime.Context, template_name: str, /, **values: Any) -> SafeString:
    from companion import fragments

    return fragments.render(template_name, values, request=context.get("request"))


@jinja2.pass_context
def fresh_key(context: jinja2.runtime.Context) -> str:
    from companion.templatetags.segnalino import key_input

    return key_input(context.get("request"))


def url(name: str, /, *args: Any) -> str:
    return reverse(name, args=args)


def environment(**options: Any) -> Environment:
    from games.templatetags.rules_help import rules_help

    # Missing is empty, however deep, as in Django's templates (Django's backend
    # would make it Jinja2's Undefined, which refuses ``a.missing.deeper``).
    options["undefined"] = jinja2.ChainableUndefined
    env = Environment(
        extensions=["jinja2.ext.i18n"],
        keep_trailing_newline=True,  # as Django writes a template's last line
        finalize=shown,
        **options,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext,
        translation.ngettext,
        newstyle=False,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(fragment=fragment, fresh_key=fresh_key, url=url, rules_help=rules_help)
    return env
