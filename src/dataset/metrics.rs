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
use sha2::{Digest, Sha256};

use super::manifest::Identity;
use super::{Dataset, DatasetSummary};
use crate::arrow::{to_batch, ParquetOptions, ParquetSink, Resource, Target};
use crate::error::{Error, Result};
use crate::metrics::client::point_time;
use crate::metrics::MetricsClient;

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

/// The UTC months of `[start, end)`, each cut to the window.
pub fn months(start: i64, end: i64) -> Result<Vec<Month>> {
    let mut out = Vec::new();
    let mut at = start;
    while at < end {
        let day = Utc.timestamp_opt(at, 0).single().ok_or_else(|| Error::invalid("start", at, "a Unix time"))?;
        let (year, month) = (day.year(), day.month());
        let (next_year, next_month) = if month == 12 { (year + 1, 1) } else { (year, month + 1) };
        let boundary = Utc
            .with_ymd_and_hms(next_year, next_month, 1, 0, 0, 0)
            .single()
            .ok_or_else(|| Error::invalid("end", end, "a Unix time"))?
            .timestamp();
        let next = boundary.min(end);
        out.push(Month { value: year as u64 * 100 + u64::from(month), first: at, next });
        at = next;
    }
    Ok(out)
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
pub fn metric_identity(chain_id: &str, metric: &str, interval: &str) -> Identity {
    let schema = Resource::MetricValue.schema();
    Identity {
        kind: "metric_series".into(),
        source: format!("{chain_id}/{metric}/{interval}"),
        decode: "raw".into(),
        chunk: 0,
        schema: hex::encode(Sha256::digest(format!("{schema:?}").as_bytes())),
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
    let mut set = Dataset::open(dir, &format!("chain={chain}/month"), metric_identity(&chain, metric, interval))?;
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
        let window =
            client.metric(chain_id, metric, Some(interval), Some((month.first - 1).max(0)), Some(month.next), None)?;
        let mut items = Vec::new();
        let mut pages = client.pages(window.paged(), None)?;
        while let Some(page) = pages.next().await {
            let (page, _) = page?;
            items.extend(
                page.items.into_iter().filter(|p| point_time(p).is_some_and(|t| month.first <= t && t < month.next)),
            );
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
    }
}
