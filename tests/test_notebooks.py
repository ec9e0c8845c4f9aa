"""The notebooks run top to bottom against the emulator, in a fresh kernel, and show their charts.

Each notebook is copied to a temporary directory and executed there with nbclient (the same
`execute()` as `python notebooks/execute.py`, on this interpreter's ipykernel); any cell error
fails the test. The committed notebooks must hold their saved outputs (executed, with charts).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

NOTEBOOKS_DIR = Path(__file__).resolve().parent.parent / "notebooks"

_spec = importlib.util.spec_from_file_location("notebooks_execute", NOTEBOOKS_DIR / "execute.py")
assert _spec is not None and _spec.loader is not None
runner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(runner)


def test_the_notebook_list_is_the_directory() -> None:
    assert sorted(runner.NOTEBOOKS) == sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))


@pytest.mark.parametrize("name", list(runner.NOTEBOOKS))
def test_the_committed_notebook_holds_its_outputs(name: str) -> None:
    nb = nbformat.read(NOTEBOOKS_DIR / name, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), "run notebooks/execute.py"
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert runner.image_count(nb) >= runner.NOTEBOOKS[name]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("name", list(runner.NOTEBOOKS))
def test_the_notebook_runs_and_draws_its_charts(name: str, tmp_path: Path) -> None:
    copy = tmp_path / name
    shutil.copyfile(NOTEBOOKS_DIR / name, copy)
    nb = runner.execute(copy, timeout=120)  # raises CellExecutionError on the first failing cell
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert runner.image_count(nb) >= runner.NOTEBOOKS[name]
    # Every chart is a real PNG.
    pngs = [o.data["image/png"] for c in code for o in c.outputs if "image/png" in o.get("data", {})]
    assert all(isinstance(p, str) and p.startswith("iVBORw0KGgo") for p in pngs)
