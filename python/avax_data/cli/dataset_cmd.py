"""``avax-data dataset verify DIR``: the full check of a dataset directory."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import EXIT_LOCAL, EXIT_OK
from .parser import Parser, add_command

__all__ = ["add_dataset_commands", "report_lines"]

#: The report's lists of problems, in the order they are printed, with their line label.
_PROBLEMS = (
    ("missing", "missing"),
    ("altered", "altered"),
    ("partial", "partial"),
    ("extra", "extra"),
    ("gaps", "gap"),
    ("duplicates", "duplicate"),
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
        actions, "verify", help="check every file of a dataset against its manifest",
        description="Check a dataset directory fully: every file against the sha256 its manifest records,\n"
        "files the manifest does not name (temporary files of an interrupted writer, others), and the\n"
        "positions the partitions hold (gaps, duplicates). Prints the problems; exits 0 only when the\n"
        "dataset is whole, 1 otherwise. A partition not yet complete (the newest of a list, the current\n"
        "month of a series) is shown but is no problem.",
        examples="""
avax-data dataset verify x_tx/
avax-data dataset verify x_tx/ --json | jq .missing""",
    )
    verify.add_argument("dir", metavar="DIR", help="the dataset directory")
    verify.add_argument("--json", action="store_true", help="print the report as one JSON object")
    verify.set_defaults(handler=_verify)


def report_lines(directory: str, report: dict[str, Any]) -> list[str]:
    """The lines ``dataset verify`` prints for ``report`` (see :func:`avax_data.verify_dataset`)."""
    lines = [f"dataset {directory}: {report['partitions']} partitions, {report['rows']} rows recorded"]
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


def _verify(args: argparse.Namespace) -> int:
    from .._native import verify_dataset

    report = verify_dataset(args.dir)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for line in report_lines(args.dir, report):
            print(line)
    sys.stdout.flush()
    return EXIT_OK if report["ok"] else EXIT_LOCAL
