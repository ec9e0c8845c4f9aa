"""The exception hierarchy: classes, attributes, messages, status mapping, pickling."""

from __future__ import annotations

import inspect
import pickle

import pytest

import avax_data as ad
from avax_data import exceptions as ex

HIERARCHY = {
    ex.InvalidParameterError: (ex.AvaxDataError, ValueError),
    ex.AuthenticationError: (ex.AvaxDataError,),
    ex.TransportError: (ex.AvaxDataError,),
    ex.ConnectError: (ex.TransportError,),
    ex.RequestTimeoutError: (ex.TransportError,),
    ex.HTTPStatusError: (ex.AvaxDataError,),
    ex.BadRequestError: (ex.HTTPStatusError,),
    ex.UnauthorizedError: (ex.HTTPStatusError,),
    ex.ForbiddenError: (ex.HTTPStatusError,),
    ex.NotFoundError: (ex.HTTPStatusError,),
    ex.RateLimitError: (ex.HTTPStatusError,),
    ex.ServerError: (ex.HTTPStatusError,),
    ex.IndexNotEnabledError: (ex.NotFoundError,),
    ex.RPCError: (ex.AvaxDataError,),
    ex.ContainerNotFoundError: (ex.RPCError,),
    ex.IndexOutOfRangeError: (ex.RPCError,),
    ex.EmptyIndexError: (ex.RPCError,),
    ex.RPCInvalidArgumentError: (ex.RPCError,),
    ex.MethodNotFoundError: (ex.RPCError,),
    ex.IntegrityError: (ex.AvaxDataError,),
    ex.DecodeError: (ex.AvaxDataError,),
}

ATTRS = {
    ex.AvaxDataError: {"url"},
    ex.InvalidParameterError: {"url", "param", "value", "allowed"},
    ex.AuthenticationError: {"url", "operation"},
    ex.TransportError: {"url", "method"},
    ex.HTTPStatusError: {"status", "body", "method", "url", "retry_after"},
    ex.RPCError: {"code", "rpc_message", "method", "url"},
    ex.IntegrityError: {"url"},
    ex.DecodeError: {"url", "body"},
}

ALL_CLASSES = [ex.AvaxDataError, *HIERARCHY]


@pytest.mark.parametrize("cls,bases", HIERARCHY.items(), ids=lambda v: getattr(v, "__name__", ""))
def test_hierarchy(cls: type, bases: tuple[type, ...]) -> None:
    for base in bases:
        assert issubclass(cls, base)
    assert issubclass(cls, ex.AvaxDataError)
    assert issubclass(ex.AvaxDataError, Exception)


def test_only_invalid_parameter_is_a_value_error() -> None:
    assert [c for c in ALL_CLASSES if issubclass(c, ValueError)] == [ex.InvalidParameterError]


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.__name__)
def test_message_and_default_attributes(cls: type) -> None:
    err = cls("something broke")
    assert str(err) == "something broke"
    assert err.message == "something broke"
    expected = set().union(*(attrs for klass, attrs in ATTRS.items() if issubclass(cls, klass)))
    for name in expected:
        assert getattr(err, name) is None, name
    assert cls.__doc__ and cls.__doc__.strip()


def test_attributes_are_kept() -> None:
    err = ex.RateLimitError("slow down", status=429, body='{"message":"Too Many"}', method="GET",
                            url="https://example.invalid/v1/chains", retry_after=2.5)
    assert (err.status, err.body, err.method, err.url, err.retry_after) == (
        429, '{"message":"Too Many"}', "GET", "https://example.invalid/v1/chains", 2.5)
    assert str(err) == "slow down"

    rpc = ex.IndexOutOfRangeError("no container at index 9", code=-32000, rpc_message="no container at index 9",
                                  method="index.getContainerByIndex", url="http://n/ext/index/X/tx")
    assert (rpc.code, rpc.rpc_message, rpc.method, rpc.url) == (
        -32000, "no container at index 9", "index.getContainerByIndex", "http://n/ext/index/X/tx")

    bad = ex.InvalidParameterError("invalid count=1025", param="count", value=1025, allowed="[0, 1024]")
    assert (bad.param, bad.value, bad.allowed, bad.url) == ("count", 1025, "[0, 1024]", None)


def test_extra_attributes_are_kept() -> None:
    err = ex.DecodeError("bad", url="u", body="b", field="timestamp")
    assert (err.url, err.body, err.field) == ("u", "b", "timestamp")


@pytest.mark.parametrize(
    "status,cls",
    [(400, ex.BadRequestError), (401, ex.UnauthorizedError), (403, ex.ForbiddenError), (404, ex.NotFoundError),
     (429, ex.RateLimitError), (500, ex.ServerError), (502, ex.ServerError), (503, ex.ServerError),
     (599, ex.ServerError), (405, ex.HTTPStatusError), (415, ex.HTTPStatusError), (418, ex.HTTPStatusError),
     (600, ex.HTTPStatusError)],
)
def test_http_error_class(status: int, cls: type) -> None:
    assert ex.http_error_class(status) is cls


def test_pickle_keeps_class_message_and_attributes() -> None:
    err = ex.ServerError("HTTP 503", status=503, body="busy", method="POST", url="http://n", retry_after=None)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is ex.ServerError
    assert str(back) == "HTTP 503"
    assert (back.status, back.body, back.method, back.url, back.retry_after) == (503, "busy", "POST", "http://n", None)


def test_package_reexports_every_exception() -> None:
    for name in ex.__all__:
        assert getattr(ad, name) is getattr(ex, name), name
        assert name in ad.__all__


def test_every_public_function_has_a_docstring() -> None:
    for name in ex.__all__:
        obj = getattr(ex, name)
        assert inspect.getdoc(obj), name
