"""``progress=True`` where new users meet it: in Jupyter (the ``jupyter`` extra's ipywidgets make
``tqdm.auto`` draw a widget bar, with no ``IProgress not found`` warning) and wherever stderr is
not a terminal (each state of the bar is printed once: no second 0% line)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_jupyter_extra_installs_ipywidgets_with_tqdm() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=\[]", req)[0] for req in extras["jupyter"]}
    assert names == {"tqdm", "ipywidgets"}


def test_in_a_kernel_tqdm_auto_draws_a_widget_bar_without_a_warning(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("ipywidgets")
    spec = importlib.util.spec_from_file_location("notebooks_execute", ROOT / "notebooks" / "execute.py")
    assert spec is not None and spec.loader is not None
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    source = "\n".join([
        "import warnings, tqdm.auto, tqdm.notebook, avax_data as ad",
        "with warnings.catch_warnings(record=True) as caught:",
        "    warnings.simplefilter('always')",
        "    with ad.Emulator(containers=300) as emu:",
        "        frame = ad.IndexClient(emu.url).chain('X/tx').range(0, 300).to_polars(progress=True)",
        "widget = issubclass(tqdm.auto.tqdm, tqdm.notebook.tqdm_notebook)",
        "print(widget, frame.height, [str(w.message) for w in caught])",
    ])
    path = tmp_path / "bar.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), path)
    outputs = runner.execute(path, timeout=120).cells[0].outputs
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.name == "stdout")
    assert printed.strip() == "True 300 []", outputs
    widgets = [o for o in outputs if o.output_type == "display_data"
               and "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets, outputs
    stderr = "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.name == "stderr")
    assert "IProgress" not in stderr, stderr


@pytest.mark.parametrize("walk", [
    "ad.IndexClient(emu.url).chain('X/tx').range(0, 2000, batch_size=500).to_polars(progress=True)",
    "ad.IndexClient(emu.url).chain('X/tx').range(0).to_polars(progress=True)",
    "ad.DataClient(emu.url).blocks('43114', limit=250).to_polars(progress=True)",
])
def test_outside_a_terminal_the_bar_prints_its_start_once(walk: str) -> None:
    pytest.importorskip("tqdm")
    script = f"import avax_data as ad\nwith ad.Emulator(containers=2000) as emu:\n    {walk}\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    states = [s.strip() for s in re.split(r"[\r\n]+", done.stderr) if s.strip()]
    starts = [s for s in states if re.search(r"(?<![\d.])0%\||: 0\.00 rows|: 0 rows", s)]
    assert len(starts) <= 1, states
    assert states and "100%" in states[-1] or "rows" in states[-1], states
