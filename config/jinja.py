"""The Jinja2 environment of the live frame (``pieces/``).

The parts of a live frame (status, finale, a game's board, the undo bar, the
history, the seats section) and the pieces inside them (``companion.fragments``:
a template rendered from its values alone, kept by them in a live table) are what
a table renders after every tap: the parts walked again, the pieces whose values
changed rendered again (a damage, that player's track). Django's template engine
spends some ten microseconds on each ``{{ value }}`` it writes (the look-up
through its context, the check for lazy strings, the escape); Jinja2 compiles a
template to Python and writes the same value in under one. So the live frame is
written for Jinja2, and the pages stay Django's; a page shows a part with
``{% part %}`` (``companion/templatetags/segnalino.py``). benchmarks/README.md,
"Fourteenth pass".

What the live frame's templates use, so that they read as Django's would:

* ``a.b`` looks ``b`` up as a key first when ``a`` is a dict (as Django does):
  the presenters hand dicts, and Jinja2's own order (attribute first) would find
  a dict's ``items`` or ``values`` method before a key of that name, and pay a
  raised ``AttributeError`` for every other key.
* ``{{ _("text") }}`` is Django's ``{% translate "text" %}`` (the text as the
  catalog has it), ``{% trans n=x %}…{{ n }}…{% pluralize %}…{% endtrans %}`` its
  ``{% blocktranslate count n=x %}`` (the text as written, the values escaped):
  the same message ids, so one catalog serves both engines; ``make messages``
  finds the pieces' strings with Jinja2's own extractor
  (``companion/management/commands/makemessages.py``).
* ``fragment(name, **values)`` nests a piece; ``url(name, *args)`` (reversed once,
  ``companion.paths``),
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
import secrets
import types
from collections.abc import Callable, MutableMapping
from contextvars import ContextVar
from typing import Any

import jinja2
import jinja2.runtime
import markupsafe
from django.utils import formats, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from jinja2.utils import _PassArg, missing
from markupsafe import Markup

#: What a template writes as ``str()`` does; anything else goes through :func:`localized`.
PLAIN = frozenset({str, int, bool, SafeString, Markup, type(None)})


def localized(value: Any) -> Any:
    """A fraction or a date shown raw in a piece, localized as Django would."""
    if isinstance(value, float | decimal.Decimal | datetime.date | datetime.time):
        return formats.localize(value)
    return value


def shown(value: Any) -> Any:
    """Every ``{{ value }}`` on its way out (the environment's ``finalize``)."""
    return value if type(value) in PLAIN else localized(value)


#: On a function a template calls: it takes the template's context as the template
#: has it, never one with the variables a loop or block sets added (it reads none
#: of them): called where a ``{% set %}`` inside a loop or block made some, Jinja2
#: would copy the whole context for each call (``Context.derived``), and in every
#: other place it asks each call whether there are any.
OUTER_CONTEXT = "segnalino_outer_context"


def outer_context(function: Any) -> Any:
    """``@jinja2.pass_context``, with the template's own context (:data:`OUTER_CONTEXT`)."""
    setattr(function, OUTER_CONTEXT, True)
    return jinja2.pass_context(function)


class Context(jinja2.runtime.Context):
    """Jinja2's context, with a shorter way to call a plain function.

    Every call a template makes (``fragment(…)``, ``_(…)``, ``url(…)``: some fifty a
    revision of a live table) goes through ``Context.call``, which asks twice
    whether the callable wants the context, the second time of its ``__call__``
    method, made for the question. A plain function says so in its own
    ``__dict__`` (``jinja_pass_arg``, as ``pass_context`` sets it), and that is
    all that is read here; anything else is Jinja2's own call."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if type(__obj) is not types.FunctionType:
            return super().call(__obj, *args, **kwargs)
        found = __obj.__dict__
        passing = found.get("jinja_pass_arg")
        if passing is _PassArg.context:
            if not found.get(OUTER_CONTEXT):
                return super().call(__obj, *args, **kwargs)
            args = (__self, *args)
        elif passing is not None:
            return super().call(__obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception"
            )


def escape(value: Any) -> Any:
    """What a template writes of ``{{ value }}``: markupsafe's ``escape``, except that
    HTML already marked safe (a piece's, from ``fragment()``; a message) is written
    as it is. markupsafe copies it into a new ``Markup`` first, through Python: a
    tenth of a live table's revision, most of it the history's entries and the
    players' boards copied on their way into the fragment around them."""
    kind = type(value)
    if kind is SafeString or kind is Markup:
        return value
    if kind is str:
        # markupsafe's own escape of a plain string, without the Python-level
        # ``Markup.__new__`` around it (the string is a plain one: nothing to ask).
        return _markup(Markup, _escape_inner(value))
    if kind is int or kind is bool:
        return _markup(Markup, str(value))  # digits, or True and False: nothing to escape
    return markupsafe.escape(value)


#: A ``Markup`` of a string made directly (``str.__new__``), and markupsafe's escape
#: of a plain string (its C speedup, as ``markupsafe.escape`` calls it).
_markup = str.__new__
_escape_inner = markupsafe._escape_inner


class Template(jinja2.Template):
    """A compiled template whose output is escaped by :func:`escape`."""

    @classmethod
    def _from_namespace(
        cls,
        environment: jinja2.Environment,
        namespace: MutableMapping[str, Any],
        globals: MutableMapping[str, Any],
    ) -> jinja2.Template:
        # The compiled module's ``escape`` (imported from jinja2.runtime as it ran),
        # which its render functions look up as they write each value.
        namespace["escape"] = escape
        return super()._from_namespace(environment, namespace, globals)


class Environment(jinja2.Environment):
    context_class = Context
    template_class = Template

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals as one plain dict: the environment's, and the
        template's own over them. Jinja2 chains the two (a ``ChainMap``), and each
        render copies them into its context key by key, in Python: near a tenth of
        a live table's revision. The environment's globals are all set before its
        first template is loaded (:func:`environment`), and none is changed after."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        # A presenter's dict: its key, as Django's ``a.b`` finds it.
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


#: Inside a part of the live frame (``companion.fragments.using``), Django's
#: translation object of the part's language, the one its ``override`` makes
#: active. The part's messages are looked up in it directly, as Django's
#: ``gettext`` would find them: Django first finds the active language through
#: asgiref's ``Local``, which costs three times the look-up itself, for each of
#: the dozens of messages a revision's pieces translate. (An empty message or a
#: carriage return, which Django treats apart, goes through Django.)
CATALOG: ContextVar[Any] = ContextVar("segnalino_catalog", default=None)


# A message is written as Django's ``{% translate "…" %}`` writes one: as the
# catalog has it (Django marks the translation of a template's literal safe), so
# ``{{ _("What happened") }}`` is "Cos'è successo" in both engines.
def gettext(message: str) -> Markup:
    found = CATALOG.get()
    if found is None or not message or "\r" in message:
        return Markup(translation.gettext(message))
    return Markup(found.gettext(message))


def ngettext(singular: str, plural: str, number: int) -> Markup:
    found = CATALOG.get()
    if found is None:
        return Markup(translation.ngettext(singular, plural, number))
    return Markup(found.ngettext(singular, plural, number))


def pgettext(context: str, message: str) -> Markup:
    return Markup(translation.pgettext(context, message))


def npgettext(context: str, singular: str, plural: str, number: int) -> Markup:
    return Markup(translation.npgettext(context, singular, plural, number))


def request_of(context: jinja2.runtime.Context) -> Any:
    """The request a page is rendered for; None in a live table's render. (Not
    ``context.get``, which raises and catches a ``KeyError`` where there is none:
    in each of a live table's thirty ``fragment()`` calls a revision.)"""
    found = context.resolve_or_missing("request")
    return None if found is missing else found


def fragment_by(render: Callable[..., SafeString]) -> Callable[..., SafeString]:
    """``fragment(name, **values)`` for the templates: ``render`` is
    ``companion.fragments.render``, which imports this module, so it is handed in
    once by :func:`environment`, not imported at each of a revision's thirty calls."""

    @outer_context
    def fragment(
        context: jinja2.runtime.Context, template_name: str, /, **values: Any
    ) -> SafeString:
        return render(template_name, values, request=request_of(context))

    return fragment


def pieces(*, caller: Any) -> Markup:
    """``{% call pieces() %}…{% endcall %}``: the pieces rendered inside are pieces of
    the one around them (``companion.fragments.pieces``: the history's entries)."""
    from companion import fragments

    with fragments.pieces():
        return Markup(caller())


_EMPTY_KEY = Markup('<input type="hidden" name="key" value="">')


@outer_context
def fresh_key(context: jinja2.runtime.Context) -> str:
    """A form's one-time key: a resubmitted form applies once. In a page (rendered
    for a request) the key is made here, so forms work without JavaScript. Live
    fragments are shared between phones, so there the key is left empty and
    ``app.js`` fills in a fresh one per submission."""
    if request_of(context) is None:
        return _EMPTY_KEY
    return format_html('<input type="hidden" name="key" value="{}">', secrets.token_urlsafe(12))


def environment(**options: Any) -> Environment:
    from companion.fragments import render
    from companion.paths import url_of
    from games.templatetags.rules_help import rules_help

    # Missing is empty, however deep, as in Django's templates (Django's backend
    # would make it Jinja2's Undefined, which refuses ``a.missing.deeper``).
    options["undefined"] = jinja2.ChainableUndefined
    # Every compiled template kept, in a plain dict: the project's templates are a
    # few dozen, and Jinja2's bounded cache (an LRU list behind a lock, reordered
    # at every look-up) was found again for each ``{% include %}`` of each render.
    options.setdefault("cache_size", -1)
    env = Environment(
        extensions=["jinja2.ext.i18n"],
        keep_trailing_newline=True,  # as Django writes a template's last line
        finalize=shown,
        **options,
    )
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext, ngettext, newstyle=False, pgettext=pgettext, npgettext=npgettext
    )
    env.globals.update(
        fragment=fragment_by(render),
        pieces=pieces,
        fresh_key=fresh_key,
        url=url_of,
        rules_help=rules_help,
    )
    # ``_("…")`` straight to :func:`gettext`: the i18n extension's ``_`` looks
    # ``gettext`` up in the context and calls it through the context again (two
    # calls for each of a revision's messages); no context here holds another.
    env.globals["_"] = gettext
    return env
