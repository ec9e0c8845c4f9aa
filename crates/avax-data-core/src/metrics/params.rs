//! Checks of Metrics API parameters before any request (each failure names the parameter, the
//! value and what is allowed), and the UTC bucket arithmetic of the time intervals.

use chrono::{Datelike, NaiveDate};

use crate::error::{Error, Result};

/// The 17 chain metrics (values of the `metric` path parameter).
pub const METRICS: [&str; 17] = [
    "activeAddresses",
    "activeSenders",
    "cumulativeTxCount",
    "cumulativeAddresses",
    "cumulativeContracts",
    "cumulativeDeployers",
    "contracts",
    "deployers",
    "gasUsed",
    "txCount",
    "avgGps",
    "maxGps",
    "avgTps",
    "maxTps",
    "avgGasPrice",
    "maxGasPrice",
    "feesPaid",
];

/// Metrics that support any time interval; every other metric is day-only.
pub const ANY_INTERVAL_METRICS: [&str; 4] = ["activeAddresses", "activeSenders", "gasUsed", "txCount"];

/// Largest metric-series `pageSize`.
pub const MAX_PAGE_SIZE: i64 = 2160;
/// Our default metric-series `pageSize`: the largest, so bulk walks take the fewest requests.
pub const DEFAULT_PAGE_SIZE: i64 = MAX_PAGE_SIZE;

/// `network` values and their rule (the Data API's: [`crate::inputs::network`]).
pub use crate::inputs::{network, NETWORKS};
/// `groupBy` values.
pub const GROUP_BY: [&str; 3] = ["srcBlockchainId", "destBlockchainId", "srcBlockchainId,destBlockchainId"];
/// Aggregate chain ids.
pub const AGGREGATE_CHAINS: [&str; 3] = ["total", "mainnet", "testnet"];

/// A time interval of the metric series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Interval {
    /// On the hour.
    Hour,
    /// 00:00 UTC.
    Day,
    /// Monday 00:00 UTC.
    Week,
    /// The 1st of the month, 00:00 UTC.
    Month,
}

impl Interval {
    /// The API name.
    pub fn as_str(self) -> &'static str {
        match self {
            Interval::Hour => "hour",
            Interval::Day => "day",
            Interval::Week => "week",
            Interval::Month => "month",
        }
    }

    /// Parses an API name.
    pub fn parse(value: &str) -> Result<Self> {
        match value {
            "hour" => Ok(Interval::Hour),
            "day" => Ok(Interval::Day),
            "week" => Ok(Interval::Week),
            "month" => Ok(Interval::Month),
            _ => Err(Error::invalid_text(
                "interval",
                value,
                crate::inputs::one_of_allowed(value, &["hour", "day", "week", "month"]),
            )),
        }
    }

    /// The start of the bucket holding `ts` (Unix seconds, UTC).
    pub fn floor(self, ts: i64) -> i64 {
        const DAY: i64 = 86_400;
        // 1970-01-05 was a Monday.
        const MONDAY: i64 = 4 * DAY;
        match self {
            Interval::Hour => ts - ts.rem_euclid(3_600),
            Interval::Day => ts - ts.rem_euclid(DAY),
            Interval::Week => ts - (ts - MONDAY).rem_euclid(7 * DAY),
            Interval::Month => {
                let date = chrono::DateTime::from_timestamp(ts, 0).map(|t| t.date_naive()).unwrap_or_default();
                month_start(date.year(), date.month())
            }
        }
    }

    /// The start of the bucket after the one starting at `bucket` (a bucket start).
    pub fn next(self, bucket: i64) -> i64 {
        match self {
            Interval::Hour => bucket + 3_600,
            Interval::Day => bucket + 86_400,
            Interval::Week => bucket + 7 * 86_400,
            Interval::Month => {
                let date = chrono::DateTime::from_timestamp(bucket, 0).map(|t| t.date_naive()).unwrap_or_default();
                let (y, m) = if date.month() == 12 { (date.year() + 1, 1) } else { (date.year(), date.month() + 1) };
                month_start(y, m)
            }
        }
    }

    /// The bucket starts `b` with `start < b < end`, ascending.
    pub fn inner_boundaries(self, start: i64, end: i64) -> Vec<i64> {
        let mut out = Vec::new();
        let mut b = self.next(self.floor(start));
        while b < end {
            out.push(b);
            b = self.next(b);
        }
        out
    }
}

fn month_start(year: i32, month: u32) -> i64 {
    NaiveDate::from_ymd_opt(year, month, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp())
        .unwrap_or(0)
}

/// A metric name.
pub fn metric(value: &str) -> Result<&'static str> {
    METRICS
        .iter()
        .find(|m| **m == value)
        .copied()
        .ok_or_else(|| Error::invalid_text("metric", value, crate::inputs::one_of_allowed(value, &METRICS)))
}

