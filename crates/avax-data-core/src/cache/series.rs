//! Closed buckets of Metrics API series in the cache. A sharded walk's shard (a window of whole
//! buckets, see [`crate::metrics::plan_shards`]) is stored once every bucket it keeps has
//! settled: the bucket ended at least [`SETTLE_SECS`] ago by the client's clock, so the service
//! has aggregated it. The shard that reaches the open bucket is cut there, so the closed part is
//! cached and the open part is always asked for. An entry is keyed by the service's name ([`super::service`]),
//! the series (chain, metric, interval) and the shard's window and filter; it holds the points as
//! the service sent them, in its order. A hit is checked (a JSON list of objects whose timestamps
//! lie in the shard); anything else is deleted and fetched again, never returned.
//!
//! The order the service lists a series in (read once per walk by a two-point probe) is stored
//! too, once a probe saw two points.

use std::sync::Arc;

use serde_json::value::RawValue;

use super::containers::blocking;
use super::kind::Kind;
use super::objects::now_secs;
use super::store::Store;
use crate::error::Result;
use crate::metrics::{point_time, Interval, MetricQuery, MetricsClient, Shard};
use crate::paging::JsonItem;

/// How long (seconds) after a bucket ends before it is cached: the service's aggregation of the
/// bucket is taken to be complete by then.
pub const SETTLE_SECS: i64 = 3_600;

/// The first bucket start that has not settled at `now`: every bucket starting before it ended
/// at least [`SETTLE_SECS`] ago.
pub fn settled_before(interval: Interval, now: i64) -> i64 {
    interval.floor(now - SETTLE_SECS)
}

/// The lowest timestamp `shard` keeps.
fn first_kept(shard: &Shard) -> i64 {
    shard.keep_from.unwrap_or(shard.request_start)
}

/// The highest timestamp `shard` keeps.
fn last_kept(shard: &Shard) -> i64 {
    shard.keep_before.map_or(shard.request_end, |b| (b - 1).min(shard.request_end))
}

/// Whether every bucket `shard` keeps has settled at `now`.
pub fn is_settled(shard: &Shard, interval: Interval, now: i64) -> bool {
    last_kept(shard) < settled_before(interval, now)
}

/// `shards` with the one that spans the first unsettled bucket start cut there (by the rule of
/// [`crate::metrics::plan_shards`]'s inner cuts: the part before asks up to the cut and keeps
/// what lies before it, the part after asks from one second before and keeps from the cut), so
/// its closed part can be cached.
pub fn split_unsettled(shards: Vec<Shard>, interval: Interval, now: i64) -> Vec<Shard> {
    let cut = settled_before(interval, now);
    let mut out = Vec::with_capacity(shards.len() + 1);
    for s in shards {
        if first_kept(&s) < cut && cut <= last_kept(&s) {
            out.push(Shard { request_end: cut, keep_before: Some(cut), ..s });
            out.push(Shard { request_start: cut - 1, keep_from: Some(cut), ..s });
        } else {
            out.push(s);
        }
    }
    out
}

/// The series part of a key: the service's name ([`super::service`]), path (chain and metric)
/// and interval; `None` for a service the cache does not keep ([`super::service::of`]).
fn series_key(client: &MetricsClient, query: &MetricQuery) -> Option<String> {
    let interval = query.interval.map_or("default", Interval::as_str);
    let name = super::service::of(client)?;
    Some(format!("metrics/{name}{}?timeInterval={interval}", query.paged().path))
}

/// The cache key of `shard` of `query`'s series (`None`: not kept).
pub fn shard_key(client: &MetricsClient, query: &MetricQuery, shard: &Shard) -> Option<String> {
    Some(format!(
        "{}&start={}&end={}&keepFrom={:?}&keepBefore={:?}",
        series_key(client, query)?,
        shard.request_start,
        shard.request_end,
        shard.keep_from,
        shard.keep_before
    ))
}

/// Whether the cache holds `shard` of `query` and would serve it (settled at `now`), without
/// reading the entry (a cost plan's count).
pub fn holds_shard(client: &MetricsClient, query: &MetricQuery, shard: &Shard, now: i64) -> bool {
    let interval = query.answer_interval();
    client.cache().is_some_and(|store| {
        is_settled(shard, interval, now)
            && shard_key(client, query, shard).is_some_and(|key| store.holds(Kind::Metrics, &key))
    })
}

