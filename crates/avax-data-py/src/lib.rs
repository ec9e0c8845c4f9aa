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
mod export_reads;
mod graceful;
mod index;
mod inputs;
mod interrupt;
mod iters;
mod logs;
mod metrics;
mod mode;
mod pagers;
mod plan;
mod progress;
mod ready;
mod reconcile;
mod senders;
mod settings;
mod show;
mod signal_watch;
mod tables;
mod target;
mod wait;
mod walk_twins;
mod walks;
mod warn;
mod windows;

use pyo3::prelude::*;

/// Adds the classes and functions of a table to the module `$m`.
macro_rules! register {
    ($m:ident; classes [$($class:ty),* $(,)?] functions [$($function:path),* $(,)?]) => {
        $($m.add_class::<$class>()?;)*
        $($m.add_function(wrap_pyfunction!($function, $m)?)?;)*
    };
}

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
    register! { m;
        classes [
            index::PyIndexClient, index::PyChain, index::PyAsyncIndexClient, index::PyAsyncChain,
            walks::PyRange, iters::PyRangeIterator, iters::PyBatchIterator, walks::PyFollow,
            walks::PyAsyncRange, iters::PyAsyncRangeIterator, iters::PyAsyncBatchIterator, walks::PyAsyncFollow,
            ready::Ready, ready::Next, ready::Pending,
            data::PyDataClient, data::PyAsyncDataClient,
            pagers::PyPager, plan::PyPlan, iters::PyPagerIterator, iters::PyPageIterator,
            pagers::PyAsyncPager, iters::PyAsyncPagerIterator, iters::PyAsyncPageIterator,
            iters::PyPagerBatchIterator, iters::PyAsyncPagerBatchIterator,
            metrics::PyMetricsClient, metrics::PyAsyncMetricsClient,
            emulator::PyEmulator, checkpoint::PyExportCheckpoint,
        ]
        functions [
            logs::reset_logging, tables::literal_tables, tables::emulator_defaults,
            cache::cache_info, cache::cache_clear, cache::cache_default_dir,
            settings::client_settings, settings::default_settings,
            decode::decode_bytes, senders::c_block_senders, endpoints::openapi_operations,
            inputs::unix_seconds, windows::month_windows,
            datasets::complete_partitions, datasets::merge_dataset, datasets::verify_dataset,
            checkpoint::_verify_checkpoint, export_reads::_export_plan, export_reads::_chain_identity,
            reconcile::reconcile, reconcile::reconcile_async,
        ]
    }
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
