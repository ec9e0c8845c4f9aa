//! `MetricsClient`: one method per Metrics API endpoint (`/v2/...`), on its own [`RestClient`]
//! (transport and token-paged walks, [`RestClient::page`], [`RestClient::pages`]), plus the
//! sharded walk of a metric series over a time window.

use std::ops::Deref;
use std::sync::Arc;

use futures::StreamExt;
use serde_json::json;

use super::params::{self, Interval};
use crate::arrow::json::Scalar;
use crate::error::{Error, Result};
use crate::exact::{Exact, Number};
use crate::paging::JsonItem;
use crate::rest::openapi::{engine_check, ride};
use crate::rest::{Paged, RestClient};
use crate::transport::TransportConfig;

/// Default base URL of the hosted Metrics API.
pub const DEFAULT_METRICS_URL: &str = "https://metrics.avax.network";
/// Default number of sub-windows fetched at once by a sharded walk.
pub const DEFAULT_CONCURRENCY: usize = 4;

/// A checked metric-series request.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricQuery {
    /// EVM chain id or `total` / `mainnet` / `testnet`.
    pub chain_id: String,
    /// One of [`params::METRICS`].
    pub metric: &'static str,
    /// `timeInterval` (not sent when `None`: the service's default applies).
    pub interval: Option<Interval>,
    /// `startTimestamp` (Unix seconds).
    pub start: Option<i64>,
    /// `endTimestamp` (Unix seconds).
    pub end: Option<i64>,
    /// `pageSize`.
    pub page_size: i64,
}

impl MetricQuery {
    /// The paged request over `[start, end]` as given to the service.
    pub fn paged_window(&self, start: Option<i64>, end: Option<i64>) -> Paged {
        let mut query = vec![("pageSize", self.page_size.to_string())];
        if let Some(i) = self.interval {
            query.push(("timeInterval", i.as_str().to_string()));
        }
        if let Some(s) = start {
            query.push(("startTimestamp", s.to_string()));
        }
        if let Some(e) = end {
            query.push(("endTimestamp", e.to_string()));
        }
        Paged { path: format!("/v2/chains/{}/metrics/{}", self.chain_id, self.metric), query, items_field: "results" }
    }

    /// The interval of the answer: the one asked for, else the service's default
    /// ([`params::service_default_interval`]).
    pub fn answer_interval(&self) -> Interval {
        self.interval.unwrap_or_else(|| params::service_default_interval(self.metric))
    }

    /// The whole request (the sequential walk).
    pub fn paged(&self) -> Paged {
        self.paged_window(self.start, self.end)
    }
}

/// One sub-window of a sharded walk: the request window and the client-side filter that makes
/// shards disjoint whatever the service's boundary rules (inclusive, exclusive or floored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// `startTimestamp` sent.
    pub request_start: i64,
    /// `endTimestamp` sent.
    pub request_end: i64,
    /// Keep items with `timestamp >= keep_from` (inner boundaries only).
    pub keep_from: Option<i64>,
    /// Keep items with `timestamp < keep_before` (inner boundaries only).
    pub keep_before: Option<i64>,
}

impl Shard {
    fn keeps(&self, ts: i64) -> bool {
        self.keep_from.is_none_or(|f| ts >= f) && self.keep_before.is_none_or(|b| ts < b)
    }
}

/// Shards planned per call in flight: a shard is fetched whole (a failed page refetches its
/// shard on resume), so a long window is cut finer than the calls in flight, keeping each shard
/// a few pages long; but not per page, since a wide window with little data would cost a request
/// per empty shard.
pub const SHARDS_PER_CALL: usize = 16;

