//! The Python bindings: the only module that touches pyo3.

mod args;
mod convert;
mod data;
mod decode;
mod emulator;
mod errors;
mod index;
mod metrics;
mod ranges;
mod ready;
mod wait;

use pyo3::prelude::*;

/// avax_data._native: the Rust core of avax-data.
#[pymodule]
#[pyo3(name = "_native")]
fn native_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<index::PyIndexClient>()?;
    m.add_class::<index::PyChain>()?;
    m.add_class::<index::PyAsyncIndexClient>()?;
    m.add_class::<index::PyAsyncChain>()?;
    m.add_class::<ranges::PyRange>()?;
    m.add_class::<ranges::PyRangeIterator>()?;
    m.add_class::<ranges::PyBatchIterator>()?;
    m.add_class::<ranges::PyFollow>()?;
    m.add_class::<ranges::PyAsyncRange>()?;
    m.add_class::<ranges::PyAsyncRangeIterator>()?;
    m.add_class::<ranges::PyAsyncBatchIterator>()?;
    m.add_class::<ranges::PyAsyncFollow>()?;
    m.add_class::<ready::Ready>()?;
    m.add_class::<data::PyDataClient>()?;
    m.add_class::<data::PyAsyncDataClient>()?;
    m.add_class::<data::PyPager>()?;
    m.add_class::<data::PyPagerIterator>()?;
    m.add_class::<data::PyPageIterator>()?;
    m.add_class::<data::PyAsyncPager>()?;
    m.add_class::<data::PyAsyncPagerIterator>()?;
    m.add_class::<data::PyAsyncPageIterator>()?;
    m.add_class::<metrics::PyMetricsClient>()?;
    m.add_class::<metrics::PyAsyncMetricsClient>()?;
    m.add_class::<emulator::PyEmulator>()?;
    m.add_function(wrap_pyfunction!(decode::decode_bytes, m)?)?;
    Ok(())
}
