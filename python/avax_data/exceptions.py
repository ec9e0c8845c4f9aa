"""The typed exceptions of ``avax_data``.

Every error the package raises on purpose is an :class:`AvaxDataError`. The subclasses tell apart
what went wrong so that callers can act on it:

- :class:`InvalidParameterError` (also a :class:`ValueError`): bad input, refused before any
  request is sent;
- :class:`TransportError` (:class:`ConnectError`, :class:`RequestTimeoutError`): no HTTP answer;
- :class:`HTTPStatusError` and one subclass per status family: the server said no
  (:class:`RedirectError`: a redirect not followed);
- :class:`ResponseTooLargeError`: an answer larger than ``max_response_bytes``;
- :class:`RPCError` and one subclass per node error message: a JSON-RPC error object;
- :class:`IntegrityError`: a checksum or id did not match the data;
- :class:`DecodeError`: a success answer that could not be read.

Each class is built as ``Cls(message, **attrs)``. The attributes a class documents are always
present (``None`` when not given); extra keyword attributes are kept as well. ``str(exc)`` is the
message. Exceptions survive pickling (for ``multiprocessing``) with their attributes.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AvaxDataError",
    "InvalidParameterError",
    "TransportError",
    "ConnectError",
    "RequestTimeoutError",
    "HTTPStatusError",
    "BadRequestError",
    "PageTokenError",
    "UnauthorizedError",
    "ForbiddenError",
    "NotFoundError",
    "RateLimitError",
    "ServerError",
    "RedirectError",
    "ResponseTooLargeError",
    "IndexNotEnabledError",
    "RPCError",
    "ContainerNotFoundError",
    "IndexOutOfRangeError",
    "EmptyIndexError",
    "RPCInvalidArgumentError",
    "MethodNotFoundError",
    "IntegrityError",
    "DecodeError",
    "http_error_class",
]


def _rebuild(cls: type, message: str, attrs: dict[str, Any]) -> AvaxDataError:
    """Recreate an exception from its pickled form (see :meth:`AvaxDataError.__reduce__`)."""
    return cls(message, **attrs)


class AvaxDataError(Exception):
    """Base class of every error raised by ``avax_data``.

    Attributes:
        message: the human-readable explanation (also ``str(exc)``).
        url: the request URL concerned, with any secret redacted, or ``None``.
        next_index: out of an index walk (a ``Range`` or ``Follow``): the first index not handed
            to you, where the walk resumes; ``None`` otherwise.
        next_page_token: out of a pager: the token of the page holding the next item not handed
            to you (``None`` at the first page); ``page_offset`` items of it were handed out.
        page_offset: out of a pager: items of the ``next_page_token`` page already handed out.
        items_read: out of a pager: items handed out before the error.
    """

    #: Names of the attributes this class (and its bases) always carry.
    _attributes: tuple[str, ...] = ("url", "next_index", "next_page_token", "page_offset", "items_read")

    message: str
    url: str | None
    next_index: int | None
    next_page_token: str | None
    page_offset: int | None
    items_read: int | None

    def __init__(self, message: str = "", **attrs: Any) -> None:
        super().__init__(message)
        self.message = message
        names = set()
        for klass in type(self).__mro__:
            names.update(getattr(klass, "__dict__", {}).get("_attributes", ()))
        for name in names:
            setattr(self, name, attrs.pop(name, None))
        for name, value in attrs.items():
            setattr(self, name, value)
        self._given = names | set(attrs)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        attrs = {name: getattr(self, name, None) for name in sorted(self._given)}
        return (_rebuild, (type(self), self.message, attrs))


class InvalidParameterError(AvaxDataError, ValueError):
    """A parameter was refused before any request was sent.

    Also a :class:`ValueError`, so ``except ValueError`` catches it.

    Attributes:
        param: the parameter's name as you wrote it (e.g. ``"count"``).
        value: the value given.
        allowed: a description of the allowed values (e.g. ``"an integer in [0, 1024]"``).
    """

    _attributes = ("param", "value", "allowed")

    param: str | None
    value: Any
    allowed: str | None


class TransportError(AvaxDataError):
    """The request got no HTTP answer (after any retries).

    Attributes:
        method: the HTTP method (``"POST"``, ``"GET"``).
        url: the request URL, secrets redacted.
    """

    _attributes = ("method", "url")

    method: str | None


class ConnectError(TransportError):
    """Could not connect to the server (refused, name resolution, TLS handshake)."""


class RequestTimeoutError(TransportError):
    """The connect timeout or the request timeout ran out."""


class HTTPStatusError(AvaxDataError):
    """The server answered with a non-success HTTP status (after any retries).

    Attributes:
        status: the HTTP status code.
        body: the response body as text.
        method: the HTTP method.
        url: the request URL, secrets redacted.
        retry_after: seconds the server asked to wait (``Retry-After``), or ``None``.
        api_message: the ``message`` of a JSON error body (``{"message": ..., "error": ...,
            "statusCode": ...}``, as the Data API sends): a ``str``, a ``list[str]``, or ``None``.
    """

    _attributes = ("status", "body", "method", "url", "retry_after", "api_message")

    status: int | None
    body: str | None
    method: str | None
    retry_after: float | None
    api_message: str | list[str] | None


class BadRequestError(HTTPStatusError):
    """HTTP 400: the server refused the request's parameters."""


