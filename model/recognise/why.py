"""Why a line is not understood (``mtg-outcomes card NAME``): which of its sentences the
recogniser reads on their own and which it doesn't, the nearest template (by the example
sentences its docstring quotes), and the words of the line that template's example doesn't have:
the part it could not read. A template whose pattern matches the whole line but whose builder
refused it says so, with the phrases it captured (a phrase not in its tables)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from functools import cache

from . import NOT_UNDERSTOOD, normalise, strip_reminder

__all__ = ["why_not_understood"]

_QUOTED = re.compile(r'"([^"]{8,}?)"')
_NONSENSE = "Zq xv wk jj."
_WORD = re.compile(r"\{[^}]+\}|[\w'+/~−-]+|[^\w\s]")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _shapes(words: Sequence[str]) -> list[str]:
    """Words compared by shape: any number is N ("+2/+1" is "+1/+0"'s shape)."""
    return [re.sub(r"\d+", "N", w) for w in words]


@cache
def _examples() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(template name, its rule, one example sentence's words) for every example the templates quote."""
    from .templates import TEMPLATES

    out = []
    for t in TEMPLATES:
        for ex in _QUOTED.findall(t.doc):
            ex = " ".join(ex.split())
            if not ex.startswith("..."):
                out.append((t.name, t.rule, tuple(_words(normalise(ex, "CARDNAME")))))
    return tuple(out)


def _refused(text: str, ctx: dict[str, object]) -> list[str]:
    """Templates whose pattern matches the whole line but whose builder refused it."""
    from .templates import TEMPLATES

    out = []
    for t in TEMPLATES:
        m = t.pattern.match(text)
        if t.pattern.match(_NONSENSE) or t.pattern.match(_NONSENSE[:-1]):
            continue  # a catch-all (a spell's sentences, read part by part): no shape to speak of
        if m is not None and t.build(m, ctx) is None:
            groups = ", ".join(f"{k}={v!r}" for k, v in m.groupdict().items() if v)
            out.append(f"template {t.name} ({t.rule}) has this shape but refused it (a phrase not in its tables, or a card type it doesn't go with)"
                       + (f": {groups}" if groups else ""))
    return out


def _nearest(text: str) -> str | None:
    """The nearest template by its examples and the first words of ``text`` it has no counterpart for."""
    words = _words(text)
    shapes = _shapes(words)
    best: tuple[float, str, str, tuple[str, ...]] | None = None
    for name, rule, ex in _examples():
        ratio = difflib.SequenceMatcher(None, shapes, _shapes(ex), autojunk=False).ratio()
        if best is None or ratio > best[0]:
            best = (ratio, name, rule, ex)
    if best is None or best[0] < 0.3:
        return None
    ratio, name, rule, ex = best
    sm = difflib.SequenceMatcher(None, shapes, _shapes(ex), autojunk=False)
    unread = [" ".join(words[i1:i2]) for tag, i1, i2, _, _ in sm.get_opcodes() if tag in ("replace", "delete") and i2 > i1]
    example = " ".join(ex)
    part = f"; what it could not read: {', '.join(map(repr, unread[:3]))}" if unread else ""
    return f"nearest template: {name} ({rule}), e.g. {example!r} ({ratio:.0%} alike){part}"


def why_not_understood(raw: str, name: str, types: Sequence[str] = (), subtypes: Sequence[str] = ()) -> list[str]:
    """Lines of explanation for one Oracle line ``raw`` the recogniser doesn't understand."""
    from .templates import read_line

    ctx: dict[str, object] = {"name": name, "types": [t.lower() for t in types], "subtypes": list(subtypes)}
    text = normalise(raw, name)
    out = _refused(text, ctx)
    sentences = [s for s in re.split(r"(?<=\.)\s+(?=[A-Z~])", text) if s]
    if len(sentences) > 1:
        for s in sentences:
            r = read_line(s, s, ctx)
            status = "not understood" if r.status == NOT_UNDERSTOOD else f"{r.status} alone" + (
                f" ({r.template})" if r.template else "")
            out.append(f"sentence {s!r}: {status}")
        unread = [s for s in sentences if read_line(s, s, ctx).status == NOT_UNDERSTOOD]
        target = unread[0] if unread else text
    else:
        target = text
    near = _nearest(strip_reminder(target))
    out.append(near if near is not None else "no template is near this line")
    return out
