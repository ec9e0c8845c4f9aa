//! The resources of the Data and Metrics APIs that have a frame schema, one enum over both
//! services' tables, and their items as Arrow record batches.

use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};

use super::json::{fields, Col};
use super::json_columns::{objects_to_batch, BatchBuilder, JsonText};
use super::{data, metrics};
use crate::rest::openapi::{list_identity, operations, Operation};

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
    /// The items of a list operation of the OpenAPI documents (its place in
    /// [`crate::rest::openapi::operations`]), typed by the schema rule.
    Listed(u16),
}

impl Resource {
    /// Its columns.
    pub fn columns(self) -> &'static [Col] {
        match self {
            Resource::Block => data::BLOCK,
            Resource::Collectible => data::COLLECTIBLE,
            Resource::PendingReward => data::PENDING_REWARD,
            Resource::Vertex => data::VERTEX,
            Resource::IcmMessage => data::ICM_MESSAGE,
            Resource::MetricValue => metrics::METRIC_VALUE,
            Resource::MetricsChain => metrics::METRICS_CHAIN,
            Resource::IcmSummary => metrics::ICM_SUMMARY,
            Resource::Listed(i) => operations().get(usize::from(i)).and_then(|op| op.item_columns()).unwrap_or(&[]),
        }
    }

    /// The hand-written table of an operation whose method is written by hand (`blocks()`,
    /// `metric()`, ...), by operationId.
    pub fn of_hand_operation(id: &str) -> Option<Resource> {
        Some(match id {
            "getLatestBlocks" | "listLatestBlocksAllChains" => Resource::Block,
            "listCollectibleBalances" => Resource::Collectible,
            "listPendingPrimaryNetworkRewards" => Resource::PendingReward,
            "listLatestXChainVertices" => Resource::Vertex,
            "listIcmMessages" => Resource::IcmMessage,
            "getEvmChainMetrics" => Resource::MetricValue,
            "listChains" => Resource::MetricsChain,
            "getICMSummary" => Resource::IcmSummary,
            _ => return None,
        })
    }

    /// The columns a user gets from an operation: its frame's (the hand-written table, or the
    /// list items' by the schema rule), or for an object answer the typed fields of its dict.
    pub fn operation_columns(op: &Operation) -> Option<&'static [Col]> {
        match Resource::of_hand_operation(op.id) {
            Some(hand) => Some(hand.columns()),
            None if op.is_list() => op.item_columns(),
            None => op.answer_columns(),
        }
    }

    /// The resource of a list operation's items.
    pub fn of_operation(op: &Operation) -> Resource {
        Resource::Listed(op.index() as u16)
    }

    /// What tells its items apart in a list (the pagers drop a shifted page's repeats by it,
    /// [`crate::paging::repeats`]): the id field and the sort key of the hand-written
    /// newest-first lists, and for a generated list operation its entry in the one table of
    /// them ([`crate::rest::openapi::LIST_IDENTITIES`]). `None` for a resource whose items have
    /// no known id (those lists are walked as served).
    pub fn identity(self) -> Option<crate::paging::Identity> {
        use crate::paging::Identity;
        match self {
            Resource::Block => Some(Identity { id: "blockHash", key: Some("blockNumber") }),
            Resource::Vertex => Some(Identity { id: "vertexHash", key: Some("vertexTimestamp") }),
            Resource::IcmMessage => Some(Identity { id: "messageId", key: None }),
            Resource::Listed(i) => operations().get(usize::from(i)).and_then(|op| list_identity(op.id)),
            _ => None,
        }
    }

    /// Its Arrow schema.
    pub fn schema(self) -> SchemaRef {
        use std::sync::OnceLock;
        const HAND: usize = 8;
        static SCHEMAS: [OnceLock<SchemaRef>; HAND] = [const { OnceLock::new() }; HAND];
        static LISTED: OnceLock<Vec<OnceLock<SchemaRef>>> = OnceLock::new();
        let cell = match self {
            Resource::Listed(i) => {
                let cells = LISTED.get_or_init(|| operations().iter().map(|_| OnceLock::new()).collect());
                match cells.get(usize::from(i)) {
                    Some(cell) => cell,
                    None => return Arc::new(Schema::empty()),
                }
            }
            Resource::Block => &SCHEMAS[0],
            Resource::Collectible => &SCHEMAS[1],
            Resource::PendingReward => &SCHEMAS[2],
            Resource::Vertex => &SCHEMAS[3],
            Resource::IcmMessage => &SCHEMAS[4],
            Resource::MetricValue => &SCHEMAS[5],
            Resource::MetricsChain => &SCHEMAS[6],
            Resource::IcmSummary => &SCHEMAS[7],
        };
        cell.get_or_init(|| Arc::new(Schema::new(fields(self.columns())))).clone()
    }
}

/// Items of one resource as a record batch. Fails (naming the field and value) on a value that
/// cannot be stored without loss, e.g. a decimal with more than 38 digits.
pub fn to_batch<T: JsonText>(resource: Resource, items: &[T]) -> Result<RecordBatch, String> {
    objects_to_batch(resource.columns(), resource.schema(), items)
}

/// An empty [`BatchBuilder`] of `resource`'s items (room for `capacity` rows at first): pages
/// appended one after another into the same columns.
pub fn batch_builder(resource: Resource, capacity: usize) -> BatchBuilder {
    BatchBuilder::new(resource.columns(), resource.schema(), capacity)
}
