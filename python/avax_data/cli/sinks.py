"""Where an export's chunks go, chunk by complete chunk, so it can be resumed.

- :class:`ParquetParts`: each chunk is a complete (uncompressed) Parquet file in ``OUT.parts/``
  (written to a temporary name, then renamed); at the end the parts are streamed into ``OUT``
  (snappy, as ``Range.write_parquet``) and removed.
- :class:`AppendFile`: CSV or NDJSON appended to ``OUT``; after each chunk the byte offset is
  recorded, and a resumed export first truncates the file to it (dropping a torn last chunk).
- :class:`Stdout`: NDJSON on stdout, flushed after each chunk (not resumable).
"""

from __future__ import annotations

import abc
import io
import os
import shutil
import sys
from pathlib import Path
from typing import Any, BinaryIO

import polars as pl

from .errors import EXIT_USAGE, CliError
from .formats import for_csv, for_ndjson

__all__ = ["Sink", "ParquetParts", "AppendFile", "Stdout", "make_sink"]


class Sink(abc.ABC):
    """A destination of complete chunks; ``checkpoint()`` describes what is safely written."""

    resumable = True

    @abc.abstractmethod
    def open(self, checkpoint: dict[str, Any] | None) -> None:
        """Start afresh (``None``) or continue from a saved checkpoint."""

    @abc.abstractmethod
    def write(self, frame: pl.DataFrame) -> None:
        """Write one complete chunk."""

    @abc.abstractmethod
    def checkpoint(self) -> dict[str, Any]:
        """What is written so far, for the state file."""

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
        self.parts: list[str] = []

    def open(self, checkpoint: dict[str, Any] | None) -> None:
        if checkpoint is None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir.mkdir()  # in the output's directory, which must exist
            self.parts = []
            return
        self.parts = list(checkpoint.get("parts", []))
        missing = [name for name in self.parts if not (self.dir / name).is_file()]
        if missing:
            raise CliError(
                f"the state file lists {len(missing)} part file(s) missing from {self.dir} (first: {missing[0]})",
                "delete the state file to start the export again",
                EXIT_USAGE,
            )
        keep = set(self.parts)
        for path in self.dir.iterdir():  # a part written after the last saved state: not counted
            if path.name not in keep:
                path.unlink()

    def write(self, frame: pl.DataFrame) -> None:
        name = f"part-{len(self.parts):06d}.parquet"
        tmp = self.dir / (name + ".tmp")
        frame.write_parquet(tmp, compression="uncompressed")  # temporary: compressed once, in finalize
        os.replace(tmp, self.dir / name)
        self.parts.append(name)

    def checkpoint(self) -> dict[str, Any]:
        return {"parts": list(self.parts)}

    def finalize(self, empty: pl.DataFrame | None) -> None:
        tmp = self.out.with_name(self.out.name + ".tmp")
        # snappy, as Range.write_parquet writes: cheaper to encode than polars' default zstd
        if self.parts:
            pl.scan_parquet([str(self.dir / name) for name in self.parts]).sink_parquet(tmp, compression="snappy")
        else:
            (empty if empty is not None else pl.DataFrame()).write_parquet(tmp, compression="snappy")
        os.replace(tmp, self.out)

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

    def open(self, checkpoint: dict[str, Any] | None) -> None:
        if checkpoint is None:
            self.file = open(self.out, "wb")  # noqa: SIM115 - kept open across chunks
            self.offset = 0
            return
        self.offset = int(checkpoint.get("bytes", 0))
        size = self.out.stat().st_size if self.out.exists() else -1
        if size < self.offset:
            raise CliError(
                f"{self.out} holds {max(size, 0):,} bytes, fewer than the {self.offset:,} the state file recorded",
                "the output changed since: delete the state file to start the export again",
                EXIT_USAGE,
            )
        self.file = open(self.out, "r+b")  # noqa: SIM115
        self.file.truncate(self.offset)  # drop a chunk that was being written when the export stopped
        self.file.seek(self.offset)

    def write(self, frame: pl.DataFrame) -> None:
        assert self.file is not None
        if self.fmt == "csv":
            for_csv(frame).write_csv(self.file, include_header=self.offset == 0)
        else:
            for_ndjson(frame).write_ndjson(self.file)
        self.file.flush()
        self.offset = self.file.tell()

    def checkpoint(self) -> dict[str, Any]:
        return {"bytes": self.offset}

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

    def open(self, checkpoint: dict[str, Any] | None) -> None:
        pass

    def write(self, frame: pl.DataFrame) -> None:
        buffer = io.BytesIO()  # Python's own write: a closed pipe is a BrokenPipeError (exit 0)
        for_ndjson(frame).write_ndjson(buffer)
        sys.stdout.buffer.write(buffer.getvalue())
        sys.stdout.buffer.flush()

    def checkpoint(self) -> dict[str, Any]:
        return {}

    def finalize(self, empty: pl.DataFrame | None) -> None:
        sys.stdout.buffer.flush()


def make_sink(out: str, fmt: str) -> Sink:
    """The sink for ``out`` (``-``: stdout) in format ``fmt``."""
    if out == "-":
        return Stdout()
    if fmt == "parquet":
        return ParquetParts(out)
    return AppendFile(out, fmt)