/// Whether the cache holds the order of `query`'s series (a walk of several shards then sends
/// no probe), without reading the entry.
pub fn holds_order(client: &MetricsClient, query: &MetricQuery) -> bool {
    client.cache().is_some_and(|store| order_key(client, query).is_some_and(|key| store.holds(Kind::Metrics, &key)))
}

/// The first timestamp and the last timestamp `shard` keeps.
pub fn kept_span(shard: &Shard) -> (i64, i64) {
    (first_kept(shard), last_kept(shard))
}

/// The points of `shard`: from the cache when held and settled, else fetched (and stored when
/// settled).
pub async fn cached_shard(client: &MetricsClient, query: &MetricQuery, shard: Shard) -> Result<Vec<JsonItem>> {
    let paged = query.paged_window(Some(shard.request_start), Some(shard.request_end));
    let interval = query.answer_interval();
    let store = match client.cache() {
        Some(store) if is_settled(&shard, interval, now_secs()) => store.clone(),
        _ => return client.clone().shard(paged, shard).await,
    };
    if let Some(key) = shard_key(client, query, &shard) {
        let held = {
            let store = store.clone();
            blocking(move || Ok(read_points(&store, &key, &shard, interval))).await?
        };
        if let Some(items) = held {
            return Ok(items);
        }
    }
    let items = client.clone().shard(paged, shard).await?;
    // Keyed by the world these points came from (the emulator names it in the answer).
    if let Some(key) = shard_key(client, query, &shard) {
        put(store, key, points_payload(&items)).await?;
    }
    Ok(items)
}

/// The entry payload of `items`: a JSON list of the points as sent.
fn points_payload(items: &[JsonItem]) -> Vec<u8> {
    let mut out = String::from("[");
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(item.as_str());
    }
    out.push(']');
    out.into_bytes()
}

/// The held points of `shard`, checked: objects whose timestamps the shard keeps.
fn read_points(store: &Store, key: &str, shard: &Shard, interval: Interval) -> Option<Vec<JsonItem>> {
    let payload = store.get(Kind::Metrics, key)?;
    let parsed = std::str::from_utf8(&payload).ok().and_then(|t| serde_json::from_str::<Vec<&RawValue>>(t).ok());
    let Some(raws) = parsed else {
        store.drop_damaged(Kind::Metrics, key, "its payload is not a JSON list");
        return None;
    };
    let low = shard.keep_from.unwrap_or(interval.floor(shard.request_start));
    let high = last_kept(shard);
    let mut items = Vec::with_capacity(raws.len());
    for raw in raws {
        let is_object = raw.get().trim_start().starts_with('{');
        let item = JsonItem::from_raw(raw);
        match point_time(&item) {
            Some(t) if is_object && (low..=high).contains(&t) => items.push(item),
            _ => {
                store.drop_damaged(Kind::Metrics, key, "it holds a point outside its window");
                return None;
            }
        }
    }
    Some(items)
}

/// The cache key of the order of `query`'s series over its window.
fn order_key(client: &MetricsClient, query: &MetricQuery) -> Option<String> {
    Some(format!("{}&start={:?}&end={:?}&order", series_key(client, query)?, query.start, query.end))
}

/// Whether the service lists `query`'s series oldest first, as held in the cache.
pub async fn held_order(client: &MetricsClient, query: &MetricQuery) -> Result<Option<bool>> {
    let (Some(store), Some(key)) = (client.cache().cloned(), order_key(client, query)) else { return Ok(None) };
    blocking(move || {
        Ok(match store.get(Kind::Metrics, &key).as_deref() {
            None => None,
            Some(b"ascending") => Some(true),
            Some(b"descending") => Some(false),
            Some(_) => {
                store.drop_damaged(Kind::Metrics, &key, "it holds no order");
                None
            }
        })
    })
    .await
}

