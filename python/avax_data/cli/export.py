"""The export loop shared by every list command: chunks from a source into a sink, resumably.

A *source* walks the service (an index range, a follower, a pager) and hands out typed polars
frames; after each frame its ``position()`` says where a later run would continue. The loop
gathers frames into chunks of about ``--chunk-rows`` rows, writes each complete chunk to the
sink, then saves the position and the sink's checkpoint in the state file (:mod:`.state`).
When the walk ends the sink completes the output and the state file is removed.
"""

from __future__ import annotations

import abc
import argparse
import errno
import json
import os
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import polars as pl

from ..exceptions import InvalidParameterError
from .argtypes import positive_int
from .errors import EXIT_USAGE, CliError
from .formats import STDOUT, resolve_format
from .dryrun import add_dry_run_options, print_plan
from .progress import Progress
from .sinks import make_sink
from .state import StateFile

__all__ = ["Source", "Export", "Interrupted", "Resumable", "ExportResult", "add_export_options", "run_export"]

# Errors that a resumed run would meet again: no "--resume continues" hint for them.
_NOT_RESUMABLE = (CliError, InvalidParameterError)

#: Rows per chunk (part file / state checkpoint) unless ``--chunk-rows`` says.
DEFAULT_CHUNK_ROWS = 50_000


class Source(abc.ABC):
    """A walk that hands out typed frames and can say (and restart from) its position."""

    #: Rows of the whole walk when known (drives the ETA), else ``None``.
    total: int | None = None

    @abc.abstractmethod
    def start(self, position: dict[str, Any] | None) -> None:
        """Prepare the walk: from the beginning (``None``) or from a saved position."""

    @abc.abstractmethod
    def frames(self, chunk_rows: int) -> Iterator[pl.DataFrame | None]:
        """Frames in order; ``None`` means "nothing new for a while" (write what you have)."""

    @abc.abstractmethod
    def position(self) -> dict[str, Any]:
        """Where a later run continues, after the last frame handed out (JSON-able)."""

    def empty(self) -> pl.DataFrame | None:
        """The typed frame of no rows (for an export that finds none)."""
        return None

    @abc.abstractmethod
    def plan(self) -> Any:
        """The cost plan of the whole walk (:class:`avax_data.Plan`), sending nothing."""


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
    overwrite: bool = False
    args: argparse.Namespace | None = None


@dataclass
class ExportResult:
    """What an export did: ``rows`` fetched by this run, ``total`` in the file."""

    rows: int
    seconds: float
    out: str
    fmt: str
    total: int = -1
    skipped: bool = False

    def __post_init__(self) -> None:
        if self.total < 0:
            self.total = self.rows


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
    group.add_argument("--chunk-rows", type=positive_int, default=DEFAULT_CHUNK_ROWS, metavar="N",
                       help="rows per chunk: a Parquet part file and a resume point")
    group.add_argument("--overwrite", action="store_true",
                       help="write OUT again when a finished export left it (default: skip it and say so)")
    add_dry_run_options(parser)


def export_from_args(args: argparse.Namespace, command: str, walk: dict[str, Any], default_stem: str) -> Export:
    """The :class:`Export` the output options describe (the format checked before any request)."""
    out = args.out or f"{default_stem}.{args.format or 'parquet'}"
    fmt = resolve_format(out, args.format)
    if out == STDOUT and args.resume:
        raise CliError("--resume needs a file: stdout cannot be resumed", "write to a file with --out PATH")
    return Export(command, _jsonable(walk), out, fmt, args.resume, args.chunk_rows, args.quiet,
                  overwrite=bool(getattr(args, "overwrite", False)), args=args)


def check_out(out: str) -> None:
    """Refuse an output path that cannot be written, naming it as given: ``FileNotFoundError``
    when its directory is missing, ``PermissionError`` when the directory is not writable."""
    if out == STDOUT:
        return
    directory = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(directory):
        raise FileNotFoundError(errno.ENOENT, f"no directory {os.path.dirname(out) or '.'!r} to write it in", out)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"the directory {os.path.dirname(out) or '.'!r} is not writable", out)


def _jsonable(walk: dict[str, Any]) -> dict[str, Any]:
    """``walk`` as it reads back from JSON (tuples become lists, dates strings)."""
    return json.loads(json.dumps(walk, default=str))


def run_export(export: Export, source: Source) -> ExportResult:
    """Walk ``source`` into the export's output; resumable through the state file. With
    ``--dry-run``, print the source's plan instead and send nothing."""
    if export.args is not None and getattr(export.args, "dry_run", False):
        print_plan(export.args, source.plan())
    return _Run(export, source).run()


