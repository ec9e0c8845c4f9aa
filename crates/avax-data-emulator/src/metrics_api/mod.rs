//! The Metrics API (`/v2`, the hosted metrics service) over the Data API's world, so the two
//! services agree: metric series from the same blocks and transactions, the ICM summary from the
//! same messages.
//!
//! One small file per job: `metric.rs` (the 17 metrics' names), `series.rs` (bucketing and the metrics' series, cached), `metrics.rs`
//! (`GET /v2/chains/{chainId}/metrics/{metric}`), `chains.rs` (`GET /v2/chains`),
//! `icm_summary.rs` (`GET /v2/icm/summary`), `live.rs` (`GET /v2/live-check`), `staking.rs`
//! (`GET /v2/networks/{network}/metrics/{metric}`), `past.rs` (the series before the blocks). Errors use the
//! Data API's body `{message, error, statusCode}`; page tokens are the Data API's (UUIDs on the
//! emulator clock, 24 h). No API key is checked (the spec lists none).

// Handlers return `Result<_, Response>` to hand the error answer straight back.
#![allow(clippy::result_large_err)]

mod chains;
pub mod icm_summary;
mod live;
mod metric;
mod metrics;
mod past;
pub mod series;
pub mod staking;

use std::sync::Arc;

use axum::routing::{any, get};
use axum::Router;

pub use icm_summary::{icm_summary, GroupBy, IcmCounts, IcmSummaryFilter};
pub use series::{metric_series, metric_series_in, ChainSelector, Interval, Metric, SeriesError};
pub use staking::{staking_series, StakingMetric};

use super::data_api::{errors, DataApiState};

/// The `/v2` routes over the Data API's world and page tokens (`state`), with every other Metrics
/// API operation of the document (`openapi/`). Another method on a
/// known path, or any unknown `/v2` path, gets the JSON 404 `Cannot {METHOD} {path}`.
pub(crate) fn router<S: Clone + Send + Sync + 'static>(state: Arc<DataApiState>) -> Router<S> {
    let by_hand = Router::new()
        .route("/v2/chains", get(chains::list).fallback(errors::cannot))
        .route("/v2/chains/{chain_id}", get(chains::get_one).fallback(errors::cannot))
        .route("/v2/networks/{network}/metrics/{metric}", get(staking::get_staking_metric).fallback(errors::cannot))
        .route("/v2/chains/{chain_id}/metrics/{metric}", get(metrics::get_metric).fallback(errors::cannot))
        .route("/v2/icm/summary", get(icm_summary::summary).fallback(errors::cannot))
        .route("/v2/live-check", get(live::check).fallback(errors::cannot));
    crate::openapi::add_routes(by_hand, avax_data_core::rest::openapi::Service::Metrics)
        .route("/v2/{*rest}", any(errors::cannot))
        .with_state(state)
}
