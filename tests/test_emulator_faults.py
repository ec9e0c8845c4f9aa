"""The emulator's fault injection from Python: the knobs, their validation, the counters and the
request log, the pytest marker and factory, the command line; and walks of each API under faults,
which must return exactly the fault-free rows.

Retryable kinds (5xx, 429, reset, cut and truncated bodies, short batches, lagging tips,
same-origin redirects) must leave walks equal to the fault-free walk; the others (malformed JSON,
repeated tokens, JSON-RPC errors, bad checksums, cross-origin redirects, bombs) must raise a
typed error at once, with the walk's resume position.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request

import polars as pl
import pytest

import avax_data as ad
from _helpers import emulator_process
from avax_data.testing import Emulator

KINDS = ["reset", "500", "502", "503", "429", "redirect_same_origin", "redirect_cross_origin", "rpc_error",
         "lagging_tip", "short_batch", "bad_checksum", "repeated_token", "cut", "truncated_json",
         "malformed_json", "slow_body", "oversized", "gzip_bomb"]
LAST = {"jsonrpc": "2.0", "id": 1, "method": "index.getLastAccepted", "params": {"encoding": "hex"}}
#: Retryable kinds, each at 4%: about one request in five meets one of them.
RETRYABLE = {"500": 0.04, "502": 0.04, "503": 0.04, "429": 0.04, "reset": 0.04}


def status_of(url: str, path: str = "/ext/index/X/tx") -> int:
    """HTTP status of a getLastAccepted POST (no redirects followed)."""
    req = urllib.request.Request(url + path, data=json.dumps(LAST).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            resp.read()
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def fast_retries(**kwargs: object) -> dict:
    """Client options: enough quick retries for the fault rates used here."""
    return {"max_retries": 8, "backoff": 0.01, "max_backoff": 0.05, **kwargs}


# ---- knobs ----

def test_faults_are_set_at_construction_and_at_run_time() -> None:
    with Emulator(faults={"502": 0.05, "short_batch": 0.1}, fault_seed=7, containers=10) as emu:
        assert emu.faults() == {"502": 0.05, "short_batch": 0.1}
        assert emu.fault_seed == 7
        assert emu.fault_counts() == {}
        emu.set_faults({"503": 1.0}, fault_seed=3)
        assert emu.faults() == {"503": 1.0} and emu.fault_seed == 3
        assert status_of(emu.url) == 503
        emu.set_faults(None)
        assert emu.faults() == {}
        assert status_of(emu.url) == 200
        emu.set_faults({"503": 0.0})
        assert emu.faults() == {} and status_of(emu.url) == 200
        assert emu.fault_counts() == {"503": 1}, "counters are kept across set_faults"


def test_every_kind_is_accepted() -> None:
    with Emulator(faults={kind: 0.0 for kind in KINDS}, containers=10) as emu:
        emu.set_faults({kind: 0.01 for kind in KINDS}, fault_seed=1)
        assert sorted(emu.faults()) == sorted(KINDS)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"faults": {"404": 0.1}}, ["faults", '"404"', "short_batch", "gzip_bomb", "502"]),
        ({"faults": {"502": 1.5}}, ["faults", "502=1.5", "[0, 1]"]),
        ({"faults": {"502": -0.1}}, ["faults", "502=-0.1", "[0, 1]"]),
        ({"faults": {"502": float("nan")}}, ["faults", "502=NaN", "[0, 1]"]),
        ({"faults": {"502": "often"}}, ["faults", "502='often'", "a number"]),
        ({"faults": {"502": True}}, ["faults", "502=True", "a number"]),
        ({"faults": "502=0.1"}, ["faults", "a dict"]),
        ({"faults": {"502": 0.1}, "fault_options": {"lag": 0}}, ["fault_options", "lag=0", ">= 1"]),
        ({"fault_options": {"retry_after": 1.5}}, ["fault_options", "retry_after=1.5", "whole seconds"]),
        ({"fault_options": {"speed": 1}}, ["fault_options", '"speed"', "slow_body_pause", "gzip_bomb_bytes"]),
    ],
)
def test_bad_faults_raise_value_errors_naming_parameter_value_and_allowed(kwargs: dict, words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        Emulator(**kwargs)
    assert isinstance(info.value, ad.InvalidParameterError)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    with Emulator(containers=10) as emu, pytest.raises(ad.InvalidParameterError):
        emu.set_faults(**kwargs)
    assert emu.faults() == {}


def test_counters_by_kind_and_path_and_the_request_log() -> None:
    with Emulator(faults={"503": 1.0}, containers=10) as emu:
        for path in ["/ext/index/X/tx", "/ext/index/X/tx", "/ext/index/C/block"]:
            assert status_of(emu.url, path) == 503
        assert emu.fault_counts() == {"503": 3}
        assert emu.fault_counts_by_path() == {("503", "/ext/index/X/tx"): 2, ("503", "/ext/index/C/block"): 1}
        log = emu.request_log()
        assert [path for _, path in log] == ["/ext/index/X/tx", "/ext/index/X/tx", "/ext/index/C/block"]
        times = [t for t, _ in log]
        assert times == sorted(times) and times[0] >= 0.0
        assert emu.request_count() == 3


def test_the_same_seed_faults_the_same_requests() -> None:
    def statuses(seed: int) -> list[int]:
        with Emulator(faults={"502": 0.3}, fault_seed=seed, containers=10) as emu:
            return [status_of(emu.url) for _ in range(60)]

    first = statuses(5)
    assert first == statuses(5)
    assert first != statuses(6)
    assert 8 <= first.count(502) <= 30


# ---- pytest plugin ----

@pytest.mark.avax_emulator(faults={"503": 1.0}, fault_seed=4, containers=20)
def test_marker_passes_faults_to_the_fixture(avax_emulator: Emulator, avax_index_client: ad.IndexClient) -> None:
    assert avax_emulator.faults() == {"503": 1.0} and avax_emulator.fault_seed == 4
    assert avax_emulator.container_count("X/tx") == 20
    with pytest.raises(ad.ServerError):
        avax_index_client.chain("X/tx").last_accepted()
    assert avax_emulator.fault_counts()["503"] >= 1


def test_fixture_without_marker_has_no_faults(avax_emulator: Emulator) -> None:
    assert avax_emulator.faults() == {}


def test_factory_starts_emulators_with_faults(avax_emulator_factory) -> None:
    noisy = avax_emulator_factory(faults={"502": 1.0}, containers=5)
    quiet = avax_emulator_factory(containers=5)
    assert (status_of(noisy.url), status_of(quiet.url)) == (502, 200)
    assert noisy.fault_counts() == {"502": 1} and quiet.fault_counts() == {}


# ---- command line ----

def test_cli_serves_with_faults() -> None:
    with emulator_process("--containers", "50", "--faults", "503=1,short_batch=0.1", "--fault-seed", "7") as proc:
        assert proc.stdout is not None
        url = next(word for word in proc.stdout.readline().split() if word.startswith("http://"))
        faults_line = proc.stdout.readline()
        assert "503=1" in faults_line and "short_batch=0.1" in faults_line and "seed 7" in faults_line
        assert status_of(url) == 503


@pytest.mark.parametrize(("value", "word"), [("503", "kind=rate"), ("503=x", "not a number"), ("404=0.1", "404"),
                                             ("503=2", "[0, 1]")])
def test_cli_refuses_bad_faults(value: str, word: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "avax_data", "emulator", "--port", "0", "--faults", value],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc
    assert word in proc.stderr, proc.stderr


# ---- walks under faults ----

N_INDEX = 6000


def index_rows(url: str, **client: object) -> pl.DataFrame:
    with ad.IndexClient(url, **fast_retries(**client)) as node:
        return node.chain("X/tx").range(0, N_INDEX, concurrency=4, batch_size=50).to_polars()


@pytest.fixture(scope="module")
def index_truth() -> pl.DataFrame:
    with Emulator(containers={"X/tx": N_INDEX}) as emu:
        return index_rows(emu.url)


def test_index_walk_survives_retryable_faults_and_short_batches(index_truth: pl.DataFrame) -> None:
    faults = {**RETRYABLE, "short_batch": 0.15}  # about 160 calls: each kind meets several
    with Emulator(containers={"X/tx": N_INDEX}, faults=faults, fault_seed=7, fault_options={"retry_after": 0}) as emu:
        rows = index_rows(emu.url)
        counts = emu.fault_counts()
    assert rows.height == N_INDEX
    assert rows.equals(index_truth)
    assert set(counts) >= {"reset", "500", "502", "503", "429", "short_batch"}, counts
    assert counts["short_batch"] >= 5, counts


def test_index_walk_survives_a_lagging_tip(index_truth: pl.DataFrame) -> None:
    # The node is 60 containers behind on lagging answers: its older tip falls 10 before the
    # range's end, so the last calls are cut short or answered "past the tip" and must be retried.
    with Emulator(containers={"X/tx": N_INDEX + 50}, faults={"lagging_tip": 0.3}, fault_seed=7,
                  fault_options={"lag": 60}) as emu:
        rows = index_rows(emu.url)
        assert emu.fault_counts()["lagging_tip"] >= 1
    assert rows.equals(index_truth)


def test_index_walk_to_the_tip_ends_at_the_tip_it_read_under_a_lagging_node(index_truth: pl.DataFrame) -> None:
    """A walk to the tip ends at the tip its first read saw (``Range.end``), even when that read
    came from a lagging node: the rows are exactly the node's up to there, none cut short by a
    later lagging answer, and a second walk from ``end`` brings the rest without a gap."""
    with Emulator(containers={"X/tx": N_INDEX}, faults={"lagging_tip": 0.3}, fault_seed=7,
                  fault_options={"lag": 10}) as emu, ad.IndexClient(emu.url, **fast_retries()) as node:
        walk = node.chain("X/tx").range(0, concurrency=4)
        first = walk.to_polars()
        assert walk.end is not None and walk.end in (N_INDEX - 10, N_INDEX)
        assert first.equals(index_truth.head(walk.end))
        emu.set_faults({})
        rest = node.chain("X/tx").range(walk.end).to_polars()
    assert pl.concat([first, rest]).equals(index_truth)


def test_index_walk_survives_cut_bodies(index_truth: pl.DataFrame) -> None:
    """A body cut mid-way fails the read like a broken connection, which is retried."""
    with Emulator(containers={"X/tx": N_INDEX}, faults={"cut": 0.1}, fault_seed=7) as emu:
        rows = index_rows(emu.url)
        assert emu.fault_counts()["cut"] >= 3
    assert rows.equals(index_truth)


@pytest.mark.parametrize("kind", ["truncated_json"])
def test_index_walk_survives_broken_answers(index_truth: pl.DataFrame, kind: str) -> None:
    """A truncated body is retried like a broken connection, so the walk still returns exactly
    the node's rows."""
    with Emulator(containers={"X/tx": N_INDEX}, faults={kind: 0.1}, fault_seed=7) as emu:
        rows = index_rows(emu.url)
        assert emu.fault_counts()[kind] >= 1
    assert rows.equals(index_truth)


