//! `GET /v1/networks/{network}/blockchains/{blockchainId}`: a blockchain of the world by its CB58
//! id: the primary network's P-, X- and C-Chain (their real ids and names) and the world's L1s
//! (`blockchainName` = the chain's name), with `evmChainId` for the EVM chains and the chain's
//! launch as `createBlockTimestamp`. An id of no chain of the network: 404
//! `Blockchain {id} not found`.

use axum::extract::Path;
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::params::{path_network, Params};
use crate::world::history::launch_s;
use crate::world::{chains, Network, CORETH_VM_ID, PRIMARY_NETWORK_SUBNET_ID};

/// The P-Chain's blockchain id (the same on every network).
pub const P_CHAIN_ID: &str = "11111111111111111111111111111111LpoYY";
/// platformvm's VM id.
const PLATFORM_VM_ID: &str = "11111111111111111111111111111111LpoYY";
/// avm's VM id.
const AVM_VM_ID: &str = "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq";

/// The blockchain `id` of `network` as the Data API's `Blockchain`, if the world has it.
pub fn blockchain_json(network: Network, id: &str) -> Option<Value> {
    let genesis = 1_600_646_400; // 2020-09-21, Mainnet genesis
    if id == P_CHAIN_ID {
        return Some(primary(id, PLATFORM_VM_ID, "P-Chain", genesis));
    }
    if id == network.x_chain_id() {
        return Some(primary(id, AVM_VM_ID, "X-Chain", genesis));
    }
    let chain = chains().iter().find(|c| c.network == network && c.blockchain_id == id)?;
    let c_chain = chain.vm_id == CORETH_VM_ID;
    Some(json!({
        "createBlockTimestamp": if c_chain { genesis } else { launch_s(chain) },
        "createBlockNumber": "0",
        "blockchainId": chain.blockchain_id,
        "vmId": chain.vm_id,
        "subnetId": chain.subnet_id,
        "blockchainName": if c_chain { "C-Chain" } else { chain.name },
        "evmChainId": chain.evm_chain_id,
    }))
}

fn primary(id: &str, vm: &str, name: &str, created: i64) -> Value {
    json!({
        "createBlockTimestamp": created,
        "createBlockNumber": "0",
        "blockchainId": id,
        "vmId": vm,
        "subnetId": PRIMARY_NETWORK_SUBNET_ID,
        "blockchainName": name,
    })
}

pub(crate) async fn get_one(Path((network, id)): Path<(String, String)>, mut params: Params) -> Answer {
    let network = path_network(&mut params, &network);
    params.finish()?;
    let network = network.expect("checked above");
    blockchain_json(network, &id).map(errors::ok).ok_or_else(|| errors::not_found(format!("Blockchain {id} not found")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{C_CHAIN_MAINNET_ID, X_CHAIN_FUJI_ID};

    #[test]
    fn the_primary_network_has_its_real_names() {
        let c = blockchain_json(Network::Mainnet, C_CHAIN_MAINNET_ID).unwrap();
        assert_eq!((c["blockchainName"].as_str(), c["evmChainId"].as_u64()), (Some("C-Chain"), Some(43114)));
        assert_eq!(blockchain_json(Network::Mainnet, P_CHAIN_ID).unwrap()["blockchainName"], "P-Chain");
        assert_eq!(blockchain_json(Network::Fuji, X_CHAIN_FUJI_ID).unwrap()["blockchainName"], "X-Chain");
        assert_eq!(blockchain_json(Network::Mainnet, X_CHAIN_FUJI_ID), None, "another network's X-Chain");
        let beam = chains().iter().find(|c| c.evm_chain_id == 4337).unwrap();
        assert_eq!(blockchain_json(Network::Mainnet, &beam.blockchain_id).unwrap()["blockchainName"], "Beam");
    }
}
