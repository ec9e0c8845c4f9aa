"""Re-execute the notebooks in place, saving their outputs and charts (PNG) in the .ipynb files.

    python notebooks/execute.py                    # all the notebooks
    python notebooks/execute.py index.ipynb        # some of them

Each notebook starts its own seeded `ad.Emulator`, so a re-execution gives the same outputs. The
kernel is always the Python running this script (ipykernel from the same virtualenv, never a
kernel spec installed elsewhere), its working directory a fresh temporary directory. The test
suite (`tests/test_notebooks.py`) runs the same `execute()` on copies of the notebooks.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from traitlets import default

HERE = Path(__file__).resolve().parent

#: The notebooks, in reading order, with the least number of charts (PNG outputs) each must show.
NOTEBOOKS = {"index.ipynb": 2, "data_api.ipynb": 4, "metrics.ipynb": 3, "wallet_activity.ipynb": 2,
             "ERC20_token_transfers.ipynb": 3}


class _ThisPythonKernelManager(KernelManager):
    """A kernel manager whose only kernel is ipykernel on this interpreter (`sys.executable`).

    With no kernel directories, jupyter_client falls back to ipykernel's own "python3" spec,
    which launches `sys.executable -m ipykernel_launcher`: a "python3" kernel installed in the
    user's or the system's Jupyter paths (maybe another Python without avax_data) is not used.
    """

    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self) -> KernelSpecManager:
        return KernelSpecManager(kernel_dirs=[], ensure_native_kernel=True)


def execute(path: Path, *, timeout: float = 120.0) -> nbformat.NotebookNode:
    """Run every cell of the notebook at `path` and return it with its new outputs.

    Raises `nbclient.exceptions.CellExecutionError` on the first cell that fails, and
    `CellTimeoutError` when a cell runs longer than `timeout` seconds. The file is not written.
    """
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="avax-data-notebook-") as workdir:
        client = NotebookClient(
            nb,
            timeout=timeout,
            kernel_name="python3",
            kernel_manager_class=_ThisPythonKernelManager,
            record_timing=False,
            resources={"metadata": {"path": workdir}},
        )
        client.execute()
    return nb


def image_count(nb: nbformat.NotebookNode) -> int:
    """How many PNG images the notebook's outputs hold."""
    return sum(
        "image/png" in output.get("data", {})
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
    )


def main(argv: list[str] | None = None) -> int:
    """Execute the named notebooks (default: all) in place; print one line per notebook."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", default=list(NOTEBOOKS), help="notebook file names")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds allowed per cell")
    args = parser.parse_args(argv)
    for name in args.notebooks:
        path = Path(name) if Path(name).exists() else HERE / name
        nb = execute(path, timeout=args.timeout)
        nbformat.write(nb, path)
        print(f"{path.name}: {len(nb.cells)} cells, {image_count(nb)} charts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
