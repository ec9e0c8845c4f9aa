"""The typed exceptions of ``avax_data``.

Every error the package raises on purpose is an :class:`AvaxDataError`. The subclasses tell apart
what went wrong so that callers can act on it:

- :class:`InvalidParameterError` (also a :class:`ValueError`): bad input, refused before any
  request is sent;
- :class:`AuthenticationError`: an operation that needs an API key was called without one (nothing
  was sent);
- :class:`TransportError` (:class:`ConnectError`, :class:`RequestTimeoutError`): no HTTP answer;
- :class:`HTTPStatusError` and one subclass per status family: the server said no
  (:class:`RedirectError`: a redirect not followed);
- :class:`ResponseTooLargeError`: an answer larger than ``max_response_bytes``;
- :class:`RPCError` and one subclass per node error message: a JSON-RPC error object;
- :class:`IntegrityError`: a checksum or id did not match the data;
- :class:`DecodeError`: a success answer that could not be read;
- :class:`DatasetLockedError`: another writer is writing into the same dataset directory.

Each class is built as ``Cls(message, **attrs)``. The attributes a class documents are always
present (``None`` when not given); extra keyword attributes are kept as well. ``str(exc)`` is the
message. Exceptions survive pickling (for ``multiprocessing``) with their attributes.

Example:
    >>> import pickle
    >>> try:
    ...     ad.IndexClient(emu.url).chain("X/tx").container(5_000)
    ... except ad.RPCError as exc:
    ...     error = exc
    >>> type(error).__name__, error.code, error.rpc_message
    ('IndexOutOfRangeError', -32000, 'no container at index 5000')
    >>> copy = pickle.loads(pickle.dumps(error))
    >>> type(copy).__name__, copy.method, str(copy) == str(error)
    ('IndexOutOfRangeError', 'index.getContainerByIndex', True)
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AvaxDataError",
    "InvalidParameterError",
    "AuthenticationError",
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
    "DatasetLockedError",
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

    Example:
        Catch every error of the package, and resume a walk where it stopped:

        >>> with ad.Emulator(containers=100, faults={"502": 1.0}) as failing:
        ...     rng = ad.IndexClient(failing.url, max_retries=0).chain("X/tx").range(0, 100)
        ...     try:
        ...         rng.to_polars()
        ...     except ad.AvaxDataError as exc:
        ...         print(type(exc).__name__, exc.next_index)
        ServerError 0
        >>> ad.AvaxDataError("the client is closed", url=None, attempt=3).attempt   # extra attributes are kept
        3
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
        allowed: a description of the allowed values (e.g. ``"an int in [0, 1024]"``).

    Example:
        >>> try:
        ...     ad.IndexClient(emu.url).chain("X/tx").container_range(0, 2_000)
        ... except ValueError as exc:            # an InvalidParameterError is a ValueError
        ...     print(type(exc).__name__, exc.param, exc.value, exc.allowed)
        InvalidParameterError count 2000 an int in [0, 1024]
    """

    _attributes = ("param", "value", "allowed")

    param: str | None
    value: Any
    allowed: str | None


class AuthenticationError(AvaxDataError):
    """An operation that needs an API key was called without one; nothing was sent.

    The Data API's account operations (usage metrics and logs, webhooks) answer nothing without
    a key. Pass ``api_key=`` to the client or set ``AVAX_DATA_API_KEY``.

    Attributes:
        operation: the operationId of the operation (e.g. ``"listWebhooks"``).

    Example:
        >>> try:
        ...     ad.DataClient(base_url=emu.url).webhooks()
        ... except ad.AuthenticationError as exc:
        ...     print(exc.operation)
        listWebhooks
    """

    _attributes = ("operation",)

    operation: str | None


class TransportError(AvaxDataError):
    """The request got no HTTP answer (after any retries).

    Attributes:
        method: the HTTP method (``"POST"``, ``"GET"``).
        url: the request URL, secrets redacted.

    Example:
        >>> node = ad.IndexClient("http://127.0.0.1:1", max_retries=0)     # nothing listens there
        >>> try:
        ...     node.chain("X/tx").last_accepted()
        ... except ad.TransportError as exc:
        ...     print(type(exc).__name__, exc.method, exc.url)
        ConnectError POST http://127.0.0.1:1/ext/index/X/tx
    """

    _attributes = ("method", "url")

    method: str | None