def test_index_cross_origin_redirect_is_a_typed_error_naming_the_target() -> None:
    with Emulator(containers=10, faults={"redirect_cross_origin": 1.0}) as emu, ad.IndexClient(emu.url) as node:
        with pytest.raises(ad.AvaxDataError) as info:
            node.chain("X/tx").last_accepted()
        assert emu.second_url in str(info.value)
        assert [path for _, path in emu.request_log()] == ["/ext/index/X/tx"], "the other origin is never asked"


def test_index_same_origin_redirects_are_followed(index_truth: pl.DataFrame) -> None:
    with Emulator(containers={"X/tx": N_INDEX}, faults={"redirect_same_origin": 0.2}, fault_seed=7) as emu:
        rows = index_rows(emu.url)
        assert emu.fault_counts()["redirect_same_origin"] >= 1
    assert rows.equals(index_truth)


def test_index_gzip_bomb_stops_at_the_body_limit() -> None:
    with Emulator(containers=10, faults={"gzip_bomb": 1.0}, fault_options={"gzip_bomb_bytes": 32 << 20}) as emu:
        with ad.IndexClient(emu.url, max_response_bytes=1 << 20, max_retries=0) as node:
            with pytest.raises(ad.AvaxDataError, match="1048576"):
                node.chain("X/tx").last_accepted()


