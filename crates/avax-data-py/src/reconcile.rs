//! `reconcile` and `reconcile_async`: the core's reconcile of a node's index against the Data API
//! (`avax_data_core::reconcile`), adapted. The Python wrapper `avax_data.reconcile` names the
//! result.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::{shown, str_arg, u64_arg};
use super::convert::polars_frame;
use super::data::{PyAsyncDataClient, PyDataClient};
use super::errors::{invalid, to_py};
use super::index::{PyAsyncIndexClient, PyIndexClient};
use super::mode::{Awaiting, Blocking, Call, Mode};
use avax_data_core::data::DataClient;
use avax_data_core::index::IndexClient;
use avax_data_core::reconcile::{differences_batch, differences_schema, Chain, Difference, Reconcile, Summary};

/// The differences and the summary of a finished reconcile, converted when they reach Python:
/// `(polars.DataFrame, dict)`.
struct ReconcileOut(Vec<Difference>, Summary);

impl<'py> IntoPyObject<'py> for ReconcileOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let ReconcileOut(differences, s) = self;
        let frame = polars_frame(py, vec![differences_batch(&differences)], differences_schema())?;
        let summary = PyDict::new(py);
        for (key, value) in [
            ("heights", s.heights),
            ("index_blocks", s.index_blocks),
            ("data_blocks", s.data_blocks),
            ("blocks_compared", s.blocks_compared),
            ("index_transactions", s.index_transactions),
            ("data_transactions", s.data_transactions),
            ("missing", s.missing),
            ("extra", s.extra),
            ("different", s.different),
            ("index_requests", s.index_requests),
            ("data_requests", s.data_requests),
        ] {
            summary.set_item(key, value)?;
        }
        Ok((frame, summary).into_pyobject(py)?.into_any())
    }
}

fn index_client(node: &Bound<'_, PyAny>) -> PyResult<IndexClient> {
    if let Ok(c) = node.cast::<PyIndexClient>() {
        return Ok(c.get().client.clone());
    }
    if let Ok(c) = node.cast::<PyAsyncIndexClient>() {
        return Ok(c.get().client.clone());
    }
    Err(invalid("node", shown(node), "an IndexClient or AsyncIndexClient"))
}

fn data_client(data: &Bound<'_, PyAny>) -> PyResult<DataClient> {
    if let Ok(c) = data.cast::<PyDataClient>() {
        return Ok(c.get().client.clone());
    }
    if let Ok(c) = data.cast::<PyAsyncDataClient>() {
        return Ok(c.get().client.clone());
    }
    Err(invalid("data", shown(data), "a DataClient or AsyncDataClient"))
}

/// The checked reconcile of the arguments (nothing sent yet).
fn plan(
    node: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    chain: &Bound<'_, PyAny>,
    start: &Bound<'_, PyAny>,
    stop: &Bound<'_, PyAny>,
    network: &Bound<'_, PyAny>,
) -> PyResult<Reconcile> {
    let index = index_client(node)?;
    let data = data_client(data)?;
    let chain = Chain::parse(&str_arg(chain, "chain", avax_data_core::reconcile::chain::CHAINS)?).map_err(to_py)?;
    let start = u64_arg(start, "start")?;
    let stop = u64_arg(stop, "stop")?;
    let network = str_arg(network, "network", "one of mainnet, fuji, testnet")?;
    Reconcile::new(index.chain(chain.index_path()), data, chain, &network, start, stop).map_err(to_py)
}

/// Compares a node's index with the Data API over heights ``range(start, stop)`` (blocking).
///
/// See ``avax_data.reconcile``, which wraps it and names the result.
///
/// Example:
///     >>> node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)
///     >>> frame, summary = ad._native.reconcile(node, data, "C", 0, 10, "mainnet")
///     >>> frame.height, summary["blocks_compared"]
///     (0, 10)
#[pyfunction]
#[pyo3(signature = (node, data, chain, start, stop, network, progress = None))]
#[allow(clippy::too_many_arguments)] // the Python signature's arguments, as every pyfunction takes them
pub fn reconcile<'py>(
    py: Python<'py>,
    node: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    chain: &Bound<'py, PyAny>,
    start: &Bound<'py, PyAny>,
    stop: &Bound<'py, PyAny>,
    network: &Bound<'py, PyAny>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    run::<Blocking>(py, "reconcile", plan(node, data, chain, start, stop, network)?, progress)
}

/// Compares a node's index with the Data API over heights ``range(start, stop)`` (awaitable).
///
/// See ``avax_data.reconcile_async``, which wraps it and names the result.
///
/// Example:
///     >>> import asyncio
///     >>> node, data = ad.IndexClient(emu.url), ad.DataClient(base_url=emu.url)
///     >>> async def main():
///     ...     return await ad._native.reconcile_async(node, data, "C", 0, 10, "mainnet")
///     >>> frame, summary = asyncio.run(main())
///     >>> frame.height, summary["blocks_compared"]
///     (0, 10)
#[pyfunction]
#[pyo3(signature = (node, data, chain, start, stop, network, progress = None))]
#[allow(clippy::too_many_arguments)] // as `reconcile`
pub fn reconcile_async<'py>(
    py: Python<'py>,
    node: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    chain: &Bound<'py, PyAny>,
    start: &Bound<'py, PyAny>,
    stop: &Bound<'py, PyAny>,
    network: &Bound<'py, PyAny>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    run::<Awaiting>(py, "reconcile_async", plan(node, data, chain, start, stop, network)?, progress)
}

/// `plan` run the way `M` runs a call (blocking, or a coroutine started when first awaited),
/// `progress=` advanced by the heights done.
fn run<'py, M: Mode>(
    py: Python<'py>,
    name: &'static str,
    plan: Reconcile,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let total = plan.stop - plan.start;
    let bar = super::progress::bar(py, progress, "reconcile", move || Some(total))?;
    let on = super::progress::on_rows(&bar);
    M::run(py, Call("avax_data", name), async move {
        let (differences, summary) = super::progress::finished(bar, plan.run(on)).await.map_err(to_py)?;
        Ok(ReconcileOut(differences, summary))
    })
}
