//! One X-Chain vertex by hash or by height, from the same vertices `listLatestXChainVertices`
//! lists ([`super::vertices`]: vertex `i` of a network has height `i`):
//! - `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}` (404 when the
//!   world holds none);
//! - `GET .../vertices:listByHeight?vertexHeight=h`: the vertices at height `h` (one, or none
//!   past the newest), paged.
//!
//! These are not the `X/vtx` index's containers: the emulator's `X/vtx` holds random bytes with
//! sha256 ids (no vertex format), so the Data API's vertices stay its own deterministic list.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::{Path, State};
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::paging;
use super::params::Params;
use super::xchain_txs::x_chain_network;
use super::DataApiState;
use crate::world::{DataWorld, Network};

/// The height of the vertex `hash` of `network` (a map built once per world and network).
fn height_of(world: &DataWorld, network: Network, hash: &str) -> Option<u64> {
    type Kept = Mutex<HashMap<(u64, u64, Network), Arc<HashMap<String, u64>>>>;
    static KEPT: OnceLock<Kept> = OnceLock::new();
    let key = (world.seed(), world.vertex_count(), network);
    let kept = KEPT.get_or_init(Default::default);
    let found = kept.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
    let map = found.unwrap_or_else(|| {
        let built: Arc<HashMap<String, u64>> = Arc::new(
            (0..world.vertex_count()).filter_map(|i| world.vertex(network, i)).map(|v| (v.hash, v.index)).collect(),
        );
        kept.lock().unwrap_or_else(|e| e.into_inner()).entry(key).or_insert(built).clone()
    });
    map.get(hash).copied()
}

pub(crate) async fn by_hash(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id, vertex_hash)): Path<(String, String, String)>,
    mut params: Params,
) -> Answer {
    let net = x_chain_network(&mut params, &network, &blockchain_id);
    params.finish()?;
    let net = net.expect("checked");
    let world = &data.world;
    height_of(world, net, &vertex_hash)
        .and_then(|i| world.vertex(net, i))
        .map(|v| errors::ok(v.to_json()))
        .ok_or_else(|| errors::not_found(format!("Vertex {vertex_hash} not found on x-chain")))
}

pub(crate) async fn by_height(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let net = x_chain_network(&mut params, &network, &blockchain_id);
    let size = params.page_size(100);
    params.one_of("sortOrder", &["asc", "desc"]);
    let height = match params.get("vertexHeight").map(|t| t.trim().parse::<u64>()) {
        Some(Ok(h)) => Some(h),
        _ => {
            params.problem("vertexHeight must not be less than 0".to_string());
            params.problem("vertexHeight must be an integer number".to_string());
            None
        }
    };
    params.finish()?;
    let (net, height) = (net.expect("checked"), height.expect("checked"));
    let found: Vec<Value> = data.world.vertex(net, height).map(|v| v.to_json()).into_iter().collect();
    let fingerprint = params.fingerprint(&format!("vertices-at/{}", net.as_str()));
    let start = paging::start(&data, &params, &fingerprint)?;
    let (page, next) = paging::slice(&data, &found, start, size, &fingerprint);
    let body = json!({"vertices": page, "chainInfo": {"chainName": "x-chain", "network": net.as_str()}});
    paging::with_next(body, next)
}
