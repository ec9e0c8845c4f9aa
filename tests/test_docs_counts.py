"""The numbers the prose states (how many operations each service has) are the numbers of the
vendored OpenAPI documents: a document that gains an operation makes this test name every page
that still says the old count (issue 35: the docs once described the Data API as six operations
while the package covered 70)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Where the prose counts operations, the patterns that find the counts, and the service each
# pattern counts. A pattern that finds nothing in a file listed for it fails too, so a reworded
# sentence is looked at again rather than silently no longer checked.
COUNTED = {
    "README.md": [(r"\(`/v1/\.\.\.`: (\d+)", "data"), (r"\(`/v2/\.\.\.`: (\d+)", "metrics"),
                  (r"every operation of both APIs \((\d+)\)", "both")],
    "docs/index.md": [(r"\(`/v1/\.\.\.`: (\d+)", "data"), (r"\(`/v2/\.\.\.`: (\d+)", "metrics")],
    "docs/guides/data-api.md": [(r"its (\d+) read operations", "data")],
    "docs/guides/endpoints.md": [(r"(\d+) of the Data API", "data"), (r"(\d+) of the Metrics API", "metrics")],
    "docs/guides/emulator.md": [(r"(\d+) of the Data\s+API", "data"), (r"(\d+) of the Metrics API", "metrics")],
}


def operation_counts() -> dict[str, int]:
    """GET operations of each vendored document, and of both."""
    counts = {}
    for service in ("data", "metrics"):
        doc = json.loads((ROOT / "spec" / "openapi" / f"{service}-api.openapi.json").read_text())
        counts[service] = sum("get" in item for item in doc["paths"].values())
    counts["both"] = counts["data"] + counts["metrics"]
    return counts


def test_the_documents_have_the_operations_the_package_was_built_for() -> None:
    assert operation_counts() == {"data": 70, "metrics": 15, "both": 85}


def test_every_operation_count_in_the_prose_is_the_documents_count() -> None:
    counts = operation_counts()
    wrong = []
    for name, patterns in COUNTED.items():
        text = " ".join((ROOT / name).read_text().split())  # one line: sentences wrap anywhere
        for pattern, service in patterns:
            found = [int(n) for n in re.findall(pattern, text)]
            if not found:
                wrong.append(f"{name}: no count found by {pattern!r} (reworded? update COUNTED)")
            wrong += [f"{name}: says {n} for {service}, the documents have {counts[service]}"
                      for n in found if n != counts[service]]
    assert not wrong, "\n".join(wrong)


def test_no_page_describes_the_data_api_by_its_first_six_operations() -> None:
    # The sentence the first release's pages used, before every operation had a method.
    stale = re.compile(r"chains, blocks, (NFTs|collectibles), pending (staking )?rewards", re.I)
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    hits = [str(p.relative_to(ROOT)) for p in pages if stale.search(" ".join(p.read_text().split()))]
    assert not hits, f"pages that describe the Data API by six operations: {hits}"
