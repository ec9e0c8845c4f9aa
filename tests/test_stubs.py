"""The type stubs are true to the extension module: the async half of ``_native.pyi`` is what
``tools/async_stubs.py`` generates from the sync half, ``mypy.stubtest`` finds no difference
between the stub and the built module, and a user's script type-checks with ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("mypy")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_the_async_twins_in_the_stub_are_generated_from_the_sync_classes() -> None:
    result = run("tools/async_stubs.py", "--check")
    assert result.returncode == 0, result.stderr


def test_stubtest_finds_the_stub_true_to_the_module() -> None:
    result = run("-m", "mypy.stubtest", "avax_data._native")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_user_script_type_checks_strictly() -> None:
    result = run("-m", "mypy", "--strict", "--no-incremental", "tests/typecheck/user_script.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_stub_checker_fails_on_a_stale_stub(tmp_path: Path) -> None:
    """The generator's --check is not a test that cannot fail: a hand edit of the generated part fails it."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import async_stubs
    finally:
        sys.path.pop(0)
    text = async_stubs.STUB.read_text()
    stale = text.replace("-> Awaitable[pl.DataFrame]", "-> pl.DataFrame", 1)
    assert stale != text and async_stubs.generate(stale) != stale
    assert async_stubs.generate(text) == text


def test_the_async_methods_are_typed_as_awaitables_not_coroutines() -> None:
    text = (ROOT / "python" / "avax_data" / "_native.pyi").read_text()
    generated = text.split("# ---- Async twins")[1]
    assert "async def" not in text and "Coroutine" not in text
    assert "def to_polars(self, limit: int | None = None, *, progress: Progress = None) -> Awaitable[pl.DataFrame]" \
        in generated
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


def test_misspelt_names_fail_a_strict_type_check() -> None:
    """Each line of tests/typecheck/bad_literals.py marked ``# wrong`` is an error under mypy --strict,
    and no other line is."""
    script = ROOT / "tests" / "typecheck" / "bad_literals.py"
    wrong = {n for n, line in enumerate(script.read_text().splitlines(), 1) if line.rstrip().endswith("# wrong")}
    result = run("-m", "mypy", "--strict", "--no-incremental", str(script.relative_to(ROOT)))
    flagged = {int(line.split(":")[1]) for line in result.stdout.splitlines() if ": error:" in line}
    assert len(wrong) >= 7 and flagged == wrong, result.stdout
