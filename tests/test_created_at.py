"""One type per concept (issue 34, section 3): a webhook's ``createdAt``, a ``number`` whose unit the
Data API document does not give, is a time like every other timestamp: Datetime("ns", "UTC") in
frames and an aware ``datetime`` in dicts, read as Unix seconds below 10^11 and milliseconds from
10^11, the same in both, through ``to_polars``, iteration, ``get`` answers and Parquet."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from test_endpoints import scripted  # noqa: F401  (the scripted-server fixture)

import avax_data as ad

SECONDS = 1_715_621_587  # 2024-05-13T17:33:07Z
AT = dt.datetime(2024, 5, 13, 17, 33, 7, tzinfo=dt.UTC)


def hook(n: int, created: object) -> dict[str, object]:
    return {"id": f"w{n}", "url": "https://example.com/hook", "chainId": "43114", "status": "active",
            "createdAt": created, "name": f"hook {n}", "description": "", "eventType": "address_activity",
            "metadata": {"addresses": ["0x" + "1" * 40]}}


def test_created_at_reads_as_a_time_in_seconds_or_milliseconds(scripted, tmp_path) -> None:  # noqa: F811
    created = [SECONDS, SECONDS * 1000 + 250, float(SECONDS) + 0.5, None]
    scripted.pages["/v1/webhooks"] = {None: {"webhooks": [hook(n, c) for n, c in enumerate(created)]}}
    scripted.pages["/v1/webhooks/w1"] = {None: hook(1, SECONDS * 1000 + 250)}
    want = [AT, AT + dt.timedelta(milliseconds=250), AT + dt.timedelta(milliseconds=500), None]
    with ad.DataClient(base_url=scripted.url, api_key="k", max_retries=0) as data:
        frame = data.webhooks().to_polars()
        rows = list(data.webhooks())
        one = data.webhook("w1")
        data.webhooks().write_parquet(tmp_path / "w.parquet")
    assert frame.schema["createdAt"] == pl.Datetime("ns", "UTC")
    assert frame["createdAt"].to_list() == want
    assert [r["createdAt"] for r in rows] == want
    assert one["createdAt"] == want[1] and one["createdAt"].tzinfo is not None
    assert pl.read_parquet(tmp_path / "w.parquet")["createdAt"].to_list() == want


@pytest.mark.parametrize("bad", ['"soon"', "1e300", "true"])
def test_a_created_at_that_is_no_time_is_refused_naming_it(scripted, bad: str) -> None:  # noqa: F811
    import json

    scripted.pages["/v1/webhooks"] = {None: {"webhooks": [hook(0, json.loads(bad))]}}
    with ad.DataClient(base_url=scripted.url, api_key="k", max_retries=0) as data:
        with pytest.raises(ad.DecodeError, match=r'field "createdAt": .* is not a Unix time'):
            data.webhooks().to_polars()
        with pytest.raises(ad.DecodeError, match=r'field "createdAt": .* is not a Unix time'):
            list(data.webhooks())


def test_the_emulators_webhooks_carry_a_recent_created_at() -> None:
    with ad.Emulator(containers=10, data_blocks_per_chain=50) as emu:
        with ad.DataClient(base_url=emu.url, api_key="k") as data:
            frame = data.webhooks(limit=3).to_polars()
    assert frame.schema["createdAt"] == pl.Datetime("ns", "UTC") and frame.height > 0
    assert frame["createdAt"].min() > dt.datetime(2019, 1, 1, tzinfo=dt.UTC)
