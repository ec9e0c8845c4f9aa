"""Every public object of ``avax_data`` has a docstring with an example, and the examples run.

The objects are what ``dir()`` lists in ``avax_data``, ``avax_data._native`` and the public
submodules (their ``__all__``), and the methods and properties of each class, walked through
``vars(cls)`` (``doctest.DocTestFinder`` does not see the getset properties of pyo3 classes).
Each distinct docstring runs once as a doctest, with the globals the docstrings assume (see
``avax_data.__doc__``): ``ad`` (``avax_data``), ``pl`` (``polars``) and ``emu``, one
``ad.Emulator(containers=1_000, data_blocks_per_chain=500)`` started for the whole module.
Examples that change an emulator start their own, so the order of the examples does not matter.

A public object without a docstring fails, and so does one without an example unless it is in
:data:`NO_EXAMPLE` with the reason; so later additions stay documented.
"""

from __future__ import annotations

import __future__
import doctest
import importlib.util
import inspect
import types
from collections.abc import Iterator
from typing import Any

import polars as pl
import pytest

import avax_data as ad
import avax_data.testing
from avax_data import _native

#: Submodules whose ``__all__`` is public too.
try:  # the `dask` extra (in the test extra too)
    import avax_data.dask as add
except ImportError:  # pragma: no cover
    add = None
SUBMODULES = (ad.decode, ad.exceptions, ad.types, ad.testing, *([add] if add is not None else []))

#: Class members that start with an underscore and are still called by users (or by the tools
#: they use): documented like public methods.
PROTOCOL_MEMBERS = {"__arrow_c_stream__", "_repr_html_"}

#: Public objects that cannot carry a docstring of their own, with the reason.
NO_DOCSTRING = {
    "avax_data.types.Compression": "a type alias (a typing special form); the types module docstring describes it",
    "avax_data.types.Decode": "a type alias (a typing special form); the types module docstring describes it",
    "avax_data.types.DecodedRow": "a type alias (dict[str, Any]); the types module docstring describes it",
    "avax_data.types.Progress": "a type alias (a typing special form); the types module docstring describes it",
    "avax_data.types.TimeArg": "a type alias (a typing special form); the types module docstring describes it",
    "avax_data.types.Feature": "a generated Literal alias; the types module docstring describes it",
    "avax_data.types.GroupBy": "a generated Literal alias; the types module docstring describes it",
    "avax_data.types.IndexPathName": "a generated Literal alias; the types module docstring describes it",
    "avax_data.types.Interval": "a generated Literal alias; the types module docstring describes it",
    "avax_data.types.MetricName": "a generated Literal alias; the types module docstring describes it",
    "avax_data.types.Network": "a generated Literal alias; the types module docstring describes it",
    "avax_data.types.SortOrder": "a generated Literal alias; the types module docstring describes it",
}

#: Public objects with a docstring but no runnable example, with the reason.
NO_EXAMPLE = {
    "avax_data._native.Pending.send": "the coroutine protocol that asyncio drives (a task steps it); Pending's "
    "example runs one with asyncio.run",
    "avax_data._native.Pending.throw": "the coroutine protocol that asyncio drives (a task's cancellation); "
    "tests/test_coroutines.py cancels one",
    "avax_data._native.Pending.close": "the coroutine protocol (asyncio closes a coroutine it will not run); "
    "tests/test_coroutines.py closes one",
    "avax_data.types.ProgressBar.update": "a Protocol member that the caller's bar implements; "
    "ProgressBar's example shows one",
    "avax_data.testing.avax_emulator": "a pytest fixture: pytest calls it, not the user; the module docstring "
    "shows a test using it",
    "avax_data.testing.avax_emulator_factory": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.avax_index_client": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.avax_emulator_session": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.avax_data_client": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.avax_metrics_client": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.avax_async_index_client": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.avax_async_data_client": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.avax_async_metrics_client": "a pytest fixture: pytest calls it; the module docstring shows its use",
    "avax_data.testing.TEST_API_KEY": "a constant (the key the Data API fixtures send); the module docstring says where",
}

#: Examples that need an optional dependency (the ``arrow``/``pandas`` extras), by a string in their code.
NEEDS = {"to_arrow": "pyarrow", "to_pandas": "pandas", "pyarrow": "pyarrow", "duckdb": "duckdb"}

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
PARSER = doctest.DocTestParser()


def _members(cls: type) -> Iterator[tuple[str, Any]]:
    """The documented members of a class: public names and the protocol members users call."""
    for name, value in vars(cls).items():
        if name.startswith("_") and name not in PROTOCOL_MEMBERS:
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if callable(value) or inspect.isdatadescriptor(value):
            yield name, value