/// Splits `[start, end]` into at most `concurrency` × [`SHARDS_PER_CALL`] shards of whole pages,
/// cut at bucket starts of the answer's interval ([`MetricQuery::answer_interval`]), ascending in time;
/// the walk runs `concurrency` shards at a time. One shard only when `concurrency` is 1 or the
/// window fits in about one page.
///
/// Each shard spans a whole number of pages: `k × page_size − 1` buckets, plus the one bucket
/// its `b − 1` start may bring (below), so no shard costs a request for a page of a few items.
///
/// The outer edges keep the user's `start` / `end` exactly (so edge items are treated as in
/// the sequential walk). Each inner cut `b` is a bucket start: the shard before asks up to `b`
/// and keeps `timestamp < b`, the shard after asks from `b - 1` and keeps `timestamp >= b`. No
/// item can be lost or repeated at a cut, whether the service treats its bounds as inclusive
/// or exclusive, or floors them to the bucket.
pub fn plan_shards(query: &MetricQuery, start: i64, end: i64, concurrency: usize) -> Vec<Shard> {
    let interval = query.answer_interval();
    let boundaries = interval.inner_boundaries(start, end);
    let buckets = boundaries.len() + 1;
    let page_size = query.page_size.max(1) as usize;
    // Up to SHARDS_PER_CALL shards per call in flight, at most one per page of buckets, and at
    // least two buckets per shard, so the order inside a shard shows the service's order.
    let pages = buckets.div_ceil(page_size);
    let wanted = if concurrency <= 1 { 1 } else { (concurrency * SHARDS_PER_CALL).min(pages).min(buckets / 2) };
    let mut pages_per_shard = pages.div_ceil(wanted.max(1));
    let step = loop {
        let step = (pages_per_shard * page_size).saturating_sub(1).max(2);
        if buckets.div_ceil(step) <= wanted.max(1) {
            break step;
        }
        pages_per_shard += 1;
    };
    let shards = buckets.div_ceil(step);
    let whole = Shard { request_start: start, request_end: end, keep_from: None, keep_before: None };
    if shards <= 1 {
        return vec![whole];
    }
    let cuts: Vec<i64> = (1..shards).map(|i| boundaries[i * step - 1]).collect();
    let mut out = Vec::with_capacity(shards);
    for k in 0..shards {
        let from = (k > 0).then(|| cuts[k - 1]);
        let before = cuts.get(k).copied();
        out.push(Shard {
            request_start: from.map_or(start, |b| b - 1),
            request_end: before.unwrap_or(end),
            keep_from: from,
            keep_before: before,
        });
    }
    out
}

/// The Unix-seconds `timestamp` of a metric point.
pub fn point_time(item: &JsonItem) -> Option<i64> {
    let raw = item.field("timestamp")?;
    match Scalar::of_raw(raw).ok()? {
        Scalar::Number(Number::Int(i)) => Some(i),
        Scalar::Number(Number::Float(f)) => Some(f.floor() as i64),
        Scalar::Text(s) => s.trim().parse().ok(),
        Scalar::Number(_) | Scalar::Other => None,
    }
}

/// Client of the hosted Metrics API (no authentication). Cheap to clone. The [`RestClient`] it
/// stands on (base URL, close, the token-paged walks [`RestClient::page`] and
/// [`RestClient::pages`]) is reached through `Deref`.
#[derive(Clone, Debug)]
pub struct MetricsClient {
    rest: RestClient,
}

impl Deref for MetricsClient {
    type Target = RestClient;
    fn deref(&self) -> &RestClient {
        &self.rest
    }
}

impl MetricsClient {
    /// A client of `base_url` (default [`DEFAULT_METRICS_URL`]); no key, no auth header.
    pub fn new(base_url: Option<&str>, transport: TransportConfig) -> Result<Self> {
        Ok(MetricsClient { rest: RestClient::new(base_url.unwrap_or(DEFAULT_METRICS_URL), transport)? })
    }

    /// A client built with no arguments: `$AVAX_METRICS_API_URL` or [`DEFAULT_METRICS_URL`] and
    /// the default transport ([`crate::settings`]).
    pub fn from_defaults() -> Result<Self> {
        MetricsClient::new(crate::settings::metrics_url(None).as_deref(), TransportConfig::default())
    }

    /// What the client was built with (the Python client reports the same rows).
    pub fn settings(&self) -> crate::settings::Settings {
        self.rest.settings(vec![("concurrency", DEFAULT_CONCURRENCY.to_string())])
    }

