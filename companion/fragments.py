"""Pieces of a live frame rendered from their values alone, kept per live table.

``fragment(name, **values)`` in a part of the live frame (a Jinja2 template,
``config/jinja.py``) renders a template from the values it is given and nothing
else, so the same values, template and language give the same HTML: the
values are the key. While a live table renders a revision it hands its
:class:`Store` to this module; a piece whose values did not change since the
table's last revision is taken from there (one player's board after a damage to
another, the unchanged lines of the history). A store keeps what the last
revision used, and goes with its table. Outside a live table (a POST reply), a
piece is simply rendered.

Inside a live table, a piece nested in another whose one root element carries an
``id`` and ``data-piece`` is wrapped in the markers :data:`OPEN` and
:data:`CLOSE`: ``rendering.cut`` uses them to send that piece alone when it is all
that changed in its outer fragment (a player's damage track, not the whole
board), and strips them from everything it sends.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from typing import Any

from django.core.signals import setting_changed
from django.template.loader import get_template
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeString
from django.utils.translation import trans_real

from companion import paths
from config.jinja import CATALOG

#: A piece's key: its template, language and values, as one ``bytes`` (not a tuple:
#: a table makes some thirty keys a revision and keeps them until the next, and the
#: garbage collector walks every tuple it keeps, never a ``bytes``).
Key = bytes

#: Around a nested piece that can be sent alone (``data-piece`` on its one root
#: element, which has an id): only in a live table's renders, never sent. The
#: opening marker is ``<!--piece N-->``, N the length of the piece's HTML, so the
#: cut finds where it closes without reading it (:func:`marked`).
OPEN, CLOSE = "<!--piece ", "<!--/piece-->"


def marked(html: str) -> str:
    """``html`` between the markers of a nested piece."""
    return f"{OPEN}{len(html)}-->{html}{CLOSE}"


#: A kept piece: its HTML; if it can be sent alone, that HTML between :data:`OPEN`
#: and :data:`CLOSE` (as it goes, nested, into the piece around it: made once, not
#: at each revision that renders the piece around it again: the history's fifteen
#: entries at every tap), else empty; the keys of the pieces nested in it. (Strings:
#: the garbage collector never walks them.)
Entry = tuple[SafeString, SafeString, tuple[Key, ...]]

_NOT_ALONE = SafeString("")


class Store:
    """One table's pieces: those its current revision has used, and the last one's.

    A piece taken from the store brings the pieces nested in it along: they were
    used too (an unchanged player board keeps its unchanged gear panel), so a
    nested piece is not forgotten just because its outer piece did not change."""

    def __init__(self) -> None:
        self.previous: dict[Key, Entry] = {}
        self.current: dict[Key, Entry] = {}

    def advance(self) -> None:
        """A new revision: what the last one used may serve it; the rest goes."""
        self.previous, self.current = self.current or self.previous, {}

    def get(self, key: Key) -> Entry | None:
        found = self.current.get(key)
        if found is None:
            found = self.previous.get(key)
            if found is None:
                return None
            self._keep(key, found)
        return found

    def _keep(self, key: Key, entry: Entry) -> None:
        self.current[key] = entry
        for child in entry[2]:
            if child not in self.current and child in self.previous:
                self._keep(child, self.previous[child])

    def put(self, key: Key, html: str, children: tuple[Key, ...]) -> Entry:
        """Keep a piece just rendered; what the store now gives for its key. Whether
        it can be sent alone is worked out here once, not each time it is used."""
        alone = SafeString(marked(html)) if _alone(html) else _NOT_ALONE
        entry = (SafeString(html), alone, children)
        self.current[key] = entry
        return entry


#: The live table's store and the language its part is rendered in.
_STORE: ContextVar[tuple[Store, str] | None] = ContextVar("segnalino_fragments", default=None)

#: The keys of the pieces rendered or reused inside the piece being rendered.
_NESTED: ContextVar[list[Key] | None] = ContextVar("segnalino_nested", default=None)


@contextmanager
def using(store: Store | None, language: str) -> Iterator[None]:
    """Render a part in ``language`` (Django's active language while inside), its
    pieces kept in ``store``. The language goes in every piece's key from here:
    looked up once a part, not once a piece (Django's look-up goes through
    asgiref's ``Local``, about a tenth of a live render when done per piece). A
    piece that finds another language active when it is rendered is refused
    (:func:`render`), so nothing is ever kept under the wrong one."""
    with _speaking(language):
        token = _STORE.set((store, language) if store is not None else None)
        # The part's messages straight from its language's catalog (config.jinja).
        said = CATALOG.set(trans_real.translation(language))
        urls = paths.IN_FORCE.set(paths.in_force())
        try:
            yield
        finally:
            paths.IN_FORCE.reset(urls)
            CATALOG.reset(said)
            _STORE.reset(token)


def in_use(store: Store, language: str) -> bool:
    """Whether parts are being rendered in ``language`` with ``store`` already (a
    live table renders its parts one language at a time, inside one :func:`using`:
    a part does not enter it again)."""
    found = _STORE.get()
    return found is not None and found[0] is store and found[1] == language


def _speaking(language: str) -> AbstractContextManager[object]:
    """Django's ``override``, unless ``language`` is already the active one: a live
    table renders its parts one language at a time (``live.Table``), and switching
    to the language in force and back again, through asgiref's ``Local``, was half
    the cost of a phone's personal part."""
    if translation.get_language() == language:
        return nullcontext()
    return translation.override(language)


@contextmanager
def pieces() -> Iterator[None]:
    """Inside a live table's render, the ``fragment()``s rendered here are pieces
    of the fragment around them, as if that one were a ``fragment()`` itself
    (``{% call pieces() %}``: the history's entries, without keying the whole
    history by its fifteen entries)."""
    if _STORE.get() is None:
        yield
        return
    token = _NESTED.set([])
    try:
        yield
    finally:
        _NESTED.reset(token)


@functools.cache
def template(name: str) -> Any:
    """The template ``name``, found once per process. Django's ``render_to_string``
    finds it again on every call (the engines, the backend, the cached loader: a
    dozen calls and two wrappers), some thirty thousand instructions each; a live
    table renders about ten a tap. Forgotten whenever the development server's
    autoreloader sees a file change, as Django's cached loader is then (and when a
    test changes the template settings)."""
    return get_template(name)


def _file_changed(sender: Any, file_path: Any, **kwargs: Any) -> None:
    template.cache_clear()


def _setting_changed(setting: str, **kwargs: Any) -> None:
    # The settings Django's own test signals reset the template engines for.
    if setting in {"TEMPLATES", "DEBUG", "INSTALLED_APPS"}:
        template.cache_clear()


file_changed.connect(_file_changed, dispatch_uid="segnalino-fragments-file-changed")
setting_changed.connect(_setting_changed, dispatch_uid="segnalino-fragments-setting-changed")


#: Types whose objects pickle themselves once and keep it (``pickled()``): as the
#: one value of a piece (a history entry, fifteen pieces a revision), a key holds
#: that pickle, without pickle's call of the object's reducer and look-up of the
#: function that would rebuild it (four fifths of such a key's cost).
PICKLED_ONCE: set[type] = set()


class Derived:
    """A piece's values as a function works them out from its inputs, and only when
    a template first reads them (``p.seat_name``, ``p["gear"]``): in a piece's key
    (:func:`key_of`) they are the function and its inputs, not what it makes of them.

    For what a presenter makes of a part of the table that seldom changes (one
    player's board, from that player's part of the state): after a tap the four
    unchanged boards are found in the store by their inputs, cheaply pickled plain
    data, and their values are neither made nor pickled. The function is handed the
    inputs and nothing else, so it cannot read what is not in the key; it must be a
    module-level function (pickled by its name), return a dict and depend on nothing
    but its inputs, the active language (in every key) and constants of the code.
    The inputs are not changed once handed over."""

    __slots__ = ("_inputs", "_make", "_values")

    def __init__(self, make: Callable[..., dict[str, Any]], *inputs: Any) -> None:
        self._make = make
        self._inputs = inputs
        self._values: dict[str, Any] | None = None

    def _built(self) -> dict[str, Any]:
        """What the function makes of the inputs, made once. (The object's own
        names all start with ``_``: any other is one of the values.)"""
        found = self._values
        if found is None:
            found = self._values = self._make(*self._inputs)
        return found

    def __getitem__(self, name: str) -> Any:
        return self._built()[name]

    def __getattr__(self, name: str) -> Any:
        # Only for names that are not the object's own: a template's ``p.name``.
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._built()[name]
        except KeyError:
            raise AttributeError(name) from None

    def __reduce__(self) -> tuple[Any, ...]:
        # In a key: the function (by its name) and its inputs; unpickled, the values
        # they make. (Not the class as well: each global a pickle names costs it an
        # import look-up, 0.8 µs, a third of a player's board's key.)
        return (self._make, self._inputs)

    def __repr__(self) -> str:
        return f"Derived({self._make.__qualname__}, {len(self._inputs)} inputs)"


def key_of(template_name: str, values: dict[str, Any], language: str) -> Key:
    """The template, the language and the values as bytes (pickled: every field of
    every object, nested), joined by NULs (no template name or language holds one,
    so two different triples never make the same key). A piece whose one value
    pickles itself once (:data:`PICKLED_ONCE`) holds its type, name and pickle
    after a byte no pickle starts with (pickle's start with its protocol)."""
    if len(values) == 1:
        ((name, value),) = values.items()
        kind = type(value)
        if kind in PICKLED_ONCE:
            found = _STARTS.get((template_name, language, kind, name))
            if found is None:
                said = f"\1{kind.__module__}.{kind.__qualname__}\1{name}\1"
                found = _STARTS[(template_name, language, kind, name)] = _start(
                    template_name, language, said
                )
            return found + value.pickled()
    found = _STARTS.get((template_name, language))
    if found is None:
        found = _STARTS[(template_name, language)] = _start(template_name, language, "")
    return found + pickle.dumps(values, protocol=5)


#: The start of a key (:func:`key_of`) by template and language (and, for a piece
#: whose one value pickles itself once, its type and name): made once, not encoded
#: and joined again for each of a revision's forty keys. A set as finite as the
#: templates' names and the names they give their values.
_STARTS: dict[tuple[Any, ...], bytes] = {}


def _start(template_name: str, language: str, said: str) -> bytes:
    return b"\0".join((template_name.encode(), language.encode(), said.encode()))


class LanguageSwitched(RuntimeError):
    """A piece rendered in another language than its part's (a ``translation.override``
    around a ``fragment()`` in a live template): it would be kept, and sent,
    as the part's language."""


def render(template_name: str, values: dict[str, Any], request: Any = None) -> SafeString:
    """``values`` rendered with ``template_name``; in a live table, taken from its
    store when they are the same. ``values`` is the caller's own dict (a tag's, made
    for this piece): it is neither copied nor kept.

    In a page (``request``), rendered afresh with the request: its forms get their
    CSRF input and one-time keys, which no live fragment holds (a piece of a page
    is never kept). The Jinja2 backend hands a piece only the request and its CSRF
    token besides the values, no context processor's output."""
    if request is not None:
        return SafeString(template(template_name).render(values, request))
    using_now = _STORE.get()
    if using_now is None:
        return SafeString(template(template_name).render(values))
    store, language = using_now
    key = key_of(template_name, values, language)
    outer = _NESTED.get()
    if outer is not None:
        outer.append(key)
    entry = store.get(key)
    if entry is None:
        if translation.get_language() != language:
            raise LanguageSwitched(f"{template_name} inside a part in {language!r}")
        nested: list[Key] = []
        token = _NESTED.set(nested)
        try:
            html = template(template_name).render(values)
        finally:
            _NESTED.reset(token)
        entry = store.put(key, html, tuple(nested))
    if outer is not None and entry[1]:
        return entry[1]
    return entry[0]


def _alone(html: str) -> bool:
    """The piece declares (``data-piece`` and an ``id`` on its root element) that
    it can be swapped on its own."""
    start = html.lstrip()
    end = start.find(">")
    return start.startswith("<") and " data-piece" in start[:end] and ' id="' in start[:end]