class ConnectError(TransportError):
    """Could not connect to the server (refused, name resolution, TLS handshake).

    Example:
        >>> try:
        ...     ad.DataClient(base_url="http://127.0.0.1:1", max_retries=0).health()
        ... except ad.ConnectError as exc:
        ...     print(exc.method, exc.url)
        GET http://127.0.0.1:1/v1/health-check
    """


class RequestTimeoutError(TransportError):
    """The connect timeout or the request timeout ran out (after any retries).

    Example:
        >>> with ad.Emulator(containers=10, latency=0.5) as slow:
        ...     node = ad.IndexClient(slow.url, timeout=0.05, max_retries=0)
        ...     try:
        ...         node.chain("X/tx").last_accepted()
        ...     except ad.RequestTimeoutError as exc:
        ...         print(exc.method, "timed out")
        POST timed out
    """


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

    Example:
        >>> try:
        ...     ad.DataClient(base_url=emu.url).block("43114", 10**6)
        ... except ad.HTTPStatusError as exc:
        ...     print(type(exc).__name__, exc.status, exc.method, exc.api_message)
        NotFoundError 404 GET Block 1000000 not found on chain 43114
    """

    _attributes = ("status", "body", "method", "url", "retry_after", "api_message")

    status: int | None
    body: str | None
    method: str | None
    retry_after: float | None
    api_message: str | list[str] | None


class BadRequestError(HTTPStatusError):
    """HTTP 400: the server refused the request's parameters.

    Example:
        >>> pager = ad.DataClient(base_url=emu.url).blocks("43114", page_token="not-a-token")
        >>> try:
        ...     pager.to_polars()
        ... except ad.BadRequestError as exc:      # here its subclass PageTokenError
        ...     print(type(exc).__name__, exc.status)
        PageTokenError 400
    """


class PageTokenError(BadRequestError):
    """HTTP 400 to a request carrying a page token: the token expired or is unknown.

    Tokens live 24 hours. The walk is not restarted from the first page silently (that would repeat rows):
    start a new walk without ``page_token`` when you want that.

    Attributes:
        page_token: the refused token.
        items_read: items the pager had handed out before the refusal.

    Example:
        >>> with ad.Emulator(data_blocks_per_chain=100) as local:
        ...     data = ad.DataClient(base_url=local.url)
        ...     first = data.blocks("43114", page_size=10)
        ...     _ = first.to_polars(limit=10)
        ...     token = first.next_page_token
        ...     local.advance_clock(25 * 3600)               # tokens live 24 hours
        ...     try:
        ...         data.blocks("43114", page_size=10, page_token=token).to_polars()
        ...     except ad.PageTokenError as exc:
        ...         print(exc.page_token == token, exc.items_read)
        True 0
    """

    _attributes = ("page_token",)

    page_token: str | None


class UnauthorizedError(HTTPStatusError):
    """HTTP 401: missing or invalid credentials.

    Example:
        >>> with ad.Emulator(data_api_require_key=True) as local:
        ...     try:
        ...         ad.DataClient(base_url=local.url).health()       # no key
        ...     except ad.UnauthorizedError as exc:
        ...         print(exc.status, exc.api_message)
        401 An API key is required: send it in the x-glacier-api-key header
    """


class ForbiddenError(HTTPStatusError):
    """HTTP 403: the credentials do not allow this request.

    Example:
        >>> with ad.Emulator(data_api_refused_keys=["revoked"]) as local:
        ...     try:
        ...         ad.DataClient(local.url, api_key="revoked").chain("43114")
        ...     except ad.ForbiddenError as exc:
        ...         print(exc.status, "revoked" in str(exc))      # the key is never shown
        403 False
    """


class NotFoundError(HTTPStatusError):
    """HTTP 404: no such resource.

    Example:
        >>> try:
        ...     ad.DataClient(base_url=emu.url).chain("999999")
        ... except ad.NotFoundError as exc:
        ...     print(exc.status, exc.api_message)
        404 Chain 999999 not found
    """


class IndexNotEnabledError(NotFoundError):
    """HTTP 404 on an index path: the node runs without ``--index-enabled``.

    Public nodes do not serve the index API; run your own node with ``--index-enabled=true``.

    Example:
        >>> with ad.Emulator(index_enabled=False) as plain_node:
        ...     try:
        ...         ad.IndexClient(plain_node.url).chain("X/tx").last_accepted()
        ...     except ad.IndexNotEnabledError as exc:
        ...         print(exc.status, isinstance(exc, ad.NotFoundError))
        404 True
    """


class RateLimitError(HTTPStatusError):
    """HTTP 429: too many requests; ``retry_after`` tells how long the server asked to wait.

    Raised after the retries, or at once when the wait asked for is longer than what is left of
    the client's ``retry_budget``.

    Example:
        >>> with ad.Emulator(rate_limit=(1, 60)) as limited:
        ...     data = ad.DataClient(limited.url, api_key="my-key", retry_budget=5.0)
        ...     _ = data.health()
        ...     try:
        ...         data.health()                 # asks for a 60 s wait: past the 5 s budget
        ...     except ad.RateLimitError as exc:
        ...         print(exc.status, exc.retry_after)
        429 60.0
    """


class ServerError(HTTPStatusError):
    """HTTP 5xx: the server failed (after the retries).

    Example:
        >>> with ad.Emulator(faults={"503": 1.0}) as failing:
        ...     try:
        ...         ad.DataClient(base_url=failing.url, max_retries=1, backoff=0.0).health()
        ...     except ad.ServerError as exc:
        ...         print(exc.status, exc.api_message)
        503 Service Unavailable (injected fault)
    """


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

    Example:
        >>> with ad.Emulator(containers=10, faults={"redirect_cross_origin": 1.0}) as moved:
        ...     try:
        ...         ad.IndexClient(moved.url).chain("X/tx").last_accepted()
        ...     except ad.RedirectError as exc:
        ...         print(exc.status, exc.reason, exc.location.startswith(moved.second_url))
        307 cross-origin True
    """

    _attributes = ("location", "reason", "hops")

    location: str | None
    reason: str | None
    hops: int | None