    /// Checks a metric-series request (before any request is sent).
    pub fn metric(
        &self,
        chain_id: &str,
        metric: &str,
        interval: Option<&str>,
        start: Option<i64>,
        end: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<MetricQuery> {
        // The chain and the metric by the operation table first: the messages of every
        // generated method (`total`, `mainnet`, `testnet` as the document allows them here).
        let mut args = vec![("chain_id", json!(chain_id)), ("metric", json!(metric))];
        engine_check(METRIC_OPERATION, &args)?;
        // Then what the hand-written checks do better (decimal chain ids only, the day-only
        // metrics, the window), and the engine's request must be the one they built.
        let chain_id = params::chain_id(chain_id)?;
        let metric = params::metric(metric)?;
        let interval = params::interval(metric, interval)?;
        let page_size = params::page_size(page_size.unwrap_or(params::DEFAULT_PAGE_SIZE))?;
        let (start, end) = params::window(start, end)?;
        let query = MetricQuery { chain_id, metric, interval, start, end, page_size };
        args.extend([
            ("time_interval", json!(interval.map(Interval::as_str))),
            ("start", json!(start)),
            ("end", json!(end)),
            ("page_size", json!(page_size)),
        ]);
        ride(METRIC_OPERATION, query.paged(), &args)?;
        Ok(query)
    }

    /// `GET /v2/chains`, optionally of one `network` (token-paged, `chains`).
    pub fn chains(&self, network: Option<&str>) -> Result<Paged> {
        let mut query = Vec::new();
        if let Some(n) = network {
            query.push(("network", params::network(n)?));
        }
        let args: Vec<(&str, serde_json::Value)> = query.iter().map(|(k, v)| (*k, serde_json::json!(v))).collect();
        let hand = Paged { path: "/v2/chains".into(), query, items_field: "chains" };
        crate::rest::openapi::ride("listChains", hand, &args)
    }

    /// `GET /v2/icm/summary`: the rolling ICM message counts. Returns the `result` as sent
    /// (an object, or a list when grouped).
    pub async fn icm_summary(
        &self,
        src_blockchain_id: Option<&str>,
        dest_blockchain_id: Option<&str>,
        group_by: Option<&str>,
        network: Option<&str>,
    ) -> Result<Exact> {
        let query = icm_summary_query(src_blockchain_id, dest_blockchain_id, group_by, network)?;
        let (mut value, url) = self.get(ICM_SUMMARY_PATH, &query).await?;
        match value.take("result") {
            Some(v @ (Exact::Object(_) | Exact::Array(_))) => Ok(v),
            _ => Err(Error::Decode {
                message: "the answer has no \"result\" object or list".into(),
                url,
                body: value.to_string().chars().take(500).collect(),
            }),
        }
    }

    /// `GET /v2/live-check`: the health report.
    pub async fn live_check(&self) -> Result<Exact> {
        Ok(self.get("/v2/live-check", &[]).await?.0)
    }

    /// The items of one shard: its window walked page by page, kept by the shard's filter.
    pub(crate) async fn shard(self, paged: Paged, shard: Shard) -> Result<Vec<JsonItem>> {
        let mut stream = std::pin::pin!(self.pages_wanting(Arc::new(paged), None, None));
        let mut out = Vec::new();
        while let Some(page) = stream.next().await {
            let (page, _) = page?;
            out.extend(page.items.into_iter().filter(|item| point_time(item).is_none_or(|t| shard.keeps(t))));
        }
        Ok(out)
    }
}

/// The checked query of `/v2/icm/summary`.
pub fn icm_summary_query(
    src_blockchain_id: Option<&str>,
    dest_blockchain_id: Option<&str>,
    group_by: Option<&str>,
    network: Option<&str>,
) -> Result<Vec<(&'static str, String)>> {
    // The hand-written checks first (they keep the id grammar and the spaces of a `groupBy`
    // pair), then the operation table's on what they give, whose request must be theirs.
    let mut query = Vec::new();
    if let Some(s) = src_blockchain_id {
        query.push(("srcBlockchainId", params::blockchain_id("src_blockchain_id", s)?));
    }
    if let Some(d) = dest_blockchain_id {
        query.push(("destBlockchainId", params::blockchain_id("dest_blockchain_id", d)?));
    }
    if let Some(g) = group_by {
        query.push(("groupBy", params::group_by(g)?));
    }
    if let Some(n) = network {
        query.push(("network", params::network(n)?));
    }
    let args: Vec<(&str, serde_json::Value)> = query
        .iter()
        .map(|(wire, v)| {
            let py = match *wire {
                "srcBlockchainId" => "src_blockchain_id",
                "destBlockchainId" => "dest_blockchain_id",
                "groupBy" => "group_by",
                other => other,
            };
            (py, json!(v))
        })
        .collect();
    let hand = Paged { path: ICM_SUMMARY_PATH.into(), query: query.clone(), items_field: "" };
    let engine = engine_check(ICM_SUMMARY_OPERATION, &args)?;
    if engine.path != hand.path || sorted(&engine.query) != sorted(&hand.query) {
        return Err(Error::Internal(format!(
            "{ICM_SUMMARY_OPERATION}: the engine's request {:?} {:?} differs from the hand-written {hand:?}",
            engine.path, engine.query
        )));
    }
    Ok(query)
}

fn sorted(query: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
    let mut q = query.to_vec();
    q.sort();
    q
}

/// The operation of [`MetricsClient::metric`] in the Metrics document.
pub const METRIC_OPERATION: &str = "getEvmChainMetrics";
/// The operation of [`MetricsClient::icm_summary`] in the Metrics document.
pub const ICM_SUMMARY_OPERATION: &str = "getICMSummary";
const ICM_SUMMARY_PATH: &str = "/v2/icm/summary";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::testing::{no_retries, serve};
    use axum::extract::{Query, State};
    use axum::routing::get;
    use serde_json::Value;
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The message the operation table gives `args` of `op` (what a generated method raises).
    fn engine_message(op: &str, args: &[(&str, Value)]) -> String {
        engine_check(op, args).unwrap_err().to_string()
    }

