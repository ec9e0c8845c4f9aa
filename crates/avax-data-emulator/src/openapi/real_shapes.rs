//! The shapes real answers showed that a schema alone does not give a generated answer
//! (`spec/ground-truth.md`, "Real answers"; the answers themselves in `tests/fixtures/real/`):
//!
//! - `getBlockchainById` of the P-Chain (its id of 32 zero bytes, or `p-chain`) answers the
//!   service's fixed record: `createBlockNumber` `"-1"`, `vmId` `"platformvm"`, created at the
//!   network's genesis (2020-09-10 00:00:00 UTC), no `evmChainId` nor `genesisData`;
//! - a P-chain UTXO always carries `platformLocktime` (`0` is sent, not left out), and a staked
//!   one (`staked: true`) carries none of the `consuming*` fields;
//! - `chainInfo` names the chain asked (`p-chain`, `x-chain` or `c-chain`, by alias or id) and
//!   the network of the path.
//!
//! Only shapes: the values of the world stay the generator's.

use serde_json::{json, Value};

use super::Request;

/// The P-Chain's blockchain id: 32 zero bytes in CB58 (also the Primary Network's subnet id).
pub(crate) const P_CHAIN_ID: &str = "11111111111111111111111111111111LpoYY";

/// The fields a staked P-chain UTXO leaves out.
const CONSUMING: [&str; 3] = ["consumingTxHash", "consumingBlockNumber", "consumingBlockTimestamp"];

/// Gives `body`, the generated answer of `request`, the shapes of the real answers.
pub(crate) fn apply(request: &Request, body: &mut Value) {
    let p_chain = matches!(request.path("blockchainId"), P_CHAIN_ID | "p-chain");
    match request.op.id {
        "getBlockchainById" if p_chain => *body = p_chain_blockchain(),
        "getUtxosByAddresses" if p_chain => {
            if let Some(items) = body.get_mut("utxos").and_then(Value::as_array_mut) {
                items.iter_mut().for_each(p_chain_utxo);
            }
        }
        _ => {}
    }
    chain_info(request, body);
}

/// Sets `chainInfo` (where the answer has one) to the chain and network the request names.
fn chain_info(request: &Request, body: &mut Value) {
    use crate::data_api::primary_chain::{chain_info, PrimaryChain};
    let Some(network) = crate::world::Network::parse(request.path("network")) else { return };
    let Some(chain) = PrimaryChain::parse(network, request.path("blockchainId")) else { return };
    if let Some(info) = body.get_mut("chainInfo") {
        *info = chain_info(network, chain);
    }
}

/// The P-Chain's record, as the hosted service answers it on Mainnet and Fuji.
pub(crate) fn p_chain_blockchain() -> Value {
    json!({
        "createBlockTimestamp": 1_599_696_000,
        "createBlockNumber": "-1",
        "blockchainId": P_CHAIN_ID,
        "vmId": "platformvm",
        "subnetId": P_CHAIN_ID,
        "blockchainName": "P-Chain",
    })
}

fn p_chain_utxo(item: &mut Value) {
    let Value::Object(utxo) = item else { return };
    if utxo.get("staked") == Some(&Value::Bool(true)) {
        for field in CONSUMING {
            utxo.remove(field);
        }
    }
    utxo.entry("platformLocktime").or_insert(json!(0));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staked_utxo_loses_its_consuming_fields_and_every_one_has_a_locktime() {
        let mut staked = json!({"staked": true, "consumingTxHash": "x", "consumingBlockNumber": "1",
                                "consumingBlockTimestamp": 2, "platformLocktime": 7});
        p_chain_utxo(&mut staked);
        assert_eq!(staked, json!({"staked": true, "platformLocktime": 7}));
        let mut spent = json!({"staked": false, "consumingTxHash": "x"});
        p_chain_utxo(&mut spent);
        assert_eq!(spent, json!({"staked": false, "consumingTxHash": "x", "platformLocktime": 0}));
    }
}
