//! `GET /v2/chains/{chainId}/metrics/{metric}`: one page of a metric's series ([`super::series`]).
//!
//! - `chainId`: a decimal EVM chain id of the world, or `total`, `mainnet`, `testnet`. Digits of
//!   no chain of the world: 404 `Chain {id} not found`; other text: 400.
//! - `metric`: one of the 17 names (else 400, class-validator array form).
//! - `timeInterval`: `hour`, `day`, `week`, `month`; **default `hour`** as the hosted service
//!   answers (the OpenAPI states none; `spec/ground-truth.md`, "Real answers"), `day` for the
//!   day-only metrics (the core's `service_default_interval`). A day-only metric with another
//!   interval: 400 with a message string.
//! - `startTimestamp`, `endTimestamp`: integers >= 0 (Unix seconds). The page holds the buckets
//!   whose timestamp `t` satisfies **`startTimestamp <= t <= endTimestamp`**: both ends
//!   inclusive, as the hosted service (the first hourly point can sit on `endTimestamp`; windows
//!   split at a bucket start `b` tile when the earlier one asks up to `b - 1`).
//!   `startTimestamp > endTimestamp`: 400; equal: the bucket starting there, if any.
//! - `pageSize` 1..=2160, default 100; `pageToken` a UUID issued for the same chain, metric and
//!   filters, valid 24 h of the emulator clock.
//! - Order: **newest first** (descending timestamp), as the Data API lists.
//! - Values are JSON numbers: integral values below 2^53 as integers, others as floats (wei sums
//!   such as `feesPaid` are floats).

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::series::{metric_series_in, ChainSelector, Interval, Metric, SeriesError};
use crate::data_api::paging;
use crate::data_api::params::Params;
use crate::data_api::DataApiState;
use avax_data_core::metrics::params::service_default_interval;

/// Largest `pageSize`.
pub const MAX_PAGE_SIZE: u32 = 2_160;
/// `pageSize` when absent.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// An optional integer >= 0 query parameter.
pub(crate) fn timestamp(params: &mut Params, name: &str) -> Option<i64> {
    let text = params.get(name)?.trim().to_string();
    match text.parse::<i64>() {
        Ok(v) if v >= 0 => Some(v),
        Ok(_) => {
            params.problem(format!("{name} must not be less than 0"));
            None
        }
        Err(_) => {
            params.problem(format!("{name} must not be less than 0"));
            params.problem(format!("{name} must be an integer number"));
            None
        }
    }
}

/// A JSON number: an integer when the value is integral and exact in f64.
pub(crate) fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

pub(crate) async fn get_metric(
    State(state): State<Arc<DataApiState>>,
    Path((chain_id, metric_name)): Path<(String, String)>,
    RawQuery(query): RawQuery,
) -> Answer {
    let mut params = Params::parse(query.as_deref());
    let metric = Metric::parse(&metric_name);
    if metric.is_none() {
        let names: Vec<&str> = Metric::ALL.iter().map(|m| m.as_str()).collect();
        params.problem(format!("metric must be one of the following values: {}", names.join(", ")));
    }
    let size = if params.get("pageSize").is_some() { params.page_size(MAX_PAGE_SIZE) } else { DEFAULT_PAGE_SIZE };
    let interval = params.one_of("timeInterval", &["hour", "day", "week", "month"]);
    let start_ts = timestamp(&mut params, "startTimestamp");
    let end_ts = timestamp(&mut params, "endTimestamp");
    params.finish()?;
    let Some(metric) = metric else { unreachable!("checked above") };
    let interval =
        interval.and_then(|i| Interval::parse(&i).ok()).unwrap_or_else(|| service_default_interval(metric.as_str()));
    in_order(start_ts, end_ts)?;
    let Some(selector) = ChainSelector::parse(&chain_id) else {
        return Err(errors::bad_request(format!(
            "Invalid chainId {chain_id:?}: expected a supported EVM chain id or one of total, mainnet, testnet"
        )));
    };
    if metric.day_only() && interval != Interval::Day {
        return Err(errors::bad_request(SeriesError::DayOnly(metric, interval).to_string()));
    }
    let fingerprint = params.fingerprint(&format!("v2/metrics/{chain_id}/{}", metric.as_str()));
    let start = paging::start(&state, &params, &fingerprint)?;
    let worker = state.clone();
    let computed = tokio::task::spawn_blocking(move || {
        // `endTimestamp` is inclusive (spec/ground-truth.md): the window's end is the second after it.
        metric_series_in(&worker.world, selector, metric, interval, (start_ts, end_ts.map(|e| e.saturating_add(1))))
    })
    .await;
    let series = match computed {
        Ok(Ok(s)) => s,
        Ok(Err(e @ SeriesError::UnknownChain(_))) => return Err(errors::not_found(e.to_string())),
        Ok(Err(e)) => return Err(errors::bad_request(e.to_string())),
        Err(_) => return Err(errors::error(StatusCode::INTERNAL_SERVER_ERROR, json!("metric computation failed"))),
    };
    series_page(&state, series, (start_ts, end_ts), (start, size), &fingerprint)
}

/// A 400 when both bounds are given and `startTimestamp > endTimestamp`.
pub(crate) fn in_order(start_ts: Option<i64>, end_ts: Option<i64>) -> Result<(), axum::response::Response> {
    match (start_ts, end_ts) {
        (Some(s), Some(e)) if s > e => {
            Err(errors::bad_request(format!("startTimestamp ({s}) must be less than or equal to endTimestamp ({e})")))
        }
        _ => Ok(()),
    }
}

/// One page of a series (`series` oldest first): its points with `start <= t <= end`, newest
/// first, as `{value, timestamp}` under `results`.
pub(crate) fn series_page(
    state: &DataApiState,
    series: Vec<(i64, f64)>,
    (start_ts, end_ts): (Option<i64>, Option<i64>),
    page: (u128, usize),
    fingerprint: &str,
) -> Answer {
    let items: Vec<(i64, f64)> = series
        .into_iter()
        .rev()
        .filter(|(t, _)| start_ts.is_none_or(|s| *t >= s) && end_ts.is_none_or(|e| *t <= e))
        .collect();
    paging::list_page(
        state,
        "results",
        &items,
        page,
        fingerprint,
        |(t, v)| json!({"value": number(*v), "timestamp": t}),
    )
}
