//! `GET /v2/icm/summary`: rolling-window counts of the Data API's ICM messages
//! ([`DataWorld::icm_messages`], the same list `/v1/icm/messages` serves).
//!
//! - A message counts by its **source send time** (`source_timestamp_ms`, the source block's
//!   time). Windows end at the world's "now" ([`WORLD_NOW_MS`], 2026-01-01T00:00:00Z) and hold the
//!   messages sent at or after `now - window`: `lastHour` 1 h, `lastDay` 24 h, `lastWeek` 7 days,
//!   `lastMonth` 30 days, `last90Days`, `lastYear` 365 days; `allTime` every message.
//! - Filters: `srcBlockchainId`, `destBlockchainId` (a CB58 blockchain id; an EVM chain id of the
//!   world is accepted too; a well-formed id of no chain matches nothing; other text: 400),
//!   `network` (`mainnet`, `fuji`, `testnet`; fuji = testnet).
//! - `groupBy` absent: `result` is **one object** with the counts; its `srcBlockchainId` /
//!   `destBlockchainId` are the filter values, or `all` for an unfiltered side.
//! - `groupBy` = `srcBlockchainId`, `destBlockchainId` or `srcBlockchainId,destBlockchainId`:
//!   `result` is a **list** of such objects, one per group that has at least one message, sorted
//!   by (srcBlockchainId, destBlockchainId); a side not grouped reads as above (filter or `all`).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::response::Response;
use serde_json::{json, Value};

use super::errors::{self, Answer};
use crate::data_api::params::Params;
use crate::data_api::DataApiState;
use crate::world::{chain, find_chain, DataWorld, Network, WORLD_NOW_MS};
use avax_data_core::index::cb58;

/// The label of a side neither filtered nor grouped.
pub const ALL: &str = "all";

/// Window names and lengths (ms); `allTime` is last and unbounded.
pub const WINDOWS: [(&str, i64); 6] = [
    ("lastHour", 3_600_000),
    ("lastDay", 86_400_000),
    ("lastWeek", 7 * 86_400_000),
    ("lastMonth", 30 * 86_400_000),
    ("last90Days", 90 * 86_400_000),
    ("lastYear", 365 * 86_400_000),
];

/// `groupBy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    Src,
    Dest,
    Both,
}

impl GroupBy {
    pub fn parse(text: &str) -> Option<GroupBy> {
        match text {
            "srcBlockchainId" => Some(GroupBy::Src),
            "destBlockchainId" => Some(GroupBy::Dest),
            "srcBlockchainId,destBlockchainId" => Some(GroupBy::Both),
            _ => None,
        }
    }
}

/// The query of an ICM summary (blockchain ids are CB58).
#[derive(Debug, Clone, Default)]
pub struct IcmSummaryFilter {
    pub src_blockchain_id: Option<String>,
    pub dest_blockchain_id: Option<String>,
    pub network: Option<Network>,
    pub group_by: Option<GroupBy>,
}

/// One result object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IcmCounts {
    pub src_blockchain_id: String,
    pub dest_blockchain_id: String,
    /// lastHour, lastDay, lastWeek, lastMonth, last90Days, lastYear (as [`WINDOWS`]).
    pub windows: [u64; 6],
    pub all_time: u64,
}

impl IcmCounts {
    /// `ICMRollingWindowMetricsValue` JSON.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "srcBlockchainId": self.src_blockchain_id,
            "destBlockchainId": self.dest_blockchain_id,
            "allTime": self.all_time,
        });
        for ((name, _), n) in WINDOWS.iter().zip(self.windows) {
            v[*name] = json!(n);
        }
        v
    }
}

