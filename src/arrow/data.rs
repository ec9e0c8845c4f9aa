//! Arrow schemas of the Data API resources and one JSON -> Arrow builder driven by them.
//!
//! Each resource is described once as a tree of [`Col`]s; the same description types the
//! DataFrame columns and the Python dicts. Decimal-string integers become `Decimal128(38, 0)`
//! (wei amounts pass 2^64), Unix seconds or milliseconds become `Timestamp(ns, UTC)`, strings
//! `Utf8View`, objects `Struct`, arrays `List`. Every column is nullable (variants share one
//! frame); fields absent from a schema are ignored; open enums stay strings.

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Decimal128Builder, Float64Builder, Int64Builder, StringViewBuilder, TimestampNanosecondBuilder,
    UInt64Builder,
};
use arrow_array::{ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use serde_json::Value;

/// How one JSON field is typed.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Text (numbers given as text are kept as their text).
    Str,
    /// `true`/`false`.
    Bool,
    /// A JSON integer.
    Int,
    /// A JSON number (integer or float).
    Float,
    /// A decimal string (or number) as an unsigned 64-bit integer.
    U64Str,
    /// A decimal string (or number) as `Decimal128(38, 0)`.
    Dec,
    /// Unix seconds.
    TsSec,
    /// Unix milliseconds.
    TsMs,
    /// An array of strings.
    StrList,
    /// An object.
    Struct(&'static [Col]),
    /// An array of objects.
    StructList(&'static [Col]),
}

/// One named field.
#[derive(Debug, Clone, Copy)]
pub struct Col(pub &'static str, pub Kind);

use Kind::*;

/// `EvmBlock`.
pub const BLOCK: &[Col] = &[
    Col("chainId", Str),
    Col("blockNumber", U64Str),
    Col("blockTimestamp", TsSec),
    Col("blockTimestampMilliseconds", TsMs),
    Col("blockMinDelayExcess", Dec),
    Col("blockHash", Str),
    Col("txCount", Int),
    Col("baseFee", Dec),
    Col("gasUsed", Dec),
    Col("gasLimit", Dec),
    Col("gasCost", Dec),
    Col("parentHash", Str),
    Col("feesSpent", Dec),
    Col("cumulativeTransactions", Dec),
];

const NFT_METADATA: &[Col] = &[
    Col("indexStatus", Str),
    Col("metadataLastUpdatedTimestamp", TsSec),
    Col("name", Str),
    Col("symbol", Str),
    Col("imageUri", Str),
    Col("description", Str),
    Col("animationUri", Str),
    Col("externalUrl", Str),
    Col("background", Str),
    Col("attributes", Str),
    Col("decimals", Int),
    Col("properties", Str),
];

/// ERC-721 and ERC-1155 balances in one frame (`balance` null for ERC-721; `tokenId` stays text:
/// token ids are uint256 and pass 38 digits).
pub const COLLECTIBLE: &[Col] = &[
    Col("address", Str),
    Col("name", Str),
    Col("symbol", Str),
    Col("ercType", Str),
    Col("tokenId", Str),
    Col("tokenUri", Str),
    Col("metadata", Struct(NFT_METADATA)),
    Col("ownerAddress", Str),
    Col("chainId", Str),
    Col("balance", Dec),
];

const ASSET_AMOUNT: &[Col] = &[
    Col("assetId", Str),
    Col("name", Str),
    Col("symbol", Str),
    Col("denomination", Int),
    Col("type", Str),
    Col("amount", Dec),
];

/// `PendingReward`.
pub const PENDING_REWARD: &[Col] = &[
    Col("addresses", StrList),
    Col("txHash", Str),
    Col("amountStaked", Dec),
    Col("nodeId", Str),
    Col("startTimestamp", TsSec),
    Col("endTimestamp", TsSec),
    Col("rewardType", Str),
    Col("progress", Float),
    Col("estimatedReward", Struct(ASSET_AMOUNT)),
];

/// `XChainVertex`.
pub const VERTEX: &[Col] = &[
    Col("vertexHash", Str),
    Col("parentHashes", StrList),
    Col("vertexHeight", Int),
    Col("vertexIndex", Int),
    Col("vertexTimestamp", TsSec),
    Col("txCount", Int),
    Col("transactions", StrList),
    Col("vertexSizeBytes", Int),
];

const RECEIPT: &[Col] = &[Col("receivedMessageNonce", Dec), Col("relayerRewardAddress", Str)];
const PRICE: &[Col] = &[Col("currencyCode", Str), Col("value", Float)];
const REWARD_DETAILS: &[Col] = &[
    Col("address", Str),
    Col("name", Str),
    Col("symbol", Str),
    Col("decimals", Int),
    Col("logoUri", Str),
    Col("ercType", Str),
    Col("price", Struct(PRICE)),
    Col("value", Dec),
];
const SOURCE_TX: &[Col] = &[Col("txHash", Str), Col("timestamp", TsSec), Col("gasSpent", Dec)];
const DESTINATION_TX: &[Col] = &[
    Col("txHash", Str),
    Col("timestamp", TsSec),
    Col("gasSpent", Dec),
    Col("rewardRedeemer", Str),
    Col("delivererAddress", Str),
];

/// The three ICM message variants in one frame (`sourceTransaction` null when the source is
/// not indexed, `destinationTransaction` null while pending).
pub const ICM_MESSAGE: &[Col] = &[
    Col("messageId", Str),
    Col("icmContractAddress", Str),
    Col("sourceBlockchainId", Str),
    Col("destinationBlockchainId", Str),
    Col("sourceEvmChainId", Str),
    Col("destinationEvmChainId", Str),
    Col("messageNonce", Dec),
    Col("from", Str),
    Col("to", Str),
    Col("data", Str),
    Col("messageExecuted", Bool),
    Col("receipts", StructList(RECEIPT)),
    Col("receiptDelivered", Bool),
    Col("rewardDetails", Struct(REWARD_DETAILS)),
    Col("sourceTransaction", Struct(SOURCE_TX)),
    Col("destinationTransaction", Struct(DESTINATION_TX)),
    Col("status", Str),
];

/// Metrics API `MetricsValue`: `timestamp` (Unix seconds -> UTC), `value` (Float64).
pub const METRIC_VALUE: &[Col] = &[Col("timestamp", TsSec), Col("value", Float)];

/// Metrics API supported chain.
pub const METRICS_CHAIN: &[Col] = &[
    Col("evmChainId", Int),
    Col("chainName", Str),
    Col("blockchainId", Str),
    Col("subnetId", Str),
    Col("network", Str),
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
];

/// A Data API or Metrics API resource with a frame schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resource {
    /// Blocks of a chain, and latest blocks.
    Block,
    /// Collectible balances.
    Collectible,
    /// Pending rewards.
    PendingReward,
    /// X-chain vertices.
    Vertex,
    /// ICM messages.
    IcmMessage,
    /// Metric series points (Metrics API).
    MetricValue,
    /// Supported chains (Metrics API).
    MetricsChain,
    /// ICM summary rows (Metrics API).
    IcmSummary,
}

impl Resource {
    /// Its columns.
    pub fn columns(self) -> &'static [Col] {
        match self {
            Resource::Block => BLOCK,
            Resource::Collectible => COLLECTIBLE,
            Resource::PendingReward => PENDING_REWARD,
            Resource::Vertex => VERTEX,
            Resource::IcmMessage => ICM_MESSAGE,
            Resource::MetricValue => METRIC_VALUE,
            Resource::MetricsChain => METRICS_CHAIN,
            Resource::IcmSummary => ICM_SUMMARY,
        }
    }

    /// Its Arrow schema.
    pub fn schema(self) -> SchemaRef {
        use std::sync::OnceLock;
        static SCHEMAS: [OnceLock<SchemaRef>; 8] = [const { OnceLock::new() }; 8];
        SCHEMAS[self as usize].get_or_init(|| Arc::new(Schema::new(fields(self.columns())))).clone()
    }
}

fn fields(cols: &[Col]) -> Fields {
    cols.iter().map(|c| Field::new(c.0, data_type(c.1), true)).collect()
}

/// The Arrow type of a kind.
pub fn data_type(kind: Kind) -> DataType {
    match kind {
        Str => DataType::Utf8View,
        Bool => DataType::Boolean,
        Int => DataType::Int64,
        Float => DataType::Float64,
        U64Str => DataType::UInt64,
        Dec => DataType::Decimal128(38, 0),
        TsSec | TsMs => DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())),
        StrList => DataType::List(Arc::new(Field::new("item", DataType::Utf8View, true))),
        Struct(cols) => DataType::Struct(fields(cols)),
        StructList(cols) => DataType::List(Arc::new(Field::new("item", DataType::Struct(fields(cols)), true))),
    }
}

