//! Arrow schemas of the Data API resources: each described once as a tree of [`Col`]s for the
//! shared JSON -> Arrow builder ([`super::json`]).

use super::json::{Col, Kind::*, EXTRA};

/// `EvmBlock`.
pub const BLOCK: &[Col] = &[
    Col("chainId", Str),
    Col("blockNumber", U64Str),
    Col("blockTimestamp", TsSec),
    Col("blockTimestampMilliseconds", TsMs),
    Col("blockMinDelayExcess", U64Str),
    Col("blockHash", Str),
    Col("txCount", U64Str),
    Col("baseFee", Dec),
    Col("gasUsed", Dec),
    Col("gasLimit", Dec),
    Col("gasCost", Dec),
    Col("parentHash", Str),
    Col("feesSpent", Dec),
    Col("cumulativeTransactions", U64Str),
    EXTRA,
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
    Col("decimals", U64Str),
    Col("properties", Str),
];

/// ERC-721 and ERC-1155 balances in one frame (`balance` null for ERC-721; `tokenId` and
/// `balance` are uint256: exact decimal text, the balance with its `Float64` companion).
pub const COLLECTIBLE: &[Col] = &[
    Col("address", Str),
    Col("name", Str),
    Col("symbol", Str),
    Col("ercType", Str),
    Col("tokenId", U256),
    Col("tokenUri", Str),
    Col("metadata", Struct(NFT_METADATA)),
    Col("ownerAddress", Str),
    Col("chainId", Str),
    Col("balance", U256),
    Col("balanceFloat", U256Float),
    EXTRA,
];

const ASSET_AMOUNT: &[Col] = &[
    Col("assetId", Str),
    Col("name", Str),
    Col("symbol", Str),
    Col("denomination", U64Str),
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
    EXTRA,
];

/// `XChainVertex`.
pub const VERTEX: &[Col] = &[
    Col("vertexHash", Str),
    Col("parentHashes", StrList),
    Col("vertexHeight", U64Str),
    Col("vertexIndex", U64Str),
    Col("vertexTimestamp", TsSec),
    Col("txCount", U64Str),
    Col("transactions", StrList),
    Col("vertexSizeBytes", U64Str),
    EXTRA,
];

const RECEIPT: &[Col] = &[Col("receivedMessageNonce", Dec), Col("relayerRewardAddress", Str)];
const PRICE: &[Col] = &[Col("currencyCode", Str), Col("value", Float)];
const REWARD_DETAILS: &[Col] = &[
    Col("address", Str),
    Col("name", Str),
    Col("symbol", Str),
    Col("decimals", U64Str),
    Col("logoUri", Str),
    Col("ercType", Str),
    Col("price", Struct(PRICE)),
    Col("value", U256),
    Col("valueFloat", U256Float),
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
    EXTRA,
];

#[cfg(test)]
mod tests {
    use crate::arrow::{to_batch, Resource};
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Decimal128Type, Float64Type, TimestampNanosecondType, UInt64Type};
    use arrow_array::Array;
    use serde_json::json;
    use serde_json::Value;

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
        let balance = batch.column_by_name("balance").unwrap().as_string_view();
        assert!(balance.is_null(0));
        assert_eq!(balance.value(1), "100000000000000000000000");
        let float = batch.column_by_name("balanceFloat").unwrap().as_primitive::<Float64Type>();
        assert!(float.is_null(0));
        assert_eq!(float.value(1), 1e23);
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
    fn rewards_and_vertices() {
        let reward = json!({"addresses": ["avax1a", "avax1b"], "txHash": "t", "amountStaked": "2000000000000", "nodeId": "NodeID-x",
            "startTimestamp": 1, "endTimestamp": 2, "rewardType": "VALIDATOR_FEE_NEW", "progress": 0.5,
            "estimatedReward": {"assetId": "a", "name": "Avax", "symbol": "AVAX", "denomination": 9, "type": "secp256k1", "amount": "123"}});
        let batch = to_batch(Resource::PendingReward, &[reward]).unwrap();
        assert_eq!(batch.column_by_name("addresses").unwrap().as_list::<i32>().value(0).len(), 2);
        let vertex = json!({"vertexHash": "v", "parentHashes": [], "vertexHeight": 1, "vertexIndex": 2, "vertexTimestamp": 3, "txCount": 0, "transactions": [], "vertexSizeBytes": 10});
        assert_eq!(to_batch(Resource::Vertex, &[vertex]).unwrap().num_rows(), 1);
        assert_eq!(to_batch::<serde_json::Value>(Resource::Vertex, &[]).unwrap().num_rows(), 0);
    }
}