/// The summary: without `group_by` exactly one [`IcmCounts`] (zeros when nothing matches); with
/// it one per group holding messages, sorted by (src, dest).
pub fn icm_summary(world: &DataWorld, filter: &IcmSummaryFilter) -> Vec<IcmCounts> {
    let side = |f: &Option<String>| f.clone().unwrap_or_else(|| ALL.to_string());
    let mut groups: BTreeMap<(String, String), IcmCounts> = BTreeMap::new();
    if filter.group_by.is_none() {
        let key = (side(&filter.src_blockchain_id), side(&filter.dest_blockchain_id));
        groups.insert(
            key.clone(),
            IcmCounts { src_blockchain_id: key.0, dest_blockchain_id: key.1, windows: [0; 6], all_time: 0 },
        );
    }
    for m in world.icm_messages() {
        let (Some(src), Some(dst)) = (chain(m.source_evm_chain_id), chain(m.destination_evm_chain_id)) else {
            continue;
        };
        if filter.network.is_some_and(|n| n != m.network)
            || filter.src_blockchain_id.as_ref().is_some_and(|s| *s != src.blockchain_id)
            || filter.dest_blockchain_id.as_ref().is_some_and(|d| *d != dst.blockchain_id)
        {
            continue;
        }
        let s = match filter.group_by {
            Some(GroupBy::Src | GroupBy::Both) => src.blockchain_id.clone(),
            _ => side(&filter.src_blockchain_id),
        };
        let d = match filter.group_by {
            Some(GroupBy::Dest | GroupBy::Both) => dst.blockchain_id.clone(),
            _ => side(&filter.dest_blockchain_id),
        };
        let entry = groups.entry((s.clone(), d.clone())).or_insert_with(|| IcmCounts {
            src_blockchain_id: s,
            dest_blockchain_id: d,
            windows: [0; 6],
            all_time: 0,
        });
        entry.all_time += 1;
        for (i, (_, len)) in WINDOWS.iter().enumerate() {
            if m.source_timestamp_ms >= WORLD_NOW_MS - len {
                entry.windows[i] += 1;
            }
        }
    }
    groups.into_values().collect()
}

/// A blockchain filter value as a CB58 blockchain id: the chain's id for a CB58 or EVM id of the
/// world, the text itself for a well-formed id of no chain (matches nothing), else the 400.
fn blockchain_filter(params: &Params, name: &str) -> Result<Option<String>, Response> {
    let Some(value) = params.get(name) else {
        return Ok(None);
    };
    if let Some(c) = find_chain(value) {
        return Ok(Some(c.blockchain_id.clone()));
    }
    if value.bytes().all(|b| b.is_ascii_digit()) || cb58::decode_id(value).is_ok() {
        return Ok(Some(format!("unknown:{value}")));
    }
    Err(errors::bad_request(format!("Invalid {name} {value:?}: expected a base58 blockchain id")))
}

pub(crate) async fn summary(State(state): State<Arc<DataApiState>>, mut params: Params) -> Answer {
    let network = params.network();
    let group_by = params
        .one_of("groupBy", &["srcBlockchainId", "destBlockchainId", "srcBlockchainId,destBlockchainId"])
        .and_then(|g| GroupBy::parse(&g));
    params.finish()?;
    let src = blockchain_filter(&params, "srcBlockchainId")?;
    let dest = blockchain_filter(&params, "destBlockchainId")?;
    // Echo unknown ids as given.
    let echo = |v: Option<String>| v.map(|s| s.strip_prefix("unknown:").map(str::to_string).unwrap_or(s));
    let filter = IcmSummaryFilter { src_blockchain_id: src, dest_blockchain_id: dest, network, group_by };
    let counts = icm_summary(&state.world, &filter);
    let fix = |c: &IcmCounts| {
        let mut c = c.clone();
        c.src_blockchain_id = echo(Some(c.src_blockchain_id)).unwrap_or_default();
        c.dest_blockchain_id = echo(Some(c.dest_blockchain_id)).unwrap_or_default();
        c.to_json()
    };
    let result = if group_by.is_some() {
        Value::from(counts.iter().map(fix).collect::<Vec<_>>())
    } else {
        counts.first().map(fix).unwrap_or(Value::Null)
    };
    Ok(errors::ok(json!({ "result": result })))
}
