//! Metric series as datasets: one partition per UTC month, `DIR/chain=<id>/month=<YYYYMM>/part.parquet`.
//!
//! Each month is its own request window, asked from one second before it starts (whatever the
//! service makes of its bounds) and cut on the client to `start <= timestamp < end`, so no point
//! is lost or repeated at a month's edge. A window whose last bucket had closed when it was
//! written is complete: a rerun skips it (its file unchanged); the current month is written
//! again, and new months are added.

use std::path::Path;

use chrono::{Datelike, TimeZone, Utc};
use futures::StreamExt;

use super::manifest::{Origin, WalkKey};
use super::{Dataset, DatasetSummary};
use crate::arrow::{to_batch, ParquetOptions, ParquetSink, Resource, Target};
use crate::error::{Error, Result};
use crate::metrics::client::point_time;
use crate::metrics::MetricsClient;
use crate::paging::JsonItem;

/// One month of a series: its hive value (`YYYYMM`) and its window `[first, next)` in Unix seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Month {
    /// `YYYYMM`.
    pub value: u64,
    /// The window's first second.
    pub first: i64,
    /// The second after it.
    pub next: i64,
}

impl Month {
    /// The whole UTC month holding the Unix time `at` (`param` names it in the error).
    pub fn of(at: i64, param: &str) -> Result<Month> {
        let day = Utc.timestamp_opt(at, 0).single().ok_or_else(|| Error::invalid(param, at, "a Unix time"))?;
        let (year, month) = (day.year(), day.month());
        let (next_year, next_month) = if month == 12 { (year + 1, 1) } else { (year, month + 1) };
        let start = |y: i32, m: u32| {
            Utc.with_ymd_and_hms(y, m, 1, 0, 0, 0)
                .single()
                .map(|t| t.timestamp())
                .ok_or_else(|| Error::invalid(param, at, "a Unix time"))
        };
        Ok(Month {
            value: u64::try_from(year).map_err(|_| Error::invalid(param, at, "a Unix time after year 0"))? * 100
                + u64::from(month),
            first: start(year, month)?,
            next: start(next_year, next_month)?,
        })
    }

    /// Where the window is asked from: one second before it starts (never below 0), so no
    /// point is lost whether the service reads `start` as inclusive, exclusive or floored to the
    /// bucket; [`Month::holds`] then cuts the answer to the window.
    pub fn ask_from(&self) -> i64 {
        (self.first - 1).max(0)
    }

    /// Whether a point at `timestamp` belongs to the window: `first <= timestamp < next`.
    pub fn holds(&self, timestamp: i64) -> bool {
        self.first <= timestamp && timestamp < self.next
    }
}

/// The UTC months of `[start, end)`, each cut to the window.
pub fn months(start: i64, end: i64) -> Result<Vec<Month>> {
    let mut out = Vec::new();
    let mut at = start;
    while at < end {
        let whole = Month::of(at, "start")?;
        let next = whole.next.min(end);
        out.push(Month { value: whole.value, first: at, next });
        at = next;
    }
    Ok(out)
}

/// Moves the points of `page` inside `month` to `out`; a point whose timestamp cannot be read is
/// a decode error naming it (never dropped unseen).
fn keep_in_month(page: Vec<JsonItem>, month: &Month, url: &str, out: &mut Vec<JsonItem>) -> Result<()> {
    for point in page {
        let at = point_time(&point).ok_or_else(|| unreadable_point(url, &point))?;
        if month.holds(at) {
            out.push(point);
        }
    }
    Ok(())
}

/// The decode error of a series point whose `timestamp` cannot be read: it names the point, so
/// no point leaves a month unseen.
fn unreadable_point(path: &str, point: &impl std::fmt::Display) -> Error {
    let mut shown = point.to_string();
    if shown.len() > 200 {
        let cut = (0..=200).rev().find(|&i| shown.is_char_boundary(i)).unwrap_or(0);
        shown.truncate(cut);
        shown.push_str("...");
    }
    Error::Decode {
        message: format!("a metric point without a readable Unix timestamp (cannot place it in a month): {shown}"),
        url: path.to_string(),
        body: String::new(),
    }
}

/// The longest bucket of `interval`, in seconds: how long after a window ends its last point may
/// still change.
pub fn bucket_seconds(interval: &str) -> i64 {
    match interval {
        "hour" => 3_600,
        "week" => 7 * 86_400,
        "month" => 31 * 86_400,
        _ => 86_400,
    }
}

/// What a metric series dataset holds.
pub fn metric_walk_key(chain_id: &str, metric: &str, interval: &str) -> WalkKey {
    let schema = Resource::MetricValue.schema();
    WalkKey {
        kind: "metric_series".into(),
        source: format!("{chain_id}/{metric}/{interval}"),
        decode: "raw".into(),
        chunk: 0,
        schema: super::schema_key::digest(&schema),
        legacy_schema: Some(super::schema_key::legacy_digest(&schema)),
    }
}

