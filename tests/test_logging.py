"""Log records of the Rust core reach Python's ``logging`` under the ``avax_data`` logger: a
re-requested short answer and a waited-for lagging node at INFO, a resumed walk at DEBUG; with the
logger above a level, nothing of that level is emitted."""

from __future__ import annotations

import logging

import pytest

import avax_data as ad


def test_resumes_and_re_requests_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="avax_data")
    # Every range call answered short: which calls a rate below 1 cuts depends on how many the
    # broken iteration's read-ahead sent before it was dropped (the draws go by arrival), so
    # only this rate makes the resumed walk meet a short batch however that race falls.
    with ad.Emulator(containers=3_000, faults={"short_batch": 1.0}, fault_seed=3) as emu:
        with ad.IndexClient(emu.url, concurrency=1) as node:
            rng = node.chain("X/tx").range(0, 3_000)
            for c in rng:
                if c["index"] == 10:
                    break
            assert rng.to_polars().height == 2_989
    records = [(r.name, r.levelno, r.getMessage()) for r in caplog.records if r.name.startswith("avax_data")]
    assert any(level == logging.INFO and "asking again from" in msg and name == "avax_data.index.chunk"
               for name, level, msg in records), records
    assert any(level == logging.DEBUG and "resumes the walk at index 11" in msg for _, level, msg in records), records


def test_a_level_above_leaves_the_records_out(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="avax_data")
    ad.reset_logging()
    with ad.Emulator(containers=2_000, faults={"short_batch": 0.5}, fault_seed=3) as emu:
        assert ad.IndexClient(emu.url).chain("X/tx").range(0, 2_000).to_polars().height == 2_000
    assert not [r for r in caplog.records if r.name.startswith("avax_data") and r.levelno < logging.WARNING]


def test_requests_retries_and_redirects_are_logged_without_the_key(caplog: pytest.LogCaptureFixture) -> None:
    """Each request at DEBUG; a retry (error and wait) and a followed redirect at INFO; the API
    key never appears, not even when the server echoes it."""
    key = "sekret-key-for-the-log-test"
    caplog.set_level(logging.DEBUG, logger="avax_data")
    with ad.Emulator(data_blocks_per_chain=300, faults={"503": 0.3, "redirect_same_origin": 0.3},
                     fault_seed=5) as emu:
        with ad.DataClient(emu.url, api_key=key, backoff=0.01, max_backoff=0.02, max_retries=20) as data:
            assert data.blocks("43114", page_size=20).to_polars().height == 300
        counts = emu.fault_counts()
    assert counts["503"] >= 1 and counts["redirect_same_origin"] >= 1
    records = [(r.name, r.levelno, r.getMessage()) for r in caplog.records if r.name.startswith("avax_data")]
    transport = [(level, msg) for name, level, msg in records if name == "avax_data.transport"]
    assert any(level == logging.DEBUG and msg.startswith("GET ") and ": HTTP 200" in msg for level, msg in transport)
    assert any(level == logging.INFO and "HTTP 503" in msg and "retrying in" in msg for level, msg in transport)
    assert any(level == logging.INFO and "following the redirect to" in msg for level, msg in transport)
    assert not [msg for _, _, msg in records if key in msg]
