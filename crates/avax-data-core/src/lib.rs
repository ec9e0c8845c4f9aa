//! avax-data: typed, fast access to Avalanche's Index RPC, Data API and Metrics API.
//!
//! The crate is plain Rust and usable from Rust; the Python bindings live in [`python`]
//! behind the `python` feature, which maturin turns on.

pub mod arrow;
pub mod data;
pub mod dataset;
pub mod decode;
pub mod emulator;
pub mod error;
pub mod exact;
pub mod index;
pub mod metrics;
pub mod paging;
pub mod rest;
pub mod runtime;
pub mod tables;
pub mod transport;

// The bindings' doc comments are Python docstrings whose examples are Python doctests
// (tests/test_docstrings.py), not Rust: rustdoc does not collect them.
#[cfg(all(feature = "python", not(doctest)))]
mod python;

pub use error::{Error, Result};
