"""Exit codes and the one-line error messages of the command line.

Every failure ends in one line on stderr, ``error: <message> (<remedy>)``, and an exit code:

====  ==========================================================================================
code  meaning
====  ==========================================================================================
0     done
1     a local failure: the output could not be written (disk full, permissions, a directory), or
      ``dataset verify`` found the dataset damaged
2     bad usage: bad arguments, a parameter the package refused (``InvalidParameterError``),
      ``--start`` past the tip, a state file that belongs to another export
3     a service error: any other :class:`~avax_data.AvaxDataError` (connection refused, HTTP
      errors after the retries, an unexpected answer, an expired page token)
130   interrupted (Ctrl-C / SIGINT); a resumable export left its state file consistent
====  ==========================================================================================
"""

from __future__ import annotations

import sys

from .. import exceptions as exc

__all__ = [
    "EXIT_OK",
    "EXIT_LOCAL",
    "EXIT_USAGE",
    "EXIT_SERVICE",
    "EXIT_INTERRUPTED",
    "CliError",
    "one_line",
    "print_error",
    "exit_code_and_line",
]

EXIT_OK = 0
EXIT_LOCAL = 1
EXIT_USAGE = 2
EXIT_SERVICE = 3
EXIT_INTERRUPTED = 130


class CliError(Exception):
    """An error the command line reports itself: a message, a remedy and an exit code."""

    def __init__(self, message: str, remedy: str | None = None, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.remedy = remedy
        self.code = code


def one_line(text: object) -> str:
    """``text`` with every run of whitespace (newlines included) collapsed to one space."""
    return " ".join(str(text).split())


# Most specific first: the first class an exception is an instance of gives the remedy.
_REMEDIES: tuple[tuple[type[BaseException], str], ...] = (
    (exc.InvalidParameterError, "see --help for the allowed values"),
    (exc.PageTokenError, "page tokens expire after 24 hours: delete the state file and export again"),
    (exc.IndexNotEnabledError, "start the node with --index-enabled=true, or point --url at a node that has it"),
    (exc.EmptyIndexError, "the index holds no container yet: wait for the first one or use another --chain"),
    (exc.IndexOutOfRangeError, "ask for an index at or below the tip (avax-data index last)"),
    (exc.ContainerNotFoundError, "check the id or the index, and the --chain it belongs to"),
    (exc.UnauthorizedError, "pass a valid --api-key or set AVAX_DATA_API_KEY"),
    (exc.ForbiddenError, "the service refused this API key: check --api-key or AVAX_DATA_API_KEY"),
    (exc.NotFoundError, "check the ids in the command (chain id, block, address)"),
    (exc.RateLimitError, "retry later, or allow more waiting with --retry-budget"),
    (exc.ServerError, "the service failed: retry later, or allow more with --max-retries and --retry-budget"),
    (exc.RedirectError, "point --url at the service itself, or pass --follow-cross-origin-redirects"),
    (exc.BadRequestError, "the service refused the request: check the arguments"),
    (exc.HTTPStatusError, "check --url and the arguments"),
    (exc.ResponseTooLargeError, "raise --max-response-bytes, or ask for smaller pages"),
    (exc.RequestTimeoutError, "the service is slow or unreachable: raise --timeout or --connect-timeout"),
    (exc.ConnectError, "is the service running at that address? check --url, or use --emulator"),
    (exc.TransportError, "check the network and --url"),
    (exc.IntegrityError, "the node sent corrupted data: retry, or use another node"),
    (exc.DecodeError, "the service sent an unexpected answer: check --url points at the right service"),
    (exc.RPCError, "the node refused the call: check the arguments"),
    (exc.DatasetLockedError, "one writer per dataset or export: wait for that one to finish, or write elsewhere"),
)


def _remedy(error: BaseException) -> str:
    for klass, remedy in _REMEDIES:
        if isinstance(error, klass):
            return remedy
    return "see avax-data --help"


def exit_code_and_line(error: BaseException) -> tuple[int, str]:
    """The exit code and the ``error: ...`` line for an exception the command line caught."""
    if isinstance(error, CliError):
        text = one_line(error.message)
        return error.code, f"error: {text}" + (f" ({error.remedy})" if error.remedy else "")
    if isinstance(error, exc.InvalidParameterError):
        return EXIT_USAGE, f"error: {one_line(error)} ({_remedy(error)})"
    if isinstance(error, exc.AvaxDataError):
        return EXIT_SERVICE, f"error: {one_line(error)} ({_remedy(error)})"
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        reason = error.strerror or one_line(error)
        return EXIT_LOCAL, f"error: {where}{reason} (check the output path, its directory and free space)"
    raise TypeError(f"not an error the command line reports: {type(error).__name__}")


def print_error(line: str) -> None:
    """Print one error line on stderr."""
    print(line, file=sys.stderr, flush=True)
