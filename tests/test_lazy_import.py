"""``import avax_data`` leaves polars (and pandas, pyarrow, numpy) unloaded until a frame is asked for.

Importing polars is most of what a bare ``import polars`` takes (about 0.1-0.2 s on an idle
machine): a script or a CLI call that only wants dicts should not pay it. Each test runs in a
fresh interpreter, since this test process imported polars long ago.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap

HEAVY = ("polars", "pandas", "pyarrow", "numpy")


def run_fresh(script: str) -> dict[str, object]:
    """Run ``script`` in a new interpreter; it prints one JSON object as its last line."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_dict_walks_of_every_client_leave_polars_unloaded_and_frames_still_load_it() -> None:
    out = run_fresh(f"""
        import asyncio, json, sys
        import avax_data as ad
        heavy = {HEAVY!r}
        seen = {{"after_import": [m for m in heavy if m in sys.modules]}}
        with ad.Emulator(seed=5, containers=60, data_blocks_per_chain=120) as emu:
            with ad.IndexClient(emu.url) as node:
                chain = node.chain("X/tx")
                rows = list(chain.range(10, 25))
                last = chain.last_accepted()
            with ad.DataClient(base_url=emu.url) as data:
                blocks = list(data.blocks("43114", limit=30))
                pages = [len(page) for page in data.blocks("43114", page_size=10, limit=25).pages()]
            with ad.MetricsClient(base_url=emu.url) as metrics:
                status = metrics.live_check()["status"]

            async def walk():
                async with ad.AsyncIndexClient(emu.url) as anode:
                    return [c["index"] async for c in anode.chain("P/block").range(0, 5)]

            async_indexes = asyncio.run(walk())
            try:
                ad.IndexClient(emu.url).chain("X/tx").range(-1, count=3)
                error = None
            except ad.InvalidParameterError as exc:
                error = type(exc).__name__
            seen["after_walks"] = [m for m in heavy if m in sys.modules]
            with ad.IndexClient(emu.url) as node:
                frame = node.chain("X/tx").range(10, 15).to_polars()
            import polars as pl
            print(json.dumps({{
                **seen,
                "indexes": [r["index"] for r in rows],
                "types": sorted({{type(r).__name__ for r in rows}}),
                "last": last["index"],
                "pages": pages,
                "blocks": len(blocks),
                "block_numbers_descend": all(a["blockNumber"] > b["blockNumber"] for a, b in zip(blocks, blocks[1:])),
                "status": status,
                "async": async_indexes,
                "error": error,
                "frame_is_polars": isinstance(frame, pl.DataFrame),
                "frame_indexes": frame["index"].to_list(),
                "polars_loaded_at_end": "polars" in sys.modules,
            }}))
    """)
    assert out["after_import"] == []
    assert out["after_walks"] == []
    assert out["indexes"] == list(range(10, 25))
    assert out["types"] == ["dict"]
    assert out["last"] == 59
    assert out["pages"] == [10, 10, 5]
    assert out["blocks"] == 30 and out["block_numbers_descend"] is True
    assert out["status"] == "ok"
    assert out["async"] == [0, 1, 2, 3, 4]
    assert out["error"] == "InvalidParameterError"
    assert out["frame_is_polars"] is True and out["frame_indexes"] == [10, 11, 12, 13, 14]
    assert out["polars_loaded_at_end"] is True


def test_cli_help_and_json_commands_leave_polars_unloaded() -> None:
    out = run_fresh(f"""
        import contextlib, io, json, sys
        import avax_data as ad
        from avax_data.cli import main
        heavy = {HEAVY!r}
        help_text = io.StringIO()
        with contextlib.redirect_stdout(help_text):
            try:
                main(["--help"])
            except SystemExit as stop:
                help_code = stop.code
        after_help = [m for m in heavy if m in sys.modules]
        with ad.Emulator(seed=5, containers=30) as emu:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                code = main(["index", "last", "--url", emu.url, "--chain", "X/tx"])
            expected = emu.expected_container("X/tx", 29)
        print(json.dumps({{
            "help_code": help_code,
            "help_mentions_index": "index" in help_text.getvalue(),
            "after_help": after_help,
            "code": code,
            "last": json.loads(printed.getvalue()),
            "expected_id": expected["id"],
            "after_json": [m for m in heavy if m in sys.modules],
        }}))
    """)
    assert out["help_code"] in (0, None) and out["help_mentions_index"] is True
    assert out["after_help"] == []
    assert out["code"] == 0
    assert out["last"]["index"] == 29 and out["last"]["id"] == out["expected_id"]
    assert out["last"]["bytes"].startswith("0x")
    assert out["after_json"] == []


def test_decode_functions_load_polars_when_called() -> None:
    out = run_fresh("""
        import json, sys
        import avax_data as ad
        before = "polars" in sys.modules
        with ad.Emulator(seed=5, containers=10) as emu:
            with ad.IndexClient(emu.url) as node:
                raw = node.chain("P/block").container(2)["bytes"]
                still_unloaded = "polars" not in sys.modules
                row = ad.decode_container("P/block", raw)
                frame = node.chain("P/block").range(0, 3).to_polars()
                decoded = ad.decode_frame("P/block", frame)
        print(json.dumps({"before": before, "still_unloaded": still_unloaded, "error": row["decode_error"],
                          "kind": row["block_type"], "frame_kinds": decoded["block_type"].to_list()}))
    """)
    assert out["before"] is False and out["still_unloaded"] is True
    assert out["error"] is None
    assert out["frame_kinds"][2] == out["kind"]
    assert len(out["frame_kinds"]) == 3


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The sub-commands of ``parser`` by name (empty when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _tree(parser: argparse.ArgumentParser) -> dict[str, object]:
    """What a parser accepts: its options and positionals, and its sub-commands' trees."""
    return {"args": sorted("/".join(a.option_strings) or a.dest for a in parser._actions),
            "commands": {name: _tree(sub) for name, sub in _commands(parser).items()}}


def test_a_command_line_builds_its_own_command_alone_and_the_same_one() -> None:
    from avax_data.cli.app import COMMANDS, build_parser

    full = _commands(build_parser())
    assert list(full) == list(COMMANDS)  # every top-level command is listed, in --help's order
    assert len(_commands(full["data"])) > 50  # what building a command alone saves
    for name in COMMANDS:
        alone = _commands(build_parser(name))
        assert list(alone) == [name]
        assert _tree(alone[name]) == _tree(full[name])
