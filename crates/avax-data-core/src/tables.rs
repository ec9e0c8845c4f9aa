//! The closed sets of values the core accepts (metric names, intervals, index paths, networks,
//! ...), in one place: the parameter checks read them, and the Python stubs' `Literal` types are
//! generated from them (`tools/literal_types.py`), so a name the core refuses fails a type check.

use crate::index::IndexPath;
use crate::metrics::params as metric_params;

/// Metric time-series intervals (`timeInterval`).
pub const INTERVALS: [&str; 4] = ["hour", "day", "week", "month"];

/// Parquet compression codecs an export takes.
pub const COMPRESSION_NAMES: [&str; 5] = ["snappy", "zstd", "lz4", "gzip", "none"];

/// Every table, by the name of its type alias in `avax_data.types`: `(alias, values, doc)`.
pub fn literal_tables() -> Vec<(&'static str, Vec<&'static str>, &'static str)> {
    vec![
        ("MetricName", metric_params::METRICS.to_vec(), "A chain metric of the Metrics API."),
        ("Interval", INTERVALS.to_vec(), "A metric series' time interval."),
        ("IndexPathName", IndexPath::ALL.iter().map(|p| p.as_str()).collect(), "A node's index path."),
        ("Network", crate::data::params::NETWORKS.to_vec(), "An Avalanche network."),
        ("Feature", crate::data::params::FEATURES.to_vec(), "A Data API chain feature filter."),
        ("SortOrder", crate::data::params::SORT_ORDERS.to_vec(), "A sort order."),
        ("GroupBy", metric_params::GROUP_BY.to_vec(), "The grouping of the ICM summary."),
        ("Compression", COMPRESSION_NAMES.to_vec(), "A Parquet compression codec."),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of every table passes the check the core makes, and a value in another case
    /// does not: the tables and the checks are the same sets.
    #[test]
    fn every_table_value_passes_its_check_and_nothing_else_does() {
        let check = |alias: &str, value: &str| -> bool {
            match alias {
                "MetricName" => metric_params::metric(value).is_ok(),
                "Interval" => metric_params::interval("txCount", Some(value)).is_ok(),
                "IndexPathName" => IndexPath::parse(value).is_ok(),
                "Network" => crate::data::params::network(value).is_ok() && metric_params::network(value).is_ok(),
                "Feature" => crate::data::params::feature(value).is_ok(),
                "SortOrder" => crate::data::params::sort_order(value).is_ok(),
                "GroupBy" => metric_params::group_by(value).is_ok(),
                "Compression" => crate::arrow::ParquetOptions::new(value, 1).is_ok(),
                other => panic!("no check for {other}"),
            }
        };
        let tables = literal_tables();
        assert_eq!(tables.len(), 8);
        for (alias, values, _) in &tables {
            assert!(!values.is_empty(), "{alias}");
            for value in values {
                assert!(check(alias, value), "{alias}: {value} is refused by the core");
            }
        }
        for (alias, refused) in [
            ("MetricName", "txcount"),
            ("Interval", "Day"),
            ("IndexPathName", "c/block"),
            ("Network", "Mainnet"),
            ("Feature", "NFTIndexing"),
            ("SortOrder", "ASC"),
            ("GroupBy", "srcblockchainid"),
        ] {
            assert!(!check(alias, refused), "{alias}: {refused} passes");
        }
        assert_eq!(INTERVALS.map(|i| metric_params::Interval::parse(i).unwrap().as_str()), INTERVALS);
    }
}
