//! `GET /v1/networks/{network}/blockchains` lists the blockchains of the world's network (paged,
//! by `createBlockTimestamp`, `sortOrder` `asc` by default), each as the one below answers it.
//!
//! `GET /v1/networks/{network}/blockchains/{blockchainId}`: a blockchain of the world by its CB58
//! id: the primary network's P-, X- and C-Chain (their real ids and names) and the world's L1s
//! (`blockchainName` = the chain's name), with `evmChainId` for the EVM chains and the chain's
//! launch as `createBlockTimestamp`. The P-Chain (its id or the `p-chain` alias) answers the hosted
//! service's fixed record (`spec/ground-truth.md`, "Real answers": `vmId` `"platformvm"`,
//! `createBlockNumber` `"-1"`, created 2020-09-10). An id of no chain of the network: 404
//! `Blockchain {id} not found`.

use std::sync::Arc;

use axum::extract::{Path, State};
use serde_json::{json, Value};

use super::errors::{self, Answer};
use super::params::{path_network, Params};
use super::{paging, DataApiState};
use crate::openapi::real_shapes::{p_chain_blockchain, P_CHAIN_ID};
use crate::world::history::launch_s;
use crate::world::{chains, Network, CORETH_VM_ID, PRIMARY_NETWORK_SUBNET_ID};

/// avm's VM id.
const AVM_VM_ID: &str = "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq";

/// The blockchain `id` of `network` as the Data API's `Blockchain`, if the world has it.
pub fn blockchain_json(network: Network, id: &str) -> Option<Value> {
    let genesis = 1_600_646_400; // 2020-09-21, Mainnet genesis
    if id == P_CHAIN_ID || id == "p-chain" {
        return Some(p_chain_blockchain());
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

/// Every blockchain of `network` in the world, oldest first (ties by id).
pub fn blockchains_of(network: Network) -> Vec<Value> {
    let ids = [P_CHAIN_ID, network.x_chain_id()].into_iter();
    let evm = chains().iter().filter(|c| c.network == network).map(|c| c.blockchain_id.as_str());
    let mut out: Vec<Value> = ids.chain(evm).filter_map(|id| blockchain_json(network, id)).collect();
    out.sort_by(|a, b| {
        let key = |v: &Value| (v["createBlockTimestamp"].as_i64(), v["blockchainId"].as_str().map(str::to_string));
        key(a).cmp(&key(b))
    });
    out
}

pub(crate) async fn list(
    State(data): State<Arc<DataApiState>>,
    Path(network): Path<String>,
    mut params: Params,
) -> Answer {
    let network = path_network(&mut params, &network);
    let size = if params.get("pageSize").is_none() { 100 } else { params.page_size(10_000) };
    let order = params.one_of("sortOrder", &["asc", "desc"]);
    params.finish()?;
    let network = network.expect("checked above");
    let mut items = blockchains_of(network);
    if order.as_deref() == Some("desc") {
        items.reverse();
    }
    let fingerprint = params.fingerprint(&format!("blockchains/{}", network.as_str()));
    let start = paging::start(&data, &params, &fingerprint)?;
    paging::list_page(&data, "blockchains", &items, (start, size), &fingerprint, Value::clone)
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
        for (network, id) in [(Network::Mainnet, P_CHAIN_ID), (Network::Fuji, "p-chain")] {
            let p = blockchain_json(network, id).unwrap();
            assert_eq!((p["blockchainName"].as_str(), p["vmId"].as_str()), (Some("P-Chain"), Some("platformvm")));
            assert_eq!(
                (p["createBlockNumber"].as_str(), p["createBlockTimestamp"].as_i64()),
                (Some("-1"), Some(1_599_696_000))
            );
        }
        assert_eq!(blockchain_json(Network::Fuji, X_CHAIN_FUJI_ID).unwrap()["blockchainName"], "X-Chain");
        assert_eq!(blockchain_json(Network::Mainnet, X_CHAIN_FUJI_ID), None, "another network's X-Chain");
        let beam = chains().iter().find(|c| c.evm_chain_id == 4337).unwrap();
        assert_eq!(blockchain_json(Network::Mainnet, &beam.blockchain_id).unwrap()["blockchainName"], "Beam");
    }

    #[test]
    fn the_list_holds_each_chain_of_the_network_as_its_record() {
        for network in [Network::Mainnet, Network::Fuji] {
            let list = blockchains_of(network);
            assert!(list.len() >= 3, "P, X and C at least");
            for record in &list {
                let id = record["blockchainId"].as_str().unwrap();
                assert_eq!(Some(record), blockchain_json(network, id).as_ref());
            }
            let times: Vec<i64> = list.iter().map(|r| r["createBlockTimestamp"].as_i64().unwrap()).collect();
            assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first");
        }
    }
}
