//! Typed rows to Arrow record batches (view types for strings and binaries, so polars takes
//! them without re-encoding), and a streaming Parquet sink.
//!
//! The Data and Metrics APIs' JSON objects go through one builder ([`json`]) driven by each
//! resource's column table ([`data`], [`metrics`]); [`Resource`] names them all.

pub mod containers;
pub mod data;
pub mod decoded;
pub mod json;
pub mod json_columns;
pub mod labels;
pub mod metrics;
pub mod parquet_export;
pub mod parquet_sink;
pub mod parquet_slices;
pub mod reader;
pub mod resource;

pub use containers::{columns_to_batch, container_schema, containers_to_batch};
pub use json::{timestamp_ns, Col, Kind};
pub use json_columns::BatchBuilder;
pub use parquet_export::ParquetExport;
pub use parquet_sink::{ParquetOptions, ParquetSink, Target};
pub use reader::{block_on_runtime, BatchFuture, Wait, WalkReader};
pub use resource::{batch_builder, to_batch, Resource};
