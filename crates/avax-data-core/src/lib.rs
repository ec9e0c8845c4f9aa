//! avax-data-core: typed, fast access to Avalanche's Index RPC, Data API and Metrics API.
//!
//! The client core of avax-data, plain Rust without pyo3: the clients ([`index`], [`data`],
//! [`metrics`]), their walks, the container decoders ([`decode`]), the Arrow tables ([`arrow`])
//! and resumable datasets ([`dataset`]). The Python bindings (crate `avax-data-py`) only convert
//! types and map errors; the emulator of the three services is the crate `avax-data-emulator`.
//!
//! Every default, environment variable and limit the clients share is in [`settings`]; the rules
//! that read a chain id, a network or a time, whatever form it is given in, are in [`inputs`].

#![warn(missing_docs)]

pub mod arrow;
pub mod cache;
pub mod checkpoint;
pub mod data;
pub mod dataset;
pub mod decode;
pub mod error;
pub mod exact;
pub mod index;
pub mod inputs;
pub mod metrics;
mod named;
pub mod paging;
pub mod plan;
pub mod reconcile;
pub mod rest;
pub mod runtime;
pub mod settings;
pub mod stop;
pub mod tables;
pub mod transport;
pub mod wake_pipe;

pub use error::{Error, Result};
