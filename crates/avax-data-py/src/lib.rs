//! The Python bindings: the only module that touches pyo3.

mod args;
mod cache;
mod call;
mod checkpoint;
mod convert;
mod data;
mod datasets;
mod decode;
mod emulator;
mod endpoint_calls;
mod endpoints;
mod errors;
mod index;
mod inputs;
mod iters;
mod logs;
mod metrics;
mod mode;
mod pagers;
mod plan;
mod progress;
mod ready;
mod senders;
mod settings;
mod show;
mod tables;
mod target;
mod wait;
mod walks;
mod warn;
mod windows;

use pyo3::prelude::*;

/// avax_data._native: the Rust extension of avax-data (the clients, walks and emulator).
///
/// Its classes and functions are re-exported by ``avax_data``; import them from there.
///
/// Example:
///     >>> ad.IndexClient is ad._native.IndexClient
///     True
///     >>> ad._native.__version__ == ad.__version__
///     True
#[pymodule]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    logs::install(m.py())?;
    m.add_function(wrap_pyfunction!(logs::reset_logging, m)?)?;
    m.add_function(wrap_pyfunction!(tables::literal_tables, m)?)?;
    m.add_function(wrap_pyfunction!(cache::cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(cache::cache_clear, m)?)?;
    m.add_function(wrap_pyfunction!(cache::cache_default_dir, m)?)?;
    m.add_function(wrap_pyfunction!(settings::client_settings, m)?)?;
    m.add_function(wrap_pyfunction!(settings::default_settings, m)?)?;
    m.add_class::<index::PyIndexClient>()?;
    m.add_class::<index::PyChain>()?;
    m.add_class::<index::PyAsyncIndexClient>()?;
    m.add_class::<index::PyAsyncChain>()?;
    m.add_class::<walks::PyRange>()?;
    m.add_class::<iters::PyRangeIterator>()?;
    m.add_class::<iters::PyBatchIterator>()?;
    m.add_class::<walks::PyFollow>()?;
    m.add_class::<walks::PyAsyncRange>()?;
    m.add_class::<iters::PyAsyncRangeIterator>()?;
    m.add_class::<iters::PyAsyncBatchIterator>()?;
    m.add_class::<walks::PyAsyncFollow>()?;
    m.add_class::<ready::Ready>()?;
    m.add_class::<ready::Pending>()?;
    m.add_class::<data::PyDataClient>()?;
    m.add_class::<data::PyAsyncDataClient>()?;
    m.add_class::<pagers::PyPager>()?;
    m.add_class::<plan::PyPlan>()?;
    m.add_class::<iters::PyPagerIterator>()?;
    m.add_class::<iters::PyPageIterator>()?;
    m.add_class::<pagers::PyAsyncPager>()?;
    m.add_class::<iters::PyAsyncPagerIterator>()?;
    m.add_class::<iters::PyAsyncPageIterator>()?;
    m.add_class::<iters::PyPagerBatchIterator>()?;
    m.add_class::<iters::PyAsyncPagerBatchIterator>()?;
    m.add_class::<metrics::PyMetricsClient>()?;
    m.add_class::<metrics::PyAsyncMetricsClient>()?;
    m.add_class::<emulator::PyEmulator>()?;
    m.add_function(wrap_pyfunction!(decode::decode_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(senders::c_block_senders, m)?)?;
    m.add_function(wrap_pyfunction!(endpoints::openapi_operations, m)?)?;
    m.add_function(wrap_pyfunction!(inputs::unix_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(windows::month_windows, m)?)?;
    m.add_function(wrap_pyfunction!(datasets::complete_partitions, m)?)?;
    m.add_function(wrap_pyfunction!(datasets::merge_dataset, m)?)?;
    m.add_function(wrap_pyfunction!(datasets::verify_dataset, m)?)?;
    m.add_class::<checkpoint::PyExportCheckpoint>()?;
    m.add_function(wrap_pyfunction!(checkpoint::_verify_checkpoint, m)?)?;
    // Not added to the module: only `atexit` calls it.
    let at_exit = wrap_pyfunction!(at_exit, m)?;
    m.py().import("atexit")?.call_method1("register", (at_exit,))?;
    Ok(())
}

/// Keeps the runtime's threads out of Python once the interpreter exits (see [`wait::exit`]).
#[pyfunction]
fn at_exit(py: Python<'_>) {
    py.detach(wait::exit::close);
}
