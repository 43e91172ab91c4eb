"""Text from a student made safe to show: no control characters, no bidirectional overrides.

What a student prints, and the reasons its games end, reach a terminal, the
game's window and files (``games.csv``). Raw, an escape sequence there could
clear the teacher's screen, set the window's title, write the clipboard
(OSC 52) or forge a result line, and a right-to-left override could make a
line read backwards. :func:`clean` replaces each such character with U+FFFD
(a tab with a space), so what was sent stays visible but does nothing.
"""

from __future__ import annotations

import re

#: C0 controls and DEL, C1 controls, the bidirectional marks, embeddings, overrides and isolates,
#: and the Unicode line and paragraph separators (a new line in some terminals).
UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
REPLACEMENT = "\ufffd"


def clean(text: str) -> str:
    """``text`` with every control, bidirectional and separator character replaced (a tab becomes a space)."""
    return UNSAFE.sub(REPLACEMENT, text.replace("\t", " "))