    #[test]
    fn metric_and_icm_summary_ride_on_the_engine() {
        let client = MetricsClient::new(Some("http://127.0.0.1:9"), no_retries()).unwrap();
        // `total`, `mainnet`, `testnet`: the document allows them for this operation.
        for word in ["total", "mainnet", "testnet"] {
            let q =
                client.metric(&format!(" {word} "), "txCount", Some("day"), Some(0), Some(86_400), Some(10)).unwrap();
            assert_eq!(q.paged().path, format!("/v2/chains/{word}/metrics/txCount"));
        }
        // A bad chain or metric: word for word the message of the generated rolling-window
        // method (the same parameters in the same document).
        for (chain, metric) in [("Total", "txCount"), ("../x", "txCount"), ("", "txCount"), ("43114", "txcount")] {
            let hand = client.metric(chain, metric, None, None, None, None).unwrap_err().to_string();
            let generated = engine_message(
                "getEvmChainRollingWindowMetrics",
                &[("chain_id", json!(chain)), ("metric", json!(metric))],
            );
            let metric_op = engine_message(METRIC_OPERATION, &[("chain_id", json!(chain)), ("metric", json!(metric))]);
            assert_eq!(hand, metric_op, "{chain} {metric}");
            if metric == "txCount" {
                assert_eq!(hand, generated, "{chain}");
                if chain.is_empty() {
                    // No chain id at all: the input rule every entry point shares refuses it first.
                    assert!(hand.starts_with("invalid chain_id=\"\": an EVM chain id"), "{hand}");
                } else {
                    assert!(hand.ends_with(", or one of total, mainnet, testnet"), "{hand}");
                }
            }
        }
        // What the hand-written checks keep: decimal chain ids only, the day-only metrics.
        let cb58 = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
        let e = client.metric(cb58, "txCount", None, None, None, None).unwrap_err().to_string();
        assert!(e.starts_with(&format!("invalid chain_id={cb58:?}: an EVM chain id (decimal digits")), "{e}");
        let e = client.metric("total", "avgTps", Some("hour"), None, None, None).unwrap_err().to_string();
        assert!(e.starts_with("invalid interval=\"hour\": day (metric avgTps"), "{e}");
        // The summary: the table's messages, which the generated timeseries method shares.
        let e = icm_summary_query(None, None, None, Some("devnet")).unwrap_err().to_string();
        assert_eq!(e, engine_message("getICMTimeseries", &[("network", json!("devnet"))]));
        let e = icm_summary_query(None, None, Some("both"), None).unwrap_err().to_string();
        // (icm_summary takes one grouping, the timeseries method a list: the same allowed values.)
        assert_eq!(
            e,
            "invalid group_by=\"both\": one of srcBlockchainId, destBlockchainId, srcBlockchainId,destBlockchainId"
        );
        let q = icm_summary_query(Some(cb58), None, Some("srcBlockchainId , destBlockchainId"), Some("fuji")).unwrap();
        assert_eq!(
            q,
            vec![
                ("srcBlockchainId", cb58.to_string()),
                ("groupBy", "srcBlockchainId,destBlockchainId".to_string()),
                ("network", "fuji".to_string())
            ]
        );
    }

