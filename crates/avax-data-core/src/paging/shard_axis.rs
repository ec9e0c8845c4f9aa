//! What a ranged list of the hosted services is cut along when it is walked in shards
//! (`paging::block_shards`): blocks (`startBlock`/`endBlock`) or seconds
//! (`startTimestamp`/`endTimestamp`), which lists take which, where an item stands on the axis,
//! and how far back a walk without a start goes ([`Axis::earliest`]).
//!
//! - Blocks: `startBlock` is inclusive and `endBlock` exclusive (the Data API's document,
//!   `spec/ground-truth.md`); an item's block is its `blockNumber` (or its
//!   `nativeTransaction`'s).
//! - Seconds: the documents say only "items after" / "before a specific timestamp". The Metrics
//!   API counts `endTimestamp` in (observed, `spec/ground-truth.md`), the emulator counts both
//!   ends in on both services; a walk reads the request's `endTimestamp` as the newest second it
//!   may hold. At an edge the walk cut, a shard asks one second past each of its ends
//!   ([`Axis::reach`]) and keeps only the items of its own seconds, so the shards are disjoint and
//!   cover the window whichever way the service counts its ends. An item's second is its
//!   `blockTimestamp` (P-Chain transactions, primary-network blocks) or `timestamp` (X-Chain and
//!   atomic transactions, metric points), Unix seconds.

use super::JsonItem;

/// The list operations that take a block range (`startBlock` inclusive, `endBlock` exclusive).
pub const BLOCK_RANGED: [&str; 8] = [
    "listTransactions",
    "listTransactionsV2",
    "listNativeTransactions",
    "listErc20Transactions",
    "listErc721Transactions",
    "listErc1155Transactions",
    "listInternalTransactions",
    "listTransfers",
];

/// The list operations walked in shards of seconds (`startTimestamp`/`endTimestamp`), newest
/// first. `getValidatorsByDateRange` takes a window too but is not among them: its items (the
/// addresses of the validators of the window) carry no second of their own, so a cut window
/// would hand out an address once per shard it validated in ([`UNCUT_WINDOWS`]).
pub const TIME_WINDOWED: [&str; 7] = [
    "listLatestPrimaryNetworkTransactions",
    "listActivePrimaryNetworkStakingTransactions",
    "listLatestPrimaryNetworkBlocks",
    "listPrimaryNetworkBlocksByNodeId",
    "listAssetTransactions",
    "getICMTimeseries",
    "getStakingMetrics",
];

/// The lists with a time window that are walked in sequence, and why.
pub const UNCUT_WINDOWS: [(&str, &str); 1] = [(
    "getValidatorsByDateRange",
    "its items (validators' addresses) carry no time of their own to cut its window at: an address \
     validating in two shards would come twice",
)];

/// The primary network's genesis, 2020-09-10 00:00:00 UTC in Unix seconds: the earliest second
/// of every list cut in seconds, on Mainnet and Fuji. Sources: the Data API's answers recorded
/// in `tests/fixtures/real/` (`data_blockchain_p_chain.json`: the P-, X- and C-Chain's
/// `createBlockTimestamp`; `data_asset_fuji_*.json`: AVAX on Fuji created at the same second),
/// `spec/ground-truth.md`.
pub const PRIMARY_NETWORK_GENESIS: u64 = 1_599_696_000;

/// The earliest second of each list cut in seconds (where a walk without `startTimestamp`
/// stops): every one of them lists what the primary network or its chains did, so none starts
/// before the network's genesis.
pub const EARLIEST_SECOND: [(&str, u64); 7] = [
    ("listLatestPrimaryNetworkTransactions", PRIMARY_NETWORK_GENESIS),
    ("listActivePrimaryNetworkStakingTransactions", PRIMARY_NETWORK_GENESIS),
    ("listLatestPrimaryNetworkBlocks", PRIMARY_NETWORK_GENESIS),
    ("listPrimaryNetworkBlocksByNodeId", PRIMARY_NETWORK_GENESIS),
    ("listAssetTransactions", PRIMARY_NETWORK_GENESIS),
    ("getICMTimeseries", PRIMARY_NETWORK_GENESIS),
    ("getStakingMetrics", PRIMARY_NETWORK_GENESIS),
];

/// What a ranged list is cut along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Block numbers (`startBlock` inclusive, `endBlock` exclusive).
    Blocks,
    /// Unix seconds (`startTimestamp`, `endTimestamp` read as the newest second), from `earliest`.
    Seconds {
        /// The operation's earliest second ([`EARLIEST_SECOND`]).
        earliest: u64,
    },
}

