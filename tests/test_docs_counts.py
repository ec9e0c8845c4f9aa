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


# ---- the emulator's default sizes, wherever the prose states them ----

def emulator_defaults() -> dict[str, int]:
    """The sizes of an emulator started with no arguments, read from what it serves."""
    import avax_data as ad

    with ad.Emulator() as emu:
        containers = {emu.container_count(path) for path in ("C/block", "P/block", "X/tx", "X/block", "X/vtx")}
        assert len(containers) == 1, containers
        newest = next(iter(ad.DataClient(base_url=emu.url).blocks("43114", limit=1)))["blockNumber"]
    return {"containers": containers.pop(), "data_blocks": int(newest) + 1}


def stated(text: str, pattern: str) -> list[int]:
    return [int(n.replace(",", "").replace("_", "")) for n in re.findall(pattern, " ".join(text.split()))]


# Where the Python (native docstring) and the guide's prose state the defaults of the emulator's
# sizes, and the pattern that finds each: every one must name the served size.
DEFAULTS = {
    "crates/avax-data-py/src/emulator.rs": [
        (r"paths left out keep the default\); default ``None``: ([\d,_]+)", "containers"),
        (r"network\), an int >= 1; default ``None``: ([\d,_]+)", "data_blocks")],
    "docs/guides/emulator.md": [(r"`data_blocks_per_chain` blocks each \(default ([\d,_]+);", "data_blocks"),
                                (r"the pytest plugin: ([\d,_]+) containers per index path", "containers"),
                                (r"containers per index path and ([\d,_]+) Data API blocks per chain", "data_blocks")],
}


def rendered_helps() -> dict[str, str]:
    """The help the command line and the pytest plugin print (their defaults are written from the
    emulator's table, ``_native.emulator_defaults()``, so the text to check is the rendered one)."""
    import argparse

    from avax_data._pytest_options import EMULATOR_OPTIONS
    from avax_data.cli import build_parser

    subs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helps = {f"avax-data {name} --help": subs.choices[name].format_help() for name in ("emulator", "walk")}
    helps["pytest plugin ini options"] = "\n".join(option.help for option in EMULATOR_OPTIONS)
    return helps


#: In the rendered helps: the pattern that finds each stated default.
RENDERED = {
    "avax-data emulator --help": [(r"on every index path, or per path \(default ([\d,_]+)\)", "containers"),
                                  (r"X-chain vertices per network \(default ([\d,_]+)\)", "data_blocks")],
    "avax-data walk --help": [(r"on every index path, or per path \(default ([\d,_]+)\)", "containers"),
                              (r"Data API blocks per EVM chain \(default ([\d,_]+)\)", "data_blocks")],
    "pytest plugin ini options": [(r"containers per index path \(default ([\d,_]+)\)", "containers"),
                                  (r"Data API blocks per EVM chain \(default ([\d,_]+)\)", "data_blocks")],
}


def test_every_stated_default_size_of_the_emulator_is_the_size_it_serves() -> None:
    served = emulator_defaults()
    wrong = []
    texts = {name: (ROOT / name).read_text().replace("///", " ") for name in DEFAULTS}
    helps = rendered_helps()
    for name, patterns in [*DEFAULTS.items(), *RENDERED.items()]:
        text = texts.get(name) or helps[name]
        for pattern, size in patterns:
            found = stated(text, pattern)
            if not found:
                wrong.append(f"{name}: no default found by {pattern!r} (reworded? update DEFAULTS)")
            wrong += [f"{name}: says {n} for {size}, the emulator serves {served[size]}"
                      for n in found if n != served[size]]
    assert not wrong, "\n".join(wrong)