    /// How the scripted service reads its bounds.
    #[derive(Clone, Copy, Debug)]
    struct Rules {
        start_inclusive: bool,
        end_inclusive: bool,
        floor_bounds: bool,
        newest_first: bool,
    }

    struct Series {
        rules: Rules,
        points: Vec<i64>,
        requests: AtomicUsize,
    }

    async fn series(State(s): State<Arc<Series>>, Query(q): Query<HashMap<String, String>>) -> axum::Json<Value> {
        s.requests.fetch_add(1, Ordering::SeqCst);
        let r = s.rules;
        let interval = Interval::parse(q.get("timeInterval").map_or("day", String::as_str)).unwrap();
        let fl = |t: i64| if r.floor_bounds { interval.floor(t) } else { t };
        let start = q.get("startTimestamp").map(|v| fl(v.parse().unwrap()));
        let end = q.get("endTimestamp").map(|v| fl(v.parse().unwrap()));
        let mut items: Vec<i64> = s
            .points
            .iter()
            .copied()
            .filter(|t| interval.floor(*t) == *t)
            .filter(|t| start.is_none_or(|s| if r.start_inclusive { *t >= s } else { *t > s }))
            .filter(|t| end.is_none_or(|e| if r.end_inclusive { *t <= e } else { *t < e }))
            .collect();
        if r.newest_first {
            items.reverse();
        }
        let size: usize = q["pageSize"].parse().unwrap();
        let offset: usize = q.get("pageToken").map_or(0, |t| t.parse().unwrap());
        let page: Vec<Value> = items
            .iter()
            .skip(offset)
            .take(size)
            .map(|t| serde_json::json!({"timestamp": t, "value": (*t / 3600) as f64}))
            .collect();
        let next = (offset + size < items.len()).then(|| (offset + size).to_string());
        axum::Json(serde_json::json!({"results": page, "nextPageToken": next}))
    }

    async fn sequential(client: &MetricsClient, q: &MetricQuery) -> Vec<Exact> {
        let mut out = Vec::new();
        let mut pages = client.pages(q.paged(), None).unwrap();
        while let Some(p) = pages.next().await {
            out.extend(p.unwrap().0.items.iter().map(|item| item.to_exact().unwrap()));
        }
        out
    }