N_DATA = 600


def data_rows(url: str) -> list[dict]:
    with ad.DataClient(base_url=url, **fast_retries()) as data:
        return list(data.blocks("43114", page_size=20))


@pytest.fixture(scope="module")
def data_truth() -> list[dict]:
    with Emulator(data_blocks_per_chain=N_DATA, containers=10) as emu:
        return data_rows(emu.url)


def test_data_walk_survives_retryable_faults(data_truth: list[dict]) -> None:
    faults = {kind: 0.08 for kind in RETRYABLE}
    with Emulator(data_blocks_per_chain=N_DATA, containers=10, faults=faults, fault_seed=3,
                  fault_options={"retry_after": 0}) as emu:
        rows = data_rows(emu.url)
        counts = emu.fault_counts()
    assert len(rows) == N_DATA
    assert rows == data_truth
    assert sum(counts.values()) >= 5 and set(counts) <= set(RETRYABLE), counts


def test_data_walk_survives_cut_pages(data_truth: list[dict]) -> None:
    with Emulator(data_blocks_per_chain=N_DATA, containers=10, faults={"cut": 0.15}, fault_seed=3) as emu:
        rows = data_rows(emu.url)
        assert emu.fault_counts()["cut"] >= 1
    assert rows == data_truth


@pytest.mark.parametrize("kind", ["truncated_json"])
def test_data_walk_survives_broken_pages(data_truth: list[dict], kind: str) -> None:
    with Emulator(data_blocks_per_chain=N_DATA, containers=10, faults={kind: 0.15}, fault_seed=3) as emu:
        rows = data_rows(emu.url)
        assert emu.fault_counts()[kind] >= 1
    assert rows == data_truth