/// Whether `metric` supports only `timeInterval=day`.
pub fn day_only(metric: &str) -> bool {
    !ANY_INTERVAL_METRICS.contains(&metric)
}

/// The interval the hosted service answers with when a request sends no `timeInterval`: `hour`
/// (the real answers of `spec/ground-truth.md`, section "Real answers"); a day-only metric has
/// only `day`. The client plans its sub-windows and cache buckets by it, the emulator answers by it.
pub fn service_default_interval(metric: &str) -> Interval {
    if day_only(metric) {
        Interval::Day
    } else {
        Interval::Hour
    }
}

/// The interval of a metric: `day` only for the day-only metrics.
pub fn interval(metric: &str, value: Option<&str>) -> Result<Option<Interval>> {
    let Some(value) = value else { return Ok(None) };
    let parsed = Interval::parse(value)?;
    if day_only(metric) && parsed != Interval::Day {
        return Err(Error::invalid_text(
            "interval",
            value,
            format!(
                "day (metric {metric} supports only timeInterval=day; hour, week and month are for {})",
                ANY_INTERVAL_METRICS.join(", ")
            ),
        ));
    }
    Ok(Some(parsed))
}

/// A chain id: decimal EVM chain id or `total` / `mainnet` / `testnet`.
pub fn chain_id(value: &str) -> Result<String> {
    let v = value.trim();
    let evm = !v.is_empty() && v.len() <= 20 && v.bytes().all(|b| b.is_ascii_digit());
    if evm || AGGREGATE_CHAINS.contains(&v) {
        return Ok(v.to_string());
    }
    Err(Error::invalid_text(
        "chain_id",
        value,
        "an EVM chain id (decimal digits, e.g. \"43114\") or one of total, mainnet, testnet",
    ))
}

/// A metric-series page size.
pub fn page_size(value: i64) -> Result<i64> {
    if !(1..=MAX_PAGE_SIZE).contains(&value) {
        return Err(Error::invalid("page_size", value, format!("an int in [1, {MAX_PAGE_SIZE}]")));
    }
    Ok(value)
}

/// The time window: both >= 0, and `start < end` when both are given.
pub fn window(start: Option<i64>, end: Option<i64>) -> Result<(Option<i64>, Option<i64>)> {
    for (name, v) in [("start", start), ("end", end)] {
        if let Some(v) = v.filter(|v| *v < 0) {
            return Err(Error::invalid(name, v, "Unix seconds >= 0 (or a datetime/date)"));
        }
    }
    if let (Some(s), Some(e)) = (start, end) {
        if s >= e {
            return Err(Error::invalid("start", format!("{s} (end={e})"), "a time before end"));
        }
    }
    Ok((start, end))
}

/// A `groupBy` value: exactly one of the three forms (spaces around the comma are dropped).
pub fn group_by(value: &str) -> Result<String> {
    let v: String = value.split(',').map(str::trim).collect::<Vec<_>>().join(",");
    if GROUP_BY.contains(&v.as_str()) {
        Ok(v)
    } else {
        Err(Error::invalid_text(
            "group_by",
            value,
            "one of srcBlockchainId, destBlockchainId, srcBlockchainId,destBlockchainId",
        ))
    }
}