/// Stores the order a probe read (`ascending`).
pub async fn store_order(client: &MetricsClient, query: &MetricQuery, ascending: bool) -> Result<()> {
    let (Some(store), Some(key)) = (client.cache().cloned(), order_key(client, query)) else { return Ok(()) };
    let payload = if ascending { b"ascending".to_vec() } else { b"descending".to_vec() };
    put(store, key, payload).await
}

/// Writes an entry off the runtime's workers; a failure is a warning (the walk goes on).
async fn put(store: Arc<Store>, key: String, payload: Vec<u8>) -> Result<()> {
    blocking(move || {
        if let Err(e) = store.put(Kind::Metrics, &key, &payload) {
            log::warn!("cache {}: cannot store {key}: {e}", store.dir().display());
        }
        Ok(())
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600;

    #[test]
    fn a_shard_settles_an_hour_after_its_last_bucket_ends() {
        let now = 100 * HOUR + 10;
        // Buckets before 99h ended at least an hour ago (the 98h bucket ended at 99h).
        assert_eq!(settled_before(Interval::Hour, now), 99 * HOUR);
        let shard =
            |start, end, before| Shard { request_start: start, request_end: end, keep_from: None, keep_before: before };
        assert!(is_settled(&shard(0, 99 * HOUR, Some(99 * HOUR)), Interval::Hour, now));
        assert!(!is_settled(&shard(0, 99 * HOUR, None), Interval::Hour, now), "it keeps the 99h bucket");
        assert!(is_settled(&shard(0, 99 * HOUR - 1, None), Interval::Hour, now));
    }

    #[test]
    fn the_shard_reaching_the_open_bucket_is_cut_at_the_first_unsettled_start() {
        let now = 100 * HOUR + 10;
        let whole = Shard { request_start: 10 * HOUR, request_end: 101 * HOUR, keep_from: None, keep_before: None };
        let before = Shard { request_start: 0, request_end: 10 * HOUR, keep_from: None, keep_before: Some(10 * HOUR) };
        let out = split_unsettled(vec![before, whole], Interval::Hour, now);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0], before);
        assert_eq!(
            out[1],
            Shard { request_start: 10 * HOUR, request_end: 99 * HOUR, keep_from: None, keep_before: Some(99 * HOUR) }
        );
        assert_eq!(
            out[2],
            Shard {
                request_start: 99 * HOUR - 1,
                request_end: 101 * HOUR,
                keep_from: Some(99 * HOUR),
                keep_before: None
            }
        );
        assert!(is_settled(&out[1], Interval::Hour, now) && !is_settled(&out[2], Interval::Hour, now));
        // A window wholly settled, or wholly open, is left as it is.
        let closed = Shard { request_start: 0, request_end: 50 * HOUR, keep_from: None, keep_before: None };
        assert_eq!(split_unsettled(vec![closed], Interval::Hour, now), vec![closed]);
        let open = Shard { request_start: 99 * HOUR, request_end: 101 * HOUR, keep_from: None, keep_before: None };
        assert_eq!(split_unsettled(vec![open], Interval::Hour, now), vec![open]);
    }

    #[test]
    fn a_held_entry_must_be_points_of_its_shard() {
        let dir = std::env::temp_dir().join(format!("avax-cache-series-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, super::super::DEFAULT_MAX_BYTES).unwrap();
        let shard = Shard { request_start: 0, request_end: 10 * HOUR, keep_from: None, keep_before: Some(10 * HOUR) };
        let good = br#"[{"timestamp":3600,"value":1.5},{"timestamp":7200,"value":2}]"#;
        store.put(Kind::Metrics, "k", good).unwrap();
        let items = read_points(&store, "k", &shard, Interval::Hour).unwrap();
        assert_eq!(points_payload(&items), good.to_vec());
        for bad in [&br#"[{"timestamp":36000,"value":1}]"#[..], br#"[{"value":1}]"#, br#"{"a":1}"#, b"[1]", b"\xff"] {
            store.put(Kind::Metrics, "k", bad).unwrap();
            assert_eq!(read_points(&store, "k", &shard, Interval::Hour), None, "{:?}", String::from_utf8_lossy(bad));
            assert_eq!(store.get(Kind::Metrics, "k"), None, "the bad entry is deleted");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
