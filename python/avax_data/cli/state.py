"""The state file of a resumable export: ``OUT.avax-state.json`` beside the output.

It is rewritten atomically (a temporary file, then a rename) after every complete chunk, so a
killed export leaves either the previous or the new state, never a torn one. It holds::

    {
      "version": 1,
      "command": "index range",                  # the subcommand
      "walk": {"chain": "X/tx", "start": 0, ...},  # the arguments that define the rows
      "format": "parquet",
      "position": {"next_index": 2048, "end": 100000}      # index walks
               or {"next_page_token": "...", "page_offset": 3, "items_read": 1003},  # pagers
      "rows_written": 2048,
      "sink": {"parts": ["part-000000.parquet", ...]}      # parquet
           or {"bytes": 1234567},                           # csv / ndjson: complete bytes
      "updated": "2025-01-01T00:00:00+00:00"
    }
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from .errors import EXIT_USAGE, CliError

__all__ = ["StateFile", "STATE_SUFFIX", "VERSION"]

#: Appended to the output's name to name its state file.
STATE_SUFFIX = ".avax-state.json"

#: Version of the state file's layout.
VERSION = 1


class StateFile:
    """The state file of the export to ``out``."""

    def __init__(self, out: str) -> None:
        self.path = Path(out + STATE_SUFFIX)

    def exists(self) -> bool:
        """Whether an interrupted export left its state."""
        return self.path.exists()

    def load(self) -> dict[str, Any]:
        """The saved state; a :class:`CliError` (exit 2) when it is unreadable."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CliError(
                f"cannot read the state file {self.path}: {error}",
                "delete it to start the export again",
            ) from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise CliError(
                f"{self.path} is not a state file of this version of avax-data",
                "delete it to start the export again",
            )
        return data

    def check_same_walk(self, saved: dict[str, Any], command: str, walk: dict[str, Any], fmt: str) -> None:
        """Refuse (exit 2) to resume a state that belongs to another export."""
        mine = {"command": command, "format": fmt, **{f"--{k.replace('_', '-')}": v for k, v in walk.items()}}
        theirs = {
            "command": saved.get("command"),
            "format": saved.get("format"),
            **{f"--{k.replace('_', '-')}": v for k, v in (saved.get("walk") or {}).items()},
        }
        differ = [
            f"{key} {theirs.get(key)!r} there, {mine.get(key)!r} here"
            for key in sorted(set(mine) | set(theirs))
            if mine.get(key) != theirs.get(key)
        ]
        if differ:
            raise CliError(
                f"{self.path} belongs to another export ({'; '.join(differ)})",
                "run the command that started it, or delete the state file to start again",
                EXIT_USAGE,
            )

    def save(self, data: dict[str, Any]) -> None:
        """Write ``data`` (plus version and time) atomically."""
        body = {"version": VERSION, **data, "updated": dt.datetime.now(dt.timezone.utc).isoformat()}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(body, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def remove(self) -> None:
        """Delete the state (the export is complete)."""
        self.path.unlink(missing_ok=True)
        self.path.with_name(self.path.name + ".tmp").unlink(missing_ok=True)