class PageTokenError(BadRequestError):
    """HTTP 400 to a request carrying a page token: the token expired (tokens live 24 hours) or
    is unknown. The walk is not restarted from the first page silently (that would repeat rows):
    start a new walk without ``page_token`` when you want that.

    Attributes:
        page_token: the refused token.
        items_read: items the pager had handed out before the refusal.
    """

    _attributes = ("page_token",)

    page_token: str | None


class UnauthorizedError(HTTPStatusError):
    """HTTP 401: missing or invalid credentials."""


class ForbiddenError(HTTPStatusError):
    """HTTP 403: the credentials do not allow this request."""


class NotFoundError(HTTPStatusError):
    """HTTP 404: no such resource."""


class IndexNotEnabledError(NotFoundError):
    """HTTP 404 on an index path: the node runs without ``--index-enabled``.

    Public nodes do not serve the index API; run your own node with ``--index-enabled=true``.
    """


class RateLimitError(HTTPStatusError):
    """HTTP 429: too many requests; ``retry_after`` tells how long the server asked to wait."""


class ServerError(HTTPStatusError):
    """HTTP 5xx: the server failed."""


class RedirectError(HTTPStatusError):
    """A redirect that was not followed (status 301, 302, 303, 307 or 308).

    Redirects are followed within the origin of the request (scheme, host, port), at most 5 in a
    row. One to another origin is refused so that no API key or credential goes there, unless the
    client was made with ``follow_cross_origin_redirects=True`` (then it is followed without
    them). Loops and long chains end here too.

    Attributes:
        location: where the redirect pointed (resolved, secrets redacted).
        reason: ``"cross-origin"``, ``"loop"``, ``"too-many"`` or ``"bad-location"``.
        hops: redirects followed before this one.
    """

    _attributes = ("location", "reason", "hops")

    location: str | None
    reason: str | None
    hops: int | None


class ResponseTooLargeError(AvaxDataError):
    """A response body passed the client's ``max_response_bytes`` (counted after gzip
    decompression); reading stopped there.

    Attributes:
        limit: the limit in bytes.
        method: the HTTP method.
        url: the request URL, secrets redacted.
    """

    _attributes = ("limit", "method", "url")

    limit: int | None
    method: str | None


class RPCError(AvaxDataError):
    """A JSON-RPC error object from the node.

    Attributes:
        code: the JSON-RPC error code (``-32000`` for every method error).
        rpc_message: the node's exact message.
        method: the JSON-RPC method called (e.g. ``"index.getContainerByIndex"``).
        url: the request URL.
    """

    _attributes = ("code", "rpc_message", "method", "url")

    code: int | None
    rpc_message: str | None
    method: str | None


class ContainerNotFoundError(RPCError):
    """The node has no container with this id (``not found``)."""


class IndexOutOfRangeError(RPCError):
    """The index asked for is past the tip (``no container at index N``, ``start index ...``)."""


class EmptyIndexError(RPCError):
    """The index holds no container yet (``no containers have been accepted``)."""


class RPCInvalidArgumentError(RPCError):
    """The node could not read an argument (``couldn't unmarshal an argument ...``)."""


class MethodNotFoundError(RPCError):
    """The node does not know the method (``rpc: can't find method ...``)."""


class IntegrityError(AvaxDataError):
    """Data failed a check: a container's checksum, or its id against sha256 of its bytes."""


class DecodeError(AvaxDataError):
    """A success answer, or container bytes with ``decode="strict"``, could not be decoded.

    Attributes:
        url: the request URL (``None`` for container bytes).
        body: the start of the response body, for diagnosis.
        path: the index of a container that did not decode (e.g. ``"C/block"``).
        index: that container's index in the node's index (``None`` for bytes you passed).
        id: that container's id (``None`` for bytes you passed).
        offset: the byte where decoding stopped.
    """

    _attributes = ("url", "body", "path", "index", "id", "offset")

    body: str | None
    path: str | None
    index: int | None
    id: str | None
    offset: int | None


_BY_STATUS: dict[int, type[HTTPStatusError]] = {
    400: BadRequestError,
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    429: RateLimitError,
}


def http_error_class(status: int) -> type[HTTPStatusError]:
    """The exception class for an HTTP error status.

    ``400``, ``401``, ``403``, ``404`` and ``429`` have their own classes, every ``5xx`` is a
    :class:`ServerError`, and any other status a plain :class:`HTTPStatusError`.
    """
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if 500 <= status <= 599:
        return ServerError
    return HTTPStatusError
