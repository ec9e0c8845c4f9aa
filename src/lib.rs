//! avax-data: typed, fast access to Avalanche's Index RPC, Data API and Metrics API.
//!
//! The crate is plain Rust and usable from Rust; the Python bindings live in [`python`]
//! behind the `python` feature, which maturin turns on.

pub mod arrow;
pub mod data;
pub mod decode;
pub mod emulator;
pub mod error;
pub mod index;
pub mod metrics;
pub mod paging;
pub mod rest;
pub mod runtime;
pub mod transport;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