/// Items of one resource as a record batch. Fails (naming the field and value) on a value that
/// cannot be stored without loss, e.g. a decimal with more than 38 digits.
pub fn to_batch(resource: Resource, items: &[Value]) -> Result<RecordBatch, String> {
    if let Some((k, item)) = items.iter().enumerate().find(|(_, v)| !v.is_object()) {
        return Err(format!(
            "item {k}: {} is not a JSON object",
            crate::transport::snippet(item.to_string().as_bytes())
        ));
    }
    let values: Vec<Option<&Value>> = items.iter().map(Some).collect();
    let columns =
        resource.columns().iter().map(|c| build(c.0, c.1, &child(&values, c.0))).collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new(resource.schema(), columns).map_err(|e| e.to_string())
}

fn child<'a>(values: &[Option<&'a Value>], name: &str) -> Vec<Option<&'a Value>> {
    values.iter().map(|v| v.and_then(|o| o.get(name)).filter(|v| !v.is_null())).collect()
}

/// What a timestamp field must hold.
pub const UNIX_TIME: &str = "a Unix time between 1677-09-21 and 2262-04-11";

/// The message of a value that does not fit its column.
pub fn bad(name: &str, v: &Value, what: &str) -> String {
    format!("field {name:?}: {v} is not {what}")
}

