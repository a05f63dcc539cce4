"""What a browser would send from a form in a page: read from the HTML itself."""

from __future__ import annotations

from html.parser import HTMLParser


class _Form(HTMLParser):
    def __init__(self, form_id: str | None) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = form_id is None
        self.values: list[tuple[str, str]] = []
        self._select: str | None = None
        self._first_option: str | None = None
        self._selected = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and self.form_id is not None and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox") and "checked" not in a:
                return
            if kind not in ("submit", "button"):
                self.values.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and a.get("name"):
            self._select, self._first_option, self._selected = a["name"], None, False
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._first_option is None:
                self._first_option = value
            if "selected" in a and not self._selected:
                self.values.append((self._select, value))
                self._selected = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            if not self._selected and self._first_option is not None:
                self.values.append((self._select, self._first_option))
            self._select = None
        if tag == "form" and self.form_id is not None and self.inside:
            self.inside = False


def form_values(html: str, form_id: str | None = None) -> list[tuple[str, str]]:
    """The (name, value) pairs the form ``form_id`` (or every field) would submit."""
    parser = _Form(form_id)
    parser.feed(html)
    return parser.values


def hits_by_target(html: str, form_id: str = "shot-form") -> dict[str, tuple[int, int]]:
    """The shot form's (damage, marks) per target, as it would be posted."""
    values = dict(form_values(html, form_id))
    hits = {}
    for name, target in values.items():
        if name.startswith("hits.") and name.endswith(".target"):
            row = name[: -len(".target")]
            hits[target] = (int(values.get(f"{row}.damage", 0)), int(values.get(f"{row}.marks", 0)))
    return hits
