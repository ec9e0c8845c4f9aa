//! The X-Chain's assets:
//! - `GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}`: AVAX (of either
//!   network: created at 1599696000, fixed cap, as the real answers in `tests/fixtures/real/`
//!   say) or an asset a CreateAssetTx of the X world creates (its id is the tx id; created at
//!   that tx's time; a variable cap when it starts with a mint output); 404 for any other id.
//! - `GET .../assets/{assetId}/transactions`: the X txs moving the asset, as
//!   `listLatestPrimaryNetworkTransactions` lists them ([`super::xchain_txs`]).
//!
//! `blockchainId` is the network's X-Chain id or `x-chain` (the document's `XChainId`).

use std::sync::Arc;

use axum::extract::{Path, State};
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::params::Params;
use super::xchain_txs::{list_query, x_chain_network, x_page};
use super::DataApiState;
use crate::formats::p_txs::avax_id;
use crate::formats::x_index::x_index;
use crate::formats::x_txs::{created_asset, XWorld};
use crate::world::rewards::avax_asset_id;
use crate::world::Network;
use avax_data_core::index::cb58;

/// Mainnet's genesis time, when AVAX was created on both networks (`data_asset_fuji_avax.json`).
const AVAX_CREATED_S: i64 = 1_599_696_000;

/// The `XChainAssetDetails` of `asset_id` on `network` (`None` when the world holds no such asset).
pub(crate) fn asset_details(network: Network, world: Option<&XWorld>, asset_id: &str) -> Option<Value> {
    if asset_id == avax_asset_id(network) {
        return Some(json!({
            "assetId": asset_id,
            "name": "Avalanche",
            "symbol": "AVAX",
            "denomination": 9,
            "createdAtTimestamp": AVAX_CREATED_S,
            "type": "secp256k1",
            "cap": "fixed",
        }));
    }
    let world = world?;
    let raw = cb58::decode_id(asset_id).ok()?;
    let (u, k) = *x_index(world).tx_at.get(&raw)?;
    let tx = world.txs_quick(u).into_iter().nth(usize::from(k))?;
    created_asset(&tx, world.time_s(u))
}

pub(crate) async fn details(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id, asset_id)): Path<(String, String, String)>,
    mut params: Params,
) -> Answer {
    let net = x_chain_network(&mut params, &network, &blockchain_id);
    params.finish()?;
    let net = net.expect("checked");
    let world = data.x_world(net);
    asset_details(net, world.as_ref(), &asset_id)
        .map(errors::ok)
        .ok_or_else(|| errors::not_found(format!("Asset {asset_id} not found on x-chain")))
}

pub(crate) async fn transactions(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id, asset_id)): Path<(String, String, String)>,
    mut params: Params,
) -> Answer {
    let net = x_chain_network(&mut params, &network, &blockchain_id);
    let mut query = list_query(&mut params, net);
    params.finish()?;
    let net = net.expect("checked");
    let world = data.x_world(net);
    if asset_details(net, world.as_ref(), &asset_id).is_none() && !moved_anywhere(world.as_ref(), &asset_id) {
        return Err(errors::not_found(format!("Asset {asset_id} not found on x-chain")));
    }
    query.filter.asset = Some(cb58::decode_id(&asset_id).unwrap_or_else(|_| avax_id(net)));
    x_page(&data, (net, world), &params, query, &format!("asset/{asset_id}"))
}

/// Whether some X tx of the world moves `asset_id` (an asset created before the emulated
/// history, minted by an OperationTx).
fn moved_anywhere(world: Option<&XWorld>, asset_id: &str) -> bool {
    let (Some(world), Ok(raw)) = (world, cb58::decode_id(asset_id)) else { return false };
    x_index(world).assets.contains_key(&raw)
}
