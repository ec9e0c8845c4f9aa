//! The world's subnets and L1 validators, from the blockchains `listBlockchains` holds
//! (`blockchains.rs`: the P-, X- and C-Chain and the world's EVM L1s, each with its `subnetId`):
//!
//! - `listSubnets` (`GET /v1/networks/{network}/subnets`): one `Subnet` per `subnetId` of those
//!   blockchains: the primary network (the P-, X- and C-Chain) and each L1's subnet, with
//!   exactly the blockchains that name it; created with its oldest blockchain
//!   (`createBlockTimestamp`, `createBlockIndex` its `createBlockNumber`); oldest first
//!   (`sortOrder=desc`: newest first), paged (100 by default). A subnet's owner is a P-address of
//!   the world (threshold 1, no locktime); the primary network has none. The subnet the world's
//!   ConvertSubnetToL1Tx converts ([`crate::formats::p_l1`]) is an L1 (`isL1` true, its
//!   `l1ConversionTransactionHash` and `l1ValidatorManagerDetails`); the others are not.
//! - `getSubnetById` (`GET .../subnets/{subnetId}`): the item of that list; 404
//!   `Subnet {id} not found` for any other id.
//! - `listL1Validators` (`GET /v1/networks/{network}/l1Validators`): the initial validators of
//!   the world's L1 conversion, in the tx's order (no RegisterL1ValidatorTx adds more), with
//!   `blockHeight` the P-Chain's newest height and each `remainingBalance` read at now.
//!   Filters: `subnetId`, `nodeId`, `l1ValidationId` (CB58 or hex); `includeInactiveL1Validators`
//!   changes nothing (a validator whose balance ran out would be inactive; none has); paged.

use serde_json::{json, Value};

use super::Request;
use crate::data_api::blockchains::blockchains_of;
use crate::data_api::errors::{self, Answer};
use crate::data_api::paging;
use crate::data_api::primary_chain::p_chain;
use crate::formats::p_l1::conversion;
use crate::formats::p_txs::p_address_of;
use crate::world::rewards::{p_address, p_address_count};
use crate::world::{Network, PRIMARY_NETWORK_SUBNET_ID, WORLD_NOW_MS};
use avax_data_core::decode::pchain_txs::L1Owner;
use avax_data_core::index::cb58;

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
    if let Some(c) = conversion(network) {
        for subnet in out.iter_mut().filter(|s| s["subnetId"] == c.chain.subnet_id.as_str()) {
            subnet["isL1"] = json!(true);
            subnet["l1ConversionTransactionHash"] = json!(cb58::encode(&c.tx_id()));
            subnet["l1ValidatorManagerDetails"] = json!({"blockchainId": c.chain.blockchain_id, "contractAddress": format!("0x{}", hex::encode(c.manager))});
        }
    }
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

/// The initial validators of `network`'s L1 conversion as `L1ValidatorDetailsFull`, their
/// remaining balances at now.
pub(crate) fn l1_validators_of(network: Network) -> Vec<Value> {
    let Some(c) = conversion(network) else { return Vec::new() };
    let owner = |o: &L1Owner| json!({"addresses": o.addresses.iter().map(|a| p_address_of(network, a)).collect::<Vec<_>>(), "threshold": o.threshold});
    c.validators()
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let id = c.validation_id(i as u32);
            json!({
                "validationId": cb58::encode(&id),
                "validationIdHex": format!("0x{}", hex::encode(id)),
                "nodeId": format!("NodeID-{}", cb58::encode(&v.node_id)),
                "subnetId": c.chain.subnet_id,
                "weight": v.weight,
                "remainingBalance": c.remaining_balance(v.balance, WORLD_NOW_MS / 1000),
                "creationTimestamp": c.time,
                "blsCredentials": {
                    "publicKey": format!("0x{}", hex::encode(v.public_key)),
                    "proofOfPossession": format!("0x{}", hex::encode(v.proof_of_possession)),
                },
                "remainingBalanceOwner": owner(&v.remaining_balance_owner),
                "deactivationOwner": owner(&v.deactivation_owner),
            })
        })
        .collect()
}

/// `listL1Validators`.
pub(crate) fn l1_validators(request: &Request) -> Answer {
    let network = network_of(request);
    let param = |name: &str| request.params.get(name).map(str::trim).filter(|v| !v.is_empty());
    let wanted_id = param("l1ValidationId");
    let items: Vec<Value> = l1_validators_of(network)
        .into_iter()
        .filter(|v| param("subnetId").is_none_or(|s| v["subnetId"] == s))
        .filter(|v| param("nodeId").is_none_or(|n| v["nodeId"] == n))
        .filter(|v| wanted_id.is_none_or(|id| v["validationId"] == id || v["validationIdHex"] == id.to_lowercase()))
        .collect();
    let (range, token) = request.page_of(items.len())?;
    let chain = p_chain(request.state, network);
    let tip = chain.span().saturating_sub(1);
    let mut body = json!({"validators": items[range], "blockHeight": tip.to_string()});
    if let Some(token) = token {
        body["nextPageToken"] = Value::String(token);
    }
    Ok(errors::ok(body))
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
                let converted = conversion(network).unwrap();
                assert_eq!(s["isL1"].as_bool().unwrap(), s["subnetId"] == converted.chain.subnet_id.as_str());
            }
            assert_eq!(subnets.iter().filter(|s| s["isL1"] == true).count(), 1, "one L1 per network");
            assert!(subnets.len() > 1, "the world's L1s have their own subnets");
            assert!(subnets
                .windows(2)
                .all(|w| w[0]["createBlockTimestamp"].as_i64() <= w[1]["createBlockTimestamp"].as_i64()));
        }
    }
}
