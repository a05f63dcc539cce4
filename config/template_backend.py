"""Django's template backend, leaving no reference cycle behind a page, and showing
numbers as the digits they are.

Django renders a page with a request in a ``RequestContext``, and each dictionary
pushed on a context (the view's values, the context processors' output) is a
``ContextDict`` that points back at its context: a reference cycle. Only the
garbage collector frees it, with everything the context holds: a table page's
values are some 200 objects, and with its pieces' contexts (before
pieces were rendered in a copy of the page's) 510, each left for a full
collection, which pauses every phone of the process (``config/collector.py``):
2,000 phones opening their tables, a million objects, where the process holds half
a million.

This backend is Django's, except that once a template has rendered, the context
it made drops its dictionaries (the page is a string by then; nothing reads the
context again), so reference counting frees them at once.
``tests/companion/test_views.py`` keeps a table page free of garbage.

Its contexts also render ``{{ value }}`` without Django's localization
(``use_l10n=False``). What Segnalino shows raw are counts (damage, cubes, levels,
mana, versions): whole numbers, which Django's localization writes as the same
digits in every language (no thousands separator is set), only after looking up
the active language and three formats for each one: about a twentieth of a live
table's render (benchmarks/README.md, "Thirteenth pass"). A float, decimal or
date shown raw would come out unlocalized, so none is: one is formatted on purpose
(``|floatformat``, ``|date``, ``|localize``, or by the presenter), and the test
suite fails on any that reaches a template raw (``tests/conftest.py``).
"""

from __future__ import annotations

from typing import Any

from django.template import TemplateDoesNotExist
from django.template.backends import django as backend
from django.template.context import make_context


class Template(backend.Template):
    def render(self, context: Any = None, request: Any = None) -> str:
        made = make_context(
            context, request, autoescape=self.backend.engine.autoescape, use_l10n=False
        )
        try:
            return self.template.render(made)
        except TemplateDoesNotExist as exc:
            backend.reraise(exc, self.backend)
        finally:
            made.dicts.clear()  # the cycle's link: each ContextDict points back here


class DjangoTemplates(backend.DjangoTemplates):
    """Django's backend, its templates rendered by :class:`Template` (Django's own
    finding and errors, the engine's template re-wrapped)."""

    def from_string(self, template_code: str) -> Template:
        return Template(super().from_string(template_code).template, self)

    def get_template(self, template_name: str) -> Template:
        return Template(super().get_template(template_name).template, self)
