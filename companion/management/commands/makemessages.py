"""``makemessages``, reading the live frame's Jinja2 pieces too (``pieces/``).

Django's own pass reads templates in Django's syntax, so it is kept off the
pieces; their strings are found with Jinja2's extractor (``{{ _("…") }}``,
``{% trans %}`` and the gettext calls), written into the project's catalog
template beside Django's, and merged into each language's catalog as Django's
are. The message ids are the ones Django's tags make of the same text
(``config/jinja.py``), so a string moved from a Django template to a piece keeps
its translation.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands import makemessages
from django.core.management.utils import popen_wrapper
from django.template import engines

#: Where the pieces live (the Jinja2 backend's folder, config/settings.py).
PIECES = Path(settings.BASE_DIR) / "pieces"
_FORMAT = re.compile(r"%(?:\(\w+\))?[sd]")


def messages() -> list[tuple[str, int, str | None, str, str | None]]:
    """Every message of the pieces: (file, line, context, message id, plural id)."""
    env = engines["jinja2"].env  # type: ignore[attr-defined]
    found = []
    for path in sorted(PIECES.rglob("*.html")):
        source = path.read_text(encoding="utf-8")
        for line, function, message in env.extract_translations(source):
            strings = message if isinstance(message, tuple) else (message,)
            context = None
            if function in {"pgettext", "npgettext"}:
                context, strings = strings[0], strings[1:]
            plural = strings[1] if function in {"ngettext", "npgettext"} else None
            found.append(
                (str(path.relative_to(settings.BASE_DIR)), line, context, strings[0], plural)
            )
    return found


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def entries() -> str:
    """The pieces' messages as catalog-template entries."""
    written = []
    for file, line, context, singular, plural in messages():
        entry = [f"#: {file}:{line}"]
        if _FORMAT.search(singular) or (plural and _FORMAT.search(plural)):
            entry.append("#, python-format")
        if context is not None:
            entry.append(f"msgctxt {_quoted(context)}")
        entry.append(f"msgid {_quoted(singular)}")
        if plural is None:
            entry.append('msgstr ""')
        else:
            entry += [f"msgid_plural {_quoted(plural)}", 'msgstr[0] ""', 'msgstr[1] ""']
        written.append("\n".join(entry))
    return "\n\n".join(written) + "\n"


class Command(makemessages.Command):
    def find_files(self, root: str) -> list[Any]:
        found: list[Any] = super().find_files(root)  # TranslatableFiles: dirpath, file
        return [f for f in found if not Path(f.dirpath, f.file).resolve().is_relative_to(PIECES)]

    def build_potfiles(self) -> list[str]:
        potfiles = super().build_potfiles()
        if self.domain != "django":
            return potfiles
        project = str(Path(settings.LOCALE_PATHS[0]) / "django.pot")
        if project not in potfiles:
            raise CommandError(f"no catalog template at {project} to add the pieces' strings to")
        with open(project, "a", encoding="utf-8") as pot:
            pot.write("\n" + entries())
        merged, errors, status = popen_wrapper(["msguniq", *self.msguniq_options, project])
        if status:
            raise CommandError(f"errors happened while running msguniq\n{errors}")
        with open(project, "w", encoding="utf-8") as pot:
            pot.write(merged)
        return potfiles
