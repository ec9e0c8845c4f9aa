//! `_export_plan` and `_chain_identity`: what the command line's index exports read besides
//! their walk (the tip, the chain's identity), so that `--dry-run` counts every request.

use pyo3::prelude::*;

use super::errors::to_py;
use super::index::PyChain;
use super::plan::PyPlan;
use super::walks::PyRange;

/// The plan of an export of ``rng`` by the command line, ``held`` of its rows already written:
/// the walk's less those, the tip read when ``reads_tip`` (a fresh export), and the read of the
/// chain's identity (container 0) when the client has not read it and the walk's plan does not
/// count it.
#[pyfunction]
pub fn _export_plan(rng: PyRef<'_, PyRange>, reads_tip: bool, held: u64) -> PyResult<PyPlan> {
    super::plan::plan_of(Some(rng.walk.plan_export(reads_tip, held)))
}

/// The id of ``chain``'s container 0 (the network's identity), read once per client; ``None``
/// for an empty index.
#[pyfunction]
pub fn _chain_identity(py: Python<'_>, chain: PyRef<'_, PyChain>) -> PyResult<Option<String>> {
    let client = chain.chain.clone();
    super::wait::wait_raw(py, async move { client.chain_identity().await })?.map_err(to_py)
}
