"""An SVG badge per engine, shields.io style: 'mtg-conformance | 96.2% (150/156)'."""

from __future__ import annotations

from harness.site.model import Column

LABEL = "mtg-conformance"
_NARROW = set("ilj.,:;!|()[]/' 1tfrI")


def text_width(text: str) -> int:
    """Roughly the width in pixels of `text` in 11px Verdana (what shields-style badges use)."""
    return round(sum(3.9 if ch in _NARROW else 7.0 for ch in text))


def colour(share: float) -> str:
    """Green when all pass, then darker shades down to red; every one keeps white text readable."""
    if share >= 1:
        return "#1a7f37"
    if share >= 0.9:
        return "#2f6f3e"
    if share >= 0.5:
        return "#9a6700"
    return "#cf222e"


def message(column: Column) -> str:
    share = column.score * 100
    shown = f"{share:.0f}%" if share in (0, 100) else f"{share:.1f}%"
    return f"{shown} ({column.passed}/{column.total})"


def render(env, column: Column) -> str:
    text = message(column)
    left, right = text_width(LABEL) + 12, text_width(text) + 12
    return env.get_template("badge.svg.j2").render(label=LABEL, message=text, left=left, right=right,
                                                   width=left + right, colour=colour(column.score))