/// A decimal string (or JSON integer) as i128; `None` when not an integer in 38 digits.
pub fn parse_decimal(v: &Value) -> Option<i128> {
    match v {
        Value::String(s) => {
            let s = s.trim();
            let digits = s.strip_prefix('-').unwrap_or(s);
            if digits.is_empty() || digits.len() > 38 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        }
        Value::Number(n) => n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from)),
        _ => None,
    }
}

fn parse_u64(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn parse_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => {
            n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64))
        }
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn parse_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Nanoseconds since the epoch of a Unix-seconds (`ms = false`) or milliseconds value; `None`
/// when it is not a number or falls outside what nanoseconds in an `i64` hold (1677-09-21 to
/// 2262-04-11), instead of saturating to those dates.
pub fn timestamp_ns(v: &Value, ms: bool) -> Option<i64> {
    let unit: i64 = if ms { 1_000_000 } else { 1_000_000_000 };
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.checked_mul(unit),
            None => {
                n.as_f64().map(|f| f * unit as f64).filter(|ns| ns.is_finite() && ns.abs() < 9.2e18).map(|ns| ns as i64)
            }
        },
        Value::String(s) => s.trim().parse::<i64>().ok().and_then(|i| i.checked_mul(unit)),
        _ => None,
    }
}

