"""Against a real node (``AVAX_NODE_URL``); run with ``AVAX_LIVE=1``."""

from __future__ import annotations

import datetime
import os

import pytest

import avax_data as ad

pytestmark = pytest.mark.live


def test_last_accepted_on_a_real_node() -> None:
    url = os.environ.get("AVAX_NODE_URL")
    if not url:
        pytest.skip("set AVAX_NODE_URL to a node started with --index-enabled")
    with ad.IndexClient(url) as node:
        last = node.chain("X/tx").last_accepted()
    assert last["index"] >= 0
    assert last["encoding"] == "hex"
    assert last["timestamp"].utcoffset() == datetime.timedelta(0)
    assert last["timestamp"] < datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5)
