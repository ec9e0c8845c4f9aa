"""``--dry-run`` of every export command: print the walk's cost plan and send nothing.

The plan (:class:`avax_data.Plan`) comes from the same range or pager the export would walk,
made but never consumed, so the command exits 0 without a single request.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

__all__ = ["DryRun", "add_dry_run_options", "print_plan", "resumed_rows"]


class DryRun(Exception):
    """Raised once the plan is printed: the command stops there and exits 0."""


def add_dry_run_options(parser: argparse.ArgumentParser) -> None:
    """``--dry-run`` and ``--json`` of an export command."""
    group = parser.add_argument_group("plan")
    group.add_argument("--dry-run", action="store_true",
                       help="print what the export would cost (requests, compute units, time, share of the daily "
                       "budget) and send no request")
    group.add_argument("--json", dest="plan_json", action="store_true",
                       help="with --dry-run: print the plan as one JSON object")


def resumed_rows(out: str, resume: bool) -> int:
    """Rows the checkpoint of an interrupted export to ``out`` records as written (the core
    checkpoint, read and checked), which ``--resume`` does not fetch again; 0 without
    ``--resume``, without a checkpoint, or with one whose output is not as recorded (the
    resumed run would refuse it)."""
    from .._native import _verify_checkpoint
    from .formats import STDOUT

    if not resume or out == STDOUT or not os.path.isfile(out + ".avax-state.json"):
        return 0
    report = _verify_checkpoint(out)
    return int(report["checkpoint"]["rows_written"]) if report["ok"] else 0


def print_plan(args: argparse.Namespace, plan: Any) -> None:
    """Print ``plan`` (as text, or JSON with ``--json``) and stop the command with :class:`DryRun`."""
    if getattr(args, "plan_json", False):
        print(json.dumps(plan.to_dict(), sort_keys=True))
    else:
        print(str(plan))
    sys.stdout.flush()
    raise DryRun()
