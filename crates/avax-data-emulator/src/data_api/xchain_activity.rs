//! Where addresses appear on the primary network, from the P- and X worlds:
//! - `GET /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses`:
//!   the newest UTXO one of `addresses` received on the chain asked (the P-Chain's txs, the X
//!   world's txs, or the X world's exports to the C-Chain); `isConsumed` tells whether a tx of
//!   the world spent it (only the X-Chain's DAG-era payments are spent). 404 when none of them
//!   appears there.
//! - `GET /v1/networks/{network}/addresses:listChainIds`: for each address asked (in the order
//!   given, without its chain prefix, as the real answer `data_chain_ids_mainnet.json` shows),
//!   the CB58 ids of the chains it holds a UTXO on, in P, X, C order (empty when none).

use std::sync::Arc;

use axum::extract::{Path, State};
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::params::{path_network, Params};
use super::primary_chain::{p_chain, resolve, PrimaryChain};
use super::xchain_params::addresses;
use super::xchain_utxos::held_utxos;
use super::DataApiState;
use crate::formats::p_txs::p_address_of;
use crate::formats::p_utxos::utxos_of;
use crate::world::{Network, C_CHAIN_FUJI_ID, C_CHAIN_MAINNET_ID, PRIMARY_NETWORK_SUBNET_ID};

/// `(timestamp, block number, tx hash, utxo id, spent)` of each UTXO `owners` hold on `chain` of
/// `network` (the P-Chain's `PChainUtxo`s, the X world's `Utxo`s).
fn held(
    data: &DataApiState,
    network: Network,
    chain: PrimaryChain,
    owners: &[[u8; 20]],
) -> Vec<(i64, u64, String, String, bool)> {
    let text = |u: &Value, k: &str| u[k].as_str().unwrap_or_default().to_string();
    match chain {
        PrimaryChain::P => {
            let texts: Vec<String> = owners.iter().map(|a| p_address_of(network, a)).collect();
            utxos_of(&p_chain(data, network), network, &texts)
                .iter()
                .map(|u| {
                    let number = text(u, "blockNumber").parse().unwrap_or(0);
                    (u["blockTimestamp"].as_i64().unwrap_or(0), number, text(u, "txHash"), text(u, "utxoId"), false)
                })
                .collect()
        }
        _ => data.x_world(network).map_or_else(Vec::new, |w| {
            held_utxos(network, &w, chain, owners)
                .iter()
                .map(|(number, u)| {
                    let spent = u.get("consumingTxHash").is_some();
                    (u["timestamp"].as_i64().unwrap_or(0), *number, text(u, "creationTxHash"), text(u, "utxoId"), spent)
                })
                .collect()
        }),
    }
}

pub(crate) async fn last_activity(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let net = path_network(&mut params, &network);
    let chain = resolve(&mut params, net, &blockchain_id);
    let owners = addresses(&mut params, net, true);
    params.finish()?;
    let (net, chain) = (net.expect("checked"), chain.expect("checked"));
    let newest = held(&data, net, chain, &owners).into_iter().max();
    let Some((timestamp, block_number, tx_hash, utxo_id, spent)) = newest else {
        return Err(errors::not_found(format!("No activity of these addresses on {}", chain.name())));
    };
    Ok(errors::ok(json!({
        "timestamp": timestamp,
        "blockNumber": block_number.to_string(),
        "txHash": tx_hash,
        "utxoId": utxo_id,
        "isConsumed": spent,
        "chainName": chain.name(),
        "network": net.as_str(),
    })))
}

pub(crate) async fn chain_ids(
    State(data): State<Arc<DataApiState>>,
    Path(network): Path<String>,
    mut params: Params,
) -> Answer {
    let net = path_network(&mut params, &network);
    let owners = addresses(&mut params, net, true);
    params.finish()?;
    let net = net.expect("checked");
    let c_id = if net == Network::Mainnet { C_CHAIN_MAINNET_ID } else { C_CHAIN_FUJI_ID };
    let chains =
        [(PrimaryChain::P, PRIMARY_NETWORK_SUBNET_ID), (PrimaryChain::X, net.x_chain_id()), (PrimaryChain::C, c_id)];
    let listed: Vec<Value> = owners
        .iter()
        .map(|a| {
            let on: Vec<&str> =
                chains.iter().filter(|(c, _)| !held(&data, net, *c, &[*a]).is_empty()).map(|(_, id)| *id).collect();
            json!({"address": p_address_of(net, a), "blockchainIds": on})
        })
        .collect();
    Ok(errors::ok(json!({ "addresses": listed })))
}