    #[test]
    fn shards_cut_on_bucket_starts_and_cover_the_window() {
        let client = MetricsClient::new(Some("http://127.0.0.1:9"), no_retries()).unwrap();
        let q = client.metric("43114", "txCount", Some("hour"), Some(0), Some(100 * 3600), Some(10)).unwrap();
        let shards = plan_shards(&q, 0, 100 * 3600, 4);
        // 100 hourly buckets, pages of 10: shards of whole pages, each 2 x 10 - 1 = 19 buckets
        // (a shard's `b - 1` start may bring one more: 20, two full pages), the last the rest
        assert_eq!(shards.len(), 6);
        assert_eq!((shards[0].request_start, shards[0].keep_from, shards[0].keep_before), (0, None, Some(19 * 3600)));
        for (k, shard) in shards.iter().enumerate().skip(1).take(4) {
            assert_eq!(shard.keep_from, Some(19 * 3600 * k as i64));
            assert_eq!(shard.keep_before, Some(19 * 3600 * (k as i64 + 1)));
        }
        assert_eq!(shards[5].request_end, 100 * 3600);
        // a year hourly by pages of 100: 45 shards of 199 buckets, 2 pages each
        let year = client.metric("43114", "txCount", Some("hour"), Some(0), Some(8_760 * 3600 - 1), Some(100)).unwrap();
        let year_shards = plan_shards(&year, 0, 8_760 * 3600 - 1, 4);
        assert_eq!(year_shards.len(), 45);
        assert_eq!(year_shards[1].keep_before.unwrap() - year_shards[1].keep_from.unwrap(), 199 * 3600);
        assert_eq!(plan_shards(&q, 0, 100 * 3600, 1).len(), 1);
        // a wide window: capped at SHARDS_PER_CALL per call in flight
        let wide = client.metric("43114", "txCount", Some("hour"), Some(0), Some(1 << 31), Some(2)).unwrap();
        let wide_shards = plan_shards(&wide, 0, 1 << 31, 4).len();
        assert!((4 * SHARDS_PER_CALL - 1..=4 * SHARDS_PER_CALL).contains(&wide_shards), "{wide_shards}");
        for w in shards.windows(2) {
            let cut = w[0].keep_before.unwrap();
            assert_eq!(cut % 3600, 0);
            assert_eq!(w[1].keep_from, Some(cut));
            assert_eq!(w[1].request_start, cut - 1);
        }
        // one page's worth: no sharding
        let small = client.metric("43114", "txCount", Some("hour"), Some(0), Some(5 * 3600), Some(100)).unwrap();
        assert_eq!(plan_shards(&small, 0, 5 * 3600, 4).len(), 1);
        // monthly cuts land on the 1st
        let m = client.metric("total", "gasUsed", Some("month"), Some(0), Some(86_400 * 800), Some(1)).unwrap();
        for s in plan_shards(&m, 0, 86_400 * 800, 4).iter().filter_map(|s| s.keep_from) {
            assert_eq!(
                chrono::DateTime::from_timestamp(s, 0).unwrap().format("%d %H:%M:%S").to_string(),
                "01 00:00:00"
            );
        }
    }

