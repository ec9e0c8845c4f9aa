//! X-chain vertices: `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices`, newest
//! first. `blockchainId` is the network's X-chain id or `x-chain`; the other network's id is a 400.
//!
//! Vertex `i` of a network (`0..blocks_per_chain`): CB58 hash of 32 derived bytes, parents = vertex
//! `i - 1` (and `i - 2` for one in four), height = index = `i`, timestamps (seconds) strictly
//! increasing up to just before the world's now (3 s apart on average), 1..8 transactions.

use std::sync::Arc;

use axum::extract::{Path, State};
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::paging;
use super::params::{path_network, Params};
use super::DataApiState;
use crate::world::{derive, digest, range, DataWorld, Network, WORLD_NOW_MS, X_CHAIN_FUJI_ID, X_CHAIN_MAINNET_ID};
use avax_data_core::index::cb58;

/// One X-chain vertex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vertex {
    pub hash: String,
    pub parent_hashes: Vec<String>,
    pub height: u64,
    pub index: u64,
    /// Unix seconds.
    pub timestamp: i64,
    pub transactions: Vec<String>,
    pub size_bytes: u64,
}

impl Vertex {
    /// As `XChainVertex` JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "vertexHash": self.hash,
            "parentHashes": self.parent_hashes,
            "vertexHeight": self.height,
            "vertexIndex": self.index,
            "vertexTimestamp": self.timestamp,
            "txCount": self.transactions.len(),
            "transactions": self.transactions,
            "vertexSizeBytes": self.size_bytes,
        })
    }
}

const P_VTX: u64 = 0x0076_7478;
const GAP_MS: i64 = 3_000;

impl DataWorld {
    /// Number of X-chain vertices per network (= blocks per chain).
    pub fn vertex_count(&self) -> u64 {
        self.blocks_per_chain()
    }

    fn vertex_hash(&self, network: Network, i: u64) -> String {
        cb58::encode(&digest("avax-data vertex", &[self.seed(), network.tag(), i]))
    }

    /// Vertex `i` of `network`'s X-chain; `None` past the newest.
    pub fn vertex(&self, network: Network, i: u64) -> Option<Vertex> {
        if i >= self.vertex_count() {
            return None;
        }
        let d = |p: u64| derive(self.seed(), network.tag(), i, P_VTX + p);
        let mut parent_hashes = Vec::new();
        if i >= 1 {
            parent_hashes.push(self.vertex_hash(network, i - 1));
        }
        if i >= 2 && d(1) % 4 == 0 {
            parent_hashes.push(self.vertex_hash(network, i - 2));
        }
        let tx_count = range(d(2), 1, 8);
        let transactions: Vec<String> = (0..tx_count)
            .map(|k| cb58::encode(&digest("avax-data x tx", &[self.seed(), network.tag(), i, k])))
            .collect();
        let anchor = WORLD_NOW_MS - self.vertex_count() as i64 * GAP_MS;
        let ms = anchor + i as i64 * GAP_MS + (d(3) % (GAP_MS as u64 - 1_000)) as i64;
        Some(Vertex {
            hash: self.vertex_hash(network, i),
            parent_hashes,
            height: i,
            index: i,
            timestamp: ms.div_euclid(1000),
            size_bytes: 60 + (0..tx_count).map(|k| range(d(10 + k), 250, 600)).sum::<u64>(),
            transactions,
        })
    }
}

pub(crate) async fn list(
    State(data): State<Arc<DataApiState>>,
    Path((network_text, blockchain_id)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let network = path_network(&mut params, &network_text);
    let allowed = [X_CHAIN_MAINNET_ID, X_CHAIN_FUJI_ID, "x-chain"];
    if !allowed.contains(&blockchain_id.as_str()) {
        params.problem(format!("blockchainId must be one of the following values: {}", allowed.join(", ")));
    }
    let size = params.page_size(100);
    params.finish()?;
    let network = network.expect("checked");
    if blockchain_id != "x-chain" && blockchain_id != network.x_chain_id() {
        return Err(errors::bad_request(format!(
            "blockchainId {blockchain_id} is not the X-Chain of network {network_text}; use {} or x-chain",
            network.x_chain_id()
        )));
    }
    let fingerprint = params.fingerprint(&format!("vertices/{}", network.as_str()));
    let start = paging::start(&data, &params, &fingerprint)?;
    let world = &data.world;
    let total = world.vertex_count() as u128;
    let from = start.min(total);
    let to = (from + size as u128).min(total);
    let vertices: Vec<Value> = (from..to)
        .filter_map(|offset| world.vertex(network, world.vertex_count() - 1 - offset as u64))
        .map(|v| v.to_json())
        .collect();
    let body = json!({
        "vertices": vertices,
        "chainInfo": {"chainName": "x-chain", "network": network_text},
    });
    paging::with_next(body, paging::next_token(&data, to < total, &fingerprint, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_chain_to_their_parents_and_time_increases() {
        let w = DataWorld::new(5, 300);
        for network in Network::ALL {
            let mut prev: Option<Vertex> = None;
            for i in 0..300 {
                let v = w.vertex(network, i).unwrap();
                assert!((1..=8).contains(&v.transactions.len()));
                if let Some(p) = &prev {
                    assert_eq!(v.parent_hashes[0], p.hash);
                    assert!(v.timestamp > p.timestamp);
                } else {
                    assert!(v.parent_hashes.is_empty());
                }
                prev = Some(v);
            }
            assert!(prev.unwrap().timestamp < WORLD_NOW_MS / 1000);
            assert!(w.vertex(network, 300).is_none());
        }
        assert_ne!(w.vertex(Network::Mainnet, 1), w.vertex(Network::Fuji, 1));
    }
}
