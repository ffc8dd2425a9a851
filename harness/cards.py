"""Where the corpus keeps a card's Oracle data."""

from __future__ import annotations

import re


def card_file_slug(name: str) -> str:
    """cases/cards/ file name (without .yaml) of a card: its front face name, lower case, dashes."""
    return re.sub(r"[^a-z0-9]+", "-", name.split(" // ")[0].lower()).strip("-")
