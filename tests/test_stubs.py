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
    stale = text.replace("async def to_polars", "def to_polars", 1)
    assert stale != text and async_stubs.generate(stale) != stale
    assert async_stubs.generate(text) == text