impl Axis {
    /// The axis the list `operation_id` is cut along, if it is walked in shards.
    pub fn of(operation_id: &str) -> Option<Axis> {
        if BLOCK_RANGED.contains(&operation_id) {
            return Some(Axis::Blocks);
        }
        EARLIEST_SECOND
            .iter()
            .find(|(op, _)| *op == operation_id)
            .map(|(_, earliest)| Axis::Seconds { earliest: *earliest })
    }

    /// The request's start and end parameters.
    pub fn params(self) -> [&'static str; 2] {
        match self {
            Axis::Blocks => ["startBlock", "endBlock"],
            Axis::Seconds { .. } => ["startTimestamp", "endTimestamp"],
        }
    }

    /// Where a walk without a start stops: block 0, or the operation's earliest second.
    pub fn earliest(self) -> u64 {
        match self {
            Axis::Blocks => 0,
            Axis::Seconds { earliest } => earliest,
        }
    }

    /// Whether the request's end parameter names the newest position it holds (seconds), rather
    /// than the one past it (`endBlock`, exclusive).
    pub fn end_counted(self) -> bool {
        matches!(self, Axis::Seconds { .. })
    }

    /// How far past a cut edge a shard's request reaches (its items there are not kept): 0 for
    /// blocks (the document's ends are trusted), 1 second for windows (whose ends the documents
    /// leave open).
    pub fn reach(self) -> u64 {
        match self {
            Axis::Blocks => 0,
            Axis::Seconds { .. } => 1,
        }
    }

    /// The axis's positions in prose ("blocks", "seconds").
    pub fn noun(self) -> &'static str {
        match self {
            Axis::Blocks => "blocks",
            Axis::Seconds { .. } => "seconds",
        }
    }

    /// Where `item` stands on the axis: its block, or its second.
    pub fn position(self, item: &JsonItem) -> Option<u64> {
        match self {
            Axis::Blocks => block_of(item),
            Axis::Seconds { .. } => second_of(item),
        }
    }
}

/// The second of an item of a list cut in seconds: its `blockTimestamp`, else its `timestamp`
/// (Unix seconds, a number or text).
pub fn second_of(item: &JsonItem) -> Option<u64> {
    let [block, own] = item.fields(["blockTimestamp", "timestamp"]);
    block.and_then(number).or_else(|| own.and_then(number))
}

/// The block number of an item of a block-ranged list: its `blockNumber` (text or number), else
/// that of its `nativeTransaction` (`listTransactions`).
pub fn block_of(item: &JsonItem) -> Option<u64> {
    let [top, native] = item.fields(["blockNumber", "nativeTransaction"]);
    top.and_then(number).or_else(|| {
        let native = native?;
        let [inner] = super::scan::top_fields(native, ["blockNumber"])?;
        inner.and_then(number)
    })
}

/// A block number or a second given as raw JSON: a whole number, or one as text.
fn number(raw: &str) -> Option<u64> {
    let raw = raw.trim();
    let text = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw).trim();
    text.parse::<u64>()
        .ok()
        .or_else(|| text.parse::<f64>().ok().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_ranged_list_has_one_axis_and_the_uncut_window_none() {
        assert!(BLOCK_RANGED.iter().all(|op| Axis::of(op) == Some(Axis::Blocks)));
        for op in TIME_WINDOWED {
            assert_eq!(Axis::of(op), Some(Axis::Seconds { earliest: PRIMARY_NETWORK_GENESIS }), "{op}");
        }
        assert_eq!(EARLIEST_SECOND.map(|(op, _)| op), TIME_WINDOWED);
        assert_eq!(Axis::of(UNCUT_WINDOWS[0].0), None);
        assert_eq!(Axis::of("listChains"), None);
        assert_eq!(Axis::Seconds { earliest: 5 }.params(), ["startTimestamp", "endTimestamp"]);
    }

    #[test]
    fn an_items_second_is_its_block_timestamp_or_its_timestamp() {
        let item = |t: &str| JsonItem::from_text(t.to_string());
        assert_eq!(second_of(&item(r#"{"txHash":"a","blockTimestamp":1700000000}"#)), Some(1_700_000_000));
        assert_eq!(second_of(&item(r#"{"timestamp":"1700000001"}"#)), Some(1_700_000_001));
        assert_eq!(second_of(&item(r#"{"value":2.5,"timestamp":1700002800.0}"#)), Some(1_700_002_800));
        assert_eq!(second_of(&item(r#"{"value":2.5}"#)), None);
    }
}
