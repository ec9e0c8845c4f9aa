"""The package's public surface: exports, version, typing marker, docstrings, plugin."""

from __future__ import annotations

import importlib.metadata
import inspect
from pathlib import Path

import avax_data as ad
import avax_data.testing

NATIVE = ["IndexClient", "Chain", "Range", "RangeIterator", "BatchIterator", "Follow", "AsyncIndexClient",
          "AsyncChain", "AsyncRange", "AsyncRangeIterator", "AsyncBatchIterator", "AsyncFollow", "Emulator"]


def test_exports() -> None:
    for name in ad.__all__:
        assert hasattr(ad, name), name
    for name in NATIVE:
        assert name in ad.__all__
        assert getattr(ad, name) is getattr(ad._native, name)


def test_version() -> None:
    assert ad.__version__ == "0.1.0"
    assert importlib.metadata.version("avax-data") == ad.__version__


def test_py_typed_and_stub_shipped() -> None:
    root = Path(ad.__file__).parent
    assert (root / "py.typed").exists()
    assert (root / "_native.pyi").exists()
    assert (root / "_endpoints.json").exists()  # the table the endpoint methods are built from


def test_docstrings() -> None:
    assert ad.__doc__ and "IndexClient" in ad.__doc__
    for name in NATIVE:
        cls = getattr(ad, name)
        assert inspect.getdoc(cls), name
        for attr, member in vars(cls).items():
            if attr.startswith("_"):
                continue
            assert inspect.getdoc(member), f"{name}.{attr} has no docstring"


def test_pytest_plugin_entry_point() -> None:
    eps = importlib.metadata.entry_points(group="pytest11")
    assert any(ep.name == "avax_data" and ep.value == "avax_data.testing" for ep in eps)
    assert avax_data.testing.Emulator is ad.Emulator
    assert callable(avax_data.testing.avax_emulator)


def test_testing_imports_without_pytest() -> None:
    import subprocess
    import sys

    code = ("import sys; sys.modules['pytest'] = None; import avax_data.testing as t; "
            "assert t.Emulator is not None; assert not hasattr(t, 'avax_emulator'); print('ok')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_the_cache_functions_are_public_and_no_doc_imports_the_private_module(tmp_path: Path) -> None:
    # issue 35: `cache_info` and `cache_clear` were only reachable as `avax_data._native.*`
    assert ad.cache_info is ad._native.cache_info and ad.cache_clear is ad._native.cache_clear
    assert {"cache_info", "cache_clear"} <= set(ad.__all__)
    info = ad.cache_info(tmp_path / "none")
    assert (info["entries"], info["bytes"]) == (0, 0)
    root = Path(__file__).resolve().parent.parent
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    reaching = ("_native import cache_", "_native.cache_")
    private = [str(p.relative_to(root)) for p in pages if any(r in p.read_text() for r in reaching)]
    assert not private, f"pages that show the cache functions as private: {private}"
