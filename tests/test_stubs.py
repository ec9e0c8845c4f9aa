"""The type stubs are true to the extension module: ``_native.pyi`` is what ``tools/native_stubs.py``
generates from the built module and the type table (the async half derived from the sync half),
``mypy.stubtest`` finds no difference between the stub and the module, users' scripts type-check
with ``mypy --strict`` and scripts with type errors do not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("mypy")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


TYPECHECK = ROOT / "tests" / "typecheck"


def test_the_whole_stub_is_generated_from_the_bindings() -> None:
    result = run("tools/native_stubs.py", "--check")
    assert result.returncode == 0, result.stderr
    assert "Do not edit" in (ROOT / "python" / "avax_data" / "_native.pyi").read_text()


def test_stubtest_finds_the_stub_true_to_the_module() -> None:
    result = run("-m", "mypy.stubtest", "avax_data._native")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_stub_checker_fails_on_a_stale_stub(tmp_path: Path) -> None:
    """The generator's --check is not a test that cannot fail: a hand edit of the generated part fails it."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import async_stubs
    finally:
        sys.path.pop(0)
    text = async_stubs.STUB.read_text()
    stale = text.replace("-> Coroutine[Any, Any, pl.DataFrame]", "-> pl.DataFrame", 1)
    assert stale != text and async_stubs.generate(stale) != stale
    assert async_stubs.generate(text) == text


def test_the_async_methods_are_typed_as_coroutines_and_anext_as_an_awaitable() -> None:
    text = (ROOT / "python" / "avax_data" / "_native.pyi").read_text()
    generated = text.split("# ---- Async twins")[1]
    assert "async def" not in text
    assert ("def to_polars(self, limit: int | None = None, *, progress: Progress = None) -> "
            "Coroutine[Any, Any, pl.DataFrame]") in generated
    assert "def __aexit__(self, *_exc: object) -> Coroutine[Any, Any, None]" in generated
    awaitables = [line.strip() for line in generated.splitlines() if "Awaitable[" in line]
    assert awaitables and all(line.startswith("def __anext__(") for line in awaitables), awaitables
    assert "def restart(self) -> AsyncPager:" in generated and "def _repr_html_(self) -> str:" in generated


def test_the_literal_aliases_are_generated_from_the_cores_tables() -> None:
    result = run("tools/literal_types.py", "--check")
    assert result.returncode == 0, result.stderr
    import avax_data as ad
    from avax_data import types

    tables = dict(ad._native.literal_tables())
    assert set(tables) == {"MetricName", "Interval", "IndexPathName", "Network", "Feature", "SortOrder", "GroupBy",
                           "Compression"}
    import typing
    for alias, (values, _) in tables.items():
        assert list(typing.get_args(getattr(types, alias))) == values, alias
    assert "txCount" in tables["MetricName"][0] and tables["IndexPathName"][0][0] == "C/block"


def test_the_literal_checker_fails_on_a_stale_alias() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import literal_types
    finally:
        sys.path.pop(0)
    import avax_data as ad

    text = literal_types.TYPES.read_text()
    tables = list(ad._native.literal_tables())
    assert literal_types.generate(text, tables) == text
    stale = text.replace('Literal["hour", "day", "week", "month"]', 'Literal["hour", "day", "week"]', 1)
    assert stale != text and literal_types.generate(stale, tables) == text


@pytest.fixture(scope="module")
def mypy_errors() -> dict[tuple[str, int], str]:
    """``mypy --strict`` over every script of tests/typecheck/ at once (one run, a few seconds of CPU):
    the error lines by ``(file name, line)``."""
    scripts = sorted(str(p.relative_to(ROOT)) for p in TYPECHECK.glob("*.py"))
    result = run("-m", "mypy", "--strict", "--no-incremental", *scripts)
    assert result.returncode in (0, 1), result.stdout + result.stderr  # 2: mypy itself failed
    return {(Path(line.split(":")[0]).name, int(line.split(":")[1])): line for line in result.stdout.splitlines()
            if ": error:" in line}


def test_users_scripts_type_check_strictly(mypy_errors: dict[tuple[str, int], str]) -> None:
    """Walks, frames, pagers, endpoint methods, async use, errors and the emulator, as a user writes them."""
    scripts = [p.name for p in TYPECHECK.glob("*.py") if not p.name.startswith("bad_")]
    assert len(scripts) >= 3
    assert [line for (name, _), line in mypy_errors.items() if name in scripts] == []