fn build(name: &str, kind: Kind, values: &[Option<&Value>]) -> Result<ArrayRef, String> {
    let n = values.len();
    Ok(match kind {
        Str => {
            let mut b = StringViewBuilder::with_capacity(n);
            for v in values {
                match v {
                    None => b.append_null(),
                    Some(Value::String(s)) => b.append_value(s),
                    Some(other) => b.append_value(other.to_string()),
                }
            }
            Arc::new(b.finish())
        }
        Bool => {
            let mut b = BooleanBuilder::with_capacity(n);
            for v in values {
                match v {
                    None => b.append_null(),
                    Some(v) => b.append_value(v.as_bool().ok_or_else(|| bad(name, v, "a boolean"))?),
                }
            }
            Arc::new(b.finish())
        }
        Int => {
            let mut b = Int64Builder::with_capacity(n);
            for v in values {
                b.append_option(v.map(|v| parse_i64(v).ok_or_else(|| bad(name, v, "an integer"))).transpose()?);
            }
            Arc::new(b.finish())
        }
        Float => {
            let mut b = Float64Builder::with_capacity(n);
            for v in values {
                b.append_option(v.map(|v| parse_f64(v).ok_or_else(|| bad(name, v, "a number"))).transpose()?);
            }
            Arc::new(b.finish())
        }
        U64Str => {
            let mut b = UInt64Builder::with_capacity(n);
            for v in values {
                b.append_option(
                    v.map(|v| parse_u64(v).ok_or_else(|| bad(name, v, "an integer in [0, 2^64)"))).transpose()?,
                );
            }
            Arc::new(b.finish())
        }
        Dec => {
            let mut b = Decimal128Builder::with_capacity(n);
            for v in values {
                b.append_option(
                    v.map(|v| parse_decimal(v).ok_or_else(|| bad(name, v, "an integer of at most 38 digits")))
                        .transpose()?,
                );
            }
            Arc::new(b.finish().with_precision_and_scale(38, 0).map_err(|e| e.to_string())?)
        }
        TsSec | TsMs => {
            let mut b = TimestampNanosecondBuilder::with_capacity(n).with_timezone("UTC");
            for v in values {
                b.append_option(
                    v.map(|v| timestamp_ns(v, matches!(kind, TsMs)).ok_or_else(|| bad(name, v, UNIX_TIME)))
                        .transpose()?,
                );
            }
            Arc::new(b.finish())
        }
        Struct(cols) => {
            if let Some(v) = values.iter().flatten().find(|v| !v.is_object()) {
                return Err(bad(name, v, "an object"));
            }
            let columns = cols.iter().map(|c| build(c.0, c.1, &child(values, c.0))).collect::<Result<Vec<_>, _>>()?;
            let nulls = NullBuffer::from(values.iter().map(|v| v.is_some_and(Value::is_object)).collect::<Vec<_>>());
            Arc::new(StructArray::try_new(fields(cols), columns, Some(nulls)).map_err(|e| e.to_string())?)
        }
        StrList | StructList(_) => {
            let mut lengths = Vec::with_capacity(n);
            let mut valid = Vec::with_capacity(n);
            let mut flat: Vec<Option<&Value>> = Vec::new();
            for v in values {
                match v {
                    Some(Value::Array(items)) => {
                        lengths.push(items.len());
                        valid.push(true);
                        flat.extend(items.iter().map(|i| Some(i).filter(|i| !i.is_null())));
                    }
                    None => {
                        lengths.push(0);
                        valid.push(false);
                    }
                    Some(other) => return Err(bad(name, other, "a list")),
                }
            }
            let (item_kind, DataType::List(field)) = (
                match kind {
                    StructList(cols) => Struct(cols),
                    _ => Str,
                },
                data_type(kind),
            ) else {
                unreachable!()
            };
            let items = build(name, item_kind, &flat)?;
            Arc::new(
                ListArray::try_new(field, OffsetBuffer::from_lengths(lengths), items, Some(NullBuffer::from(valid)))
                    .map_err(|e| e.to_string())?,
            )
        }
    })
}

