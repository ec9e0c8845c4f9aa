"""The names the guides list are the names the core checks against (issue 35, section 5).

Each listing below is read from the guide's prose and compared with the table it describes
(``_native.literal_tables()``, the tables of ``crates/avax-data-core/src/tables.rs``): a name added
to, renamed in or dropped from a table fails here until the guide says the same.
"""

from __future__ import annotations

import re
from pathlib import Path

import avax_data._native as native

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TABLES = {name: values for name, (values, _doc) in native.literal_tables()}
WORDS = ("zero", "one", "two", "three", "four", "five", "six")


def ticked(text: str) -> list[str]:
    """The backticked names of ``text``, in order."""
    return re.findall(r"`([^`]+)`", text)


def guide(name: str) -> str:
    return (DOCS / "guides" / name).read_text(encoding="utf-8")


def test_the_metrics_guide_lists_every_metric_name_in_the_tables_order_and_count() -> None:
    text = " ".join(guide("metrics-api.md").split())
    found = re.search(r"one of the (\d+) chain metrics \(([^)]*)\)", text)
    assert found, "docs/guides/metrics-api.md no longer says 'one of the N chain metrics (...)'"
    assert int(found.group(1)) == len(TABLES["MetricName"])
    assert ticked(found.group(2)) == list(TABLES["MetricName"])


def test_the_metrics_guide_lists_the_intervals_of_the_table() -> None:
    text = " ".join(guide("metrics-api.md").split())
    found = re.search(r"- `interval`: ((?:`\w+`(?:, | or ))+`\w+`);", text)
    assert found, "docs/guides/metrics-api.md no longer lists the intervals as '- `interval`: `a`, ... or `z`;'"
    intervals = ticked(found.group(1))
    assert intervals == list(TABLES["Interval"])
    assert f"accept all {WORDS[len(intervals)]}" in text


def test_every_listing_of_the_index_paths_is_the_tables() -> None:
    paths = list(TABLES["IndexPathName"])
    pattern = re.compile(r"\b[CPX]/(?:block|tx|vtx)(?:, [CPX]/(?:block|tx|vtx)){2,}")
    listings = []
    for page in [*DOCS.rglob("*.md"), ROOT / "README.md"]:
        for line in page.read_text(encoding="utf-8").splitlines():
            listings += [(page.relative_to(ROOT), m.group(0)) for m in pattern.finditer(line)]
    assert len(listings) >= 3, listings  # the CLI guide, the index-client guide, getting started
    for page, listing in listings:
        assert listing.split(", ") == paths, f"{page}: {listing!r} is not the table's {paths}"


def test_the_data_api_guide_names_the_networks_features_and_sort_orders_of_the_tables() -> None:
    text = " ".join(guide("data-api.md").split())
    for param, table in (("network", "Network"), ("feature", "Feature")):
        found = re.search(rf"`{param}` ([\w/]+)", text)
        assert found, f"docs/guides/data-api.md no longer lists `{param}` values as a/b/c"
        assert found.group(1).split("/") == list(TABLES[table]), (param, found.group(1))
    inputs = " ".join(guide("inputs.md").split())
    named = re.search(r"`network=` is one of ((?:`\w+`(?:, | or ))+`\w+`)", inputs)
    assert named and ticked(named.group(1)) == list(TABLES["Network"])
