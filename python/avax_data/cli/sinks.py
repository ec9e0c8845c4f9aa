"""Where an export's chunks go, chunk by complete chunk, so it can be resumed.

What is safely written is recorded in the export's checkpoint, which the core owns
(:class:`avax_data._native._ExportCheckpoint`, ``OUT.avax-state.json``): the sinks only write the
files and tell the checkpoint what they wrote (:meth:`Sink.commit`).

- :class:`ParquetParts`: each chunk is a complete (uncompressed) Parquet file in ``OUT.parts/``
  (written to a temporary name, fsynced, renamed to the name the checkpoint gives, the directory
  fsynced, and only then recorded with its rows, size and sha256); at the end the parts are
  streamed into ``OUT`` (snappy, as ``Range.write_parquet``) the same way (a temporary file,
  fsync, rename, directory fsync) before the checkpoint and the parts are removed.
- :class:`AppendFile`: CSV or NDJSON appended to ``OUT``; after each chunk the file is fsynced,
  then its size (and the sha256 of its bytes) recorded, and a resumed export's checkpoint first
  checks those bytes and truncates the file to them (dropping a torn last chunk).
- :class:`Stdout`: NDJSON on stdout, flushed after each chunk (not resumable).
"""

from __future__ import annotations

import abc
import io
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from .formats import for_csv, for_ndjson

if TYPE_CHECKING:  # polars is imported where a frame is made: `avax-data --help` stays quick
    import polars as pl

__all__ = ["Sink", "ParquetParts", "AppendFile", "Stdout", "make_sink", "durable_replace"]