#[cfg(test)]
mod strict_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn out_of_range_timestamps_and_non_objects_are_refused_with_field_and_value() {
        for huge in [json!(1e20), json!(-1e20), json!(9_300_000_000_i64), json!("99999999999999")] {
            let err = to_batch(Resource::Block, &[json!({"blockTimestamp": huge})]).unwrap_err();
            assert!(err.starts_with(&format!("field \"blockTimestamp\": {huge} is not a Unix time")), "{err}");
        }
        assert!(to_batch(Resource::Block, &[json!({"blockTimestamp": 1.7e9})]).is_ok());
        let err = to_batch(Resource::Block, &[json!({"chainId": "1"}), json!(1)]).unwrap_err();
        assert_eq!(err, "item 1: 1 is not a JSON object");
        assert!(to_batch(Resource::Block, &[json!(null)]).unwrap_err().contains("null is not a JSON object"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Decimal128Type, Float64Type, TimestampNanosecondType, UInt64Type};
    use arrow_array::Array;
    use serde_json::json;

    #[test]
    fn blocks_keep_wei_above_2_pow_64_and_seconds_as_nanoseconds() {
        let items = vec![
            json!({"chainId": "43114", "blockNumber": "18446744073709551615", "blockTimestamp": 1700000000, "blockHash": "0xa",
                   "txCount": 3, "baseFee": "25000000000", "gasUsed": "21000", "gasLimit": "15000000",
                   "gasCost": "99999999999999999999999999999999999999", "parentHash": "0x9", "feesSpent": "36893488147419103232",
                   "cumulativeTransactions": "12", "extra": {"ignored": true}}),
            json!({"chainId": "43113", "blockNumber": "1", "blockTimestamp": 1, "blockTimestampMilliseconds": 1500}),
        ];
        let batch = to_batch(Resource::Block, &items).unwrap();
        assert_eq!(batch.schema(), Resource::Block.schema());
        assert_eq!(batch.column(1).as_primitive::<UInt64Type>().value(0), u64::MAX);
        assert_eq!(batch.column(2).as_primitive::<TimestampNanosecondType>().value(0), 1_700_000_000_000_000_000);
        assert_eq!(batch.column(3).as_primitive::<TimestampNanosecondType>().value(1), 1_500_000_000);
        assert!(batch.column(3).is_null(0));
        let fees = batch.column(12).as_primitive::<Decimal128Type>();
        assert_eq!(fees.value(0), 36_893_488_147_419_103_232i128); // 2^65
        assert_eq!(
            batch.column(10).as_primitive::<Decimal128Type>().value(0),
            99999999999999999999999999999999999999i128
        );
        assert!(fees.is_null(1));
        assert!(to_batch(Resource::Block, &[json!({"gasCost": "1".repeat(39)})]).unwrap_err().contains("gasCost"));
    }

    #[test]
    fn collectibles_mix_erc721_and_erc1155_and_keep_unknown_enums() {
        let items = vec![
            json!({"address": "0x1", "name": "N", "symbol": "S", "ercType": "ERC-721", "tokenId": "115792089237316195423570985008687907853269984665640564039457584007913129639935",
                   "tokenUri": "ipfs://x", "metadata": {"indexStatus": "SOMETHING_NEW", "metadataLastUpdatedTimestamp": 1700000000, "name": "a"},
                   "ownerAddress": "0xo", "chainId": "43114"}),
            json!({"address": "0x2", "ercType": "ERC-1155", "tokenId": "1", "tokenUri": "u", "metadata": {"indexStatus": "indexed", "decimals": 0}, "chainId": "43114", "balance": "100000000000000000000000"}),
        ];
        let batch = to_batch(Resource::Collectible, &items).unwrap();
        let balance = batch.column_by_name("balance").unwrap().as_primitive::<Decimal128Type>();
        assert!(balance.is_null(0));
        assert_eq!(balance.value(1), 100_000_000_000_000_000_000_000i128);
        let meta = batch.column_by_name("metadata").unwrap().as_struct();
        assert_eq!(meta.column_by_name("indexStatus").unwrap().as_string_view().value(0), "SOMETHING_NEW");
        assert!(batch.column_by_name("name").unwrap().is_null(1));
        assert_eq!(batch.column_by_name("tokenId").unwrap().as_string_view().value(0).len(), 78);
    }

    #[test]
    fn icm_variants_share_a_frame_and_price_value_may_be_text_or_number() {
        let base = |status: &str, price: Value| {
            json!({"messageId": "m", "messageNonce": "5", "messageExecuted": false, "receiptDelivered": false,
                   "receipts": [{"receivedMessageNonce": "1", "relayerRewardAddress": "0xr"}],
                   "rewardDetails": {"address": "0xt", "decimals": 18, "ercType": "ERC-20", "price": {"currencyCode": "usd", "value": price}, "value": "0"},
                   "sourceTransaction": {"txHash": "0xs", "timestamp": 1700000000, "gasSpent": "21000"}, "status": status})
        };
        let mut delivered = base("delivered", json!(1.25));
        delivered["destinationTransaction"] = json!({"txHash": "0xd", "timestamp": 1700000100, "gasSpent": "1", "rewardRedeemer": "0x1", "delivererAddress": "0x2"});
        let mut not_indexed = base("delivered_source_not_indexed", json!("2.5"));
        not_indexed.as_object_mut().unwrap().remove("sourceTransaction");
        not_indexed["destinationTransaction"] = delivered["destinationTransaction"].clone();
        let items = vec![base("pending", json!("0.5")), delivered, not_indexed, base("brand_new_status", Value::Null)];
        let batch = to_batch(Resource::IcmMessage, &items).unwrap();
        let dest = batch.column_by_name("destinationTransaction").unwrap();
        assert!(dest.is_null(0) && dest.is_valid(1) && dest.is_valid(2));
        assert!(batch.column_by_name("sourceTransaction").unwrap().is_null(2));
        let price =
            batch.column_by_name("rewardDetails").unwrap().as_struct().column_by_name("price").unwrap().as_struct();
        let value = price.column_by_name("value").unwrap().as_primitive::<Float64Type>();
        assert_eq!((value.value(0), value.value(1), value.value(2)), (0.5, 1.25, 2.5));
        assert!(value.is_null(3));
        assert_eq!(batch.column_by_name("status").unwrap().as_string_view().value(3), "brand_new_status");
        let receipts = batch.column_by_name("receipts").unwrap().as_list::<i32>();
        assert_eq!(receipts.value(0).len(), 1);
    }

    #[test]
    fn metrics_resources() {
        let points =
            vec![json!({"timestamp": 1_704_067_200, "value": 12}), json!({"timestamp": 1_704_063_600.0, "value": 1.5})];
        let batch = to_batch(Resource::MetricValue, &points).unwrap();
        let ts = batch.column(0).as_primitive::<TimestampNanosecondType>();
        assert_eq!((ts.value(0), ts.value(1)), (1_704_067_200_000_000_000, 1_704_063_600_000_000_000));
        let v = batch.column(1).as_primitive::<Float64Type>();
        assert_eq!((v.value(0), v.value(1)), (12.0, 1.5));
        let chain = json!({"evmChainId": 43114, "chainName": "c_chain", "blockchainId": "b", "subnetId": "s", "network": "mainnet"});
        assert_eq!(to_batch(Resource::MetricsChain, &[chain]).unwrap().num_columns(), 5);
        let row = json!({"srcBlockchainId": "a", "lastHour": 1, "allTime": 9});
        let b = to_batch(Resource::IcmSummary, &[row]).unwrap();
        assert!(b.column_by_name("destBlockchainId").unwrap().is_null(0));
    }

    #[test]
    fn rewards_and_vertices() {
        let reward = json!({"addresses": ["avax1a", "avax1b"], "txHash": "t", "amountStaked": "2000000000000", "nodeId": "NodeID-x",
            "startTimestamp": 1, "endTimestamp": 2, "rewardType": "VALIDATOR_FEE_NEW", "progress": 0.5,
            "estimatedReward": {"assetId": "a", "name": "Avax", "symbol": "AVAX", "denomination": 9, "type": "secp256k1", "amount": "123"}});
        let batch = to_batch(Resource::PendingReward, &[reward]).unwrap();
        assert_eq!(batch.column_by_name("addresses").unwrap().as_list::<i32>().value(0).len(), 2);
        let vertex = json!({"vertexHash": "v", "parentHashes": [], "vertexHeight": 1, "vertexIndex": 2, "vertexTimestamp": 3, "txCount": 0, "transactions": [], "vertexSizeBytes": 10});
        assert_eq!(to_batch(Resource::Vertex, &[vertex]).unwrap().num_rows(), 1);
        assert_eq!(to_batch(Resource::Vertex, &[]).unwrap().num_rows(), 0);
    }
}