/// A blockchain id filter: a non-empty id without separators.
pub fn blockchain_id(param: &str, value: &str) -> Result<String> {
    crate::data::params::segment(param, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(y: i32, m: u32, d: u32, h: u32) -> i64 {
        NaiveDate::from_ymd_opt(y, m, d).unwrap().and_hms_opt(h, 0, 0).unwrap().and_utc().timestamp()
    }

    #[test]
    fn metric_names_and_day_only_rules() {
        assert_eq!(METRICS.len(), 17);
        assert_eq!(metric("txCount").unwrap(), "txCount");
        let e = metric("txcount").unwrap_err().to_string();
        assert!(e.starts_with("invalid metric=\"txcount\": one of activeAddresses,"), "{e}");
        for m in METRICS {
            let day = interval(m, Some("day")).unwrap();
            assert_eq!(day, Some(Interval::Day));
            for other in ["hour", "week", "month"] {
                let r = interval(m, Some(other));
                let restricted = m.starts_with("cumulative")
                    || m.starts_with("avg")
                    || m.starts_with("max")
                    || ["contracts", "deployers", "feesPaid"].contains(&m);
                assert_eq!(r.is_err(), restricted, "{m} {other}");
            }
            assert_eq!(interval(m, None).unwrap(), None);
        }
        let e = interval("avgTps", Some("hour")).unwrap_err().to_string();
        assert!(e.contains("interval=\"hour\"") && e.contains("avgTps"), "{e}");
        assert!(interval("txCount", Some("year")).unwrap_err().to_string().contains("one of hour, day, week, month"));
    }

    #[test]
    fn chain_ids_page_sizes_windows_networks_group_by() {
        for ok in ["43114", "1", "total", "mainnet", "testnet", " 43113 "] {
            assert!(chain_id(ok).is_ok(), "{ok}");
        }
        for bad in ["", "fuji", "0x1", "43114a", "-1", "c-chain", "1".repeat(21).as_str()] {
            assert!(chain_id(bad).unwrap_err().to_string().starts_with("invalid chain_id="), "{bad}");
        }
        assert!(page_size(1).is_ok() && page_size(2160).is_ok());
        assert_eq!(page_size(2161).unwrap_err().to_string(), "invalid page_size=2161: an int in [1, 2160]");
        assert!(page_size(0).is_err());
        assert!(window(Some(0), Some(1)).is_ok() && window(None, Some(0)).is_ok() && window(Some(5), None).is_ok());
        assert!(window(Some(-1), None).unwrap_err().to_string().starts_with("invalid start=-1"));
        assert!(window(None, Some(-1)).unwrap_err().to_string().starts_with("invalid end=-1"));
        assert!(window(Some(5), Some(5)).unwrap_err().to_string().contains("before end"));
        assert!(network("fuji").is_ok() && network("devnet").is_err());
        assert_eq!(group_by("srcBlockchainId, destBlockchainId").unwrap(), "srcBlockchainId,destBlockchainId");
        for bad in ["src", "destBlockchainId,srcBlockchainId", "", "srcBlockchainId,srcBlockchainId"] {
            assert!(group_by(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bucket_floors() {
        let t = ts(2024, 2, 29, 13) + 1234; // Thursday, leap day
        assert_eq!(Interval::Hour.floor(t), ts(2024, 2, 29, 13));
        assert_eq!(Interval::Day.floor(t), ts(2024, 2, 29, 0));
        assert_eq!(Interval::Week.floor(t), ts(2024, 2, 26, 0)); // Monday
        assert_eq!(Interval::Month.floor(t), ts(2024, 2, 1, 0));
        // exactly on boundaries
        assert_eq!(Interval::Week.floor(ts(2024, 2, 26, 0)), ts(2024, 2, 26, 0));
        assert_eq!(Interval::Week.floor(ts(2024, 2, 26, 0) - 1), ts(2024, 2, 19, 0));
        assert_eq!(Interval::Month.floor(ts(2024, 3, 1, 0)), ts(2024, 3, 1, 0));
        assert_eq!(Interval::Month.floor(ts(2024, 3, 1, 0) - 1), ts(2024, 2, 1, 0));
        assert_eq!(Interval::Week.floor(0), -3 * 86_400); // Monday 1969-12-29
        assert_eq!(Interval::Month.floor(0), 0);
        // a Sunday floors to the Monday before
        assert_eq!(Interval::Week.floor(ts(2023, 12, 31, 23)), ts(2023, 12, 25, 0));
    }

    #[test]
    fn bucket_steps_cross_month_year_and_leap_edges() {
        assert_eq!(Interval::Month.next(ts(2024, 1, 1, 0)), ts(2024, 2, 1, 0));
        assert_eq!(Interval::Month.next(ts(2024, 2, 1, 0)) - ts(2024, 2, 1, 0), 29 * 86_400);
        assert_eq!(Interval::Month.next(ts(2023, 2, 1, 0)) - ts(2023, 2, 1, 0), 28 * 86_400);
        assert_eq!(Interval::Month.next(ts(2100, 2, 1, 0)) - ts(2100, 2, 1, 0), 28 * 86_400); // not a leap year
        assert_eq!(Interval::Month.next(ts(2000, 2, 1, 0)) - ts(2000, 2, 1, 0), 29 * 86_400);
        assert_eq!(Interval::Month.next(ts(2023, 12, 1, 0)), ts(2024, 1, 1, 0));
        assert_eq!(Interval::Week.next(ts(2024, 12, 30, 0)), ts(2025, 1, 6, 0));
        assert_eq!(Interval::Day.next(ts(2024, 2, 28, 0)), ts(2024, 2, 29, 0));
        let b = Interval::Month.inner_boundaries(ts(2023, 11, 15, 0), ts(2024, 3, 1, 0));
        assert_eq!(b, vec![ts(2023, 12, 1, 0), ts(2024, 1, 1, 0), ts(2024, 2, 1, 0)]);
        let b = Interval::Week.inner_boundaries(ts(2024, 2, 26, 0), ts(2024, 3, 11, 0) + 1);
        assert_eq!(b, vec![ts(2024, 3, 4, 0), ts(2024, 3, 11, 0)]);
        assert!(Interval::Hour.inner_boundaries(0, 3_600).is_empty());
        assert_eq!(Interval::Hour.inner_boundaries(0, 3_601), vec![3_600]);
    }
}
