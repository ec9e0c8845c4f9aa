//! What a rerun of a metric series dataset ([`super::metrics`]) still fetches, for its cost plan:
//! each month the writer would not skip (missing, open when written, altered) is its own window
//! walked in pages; the months the dataset holds whole cost nothing. Reads the manifest only: no
//! lock, nothing written, nothing sent.

use std::path::Path;

use super::manifest::Manifest;
use super::metrics::{metric_walk_key, months};
use crate::error::Result;
use crate::metrics::MetricsClient;
use crate::plan::{sources, Plan, Requests, Walk};
use crate::transport::weights::weight;

/// The cost plan of [`super::metrics::write_metric_dataset`] with the same arguments: the
/// request is checked as the writer checks it, and a directory of another series is refused,
/// before anything is read.
pub fn plan_metric_dataset(
    client: &MetricsClient,
    chain_id: &str,
    metric: &str,
    interval: &str,
    window: (i64, i64),
    dir: &Path,
) -> Result<Plan> {
    let (start, end) = window;
    let query = client.metric(chain_id, metric, Some(interval), Some(start), Some(end), None)?;
    let windows = months(start, end)?;
    let manifest = Manifest::open(dir, metric_walk_key(&query.chain_id, metric, interval))?;
    let page_size = query.page_size.max(1) as u64;
    let (mut pages, mut items, mut held, mut fetched) = (0u64, 0u64, 0u64, 0usize);
    for month in &windows {
        let (first, next) = (month.first as u64, month.next as u64);
        match manifest.held(dir, month.value, first, next) {
            Some(p) => held += p.rows,
            None => {
                let buckets = sources::buckets(query.interval, month.ask_from(), month.next);
                pages += buckets.div_ceil(page_size).max(1);
                items += buckets;
                fetched += 1;
            }
        }
    }
    let path = query.paged().path;
    let walk = Walk {
        operation: format!("GET {path} ({fetched} of {} months)", windows.len()),
        requests: if pages == 0 { Requests::Exact(0) } else { Requests::AtMost(pages) },
        units_per_request: u64::from(weight("GET", &path)),
        page_size,
        items: Some(items),
        held,
        cached_items: 0,
        unknown: vec!["buckets without a point (before the chain's first day): fewer pages".into()],
    };
    let budget = sources::budget(client.transport_config(), client.rate_limit().as_ref());
    Ok(Plan::new(walk, &budget))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{tests::temp_dir, Dataset};
    use crate::transport::TransportConfig;
    use chrono::{TimeZone, Utc};

    fn at(year: i32, month: u32) -> i64 {
        Utc.with_ymd_and_hms(year, month, 1, 0, 0, 0).unwrap().timestamp()
    }

    #[test]
    fn whole_months_are_counted_out_and_the_others_cost_their_windows() {
        let client = MetricsClient::new(Some("http://127.0.0.1:9"), TransportConfig::default()).unwrap();
        let dir = temp_dir("planned-metrics");
        let window = (at(2025, 9), at(2025, 12));
        let none = plan_metric_dataset(&client, "43114", "txCount", "day", window, &dir).unwrap();
        // Three windows, each asked from one second before its month: 31, 32 and 31 day buckets.
        assert_eq!((none.walk.requests, none.walk.items, none.walk.held), (Requests::AtMost(3), Some(94), 0));
        assert!(!dir.exists(), "a plan creates nothing");
        let key = "chain=43114/month";
        let mut set = Dataset::open(&dir, key, metric_walk_key("43114", "txCount", "day"), None).unwrap();
        for (value, first, next, complete) in
            [(202509, at(2025, 9), at(2025, 10), true), (202510, at(2025, 10), at(2025, 11), false)]
        {
            std::fs::write(set.temp_path(value).unwrap(), b"points").unwrap();
            set.commit(value, first as u64, next as u64, 30, complete).unwrap();
        }
        drop(set);
        // September is whole; October was open when written: fetched again, with November.
        let plan = plan_metric_dataset(&client, "43114", "txCount", "day", window, &dir).unwrap();
        assert_eq!((plan.walk.requests, plan.walk.held, plan.walk.items), (Requests::AtMost(2), 30, Some(63)));
        let err = plan_metric_dataset(&client, "43114", "gasUsed", "day", window, &dir).unwrap_err().to_string();
        assert!(err.contains("same walk"), "{err}");
        let err = plan_metric_dataset(&client, "43114", "txCount", "fortnight", window, &dir).unwrap_err();
        assert!(matches!(err, crate::error::Error::InvalidArgument { ref param, .. } if param == "interval"), "{err}");
    }
}
