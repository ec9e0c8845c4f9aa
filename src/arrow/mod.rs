//! Typed rows to Arrow record batches (view types for strings and binaries, so polars takes
//! them without re-encoding), and a streaming Parquet sink.

pub mod containers;
pub mod data;
pub mod decoded;
pub mod parquet_sink;
pub mod reader;

pub use containers::{container_schema, containers_to_batch};
pub use parquet_sink::{ParquetOptions, ParquetSink, Target};
pub use reader::WalkReader;
