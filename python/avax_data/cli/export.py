"""The export loop shared by every list command: chunks from a source into a sink, resumably.

A *source* walks the service (an index range, a follower, a pager) and hands out typed polars
frames; after each frame its ``position()`` says where a later run would continue. The loop
gathers frames into chunks of about ``--chunk-rows`` rows, writes each complete chunk to the
sink, then saves the position and the sink's checkpoint in the state file (:mod:`.state`).
When the walk ends the sink completes the output and the state file is removed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import polars as pl

from ..exceptions import InvalidParameterError
from .errors import EXIT_USAGE, CliError
from .formats import STDOUT, resolve_format
from .progress import Progress
from .sinks import make_sink
from .state import StateFile

__all__ = ["Source", "Export", "Interrupted", "Resumable", "ExportResult", "add_export_options", "run_export"]

# Errors that a resumed run would meet again: no "--resume continues" hint for them.
_NOT_RESUMABLE = (CliError, InvalidParameterError)

#: Rows per chunk (part file / state checkpoint) unless ``--chunk-rows`` says.
DEFAULT_CHUNK_ROWS = 50_000


class Source:
    """A walk that hands out typed frames and can say (and restart from) its position."""

    #: Rows of the whole walk when known (drives the ETA), else ``None``.
    total: int | None = None

    def start(self, position: dict[str, Any] | None) -> None:
        """Prepare the walk: from the beginning (``None``) or from a saved position."""
        raise NotImplementedError

    def frames(self, chunk_rows: int) -> Iterator[pl.DataFrame | None]:
        """Frames in order; ``None`` means "nothing new for a while" (write what you have)."""
        raise NotImplementedError

    def position(self) -> dict[str, Any]:
        """Where a later run continues, after the last frame handed out (JSON-able)."""
        raise NotImplementedError

    def empty(self) -> pl.DataFrame | None:
        """The typed frame of no rows (for an export that finds none)."""
        return None


@dataclass
class Export:
    """What one export writes: the command, the arguments that define its rows, the output."""

    command: str
    walk: dict[str, Any]
    out: str
    fmt: str
    resume: bool
    chunk_rows: int
    quiet: bool


@dataclass
class ExportResult:
    """What an export did."""

    rows: int
    seconds: float
    out: str
    fmt: str


class Interrupted(Exception):
    """Ctrl-C during an export (exit 130); ``state`` names the state file to resume from."""

    def __init__(self, state: str | None) -> None:
        super().__init__("interrupted")
        self.state = state


class Resumable(Exception):
    """A failure after which the export can continue with ``--resume`` (``cause`` is the error)."""

    def __init__(self, cause: BaseException, state: str) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.state = state


def add_export_options(parser: argparse.ArgumentParser, *, default_stem: str) -> None:
    """``--out``, ``--format``, ``--resume``, ``--chunk-rows`` of a list command."""
    group = parser.add_argument_group("output")
    group.add_argument("-o", "--out", default=None, metavar="PATH",
                       help=f"output file; '-' writes NDJSON to stdout (default: {default_stem}.<format>)")
    group.add_argument("-f", "--format", choices=("parquet", "csv", "ndjson"), default=None,
                       help="output format (default: from the --out extension .parquet/.pq/.csv/.ndjson/.jsonl, "
                       "else parquet)")
    group.add_argument("--resume", action="store_true",
                       help="continue an interrupted export from its state file OUT.avax-state.json")
    group.add_argument("--chunk-rows", type=_positive, default=DEFAULT_CHUNK_ROWS, metavar="N",
                       help="rows per chunk: a Parquet part file and a resume point")


def _positive(text: str) -> int:
    from .argtypes import positive_int

    return positive_int(text)


def export_from_args(args: argparse.Namespace, command: str, walk: dict[str, Any], default_stem: str) -> Export:
    """The :class:`Export` the output options describe (the format checked before any request)."""
    out = args.out or f"{default_stem}.{args.format or 'parquet'}"
    fmt = resolve_format(out, args.format)
    if out == STDOUT and args.resume:
        raise CliError("--resume needs a file: stdout cannot be resumed", "write to a file with --out PATH")
    return Export(command, _jsonable(walk), out, fmt, args.resume, args.chunk_rows, args.quiet)


def _jsonable(walk: dict[str, Any]) -> dict[str, Any]:
    """``walk`` as it reads back from JSON (tuples become lists, dates strings)."""
    return json.loads(json.dumps(walk, default=str))


def run_export(export: Export, source: Source) -> ExportResult:
    """Walk ``source`` into the export's output; resumable through the state file."""
    began = time.perf_counter()
    sink = make_sink(export.out, export.fmt)
    state = StateFile(export.out) if sink.resumable else None
    saved: dict[str, Any] | None = None
    if state is not None and state.exists():
        if not export.resume:
            raise CliError(
                f"{state.path} exists: an earlier export to {export.out} did not finish",
                "pass --resume to continue it, or delete the state file to start again",
                EXIT_USAGE,
            )
        saved = state.load()
        state.check_same_walk(saved, export.command, export.walk, export.fmt)
    elif export.resume and not export.quiet:
        print(f"no state file {state.path if state else ''}: starting the export afresh", file=sys.stderr)

    source.start(saved["position"] if saved else None)  # may refuse (e.g. --start past the tip): no file yet
    rows = int(saved["rows_written"]) if saved else 0
    sink.open(saved.get("sink") if saved else None)

    def save() -> None:
        if state is not None:
            state.save({
                "command": export.command,
                "walk": export.walk,
                "format": export.fmt,
                "output": export.out,
                "position": source.position(),
                "rows_written": rows,
                "sink": sink.checkpoint(),
            })

    progress = Progress(source.total, initial=rows, quiet=export.quiet)
    pending: list[pl.DataFrame] = []
    pending_rows = 0
    empty: pl.DataFrame | None = None
    try:
        save()
        for frame in source.frames(export.chunk_rows):
            if frame is not None:
                if empty is None:
                    empty = frame.clear()
                if frame.height:
                    pending.append(frame)
                    pending_rows += frame.height
                    progress.update(frame.height)
            if pending and (frame is None or pending_rows >= export.chunk_rows):
                sink.write(pl.concat(pending) if len(pending) > 1 else pending[0])
                rows += pending_rows
                pending, pending_rows = [], 0
                save()
        if pending:
            sink.write(pl.concat(pending) if len(pending) > 1 else pending[0])
            rows += pending_rows
            save()
        sink.finalize(empty if empty is not None else source.empty())
        if state is not None:
            state.remove()
        sink.cleanup()
    except BaseException as error:
        progress.close()
        sink.close()
        if saved is None and rows == 0 and state is not None:  # nothing to resume: leave no files behind
            sink.discard()
            state.remove()
            state = None
        if isinstance(error, KeyboardInterrupt):
            raise Interrupted(str(state.path) if state is not None else None) from None
        if state is not None and isinstance(error, Exception) and not isinstance(error, _NOT_RESUMABLE):
            raise Resumable(error, str(state.path)) from error
        raise
    progress.close()
    sink.close()
    seconds = time.perf_counter() - began
    if not export.quiet:
        where = "stdout" if export.out == STDOUT else export.out
        print(f"wrote {rows:,} rows to {where} ({export.fmt}) in {seconds:.2f} s", file=sys.stderr, flush=True)
    return ExportResult(rows, seconds, export.out, export.fmt)