class ResponseTooLargeError(AvaxDataError):
    """A response body passed the client's ``max_response_bytes``; reading stopped there.

    The body is counted after gzip decompression.

    Attributes:
        limit: the limit in bytes.
        method: the HTTP method.
        url: the request URL, secrets redacted.

    Example:
        >>> node = ad.IndexClient(emu.url, max_response_bytes=100)
        >>> try:
        ...     node.chain("X/tx").last_accepted()
        ... except ad.ResponseTooLargeError as exc:
        ...     print(exc.limit, exc.method)
        100 POST
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

    Example:
        >>> with ad.Emulator(containers=10, faults={"rpc_error": 1.0}) as failing:
        ...     try:
        ...         ad.IndexClient(failing.url, max_retries=0).chain("X/tx").last_accepted()
        ...     except ad.RPCError as exc:
        ...         print(exc.code, exc.method)
        -32000 index.getLastAccepted
    """

    _attributes = ("code", "rpc_message", "method", "url")

    code: int | None
    rpc_message: str | None
    method: str | None


class ContainerNotFoundError(RPCError):
    """The node has no container with this id (``not found``).

    Example:
        >>> xtx = ad.IndexClient(emu.url).chain("X/tx")
        >>> try:
        ...     xtx.container(id="11111111111111111111111111111111LpoYY")
        ... except ad.ContainerNotFoundError as exc:
        ...     print(exc.rpc_message, exc.method)
        not found index.getContainerByID
    """


class IndexOutOfRangeError(RPCError):
    """The index asked for is past the tip (``no container at index N``, ``start index ...``).

    Example:
        >>> try:
        ...     ad.IndexClient(emu.url).chain("C/block").container(1_000)     # the tip is 999
        ... except ad.IndexOutOfRangeError as exc:
        ...     print(exc.rpc_message)
        no container at index 1000
    """


class EmptyIndexError(RPCError):
    """The index holds no container yet (``no containers have been accepted``).

    Example:
        >>> with ad.Emulator(containers=0) as empty:
        ...     try:
        ...         ad.IndexClient(empty.url).chain("X/tx").last_accepted()
        ...     except ad.EmptyIndexError as exc:
        ...         print(exc.rpc_message)
        no containers have been accepted
    """