def test_type_errors_fail_a_strict_type_check(mypy_errors: dict[tuple[str, int], str]) -> None:
    """Each line of tests/typecheck/bad_*.py marked ``# wrong`` (misspelt names, a missing ``await``,
    wrong argument and result types) is an error under mypy --strict, and no other line is."""
    scripts = sorted(TYPECHECK.glob("bad_*.py"))
    wrong = {(p.name, n) for p in scripts for n, line in enumerate(p.read_text().splitlines(), 1)
             if line.rstrip().endswith("# wrong")}
    flagged = {key for key in mypy_errors if key[0].startswith("bad_")}
    assert len(scripts) >= 2 and len(wrong) >= 15 and flagged == wrong, "\n".join(mypy_errors.values())


def _native_stubs():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import native_stubs
    finally:
        sys.path.pop(0)
    return native_stubs


def test_the_generator_refuses_a_type_table_that_drifts_from_the_bindings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parameter, member or name on one side only stops the generator with a message naming it."""
    native_stubs = _native_stubs()
    import stub_types
    from avax_data import _native

    ops = native_stubs.gen_endpoints.operations()
    assert native_stubs.render(_native, ops) == native_stubs.STUB.read_text()
    params = dict(stub_types.PARAMS)
    del params["batch_size"]
    monkeypatch.setattr(stub_types, "PARAMS", params)
    with pytest.raises(native_stubs.StubError, match=r"Chain\.range: no type for parameter 'batch_size'"):
        native_stubs.render(_native, ops)
    monkeypatch.setattr(stub_types, "PARAMS", {**stub_types.PARAMS, "batch_size": "int", "batch_sise": "int"})
    with pytest.raises(native_stubs.StubError, match=r"PARAMS types parameters no callable has: \['batch_sise'\]"):
        native_stubs.render(_native, ops)
    monkeypatch.setattr(stub_types, "PARAMS", {**params, "batch_size": "int"})
    _, first = stub_types.SECTIONS[1]
    chain = first["Chain"]
    members = dict(chain.members)
    monkeypatch.setitem(first, "Chain", stub_types.Class(members={**members, "tip": "int"}, base=chain.base))
    with pytest.raises(native_stubs.StubError, match=r"Chain: stub_types.py types members the module does not have: \['tip'\]"):
        native_stubs.render(_native, ops)
    del members["index_of"]
    monkeypatch.setitem(first, "Chain", stub_types.Class(members=members, base=chain.base))
    with pytest.raises(native_stubs.StubError, match=r"Chain: members of the module without types .*\['index_of'\]"):
        native_stubs.render(_native, ops)
    members = {**chain.members, "is_accepted": {"id": "str", "strict": "bool", "return": "bool"}}
    monkeypatch.setitem(first, "Chain", stub_types.Class(members=members, base=chain.base))
    with pytest.raises(native_stubs.StubError, match=r"Chain.is_accepted: .*parameters the module does not have: \['strict'\]"):
        native_stubs.render(_native, ops)


def test_check_fails_on_a_hand_edited_stub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    native_stubs = _native_stubs()
    stub = tmp_path / "_native.pyi"
    text = native_stubs.STUB.read_text()
    stub.write_text(text.replace("batch_size: int = 1024", "batch_size: int = 512", 1))
    monkeypatch.setattr(native_stubs, "STUB", stub)
    monkeypatch.setattr(sys, "argv", ["native_stubs.py", "--check"])
    assert stub.read_text() != text and native_stubs.main() == 1
    monkeypatch.setattr(sys, "argv", ["native_stubs.py"])
    assert native_stubs.main() == 0 and stub.read_text() == text


def test_signatures_and_docstrings_come_from_the_module() -> None:
    """A default, the keyword-only marker and a docstring in the stub are the module's own."""
    from avax_data import _native

    text = (ROOT / "python" / "avax_data" / "_native.pyi").read_text()
    assert _native.Chain.range.__text_signature__ == "($self, start=0, stop=None, *, count=None, concurrency=None, batch_size=1024, decode=None, columns=None)"
    assert "        start: int = 0,\n        stop: int | None = None,\n        *,\n        count: int | None = None,\n" in text
    first_line = _native.Chain.index_of.__doc__.strip().splitlines()[0]
    assert f'    def index_of(self, id: str) -> int:\n        """{first_line}' in text
