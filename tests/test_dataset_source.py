"""A dataset is bound to its source: the network of an index (its container 0), the base URL of
a Data or Metrics API service. A write from another source is refused, naming both, before any
file is touched; a dataset an earlier version wrote (no source recorded) takes the source of its
next write; `verify` reports partitions recorded from another source."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

import avax_data as ad

MANIFEST = "_avax_dataset.json"


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (the lock file aside: taken by every writer)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "_avax_dataset.lock"}


def container0(url: str) -> str:
    return ad.IndexClient(url).chain("X/tx").container(0)["id"]


def test_an_index_dataset_of_another_network_is_refused_naming_both(tmp_path: Path) -> None:
    with ad.Emulator(containers=300, seed=1) as one, ad.Emulator(containers=300, seed=2) as two:
        ad.IndexClient(one.url).chain("X/tx").range(0, 250).write_dataset(tmp_path, chunk=100)
        before = files(tmp_path)
        rng = ad.IndexClient(two.url).chain("X/tx").range(0, 300)
        with pytest.raises(ad.InvalidParameterError) as refused:
            rng.write_dataset(tmp_path, chunk=100)
        message = str(refused.value)
        assert f"its rows come from the network whose container 0 is {container0(one.url)}" in message
        assert f"this write reads the network whose container 0 is {container0(two.url)}" in message
        assert rng.next_index == 0
        assert files(tmp_path) == before, "no file touched"
        # the same network's rerun completes it
        done = ad.IndexClient(one.url).chain("X/tx").range(0, 300).write_dataset(tmp_path, chunk=100)
        assert (done["partitions_skipped"], done["partitions_written"]) == (2, 1)
        network = container0(one.url)
    report = ad.verify_dataset(tmp_path)
    assert report["ok"] and report["other_source"] == [] and report["rows"] == 300
    assert report["source"] == f"the network whose container 0 is {network}"


def hosted_elsewhere(directory: Path, url: str) -> None:
    """Edit the manifest of ``directory`` as if its rows came from the service at ``url``."""
    manifest = json.loads((directory / MANIFEST).read_text())
    manifest["origin"] = {"service": {"base_url": url}}
    for partition in manifest["partitions"]:
        partition["origin"] = manifest["origin"]
    (directory / MANIFEST).write_text(json.dumps(manifest))


def test_a_data_list_and_a_metric_series_of_another_service_are_refused(tmp_path: Path) -> None:
    window = {"interval": "day", "start": "2025-11-01", "end": "2026-01-01"}
    with ad.Emulator(data_blocks_per_chain=300) as one, ad.Emulator(data_blocks_per_chain=300) as two:
        blocks, series = tmp_path / "blocks", tmp_path / "series"
        ad.DataClient(base_url=one.url).blocks("43114", page_size=100).write_dataset(blocks, chunk=100)
        ad.MetricsClient(base_url=one.url).write_dataset(series, "43114", "txCount", **window)
        for directory in (blocks, series):
            assert json.loads((directory / MANIFEST).read_text())["origin"] == {"service": {"base_url": one.url}}
        # a service on this machine is one source whatever its port (the emulator's changes per run)
        again = ad.DataClient(base_url=two.url).blocks("43114", page_size=100).write_dataset(blocks, chunk=100)
        assert again["partitions_skipped"] == 3
        # rows of a service elsewhere
        hosted_elsewhere(blocks, "https://data-api.example")
        hosted_elsewhere(series, "https://metrics.example")
        before = files(blocks), files(series)
        with pytest.raises(ValueError, match=rf"/v1/chains/43114/blocks: its rows come from the service at "
                                             rf"https://data-api.example; this write reads the service at {one.url}"):
            ad.DataClient(base_url=one.url).blocks("43114", page_size=100).write_dataset(blocks, chunk=100)
        with pytest.raises(ValueError, match=r"43114/txCount/day: its rows come from the service at "
                                             r"https://metrics.example"):
            ad.MetricsClient(base_url=one.url).write_dataset(series, "43114", "txCount", **window)
        assert (files(blocks), files(series)) == before, "no file touched"


def test_a_dataset_without_a_recorded_source_adopts_the_next_writers(tmp_path: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    with ad.Emulator(containers=300, seed=1) as one, ad.Emulator(containers=300, seed=2) as two:
        ad.IndexClient(one.url).chain("X/tx").range(0, 200).write_dataset(tmp_path, chunk=100)
        manifest = json.loads((tmp_path / MANIFEST).read_text())
        manifest.pop("origin")  # as a version before sources were recorded wrote it
        for partition in manifest["partitions"]:
            partition.pop("origin")
        (tmp_path / MANIFEST).write_text(json.dumps(manifest))
        assert ad.verify_dataset(tmp_path)["source"] is None
        with caplog.at_level(logging.WARNING, logger="avax_data"):
            ad.reset_logging()
            ad.IndexClient(two.url).chain("X/tx").range(0, 300).write_dataset(tmp_path, chunk=100)
        ad.reset_logging()
        assert "its manifest records no source (written by an earlier version)" in caplog.text
        assert f"container 0 is {container0(two.url)}" in caplog.text
        with pytest.raises(ValueError, match="a dataset of the same source"):
            ad.IndexClient(one.url).chain("X/tx").range(0, 300).write_dataset(tmp_path, chunk=100)


def test_verify_reports_partitions_recorded_from_another_source(tmp_path: Path) -> None:
    with ad.Emulator(containers=300, seed=1) as one:
        ad.IndexClient(one.url).chain("X/tx").range(0, 300).write_dataset(tmp_path, chunk=100)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["partitions"][1]["origin"] = {"network": {"container0": "2ZanotherNetwork"}}
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    report = ad.verify_dataset(tmp_path)
    assert report["other_source"] == ["chunk=100/part.parquet"] and not report["ok"]
    res = subprocess.run([sys.executable, "-m", "avax_data", "dataset", "verify", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 1, res.stderr
    assert "from another source: chunk=100/part.parquet" in res.stdout.splitlines()
    assert res.stdout.splitlines()[0].endswith(", from " + report["source"])
