"""The export loop shared by every list command: chunks from a source into a sink, resumably.

A *source* walks the service (an index range, a follower, a pager) and hands out typed polars
frames; after each frame its ``position()`` says where a later run would continue. The loop
gathers frames into chunks of about ``--chunk-rows`` rows, writes each complete chunk to the
sink, then records the chunk and the position in the export's checkpoint ``OUT.avax-state.json``.
The checkpoint is the core's (:class:`avax_data._native._ExportCheckpoint`): its layout, its
atomic writes, the checks on resume (same command and arguments, output as recorded), the lock
that keeps a second writer out. This module keeps the argument plumbing. When the walk ends the
sink completes the output and the checkpoint is removed.
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
from typing import TYPE_CHECKING, Any

from ..exceptions import InvalidParameterError
from .argtypes import positive_int
from .errors import EXIT_USAGE, CliError
from .formats import STDOUT, resolve_format
from .dryrun import add_dry_run_options, print_plan, resumed_rows
from .progress import Progress
from .sinks import make_sink
from .._native import _ExportCheckpoint

if TYPE_CHECKING:  # polars is imported where a frame is made: `avax-data --help` stays quick
    import polars as pl

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

    def export_plan(self, fresh: bool, held: int) -> Any:
        """The plan of the export, ``held`` of its rows already written: :meth:`plan` less those,
        and the requests the export sends besides the walk (a fresh one, or a resume when
        ``fresh`` is false)."""
        plan = self.plan()
        return plan.less_held(held) if held else plan

    @abc.abstractmethod
    def origin(self) -> dict[str, str]:
        """Where the rows come from, as the checkpoint's ``set_source`` takes it: ``network``
        (an index's container 0 id) or ``base_url`` (a service); empty when it cannot tell."""


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
    """Ctrl-C during an export (exit 130); ``state`` names the state file to resume from, else
    ``note`` (if any) says what was left."""

    def __init__(self, state: str | None, note: str | None = None) -> None:
        super().__init__("interrupted")
        self.state = state
        self.note = note


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
                       help="continue an interrupted export from its checkpoint OUT.avax-state.json")
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
    ``--dry-run``, print the source's plan instead and send nothing (less the rows an
    interrupted export's checkpoint records, when ``--resume`` continues it)."""
    if export.args is not None and getattr(export.args, "dry_run", False):
        resuming = export.resume and os.path.isfile(export.out + ".avax-state.json")
        print_plan(export.args, source.export_plan(not resuming, resumed_rows(export.out, export.resume)))
    return _Run(export, source).run()


class _Run:
    """One run of an export: checkpoint check, the chunk loop, completion or a resumable stop."""

    def __init__(self, export: Export, source: Source) -> None:
        self.export = export
        self.source = source
        self.sink = make_sink(export.out, export.fmt)
        self.checkpoint: Any = None
        self.resumed = False
        self.rows = 0

    def run(self) -> ExportResult:
        try:
            return self._run()
        finally:
            if self.checkpoint is not None:
                self.checkpoint.release()

    def _run(self) -> ExportResult:
        began = time.perf_counter()
        check_out(self.export.out)
        position = self._open_checkpoint()
        if position is None and self._finished():
            return ExportResult(0, 0.0, self.export.out, self.export.fmt, total=0, skipped=True)
        self.source.start(position)  # may refuse: no file written yet
        before = self.rows
        self.sink.open(self.resumed)
        progress = Progress(self.source.total, initial=self.rows, quiet=self.export.quiet)
        try:
            self._save()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self._pump(progress)
            notices = self._notices(caught)
            if self.checkpoint is not None:
                self.checkpoint.finish()
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
        once each, for the summary. Only the client's own (``UserWarning``) go there: any other
        that the recording caught (a ``ResourceWarning`` of a garbage collection that happened to
        run meanwhile, a library's ``DeprecationWarning``) is issued again under the usual filters."""
        texts: list[str] = []
        for warning in caught:
            if not issubclass(warning.category, UserWarning):
                warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno,
                                       source=warning.source)
                continue
            text = str(warning.message)
            if text not in texts:
                texts.append(text)
        return texts

    def _finished(self) -> bool:
        """Whether a finished export left the output (no checkpoint) and it is kept: skipped,
        saying so, unless ``--overwrite``."""
        export = self.export
        if export.out == STDOUT or export.overwrite or not os.path.exists(export.out):
            return False
        if not export.quiet:
            print(f"skipped: {export.out} exists (a finished export); pass --overwrite to write it again",
                  file=sys.stderr, flush=True)
        return True

    def _open_checkpoint(self) -> dict[str, Any] | None:
        """Take the export's checkpoint (and its lock); with ``--resume`` and a checkpoint of an
        interrupted run, continue it: the position to start from, else ``None``."""
        export = self.export
        if not self.sink.resumable:
            return None
        walk = json.dumps(export.walk, sort_keys=True)
        self.checkpoint = _checkpoint_call(_ExportCheckpoint, export.command, export.fmt, export.out, walk)
        path = self.checkpoint.path
        if not self.checkpoint.saved:
            if export.resume and not export.quiet:
                print(f"no state file {path}: starting the export afresh", file=sys.stderr)
            self.checkpoint.set_source(**self.source.origin())  # recorded with every save
            return None
        if not export.resume:
            raise CliError(
                f"{path} exists: an earlier export to {export.out} did not finish",
                "pass --resume to continue it, or delete the state file to start again",
                EXIT_USAGE,
            )
        self.checkpoint.set_source(**self.source.origin())  # a resume from another source is refused
        position, self.rows, where = _checkpoint_call(self.checkpoint.resume)
        self.resumed = True
        if not export.quiet:
            print(f"resuming {export.out} at {where} ({self.rows:,} rows already written)", file=sys.stderr,
                  flush=True)
        return json.loads(position)

    def _position(self) -> str:
        return json.dumps(self.source.position())

    def _save(self) -> None:
        """Record the position with the output as it stands (atomically)."""
        if self.checkpoint is not None:
            self.checkpoint.save(self._position())

    def _write(self, pending: list[pl.DataFrame]) -> None:
        import polars as pl

        frame = pl.concat(pending) if len(pending) > 1 else pending[0]
        self.sink.write(frame)
        self.rows += frame.height
        if self.checkpoint is not None:
            self.sink.commit(self.checkpoint, frame.height, self._position())

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
        if not self.resumed and self.rows == 0 and self.checkpoint is not None:
            self.sink.discard()  # nothing to resume: leave no files behind
            self.checkpoint.finish()
            self.checkpoint = None
        state = self.checkpoint.path if self.checkpoint is not None else None
        if isinstance(error, KeyboardInterrupt):
            return Interrupted(state)
        if state is not None and isinstance(error, Exception) and not isinstance(error, _NOT_RESUMABLE):
            return Resumable(error, state)
        return error


def _checkpoint_call(call: Any, *args: Any) -> Any:
    """``call(*args)`` with the checkpoint's refusals (a torn or foreign checkpoint, one of
    another export, an output changed since) as the command line's usage errors."""
    try:
        return call(*args)
    except InvalidParameterError as error:
        raise CliError(
            str(error),
            "run the command that started it with --resume, or delete the state file to start again",
            EXIT_USAGE,
        ) from None
