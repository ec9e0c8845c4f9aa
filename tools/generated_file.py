"""How every generator of ``tools/`` ends: write the fresh text, or with ``--check`` say whether
the file on disk is stale (exit status 1) without writing it."""

from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(path: Path, fresh: str, tool: str) -> int:
    """Writes ``fresh`` to ``path`` (0), or with ``--check`` on the command line returns 1 and says
    to run ``tool`` when ``path`` does not hold ``fresh`` (0 when it does)."""
    if "--check" in sys.argv[1:]:
        if not path.exists() or path.read_text() != fresh:
            print(f"{path} is stale: run python tools/{tool}", file=sys.stderr)
            return 1
        return 0
    path.write_text(fresh)
    return 0
