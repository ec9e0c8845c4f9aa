"""``avax-data dataset verify PATH``: the full check of a dataset directory, or of the
checkpoint an interrupted export left (``OUT.avax-state.json``, or ``OUT`` itself)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from .errors import EXIT_LOCAL, EXIT_OK
from .parser import Parser, add_command

__all__ = ["add_dataset_commands", "report_lines", "checkpoint_lines"]

#: The report's lists of problems, in the order they are printed, with their line label.
_PROBLEMS = (
    ("missing", "missing"),
    ("altered", "altered"),
    ("partial", "partial"),
    ("extra", "extra"),
    ("gaps", "gap"),
    ("duplicates", "duplicate"),
    ("other_source", "from another source"),
)


def add_dataset_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``dataset`` and its actions to the top-level subparsers."""
    dataset = add_command(
        sub, "dataset", help="check a dataset directory written by --dataset or write_dataset",
        description="Work with dataset directories (a Parquet file per partition and _avax_dataset.json).",
        examples="""
avax-data dataset verify x_tx/""",
    )
    actions = dataset.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=Parser)
    verify = add_command(
        actions, "verify", help="check every file of a dataset against its manifest, or an export's checkpoint",
        description="Check a dataset directory fully: every file against the sha256 its manifest records,\n"
        "files the manifest does not name (temporary files of an interrupted writer, others), and the\n"
        "positions the partitions hold (gaps, duplicates), and partitions recorded as read from another\n"
        "source than the dataset's (another network or service). Prints the problems; exits 0 only when the\n"
        "dataset is whole, 1 otherwise. A partition not yet complete (the newest of a list, the current\n"
        "month of a series) is shown but is no problem.\n\n"
        "Given a file instead (an export's checkpoint OUT.avax-state.json, or the output OUT of an export\n"
        "that did not finish), it reports the checkpoint: the command, the rows written, where --resume\n"
        "continues, and whether the part files or the file are as it records (exit 0) or not (exit 1).",
        examples="""
avax-data dataset verify x_tx/
avax-data dataset verify x_tx/ --json | jq .missing
avax-data dataset verify blocks.parquet.avax-state.json""",
    )
    verify.add_argument("dir", metavar="PATH", help="the dataset directory, or an export's checkpoint (or output)")
    verify.add_argument("--json", action="store_true", help="print the report as one JSON object")
    verify.set_defaults(handler=_verify)


def report_lines(directory: str, report: dict[str, Any]) -> list[str]:
    """The lines ``dataset verify`` prints for ``report`` (see :func:`avax_data.verify_dataset`)."""
    source = f", from {report['source']}" if report.get("source") else ""
    lines = [f"dataset {directory}: {report['partitions']} partitions, {report['rows']} rows recorded{source}"]
    problems = 0
    for key, label in _PROBLEMS:
        for item in report[key]:
            problems += 1
            shown = f"{item[0]}..{item[1]}" if isinstance(item, (tuple, list)) else item
            lines.append(f"{label}: {shown}")
    for item in report["incomplete"]:
        lines.append(f"incomplete (a later run completes it): {item}")
    lines.append("ok: the dataset is whole" if report["ok"] else f"NOT WHOLE: {problems} problem(s)")
    return lines


def checkpoint_lines(report: dict[str, Any]) -> list[str]:
    """The lines ``dataset verify`` prints for an export's checkpoint (``_verify_checkpoint``)."""
    saved = report["checkpoint"]
    request = saved["request"]
    lines = [
        f"export checkpoint {report['path']}: {request['command']} to {request['output']} ({request['format']}), "
        f"{saved['rows_written']} rows written, --resume continues at {report['resumes_at']}"
    ]
    lines += [f"missing: {item}" for item in report["missing"]]
    lines += [f"altered: {item}" for item in report["altered"]]
    lines += [f"extra (a resumed run drops it): {item}" for item in report["extra"]]
    problems = len(report["missing"]) + len(report["altered"])
    lines.append("ok: --resume continues it" if report["ok"] else
                 f"NOT RESUMABLE: {problems} problem(s) (delete the checkpoint to start the export over)")
    return lines


def _verify(args: argparse.Namespace) -> int:
    from .._native import _verify_checkpoint, verify_dataset

    is_dir = os.path.isdir(args.dir)
    report = verify_dataset(args.dir) if is_dir else _verify_checkpoint(args.dir)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for line in report_lines(args.dir, report) if is_dir else checkpoint_lines(report):
            print(line)
    sys.stdout.flush()
    return EXIT_OK if report["ok"] else EXIT_LOCAL
