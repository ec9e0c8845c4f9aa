//! What tells the items of each generated list operation apart: one table, written from the
//! OpenAPI documents (`spec/openapi/`), each entry naming fields that every variant of the
//! operation's item schema requires (the test below checks it against the documents). The
//! pagers drop a shifted page's leading repeats by it ([`crate::paging::repeats`]), exactly as
//! for the hand-written lists ([`crate::arrow::Resource::identity`]).
//!
//! A list whose items have no field (or pair of fields) naming one item is absent and walked as
//! served: `listInternalTransactions` (a transaction's internal calls share its hash and carry
//! no index), `listErc1155Transactions` (a `TransferBatch` log moves several ids: its items share
//! the hash and the log's index, and the id is inside `erc1155Token`, so a pair of fields would
//! take the batch's items for repeats and drop them), `listTransactions`/`listTransactionsV2`
//! (the hash is inside `nativeTransaction`),
//! `getAddressesFromWebhook` (plain strings), the Metrics API's time series (a point is its
//! timestamp within a walk cut into windows) and `getValidatorsByDateRange` (its id is a list).

use crate::paging::Identity;

const fn id(id: &'static str) -> Identity {
    Identity { id, key: None }
}

const fn pair(id: &'static str, key: &'static str) -> Identity {
    Identity { id, key: Some(key) }
}

const BLOCK: Identity = pair("blockHash", "blockNumber");
const VERTEX: Identity = pair("vertexHash", "vertexTimestamp");
const TX: Identity = id("txHash");
/// A transfer, an event log of its transaction: the hash and the log's index.
const TRANSFER: Identity = pair("txHash", "logIndex");
/// A token of a contract (an NFT or an ERC-1155 token).
const TOKEN: Identity = pair("tokenId", "address");
/// A validation or delegation: the transaction that made it, and the node.
const STAKE: Identity = pair("txHash", "nodeId");

/// Each list operation with an identity: its `operationId` and the fields of one item that
/// name it.
pub const LIST_IDENTITIES: &[(&str, Identity)] = &[
    // Data API, EVM chains
    ("listLatestBlocksAllChains", BLOCK),
    ("getLatestBlocks", BLOCK),
    ("listLatestTransactionsAllChains", pair("txHash", "chainId")),
    ("listLatestTransactions", TX),
    ("listNativeTransactions", TX),
    ("getTransactionsForBlock", TX),
    ("listTransfers", TRANSFER),
    ("listErc20Transactions", TRANSFER),
    ("listErc721Transactions", TRANSFER),
    ("listContractDeployments", id("address")),
    ("listTokens", TOKEN),
    ("listErc20Balances", id("address")),
    ("listErc721Balances", TOKEN),
    ("listErc1155Balances", TOKEN),
    ("listCollectibleBalances", TOKEN),
    // Data API, primary network
    ("listLatestPrimaryNetworkBlocks", BLOCK),
    ("listPrimaryNetworkBlocksByNodeId", BLOCK),
    ("listLatestXChainVertices", VERTEX),
    ("getVertexByHeight", VERTEX),
    ("listLatestPrimaryNetworkTransactions", TX),
    ("listActivePrimaryNetworkStakingTransactions", TX),
    ("listAssetTransactions", TX),
    ("listPendingPrimaryNetworkRewards", STAKE),
    ("listHistoricalPrimaryNetworkRewards", id("utxoId")),
    ("getUtxosByAddresses", id("utxoId")),
    ("listBlockchains", id("blockchainId")),
    ("listSubnets", id("subnetId")),
    ("listValidators", STAKE),
    ("getSingleValidatorDetails", STAKE),
    ("listDelegators", STAKE),
    ("listL1Validators", id("validationId")),
    // Data API, ICM and the account's own lists
    ("listIcmMessages", id("messageId")),
    ("listIcmMessagesByAddress", id("messageId")),
    ("getApiLogs", id("logId")),
    ("listWebhooks", id("id")),
    // Metrics API
    ("listChains", id("blockchainId")),
    ("getAddressesByBtcbBridged", id("address")),
];

/// The identity of the items of the list operation `operation_id`, if it has one.
pub fn list_identity(operation_id: &str) -> Option<Identity> {
    LIST_IDENTITIES.iter().find(|(op, _)| *op == operation_id).map(|(_, identity)| *identity)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;

    use super::super::{operation, operations, Service};
    use super::*;

    /// The fields every object of `schema` holds: its required properties (through `allOf`
    /// parts), and for a union those every member requires.
    fn required(service: Service, schema: &'static Value) -> BTreeSet<String> {
        let schema = service.resolve(schema);
        if let Some(members) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
            let mut sets = members.iter().map(|m| required(service, m));
            let first = sets.next().unwrap_or_default();
            return sets.fold(first, |all, set| all.intersection(&set).cloned().collect());
        }
        let mut out: BTreeSet<String> = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|name| name.as_str().map(str::to_string))
            .filter(|name| schema.get("properties").is_some_and(|p| p.get(name).is_some()))
            .collect();
        for part in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            out.extend(required(service, part));
        }
        out
    }

    #[test]
    fn each_entry_names_fields_every_item_of_its_operation_requires() {
        let mut ids = BTreeSet::new();
        for (op_id, identity) in LIST_IDENTITIES {
            assert!(ids.insert(*op_id), "{op_id} is in the table twice");
            let op = operation(op_id).unwrap_or_else(|| panic!("{op_id} is no operation of the documents"));
            assert!(op.is_list() && op.token_paged, "{op_id} is not a token-paged list");
            let variants = op.item_schemas();
            assert!(!variants.is_empty(), "{op_id} has no item schema");
            for variant in variants {
                let fields = required(op.service, variant);
                for field in [Some(identity.id), identity.key].into_iter().flatten() {
                    assert!(
                        fields.contains(field),
                        "{op_id}: an item need not hold {field:?} (it requires {fields:?})"
                    );
                }
            }
            assert_eq!(list_identity(op_id), Some(*identity));
        }
        // the lists left out are named in the module's documentation, and no other is
        let left_out: BTreeSet<&str> = operations()
            .iter()
            .filter(|op| op.is_list() && op.token_paged && !ids.contains(op.id))
            .map(|op| op.id)
            .collect();
        let documented = [
            "listInternalTransactions",
            "listErc1155Transactions",
            "listTransactions",
            "listTransactionsV2",
            "getEvmChainMetrics",
            "getICMTimeseries",
            "getStakingMetrics",
            "getValidatorsByDateRange",
        ];
        assert_eq!(left_out, documented.into_iter().collect(), "a list operation is neither in the table nor named");
        assert_eq!(list_identity("getBlock"), None);
    }
}
