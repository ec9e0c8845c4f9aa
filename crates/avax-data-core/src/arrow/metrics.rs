//! Arrow schemas of the Metrics API resources: each described once as a tree of [`Col`]s for
//! the shared JSON -> Arrow builder ([`super::json`]).

use super::json::{Col, Kind::*, EXTRA};

/// Metrics API `MetricsValue`: `timestamp` (Unix seconds -> UTC), `value` (Float64), then `extra`
/// as on every list frame: a field of a point the document does not name is kept there (the
/// sharded walks and the cache hold the points as sent, so it survives both).
pub const METRIC_VALUE: &[Col] = &[Col("timestamp", TsSec), Col("value", Float), EXTRA];

/// Metrics API supported chain.
pub const METRICS_CHAIN: &[Col] = &[
    Col("evmChainId", U64Str),
    Col("chainName", Str),
    Col("blockchainId", Str),
    Col("subnetId", Str),
    Col("network", Str),
    EXTRA,
];

/// Metrics API ICM summary row (`destBlockchainId` / `srcBlockchainId` null when not grouped by it).
pub const ICM_SUMMARY: &[Col] = &[
    Col("srcBlockchainId", Str),
    Col("destBlockchainId", Str),
    Col("lastHour", Int),
    Col("lastDay", Int),
    Col("lastWeek", Int),
    Col("lastMonth", Int),
    Col("last90Days", Int),
    Col("lastYear", Int),
    Col("allTime", Int),
    EXTRA,
];

#[cfg(test)]
mod tests {
    use crate::arrow::{to_batch, Resource};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, TimestampNanosecondType};
    use arrow_array::Array;
    use serde_json::json;

    #[test]
    fn metrics_resources() {
        let points =
            vec![json!({"timestamp": 1_704_067_200, "value": 12}), json!({"timestamp": 1_704_063_600.0, "value": 1.5})];
        let batch = to_batch(Resource::MetricValue, &points).unwrap();
        let ts = batch.column(0).as_primitive::<TimestampNanosecondType>();
        assert_eq!((ts.value(0), ts.value(1)), (1_704_067_200_000_000_000, 1_704_063_600_000_000_000));
        let v = batch.column(1).as_primitive::<Float64Type>();
        assert_eq!((v.value(0), v.value(1)), (12.0, 1.5));
        assert!(batch.column(2).is_null(0) && batch.column(2).is_null(1));
        // A field the document does not name is kept in `extra`, as on every list frame.
        let odd = json!({"timestamp": 1_704_067_200, "value": 3, "unit": "tx", "meta": {"partial": true}});
        let batch = to_batch(Resource::MetricValue, &[odd]).unwrap();
        let extra = batch.column_by_name("extra").unwrap().as_string_view();
        let kept: serde_json::Value = serde_json::from_str(extra.value(0)).unwrap();
        assert_eq!(kept, json!({"/unit": "tx", "/meta": {"partial": true}}));
        let chain = json!({"evmChainId": 43114, "chainName": "c_chain", "blockchainId": "b", "subnetId": "s", "network": "mainnet"});
        assert_eq!(to_batch(Resource::MetricsChain, &[chain]).unwrap().num_columns(), 6);
        let row = json!({"srcBlockchainId": "a", "lastHour": 1, "allTime": 9});
        let b = to_batch(Resource::IcmSummary, &[row]).unwrap();
        assert!(b.column_by_name("destBlockchainId").unwrap().is_null(0));
    }
}