def _fsync_dir(directory: Path) -> None:
    """Flush ``directory``'s entries (names created or renamed in it) to the disk (POSIX)."""
    if os.name != "posix":
        return  # directories cannot be opened there; renames are durable on their own
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def durable_replace(tmp: Path, path: Path) -> None:
    """Publish the written file ``tmp`` as ``path`` so a power loss never leaves the name on
    bytes that did not reach the disk: fsync of the file, rename, fsync of the directory (the
    order the core's dataset writer keeps)."""
    with open(tmp, "rb") as file:
        os.fsync(file.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class Sink(abc.ABC):
    """A destination of complete chunks; :meth:`commit` records each in the export's checkpoint."""

    resumable = True

    @abc.abstractmethod
    def open(self, resumed: bool) -> None:
        """Start afresh, or continue what the checkpoint (already checked and restored) records."""

    @abc.abstractmethod
    def write(self, frame: pl.DataFrame) -> None:
        """Write one complete chunk."""

    @abc.abstractmethod
    def commit(self, checkpoint: Any, rows: int, position: str) -> None:
        """Record the chunk just written (``rows`` rows) and the walk's ``position`` (JSON) in
        ``checkpoint`` (an :class:`avax_data._native._ExportCheckpoint`)."""

    @abc.abstractmethod
    def finalize(self, empty: pl.DataFrame | None) -> None:
        """Make the output complete (``empty``: the typed empty frame, for an export of no rows)."""

    def cleanup(self) -> None:
        """Remove what only a resumed export would need (after the state file is gone)."""

    def discard(self) -> None:
        """Remove everything this export wrote (it failed before its first chunk)."""

    def close(self) -> None:
        """Release open files (on success or failure)."""


class ParquetParts(Sink):
    """Parquet: one part file per chunk in ``OUT.parts/``, combined into ``OUT`` at the end."""

    def __init__(self, out: str) -> None:
        self.out = Path(out)
        self.dir = Path(out + ".parts")
        self.written: Path | None = None

    def open(self, resumed: bool) -> None:
        if not resumed:
            shutil.rmtree(self.dir, ignore_errors=True)
        if not self.dir.is_dir():
            self.dir.mkdir()  # in the output's directory, which must exist
            _fsync_dir(self.dir.parent)  # its name on disk before a part in it is recorded

    def write(self, frame: pl.DataFrame) -> None:
        self.written = self.dir / "next-part.parquet.tmp"
        frame.write_parquet(self.written, compression="uncompressed")  # temporary: compressed once, in finalize

    def commit(self, checkpoint: Any, rows: int, position: str) -> None:
        assert self.written is not None
        durable_replace(self.written, self.dir / checkpoint.next_part())  # on disk before it is recorded
        self.written = None
        checkpoint.add_part(rows, position)

    def _parts(self) -> list[Path]:
        """The part files, in order (their names are numbered with leading zeros)."""
        return sorted(p for p in self.dir.iterdir() if p.name.startswith("part-") and p.suffix == ".parquet")

    def finalize(self, empty: pl.DataFrame | None) -> None:
        import polars as pl

        tmp = self.out.with_name(self.out.name + ".tmp")
        # snappy, as Range.write_parquet writes: cheaper to encode than polars' default zstd
        parts = self._parts()
        if parts:
            pl.scan_parquet([str(path) for path in parts]).sink_parquet(tmp, compression="snappy")
        else:
            (empty if empty is not None else pl.DataFrame()).write_parquet(tmp, compression="snappy")
        durable_replace(tmp, self.out)  # on disk before the checkpoint and the parts are removed

    def cleanup(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)

    def discard(self) -> None:
        self.cleanup()


class AppendFile(Sink):
    """CSV or NDJSON appended to ``OUT``; the checkpoint is the offset after the last complete chunk."""

    def __init__(self, out: str, fmt: str) -> None:
        self.out = Path(out)
        self.fmt = fmt
        self.offset = 0
        self.file: BinaryIO | None = None

    def open(self, resumed: bool) -> None:
        self.file = open(self.out, "r+b" if resumed and self.out.exists() else "wb")  # noqa: SIM115 - kept open across chunks
        self.offset = self.file.seek(0, os.SEEK_END)  # the checkpoint truncated it to the recorded size
        _fsync_dir(self.out.parent)  # its name on disk before a chunk of it is recorded

    def write(self, frame: pl.DataFrame) -> None:
        assert self.file is not None
        if self.fmt == "csv":
            for_csv(frame).write_csv(self.file, include_header=self.offset == 0)
        else:
            for_ndjson(frame).write_ndjson(self.file)
        self.file.flush()
        os.fsync(self.file.fileno())  # on disk before the checkpoint records it
        self.offset = self.file.tell()

    def commit(self, checkpoint: Any, rows: int, position: str) -> None:
        checkpoint.add_bytes(self.offset, rows, position)

    def finalize(self, empty: pl.DataFrame | None) -> None:
        if self.fmt == "csv" and self.offset == 0 and empty is not None:
            self.write(empty.clear())  # a CSV of no rows still has its header
        self.close()

    def discard(self) -> None:
        self.close()
        self.out.unlink(missing_ok=True)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


class Stdout(Sink):
    """NDJSON on stdout, flushed after every chunk."""

    resumable = False

    def open(self, resumed: bool) -> None:
        pass

    def write(self, frame: pl.DataFrame) -> None:
        buffer = io.BytesIO()  # Python's own write: a closed pipe is a BrokenPipeError (exit 0)
        for_ndjson(frame).write_ndjson(buffer)
        sys.stdout.buffer.write(buffer.getvalue())
        sys.stdout.buffer.flush()

    def commit(self, checkpoint: Any, rows: int, position: str) -> None:
        pass  # not resumable: no checkpoint

    def finalize(self, empty: pl.DataFrame | None) -> None:
        sys.stdout.buffer.flush()


def make_sink(out: str, fmt: str) -> Sink:
    """The sink for ``out`` (``-``: stdout) in format ``fmt``."""
    if out == "-":
        return Stdout()
    if fmt == "parquet":
        return ParquetParts(out)
    return AppendFile(out, fmt)