def _home(module: types.ModuleType, name: str, value: Any) -> str:
    """The qualified name of a public object: where it is defined, else where it was found."""
    owner = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)) and owner and qualname:
        if owner.startswith("avax_data"):
            return f"{owner}.{qualname}"
    return f"{module.__name__}.{name}"


def public_objects() -> dict[str, Any]:
    """Every public object by its qualified name: modules, module-level names, class members."""
    found: dict[str, Any] = {}
    seen: set[int] = set()
    modules = [ad, _native, *SUBMODULES]
    for module in modules:
        found[module.__name__] = module
    for module in (_native, *SUBMODULES, ad):  # aliases are named after their home module
        names = module.__all__ if module in SUBMODULES else [n for n in dir(module) if not n.startswith("_")]
        for name in names:
            value = getattr(module, name)
            if isinstance(value, (types.ModuleType, __future__._Feature)) or id(value) in seen:
                continue  # submodules are listed above; `annotations` is a __future__ import
            seen.add(id(value))
            qualified = _home(module, name, value)
            found[qualified] = value
            if isinstance(value, type):
                for member, attr in _members(value):
                    found.setdefault(f"{qualified}.{member}", attr)
    return found


OBJECTS = public_objects()


def _doc(value: Any) -> str | None:
    """The object's own docstring (not one a type alias borrows from its origin)."""
    doc = getattr(value, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else None


def _examples() -> dict[str, list[str]]:
    """Each distinct docstring with examples, and the objects carrying it (async twins share their
    methods' docstrings with the sync ones: those run once)."""
    by_doc: dict[str, list[str]] = {}
    for name, value in OBJECTS.items():
        doc = _doc(value)
        if name not in NO_DOCSTRING and doc and PARSER.get_examples(doc):
            by_doc.setdefault(doc, []).append(name)
    for names in by_doc.values():
        names.sort(key=lambda n: (".Async" in n, n))  # the sync twin names the test
    return by_doc


EXAMPLES = _examples()


@pytest.fixture(scope="module")
def doc_globals() -> Iterator[dict[str, Any]]:
    """The globals every docstring example may use (the convention of ``avax_data.__doc__``)."""
    with ad.Emulator(containers=1_000, data_blocks_per_chain=500) as emu:
        yield {"ad": ad, "pl": pl, "emu": emu, "add": add}


def test_the_walk_finds_the_members_of_pyo3_classes() -> None:
    """Methods and getset properties of the native classes are collected (not only functions)."""
    for name in ("avax_data._native.Chain.range", "avax_data._native.Chain.path", "avax_data._native.Pager.items_read",
                 "avax_data._native.AsyncRange.next_index", "avax_data._native.Emulator.url",
                 "avax_data._native.Range.__arrow_c_stream__", "avax_data.exceptions.http_error_class",
                 "avax_data.decode.transactions", "avax_data._native.reset_logging"):
        assert name in OBJECTS, name
    assert "avax_data._native.Chain.__repr__" not in OBJECTS


def test_every_public_object_has_a_docstring() -> None:
    missing = [name for name, value in OBJECTS.items() if name not in NO_DOCSTRING and _doc(value) is None]
    assert missing == []


def test_every_public_object_has_an_example() -> None:
    with_examples = {name for names in EXAMPLES.values() for name in names}
    missing = [name for name, value in OBJECTS.items() if name not in with_examples
               and name not in NO_DOCSTRING | NO_EXAMPLE]
    assert missing == []


def test_the_exemptions_are_still_needed() -> None:
    """An exemption for an object that is gone, or that now has an example, is dropped."""
    with_examples = {name for names in EXAMPLES.values() for name in names}
    assert [n for n in NO_DOCSTRING | NO_EXAMPLE if n not in OBJECTS] == []
    assert [n for n in NO_EXAMPLE if n in with_examples] == []


# In name order: the members of native classes come back in an order that can differ between
# processes, and pytest-xdist's workers must collect the same list.
_DOCS = sorted(EXAMPLES, key=lambda doc: EXAMPLES[doc][0])


@pytest.mark.parametrize("doc", _DOCS, ids=[EXAMPLES[doc][0] for doc in _DOCS])
def test_docstring_examples_run(doc: str, doc_globals: dict[str, Any]) -> None:
    names = EXAMPLES[doc]
    test = PARSER.get_doctest(doc, dict(doc_globals), names[0], names[0], 0)
    code = "".join(example.source for example in test.examples)
    for needle, module in NEEDS.items():
        if needle in code and importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}")
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    result = runner.run(test, out=report.append, clear_globs=True)
    if result.failed:
        pytest.fail(f"examples of {', '.join(names)}:\n" + "".join(report), pytrace=False)
