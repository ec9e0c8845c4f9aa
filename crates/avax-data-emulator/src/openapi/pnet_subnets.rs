//! The world's subnets and L1 validators, from the blockchains `listBlockchains` holds
//! (`blockchains.rs`: the P-, X- and C-Chain and the world's EVM L1s, each with its `subnetId`):
//!
//! - `listSubnets` (`GET /v1/networks/{network}/subnets`): one `Subnet` per `subnetId` of those
//!   blockchains: the primary network (the P-, X- and C-Chain) and each L1's subnet, with
//!   exactly the blockchains that name it; created with its oldest blockchain
//!   (`createBlockTimestamp`, `createBlockIndex` its `createBlockNumber`); oldest first
//!   (`sortOrder=desc`: newest first), paged (100 by default). A subnet's owner is a P-address of
//!   the world (threshold 1, no locktime); the primary network has none. No subnet of the world is
//!   converted to an L1 (`isL1` false): the emulated P-Chain carries no ConvertSubnetToL1Tx.
//! - `getSubnetById` (`GET .../subnets/{subnetId}`): the item of that list; 404
//!   `Subnet {id} not found` for any other id.
//! - `listL1Validators` (`GET /v1/networks/{network}/l1Validators`): the validators of the world's
//!   L1s: none (no subnet is an L1, no RegisterL1ValidatorTx exists), so an empty `validators`
//!   list whatever the filters, with `blockHeight` the P-Chain's newest height (where a remaining
//!   balance would be read).

use serde_json::{json, Value};

use super::Request;
use crate::data_api::blockchains::blockchains_of;
use crate::data_api::errors::{self, Answer};
use crate::data_api::paging;
use crate::data_api::primary_chain::p_chain;
use crate::world::rewards::{p_address, p_address_count};
use crate::world::{Network, PRIMARY_NETWORK_SUBNET_ID};

/// Every subnet of `network`, oldest first (ties by id).
pub(crate) fn subnets_of(network: Network) -> Vec<Value> {
    let chains = blockchains_of(network);
    let mut ids: Vec<&str> = Vec::new();
    for c in &chains {
        let id = c["subnetId"].as_str().unwrap_or(PRIMARY_NETWORK_SUBNET_ID);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut out: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(k, id)| {
            let mine: Vec<Value> = chains.iter().filter(|c| c["subnetId"] == *id).cloned().collect();
            // `blockchains_of` is oldest first: the subnet is created with its first chain.
            let first = &mine[0];
            let primary = *id == PRIMARY_NETWORK_SUBNET_ID;
            let owners: Vec<String> =
                if primary { Vec::new() } else { vec![p_address(network, k as u64 % p_address_count(network))] };
            let threshold = u32::from(!primary);
            json!({
                "createBlockTimestamp": first["createBlockTimestamp"],
                "createBlockIndex": first["createBlockNumber"],
                "subnetId": id,
                "ownerAddresses": owners,
                "threshold": threshold,
                "locktime": 0,
                "subnetOwnershipInfo": {"locktime": 0, "threshold": threshold, "addresses": owners},
                "isL1": false,
                "blockchains": mine,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        let key = |v: &Value| (v["createBlockTimestamp"].as_i64(), v["subnetId"].as_str().map(str::to_string));
        key(a).cmp(&key(b))
    });
    out
}

fn network_of(request: &Request) -> Network {
    Network::parse(request.path("network")).unwrap_or(Network::Mainnet)
}

/// `listSubnets`.
pub(crate) fn list(request: &Request) -> Answer {
    let mut items = subnets_of(network_of(request));
    if request.params.get("sortOrder") == Some("desc") {
        items.reverse();
    }
    let (start, fingerprint) = (request.start()?, request.fingerprint());
    paging::list_page(request.state, "subnets", &items, (start, request.size), &fingerprint, Value::clone)
}

/// `getSubnetById`.
pub(crate) fn by_id(request: &Request) -> Answer {
    let id = request.path("subnetId");
    subnets_of(network_of(request))
        .into_iter()
        .find(|s| s["subnetId"] == id)
        .map(errors::ok)
        .ok_or_else(|| errors::not_found(format!("Subnet {id} not found")))
}

/// `listL1Validators`: the world has no L1 validator.
pub(crate) fn l1_validators(request: &Request) -> Answer {
    // A page token is still checked: none was ever issued for this empty list.
    request.start()?;
    let chain = p_chain(request.state, network_of(request));
    let tip = chain.span().saturating_sub(1);
    Ok(errors::ok(json!({"validators": [], "blockHeight": tip.to_string()})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_blockchain_is_in_exactly_its_subnet() {
        for network in Network::ALL {
            let subnets = subnets_of(network);
            let chains = blockchains_of(network);
            assert_eq!(subnets[0]["subnetId"], PRIMARY_NETWORK_SUBNET_ID, "the primary network is the oldest");
            let primary: Vec<&str> = subnets[0]["blockchains"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["blockchainName"].as_str().unwrap())
                .collect();
            assert!(["P-Chain", "X-Chain", "C-Chain"].iter().all(|n| primary.contains(n)), "{primary:?}");
            let held: usize = subnets.iter().map(|s| s["blockchains"].as_array().unwrap().len()).sum();
            assert_eq!(held, chains.len(), "each blockchain once");
            for s in &subnets {
                for c in s["blockchains"].as_array().unwrap() {
                    assert_eq!(c["subnetId"], s["subnetId"]);
                    assert!(chains.contains(c));
                }
                assert!(!s["isL1"].as_bool().unwrap());
            }
            assert!(subnets.len() > 1, "the world's L1s have their own subnets");
            assert!(subnets
                .windows(2)
                .all(|w| w[0]["createBlockTimestamp"].as_i64() <= w[1]["createBlockTimestamp"].as_i64()));
        }
    }
}