class RPCInvalidArgumentError(RPCError):
    """The node could not read an argument (``couldn't unmarshal an argument ...``).

    The client checks its arguments first, so this means a node that reads them differently.

    Example:
        >>> exc = ad.RPCInvalidArgumentError("couldn't unmarshal an argument", code=-32000)
        >>> isinstance(exc, ad.RPCError), exc.code, exc.rpc_message
        (True, -32000, None)
    """


class MethodNotFoundError(RPCError):
    """The node does not know the method (``rpc: can't find method ...``).

    A node whose version has no such index method.

    Example:
        >>> exc = ad.MethodNotFoundError("rpc: can't find method", method="index.getIndex")
        >>> isinstance(exc, ad.RPCError), exc.method
        (True, 'index.getIndex')
    """


class IntegrityError(AvaxDataError):
    """Data failed a check: a container's checksum, or its id against the rule of its index.

    Example:
        >>> with ad.Emulator(containers=10, faults={"bad_checksum": 1.0}) as corrupt:
        ...     try:
        ...         ad.IndexClient(corrupt.url).chain("X/tx").range(0, 10).to_polars()
        ...     except ad.IntegrityError as exc:
        ...         print("checksum mismatch" in str(exc), exc.next_index)
        True 0
    """


class DecodeError(AvaxDataError):
    """A success answer, or container bytes with ``decode="strict"``, could not be decoded.

    Attributes:
        url: the request URL (``None`` for container bytes).
        body: the start of the response body, for diagnosis.
        path: the index of a container that did not decode (e.g. ``"C/block"``).
        index: that container's index in the node's index (``None`` for bytes you passed).
        id: that container's id (``None`` for bytes you passed).
        offset: the byte where decoding stopped.

    Example:
        >>> try:
        ...     ad.decode_container("C/block", b"\\x00", strict=True)
        ... except ad.DecodeError as exc:
        ...     print(exc.path, exc.offset)
        C/block 0
        >>> with ad.Emulator(containers=10, faults={"malformed_json": 1.0}) as broken:
        ...     try:
        ...         ad.IndexClient(broken.url, max_retries=0).chain("X/tx").last_accepted()
        ...     except ad.DecodeError as exc:
        ...         print(exc.url.endswith("/ext/index/X/tx"), exc.body[:10])
        True {"jsonrpc"
    """

    _attributes = ("url", "body", "path", "index", "id", "offset")

    body: str | None
    path: str | None
    index: int | None
    id: str | None
    offset: int | None


class DatasetLockedError(AvaxDataError):
    """Another writer holds the lock of a dataset directory: one writer at a time.

    Raised at once, before any request, by every dataset writer (``write_dataset`` of ranges,
    pagers and metric series, the Dask writer's merge) and by :func:`avax_data.verify_dataset`
    while a writer is at work. The lock dies with its process; a lock a dead writer left is taken
    over (with a warning in the ``avax_data`` log).

    Attributes:
        path: the dataset directory.
        pid: the holder's process id (``None`` when its lock file does not say yet).
        host: the holder's host name.
        since: when the holder took the lock (RFC 3339, UTC).

    Example:
        >>> import tempfile
        >>> out = tempfile.mkdtemp()
        >>> rng = ad.IndexClient(emu.url).chain("X/tx").range(0, 100)
        >>> import fcntl, os
        >>> with open(os.path.join(out, "_avax_dataset.lock"), "w") as held:   # as another writer would
        ...     fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        ...     _ = held.write('{"pid": 4242, "host": "elsewhere", "since": "2026-01-01T00:00:00Z"}')
        ...     held.flush()
        ...     try:
        ...         rng.write_dataset(out, chunk=10)
        ...     except ad.DatasetLockedError as exc:
        ...         print(exc.pid, exc.host, exc.since)
        4242 elsewhere 2026-01-01T00:00:00Z
    """

    _attributes = ("path", "pid", "host", "since")

    path: str | None
    pid: int | None
    host: str | None
    since: str | None


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

    Args:
        status: the HTTP status code.

    Returns:
        The exception class.

    Example:
        >>> [ad.http_error_class(s).__name__ for s in (404, 429, 503, 418)]
        ['NotFoundError', 'RateLimitError', 'ServerError', 'HTTPStatusError']
    """
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if 500 <= status <= 599:
        return ServerError
    return HTTPStatusError