class _Run:
    """One run of an export: state check, the chunk loop, completion or a resumable stop."""

    def __init__(self, export: Export, source: Source) -> None:
        self.export = export
        self.source = source
        self.sink = make_sink(export.out, export.fmt)
        self.state = StateFile(export.out) if self.sink.resumable else None
        self.saved: dict[str, Any] | None = None
        self.rows = 0

    def run(self) -> ExportResult:
        began = time.perf_counter()
        check_out(self.export.out)
        self.saved = self._saved_state()
        if self.saved is None and self._finished():
            return ExportResult(0, 0.0, self.export.out, self.export.fmt, total=0, skipped=True)
        self.source.start(self.saved["position"] if self.saved else None)  # may refuse: no file written yet
        self.rows = int(self.saved["rows_written"]) if self.saved else 0
        before = self.rows
        if self.saved is not None and not self.export.quiet:
            print(f"resuming {self.export.out} at {_where(self.saved['position'])} "
                  f"({before:,} rows already written)", file=sys.stderr, flush=True)
        self.sink.open(self.saved.get("sink") if self.saved else None)
        progress = Progress(self.source.total, initial=self.rows, quiet=self.export.quiet)
        try:
            self._save()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self._pump(progress)
            notices = self._notices(caught)
            if self.state is not None:
                self.state.remove()
            self.sink.cleanup()
        except BaseException as error:
            progress.close()
            self.sink.close()
            stopped = self._stopped(error)
            if stopped is error:
                raise
            raise stopped from (None if isinstance(error, KeyboardInterrupt) else error)
        progress.close()
        self.sink.close()
        seconds = time.perf_counter() - began
        fetched = self.rows - before
        if not self.export.quiet:
            where = "stdout" if self.export.out == STDOUT else self.export.out
            whole = f" ({self.rows:,} in the file)" if before else ""
            for notice in notices:
                print(notice if self.rows == 0 and notice.startswith("0 rows:") else f"warning: {notice}",
                      file=sys.stderr, flush=True)
            print(f"wrote {fetched:,} rows to {where} ({self.export.fmt}) in {seconds:.2f} s{whole}",
                  file=sys.stderr, flush=True)
        return ExportResult(fetched, seconds, self.export.out, self.export.fmt, total=self.rows)

    @staticmethod
    def _notices(caught: list[warnings.WarningMessage]) -> list[str]:
        """The texts of the warnings the walk raised (e.g. a window outside the emulator's world),
        once each, for the summary."""
        texts: list[str] = []
        for warning in caught:
            text = str(warning.message)
            if text not in texts:
                texts.append(text)
        return texts

    def _finished(self) -> bool:
        """Whether a finished export left the output (no state file) and it is kept: skipped,
        saying so, unless ``--overwrite``."""
        export = self.export
        if export.out == STDOUT or export.overwrite or not os.path.exists(export.out):
            return False
        if not export.quiet:
            print(f"skipped: {export.out} exists (a finished export); pass --overwrite to write it again",
                  file=sys.stderr, flush=True)
        return True

    def _saved_state(self) -> dict[str, Any] | None:
        """The state of an interrupted run of this export (with ``--resume``), else ``None``."""
        export, state = self.export, self.state
        if state is None or not state.exists():
            if export.resume and state is not None and not export.quiet:
                print(f"no state file {state.path}: starting the export afresh", file=sys.stderr)
            return None
        if not export.resume:
            raise CliError(
                f"{state.path} exists: an earlier export to {export.out} did not finish",
                "pass --resume to continue it, or delete the state file to start again",
                EXIT_USAGE,
            )
        saved = state.load()
        state.check_same_walk(saved, export.command, export.walk, export.fmt)
        return saved

    def _save(self) -> None:
        """Record the position after the last complete chunk (atomically)."""
        if self.state is not None:
            self.state.save({
                "command": self.export.command,
                "walk": self.export.walk,
                "format": self.export.fmt,
                "output": self.export.out,
                "position": self.source.position(),
                "rows_written": self.rows,
                "sink": self.sink.checkpoint(),
            })

    def _write(self, pending: list[pl.DataFrame]) -> None:
        frame = pl.concat(pending) if len(pending) > 1 else pending[0]
        self.sink.write(frame)
        self.rows += frame.height
        self._save()

    def _pump(self, progress: Progress) -> None:
        """Gather frames into chunks of about ``chunk_rows`` rows, write each, complete the output."""
        pending: list[pl.DataFrame] = []
        pending_rows = 0
        empty: pl.DataFrame | None = None
        for frame in self.source.frames(self.export.chunk_rows):
            if frame is not None:
                empty = frame.clear() if empty is None else empty
                if frame.height:
                    pending.append(frame)
                    pending_rows += frame.height
                    progress.update(frame.height)
            if pending and (frame is None or pending_rows >= self.export.chunk_rows):
                self._write(pending)
                pending, pending_rows = [], 0
        if pending:
            self._write(pending)
        self.sink.finalize(empty if empty is not None else self.source.empty())

    def _stopped(self, error: BaseException) -> BaseException:
        """The exception to raise for a run that stopped with ``error``."""
        if self.saved is None and self.rows == 0 and self.state is not None:
            self.sink.discard()  # nothing to resume: leave no files behind
            self.state.remove()
            self.state = None
        if isinstance(error, KeyboardInterrupt):
            return Interrupted(str(self.state.path) if self.state is not None else None)
        if self.state is not None and isinstance(error, Exception) and not isinstance(error, _NOT_RESUMABLE):
            return Resumable(error, str(self.state.path))
        return error


def _where(position: dict[str, Any]) -> str:
    """A saved position as the resume line shows it."""
    if position.get("next_index") is not None:
        return f"next_index={position['next_index']}"
    if position.get("next_page_token") is not None:
        return f"page token {position['next_page_token'][:16]!r}... + {position.get('page_offset', 0)} items"
    return ", ".join(f"{k}={v}" for k, v in position.items()) or "the start"
