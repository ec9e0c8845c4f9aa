//! `GET /v1/networks/{network}/rewards:listPending`: the world's pending rewards
//! ([`crate::world::rewards`]).
//!
//! Filters: `addresses` (comma-separated, `P-`/`X-` prefix optional, the network's `avax1`/`fuji1`
//! prefix required) and `nodeIds`; at least one is required, and when both are given a reward
//! must match both. `sortOrder` (`asc` by default) sorts by `startTimestamp`, ties by `txHash`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;

use super::errors::{self, Answer};
use super::paging;
use super::params::{path_network, Params};
use super::DataApiState;
use crate::world::rewards::PendingReward;
use crate::world::Network;

/// The `addresses` query parameter: P-addresses of `network` (`P-` or `X-` optional, given
/// back bare); a 400 naming the first that is none.
pub(crate) fn p_addresses(params: &Params, network: Network) -> Result<Vec<String>, Response> {
    let mut wanted = Vec::new();
    for a in params.list("addresses") {
        let bare = a.strip_prefix("P-").or_else(|| a.strip_prefix("X-")).unwrap_or(&a);
        if !bare.starts_with(&format!("{}1", network.hrp())) || bare.len() < 10 {
            return Err(errors::bad_request(format!(
                "Invalid address {a}: expected an address starting with {hrp}1, P-{hrp}1 or X-{hrp}1",
                hrp = network.hrp()
            )));
        }
        wanted.push(bare.to_string());
    }
    Ok(wanted)
}

/// The reward lists' filters: `(addresses, nodeIds)` ([`p_addresses`]; a node id must read
/// `NodeID-...`, else a 400 naming it).
pub(crate) fn reward_filters(params: &Params, network: Network) -> Result<(Vec<String>, Vec<String>), Response> {
    let addresses = p_addresses(params, network)?;
    let node_ids = params.list("nodeIds");
    if let Some(bad) = node_ids.iter().find(|n| !n.starts_with("NodeID-")) {
        return Err(errors::bad_request(format!("Invalid nodeId {bad}: expected NodeID-...")));
    }
    Ok((addresses, node_ids))
}

pub(crate) async fn list_pending(
    State(data): State<Arc<DataApiState>>,
    Path(network): Path<String>,
    mut params: Params,
) -> Answer {
    let network_parsed = path_network(&mut params, &network);
    let size = params.page_size(100);
    let order = params.one_of("sortOrder", &["asc", "desc"]);
    params.finish()?;
    let network = network_parsed.expect("checked");
    let (wanted, node_ids) = reward_filters(&params, network)?;
    if wanted.is_empty() && node_ids.is_empty() {
        return Err(errors::bad_request("One of addresses or nodeIds is required"));
    }
    let fingerprint = params.fingerprint(&format!("rewards/{}", network.as_str()));
    let start = paging::start(&data, &params, &fingerprint)?;
    let mut items: Vec<&PendingReward> = data
        .world
        .pending_rewards(network)
        .iter()
        .filter(|r| wanted.is_empty() || r.addresses.iter().any(|a| wanted.contains(a)))
        .filter(|r| node_ids.is_empty() || node_ids.contains(&r.node_id))
        .collect();
    items.sort_by(|a, b| {
        (a.start, &a.tx_hash, a.reward_type.as_str()).cmp(&(b.start, &b.tx_hash, b.reward_type.as_str()))
    });
    if order.as_deref() == Some("desc") {
        items.reverse();
    }
    paging::list_page(&data, "pendingRewards", &items, (start, size), &fingerprint, |r| r.to_json())
}