def metric_rows(url: str, concurrency: int) -> pl.DataFrame:
    with ad.MetricsClient(base_url=url, **fast_retries()) as m:
        # The world's last 30 hours (its series reach back to the C-Chain's launch), open to 2038.
        pager = m.metric("43114", "txCount", interval="hour", start=1_767_225_600 - 30 * 3_600, end=2**31,
                         page_size=2, concurrency=concurrency)
        return pager.to_polars()


@pytest.fixture(scope="module")
def metrics_emu() -> Emulator:
    """One emulator for the Metrics walks (about 30 hourly points); each test sets its faults."""
    with Emulator(data_blocks_per_chain=50_000, containers=10) as emu:
        yield emu


@pytest.fixture(scope="module")
def metric_truth(metrics_emu: Emulator) -> pl.DataFrame:
    return metric_rows(metrics_emu.url, 1)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_metrics_walk_survives_retryable_faults(metrics_emu: Emulator, metric_truth: pl.DataFrame,
                                                concurrency: int) -> None:
    before = sum(metrics_emu.fault_counts().values())
    metrics_emu.set_faults({kind: 0.08 for kind in RETRYABLE}, fault_seed=5, fault_options={"retry_after": 0})
    try:
        rows = metric_rows(metrics_emu.url, concurrency)
    finally:
        metrics_emu.set_faults(None)
    assert metric_truth.height > 20, "many pages"
    assert rows.equals(metric_truth)
    assert sum(metrics_emu.fault_counts().values()) - before >= 2


@pytest.mark.parametrize("kind", ["truncated_json"])
def test_metrics_walk_survives_broken_pages(metrics_emu: Emulator, metric_truth: pl.DataFrame, kind: str) -> None:
    metrics_emu.set_faults({kind: 0.3}, fault_seed=5)
    try:
        rows = metric_rows(metrics_emu.url, 1)
    finally:
        metrics_emu.set_faults(None)
    assert metrics_emu.fault_counts()[kind] >= 1
    assert rows.equals(metric_truth)


@pytest.mark.parametrize(("kind", "error"), [("malformed_json", "DecodeError"), ("rpc_error", "RPCError"),
                                             ("bad_checksum", "IntegrityError")])
def test_index_walk_stops_with_a_typed_error_and_its_resume_position_on_bad_answers(kind: str, error: str) -> None:
    """Malformed JSON, a JSON-RPC error and a bad checksum are not retried: the walk raises the
    typed error with where it resumes, and resuming after the fault is switched off completes it."""
    with Emulator(containers={"X/tx": N_INDEX}, faults={kind: 1.0}) as emu, \
            ad.IndexClient(emu.url, **fast_retries()) as node:
        walk = node.chain("X/tx").range(0, N_INDEX, concurrency=4)
        with pytest.raises(getattr(ad, error)) as info:
            walk.to_polars()
        assert info.value.next_index == 0, "to_polars is all or nothing"
        emu.set_faults(None)
        assert walk.to_polars()["index"].to_list() == list(range(N_INDEX))


def test_data_walk_raises_on_a_repeated_page_token_and_on_malformed_pages() -> None:
    """A server that answers a used page token again, or sends malformed JSON, stops the walk
    with a DecodeError at once (never a loop, never a silent end)."""
    for kind in ("repeated_token", "malformed_json"):
        with Emulator(data_blocks_per_chain=N_DATA, containers=10, faults={kind: 1.0}) as emu, \
                ad.DataClient(base_url=emu.url, **fast_retries()) as data:
            pager = data.blocks("43114", page_size=20)
            with pytest.raises(ad.DecodeError):
                list(pager)
            assert emu.request_count() <= 2 + (kind == "repeated_token"), kind
