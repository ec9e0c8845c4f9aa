"""A client built from Python with no arguments has the settings of the same client built from
Rust with no arguments (the core's ``from_defaults()``): the bindings add no default, environment
variable or limit of their own (issue 22)."""

from __future__ import annotations

import pytest

import avax_data as ad
from avax_data import _native

ENV = ("AVAX_NODE_URL", "AVAX_DATA_API_URL", "AVAX_DATA_API_KEY", "AVAX_METRICS_API_URL")
CLIENTS = {"IndexClient": ad.IndexClient, "DataClient": ad.DataClient, "MetricsClient": ad.MetricsClient}


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in ENV:
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_no_arguments_give_the_cores_defaults(name: str, no_env: pytest.MonkeyPatch) -> None:
    rust = _native._default_settings(name)
    with CLIENTS[name]() as client:
        assert _native._client_settings(client) == rust
    rows = dict(rust)
    assert rows["timeout"] == "30s" and rows["connect_timeout"] == "10s"
    assert rows["max_response_bytes"] == str(256 * 1024 * 1024)
    assert rows["retry"].startswith("RetryPolicy { max_retries: 3, ")
    assert rows["follow_cross_origin_redirects"] == "false"


def test_the_default_services(no_env: pytest.MonkeyPatch) -> None:
    # The public services when nothing is set (the docs name them).
    rows = {name: dict(_native._default_settings(name)) for name in CLIENTS}
    assert rows["IndexClient"]["url"].startswith("https://api.avax.network")
    assert rows["DataClient"]["url"].startswith("https://data-api.avax.network")
    assert rows["MetricsClient"]["url"].startswith("https://metrics.avax.network")
    assert rows["IndexClient"]["concurrency"] == "4" and rows["MetricsClient"]["concurrency"] == "4"
    assert rows["DataClient"]["api_key"] == "none"


def test_the_environment_is_read_by_the_core(no_env: pytest.MonkeyPatch) -> None:
    no_env.setenv("AVAX_NODE_URL", "http://127.0.0.1:9")
    no_env.setenv("AVAX_DATA_API_URL", "http://127.0.0.1:8")
    no_env.setenv("AVAX_DATA_API_KEY", "a-key")
    no_env.setenv("AVAX_METRICS_API_URL", "http://127.0.0.1:7")
    for name, port in (("IndexClient", 9), ("DataClient", 8), ("MetricsClient", 7)):
        rust = _native._default_settings(name)
        assert f"127.0.0.1:{port}" in dict(rust)["url"], name
        with CLIENTS[name]() as client:
            assert _native._client_settings(client) == rust, name
    data = dict(_native._default_settings("DataClient"))
    assert data["api_key"] == "set" and "a-key" not in repr(data)  # the key is never shown
    # A blank variable is not a URL: the default is used.
    no_env.setenv("AVAX_NODE_URL", "  ")
    assert dict(_native._default_settings("IndexClient"))["url"].startswith("https://api.avax.network")


def test_given_arguments_are_reported() -> None:
    with ad.IndexClient("http://127.0.0.1:9", concurrency=7, max_retries=0, timeout=2.5) as client:
        rows = dict(_native._client_settings(client))
    assert rows["concurrency"] == "7" and rows["timeout"] == "2.5s"
    assert rows["retry"].startswith("RetryPolicy { max_retries: 0, ")


def test_the_cores_rules_refuse_before_any_request() -> None:
    # The concurrency limit (the core's MAX_CONCURRENCY) and the retry= / max_retries= rule.
    with pytest.raises(ad.InvalidParameterError, match=r"invalid concurrency=65: an int in \[1, 64\]"):
        ad.IndexClient("http://127.0.0.1:9", concurrency=65)
    with pytest.raises(ad.InvalidParameterError, match=r"with backoff=: a RetryPolicy, or max_retries/backoff/"):
        ad.IndexClient("http://127.0.0.1:9", retry=ad.RetryPolicy(), backoff=0.1)
    with pytest.raises(ad.InvalidParameterError, match=r"invalid name=\"Nope\""):
        _native._default_settings("Nope")
    with pytest.raises(ad.InvalidParameterError, match=r"invalid client=str"):
        _native._client_settings("not a client")