    #[test]
    fn without_an_interval_shards_follow_the_services_hourly_default() {
        // A request without `timeInterval` is answered hourly (spec/ground-truth.md, "Real
        // answers"): the plan cuts whole pages of hours, as for `interval="hour"`, not of days.
        let client = MetricsClient::new(Some("http://127.0.0.1:9"), no_retries()).unwrap();
        let none = client.metric("43114", "txCount", None, Some(0), Some(100 * 3600), Some(10)).unwrap();
        let hour = client.metric("43114", "txCount", Some("hour"), Some(0), Some(100 * 3600), Some(10)).unwrap();
        assert_eq!(none.answer_interval(), Interval::Hour);
        assert!(none.paged().query.iter().all(|(k, _)| *k != "timeInterval"), "nothing is added to the request");
        assert_eq!(plan_shards(&none, 0, 100 * 3600, 4), plan_shards(&hour, 0, 100 * 3600, 4));
        // a day-only metric has only days
        let tps = client.metric("43114", "avgTps", None, Some(0), Some(100 * 86_400), Some(10)).unwrap();
        assert_eq!(tps.answer_interval(), Interval::Day);
        assert_eq!(params::service_default_interval("gasUsed"), Interval::Hour);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sharded_walk_equals_the_sequential_walk_under_every_boundary_rule() {
        let hour = 3600i64;
        let t0 = 1_704_067_200i64; // 2024-01-01 00:00 UTC, a Monday
        let points: Vec<i64> = (0..24 * 120).map(|i| t0 + i * hour).collect();
        for start_inclusive in [true, false] {
            for end_inclusive in [true, false] {
                for floor_bounds in [false, true] {
                    for newest_first in [true, false] {
                        let rules = Rules { start_inclusive, end_inclusive, floor_bounds, newest_first };
                        let state = Arc::new(Series { rules, points: points.clone(), requests: AtomicUsize::new(0) });
                        let app = axum::Router::new()
                            .route("/v2/chains/{chain}/metrics/{metric}", get(series))
                            .with_state(state.clone());
                        let client = MetricsClient::new(Some(&serve(app).await), no_retries()).unwrap();
                        for (interval, start, end, size) in [
                            ("hour", t0, t0 + 24 * 30 * hour, 50),           // both edges on boundaries
                            ("hour", t0 + 1800, t0 + 24 * 30 * hour - 1, 7), // edges inside buckets
                            ("day", t0, t0 + 86_400 * 100, 3),
                            ("day", t0 + 86_400 * 3, t0 + 86_400 * 61, 2),
                            ("week", t0, t0 + 86_400 * 119, 2),
                            ("month", t0, t0 + 86_400 * 119, 1),
                        ] {
                            let q = client
                                .metric("43114", "txCount", Some(interval), Some(start), Some(end), Some(size))
                                .unwrap();
                            let seq = sequential(&client, &q).await;
                            assert!(!seq.is_empty());
                            for concurrency in [1, 2, 4, 7] {
                                let sharded = client.sharded(&q, concurrency).await.unwrap();
                                assert_eq!(
                                    sharded, seq,
                                    "{rules:?} {interval} {start}..{end} size {size} concurrency {concurrency}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[tokio::test]
    async fn endpoints_send_checked_parameters_and_no_auth_header() {
        let app = axum::Router::new()
            .route(
                "/v2/chains",
                get(|Query(q): Query<HashMap<String, String>>, req: axum::extract::Request| async move {
                    assert!(req.headers().get("x-glacier-api-key").is_none());
                    match q.get("pageToken").map(String::as_str) {
                        None => axum::Json(serde_json::json!({"chains": [{"evmChainId": 43114, "network": q.get("network")}], "nextPageToken": "p2"})),
                        Some(_) => axum::Json(serde_json::json!({"chains": [{"evmChainId": 43113}]})),
                    }
                }),
            )
            .route(
                "/v2/icm/summary",
                get(|Query(q): Query<HashMap<String, String>>| async move {
                    if q.contains_key("groupBy") {
                        axum::Json(serde_json::json!({"result": [{"srcBlockchainId": "a", "allTime": 3}]}))
                    } else {
                        axum::Json(serde_json::json!({"result": {"srcBlockchainId": q.get("srcBlockchainId"), "allTime": 5}}))
                    }
                }),
            )
            .route("/v2/live-check", get(|| async { axum::Json(serde_json::json!({"status": "ok", "info": {"db": {"status": "up"}}})) }));
        let client = MetricsClient::new(Some(&serve(app).await), no_retries()).unwrap();
        let mut pages = client.pages(client.chains(Some("mainnet")).unwrap(), None).unwrap();
        let first = pages.next().await.unwrap().unwrap().0;
        assert_eq!(first.items[0].to_exact().unwrap().get("network").and_then(Exact::as_str), Some("mainnet"));
        assert_eq!(first.next_page_token.as_deref(), Some("p2"));
        assert_eq!(
            pages.next().await.unwrap().unwrap().0.items[0]
                .to_exact()
                .unwrap()
                .get("evmChainId")
                .and_then(Exact::as_i64),
            Some(43113)
        );
        assert!(pages.next().await.is_none());
        let single = client
            .icm_summary(Some("2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"), None, None, None)
            .await
            .unwrap();
        assert_eq!(single["srcBlockchainId"], "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM");
        assert!(client.icm_summary(None, None, Some("srcBlockchainId"), Some("mainnet")).await.unwrap().is_array());
        assert_eq!(client.live_check().await.unwrap()["status"], "ok");
        assert!(client.chains(Some("devnet")).is_err());
        assert!(icm_summary_query(None, None, Some("both"), None)
            .unwrap_err()
            .to_string()
            .starts_with("invalid group_by="));
        assert!(client.metric("43114", "txCount", Some("hour"), Some(10), Some(10), None).is_err());
        assert!(client
            .metric("c", "txCount", None, None, None, None)
            .unwrap_err()
            .to_string()
            .starts_with("invalid chain_id="));
        assert_eq!(
            client.metric("43114", "txCount", None, None, None, None).unwrap().page_size,
            2160,
            "bulk walks default to the largest page"
        );
        client.close();
        assert!(matches!(client.live_check().await, Err(Error::Closed)));
    }
}
