//! The hosted Metrics API (`/v2/...`): a typed client with parameter checks before the network,
//! on its own [`crate::rest::RestClient`] (token-paged streams), a sharded walk of metric series
//! over time windows, and the Arrow schemas of its resources (in [`crate::arrow::metrics`]).

pub mod client;
pub mod params;
pub mod series;

pub use client::{
    plan_shards, point_time, MetricQuery, MetricsClient, Shard, DEFAULT_CONCURRENCY, DEFAULT_METRICS_URL,
};
pub use params::Interval;
pub use series::{series_pager, ShardSource};