/// Writes the series `metric` of `chain_id` at `interval` over `[start, end)` into the dataset
/// `dir`, a month per partition; `now` decides which months had ended (complete).
#[allow(clippy::too_many_arguments)]
pub async fn write_metric_dataset(
    client: &MetricsClient,
    chain_id: &str,
    metric: &str,
    interval: &str,
    start: i64,
    end: i64,
    now: i64,
    dir: &Path,
    options: ParquetOptions,
    mut on_rows: impl FnMut(u64) + Send,
) -> Result<DatasetSummary> {
    // The whole query is checked before any request (names, interval rules, the window).
    let query = client.metric(chain_id, metric, Some(interval), Some(start), Some(end), None)?;
    let windows = months(start, end)?;
    let settle = bucket_seconds(interval);
    let chain = query.chain_id.clone();
    let origin = Origin::service(client.base_url());
    let key = format!("chain={chain}/month");
    let mut set = Dataset::open(dir, &key, metric_walk_key(&chain, metric, interval), Some(&origin))?;
    let mut summary = DatasetSummary::default();
    for month in windows {
        let (first, next) = (month.first as u64, month.next as u64);
        if set.has(month.value, first, next) {
            let rows = set.manifest().partition(month.value).map_or(0, |p| p.rows);
            summary.partitions_skipped += 1;
            summary.rows_skipped += rows;
            on_rows(rows);
            continue;
        }
        let window = client.metric(chain_id, metric, Some(interval), Some(month.ask_from()), Some(month.next), None)?;
        let url = format!("{}{}", client.base_url(), window.paged().path);
        let mut items = Vec::new();
        let mut pages = client.pages(window.paged(), None)?;
        while let Some(page) = pages.next().await {
            let (page, _) = page?;
            keep_in_month(page.items, &month, &url, &mut items)?;
        }
        let batch = to_batch(Resource::MetricValue, &items).map_err(|message| Error::Decode {
            message,
            url: String::new(),
            body: String::new(),
        })?;
        let tmp = set.temp_path(month.value)?;
        let written = ParquetSink::create(Target::Path(tmp), Resource::MetricValue.schema(), options)
            .and_then(|mut sink| sink.write(&batch).and_then(|()| sink.finish()));
        let rows = match written {
            Ok(rows) => rows,
            Err(e) => {
                set.discard(month.value);
                return Err(e);
            }
        };
        // Complete once the window's last bucket has closed: its points can no longer change.
        set.commit(month.value, first, next, rows, month.next.saturating_add(settle) <= now)?;
        summary.partitions_written += 1;
        summary.rows_written += rows;
        on_rows(rows);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_cut_the_window_at_utc_month_starts() {
        let jan15 = Utc.with_ymd_and_hms(2023, 12, 15, 12, 0, 0).unwrap().timestamp();
        let mar3 = Utc.with_ymd_and_hms(2024, 3, 3, 0, 0, 0).unwrap().timestamp();
        let got = months(jan15, mar3).unwrap();
        assert_eq!(got.iter().map(|m| m.value).collect::<Vec<_>>(), vec![202312, 202401, 202402, 202403]);
        assert_eq!(got[0].first, jan15);
        assert_eq!(got[1].first, Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).unwrap().timestamp());
        assert_eq!(got[3].next, mar3);
        assert!(got.windows(2).all(|w| w[0].next == w[1].first));
        assert!(months(5, 5).unwrap().is_empty());
        assert_eq!((got[1].ask_from(), months(0, 10).unwrap()[0].ask_from()), (got[1].first - 1, 0));
        assert!(got[0].holds(jan15) && !got[0].holds(got[0].next) && got[1].holds(got[0].next));
    }

    #[test]
    fn a_month_is_the_whole_utc_month_of_a_time() {
        let leap = Utc.with_ymd_and_hms(2024, 2, 29, 23, 59, 59).unwrap().timestamp();
        let feb = Month::of(leap, "t").unwrap();
        assert_eq!(feb.value, 202402);
        assert_eq!(feb.first, Utc.with_ymd_and_hms(2024, 2, 1, 0, 0, 0).unwrap().timestamp());
        assert_eq!(feb.next, Utc.with_ymd_and_hms(2024, 3, 1, 0, 0, 0).unwrap().timestamp());
        let dec = Month::of(Utc.with_ymd_and_hms(2023, 12, 31, 0, 0, 0).unwrap().timestamp(), "t").unwrap();
        assert_eq!((dec.value, dec.next), (202312, Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).unwrap().timestamp()));
        let err = Month::of(i64::MAX, "start").unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { ref param, .. } if param == "start"), "{err}");
    }

    #[test]
    fn a_point_without_a_readable_timestamp_is_a_decode_error_naming_it() {
        let month = Month::of(1_704_067_200, "t").unwrap(); // 2024-01
        let page = [
            serde_json::json!({"timestamp": 1_704_067_200, "value": 1}),
            serde_json::json!({"timestamp": 1_704_067_199, "value": 2}),
            serde_json::json!({"timestamp": "1704153600", "value": 3}),
        ];
        let mut out = Vec::new();
        keep_in_month(page.iter().map(JsonItem::from).collect(), &month, "u", &mut out).unwrap();
        assert_eq!(
            out.iter().map(|p| p.to_exact().unwrap()["value"].as_i64().unwrap()).collect::<Vec<_>>(),
            vec![1, 3]
        );
        for bad in [serde_json::json!({"value": 4}), serde_json::json!({"timestamp": "soon", "value": 5})] {
            let shown = bad.to_string();
            let page = [serde_json::json!({"timestamp": 1_704_067_300, "value": 6}), bad];
            let mut out = Vec::new();
            let page = page.iter().map(JsonItem::from).collect();
            let err = keep_in_month(page, &month, "http://x/v2/chains/43114/metrics/txCount", &mut out).unwrap_err();
            match err {
                Error::Decode { message, url, .. } => {
                    assert!(message.contains("without a readable Unix timestamp"), "{message}");
                    assert!(message.ends_with(&shown), "{message}");
                    assert_eq!(url, "http://x/v2/chains/43114/metrics/txCount");
                }
                other => panic!("not a decode error: {other}"),
            }
        }
    }
}
