//! Plans of the walks this crate builds: an Index range, a token-paged list, a metric series
//! (sequential or sharded), and the budget of the client that walks them.

use super::{shapes, Budget, Walk};
use crate::metrics::client::{plan_shards, MetricQuery, MetricsClient};
use crate::metrics::params::{service_default_interval, Interval};
use crate::rest::Paged;
use crate::transport::{RateLimitInfo, TransportConfig};

/// The header names that carry the Data API key.
const KEY_HEADERS: [&str; 2] = ["x-glacier-api-key", "x-data-api-key"];

/// The budget of a client with `config` that saw `headers` last: an API key among its headers
/// makes the default tier `free`.
pub fn budget(config: &TransportConfig, headers: Option<&RateLimitInfo>) -> Budget {
    let has_key = config.headers.iter().any(|(name, _)| KEY_HEADERS.iter().any(|k| k.eq_ignore_ascii_case(name)));
    Budget::of(config, has_key, headers)
}

/// The budget of a client of the REST service at `url` (the Data or Metrics API, or the
/// emulator's): metered, and hosted when `url` is one of the hosted services.
pub fn rest_budget(config: &TransportConfig, headers: Option<&RateLimitInfo>, url: &str) -> Budget {
    Budget { hosted: super::metering::is_hosted_service(url), ..budget(config, headers) }
}

/// The budget of a node client with `config`: metered only at a hosted endpoint
/// ([`super::metering`]); a node has no API key, so the default tier is `unauthenticated`.
pub fn node_budget(config: &TransportConfig, url: &str) -> Budget {
    Budget { metered: super::metering::node_is_metered(url), ..budget(config, None) }
}

fn query<'a>(paged: &'a Paged, name: &str) -> Option<&'a str> {
    paged.query.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
}

/// The buckets of `interval` (day when not given) that `[start, end]` touches.
pub(crate) fn buckets(interval: Option<Interval>, start: i64, end: i64) -> u64 {
    interval.unwrap_or(Interval::Day).inner_boundaries(start, end).len() as u64 + 1
}

/// A token-paged walk of `paged`, at most `limit` items. A metric series with a window knows
/// its buckets; any other list knows only its page size. Without a `pageSize` in the query the
/// service's default page (10 items) is assumed.
pub fn token_walk(paged: &Paged, limit: Option<u64>) -> Walk {
    let page_size = query(paged, "pageSize").and_then(|v| v.parse().ok()).unwrap_or(10);
    let window = (query(paged, "startTimestamp"), query(paged, "endTimestamp"));
    if paged.items_field == "results" && paged.path.contains("/metrics/") {
        if let (Some(start), Some(end)) = (window.0.and_then(|v| v.parse().ok()), window.1.and_then(|v| v.parse().ok()))
        {
            let metric = paged.path.rsplit('/').next().unwrap_or_default();
            let interval = query(paged, "timeInterval")
                .and_then(|v| Interval::parse(v).ok())
                .unwrap_or_else(|| service_default_interval(metric));
            let interval = Some(interval);
            return shapes::metric_window(&paged.path, Some(buckets(interval, start, end)), page_size, limit);
        }
    }
    shapes::token_list(&paged.path, page_size, limit, None)
}

/// A sharded walk of `query` over its window with `concurrency` calls in flight.
pub fn sharded_walk(query: &MetricQuery, concurrency: usize) -> Walk {
    let path = query.paged().path;
    let (Some(start), Some(end)) = (query.start, query.end) else {
        return shapes::token_list(&path, query.page_size.max(1) as u64, None, None);
    };
    let per_shard: Vec<u64> = plan_shards(query, start, end, concurrency)
        .iter()
        .map(|s| buckets(Some(query.answer_interval()), s.request_start, s.request_end))
        .collect();
    let all = buckets(Some(query.answer_interval()), start, end);
    shapes::metric_shards(&path, &per_shard, query.page_size.max(1) as u64, all)
}

/// A sharded walk of `query` by a client with a cache: the shards it walks (the one that
/// reaches the open bucket cut there, as [`crate::cache::series::split_unsettled`] does), less
/// those the cache holds closed; the probe of the order only when the walk has several shards
/// and the cache does not hold the order. `now` is the client's clock (Unix seconds).
pub fn cached_sharded_walk(client: &MetricsClient, query: &MetricQuery, concurrency: usize, now: i64) -> Walk {
    use crate::cache::series::{holds_order, holds_shard, kept_span, split_unsettled};
    let path = query.paged().path;
    let (Some(start), Some(end)) = (query.start, query.end) else {
        return shapes::token_list(&path, query.page_size.max(1) as u64, None, None);
    };
    let interval = query.answer_interval();
    let shards = split_unsettled(plan_shards(query, start, end, concurrency), interval, now);
    let page_size = query.page_size.max(1) as u64;
    let (mut pages, mut cached) = (0u64, 0u64);
    for shard in &shards {
        if holds_shard(client, query, shard, now) {
            let (first, last) = kept_span(shard);
            cached += buckets(Some(interval), first, last);
        } else {
            pages += buckets(Some(interval), shard.request_start, shard.request_end).div_ceil(page_size).max(1);
        }
    }
    let probe = u64::from(shards.len() > 1 && !holds_order(client, query));
    let mut walk = shapes::metric_shards(&path, &[], page_size, buckets(Some(interval), start, end));
    walk.operation = format!("GET {path} ({} shards)", shards.len());
    walk.requests = super::Requests::AtMost(pages + probe);
    walk.cached_items = cached;
    walk
}
