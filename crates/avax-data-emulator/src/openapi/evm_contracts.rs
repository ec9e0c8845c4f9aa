//! The world's contracts: its ERC-20 tokens ([`crate::world::erc20::TOKENS`]), its NFT contracts
//! ([`crate::world::nft::contracts`]) and the contracts its deployments create (about 3% of its
//! transactions, [`DataWorld::activity`], a table built once per chain).
//!
//! - `getContractMetadata`: an ERC-20 token is an `Erc20Contract` (its name, symbol and decimals,
//!   as its transfers carry them), an NFT contract an `Erc721Contract`/`Erc1155Contract`, a
//!   deployed contract an `UnknownContract` with its `deploymentDetails` (the creating
//!   transaction and the deployer); any other address an `UnknownContract` without them.
//! - `getDeploymentTransaction`: the transaction that created the contract (as `getTransaction`
//!   answers it: no `to`, its `CREATE` among `internalTransactions`); 404 for an address no
//!   deployment created (the tokens and NFT contracts predate the blocks).
//! - `listContractDeployments`: the contracts the address deployed, newest first.
//! - `listInternalTransactions`: the `CREATE`s the address made or that created it (the only
//!   internal transactions the world models: its calls move no value between contracts), newest
//!   first, bounded by `startBlock` (inclusive) and `endBlock` (exclusive).

use serde_json::{json, Value};

use super::evm_params::{address_param, chain_of};
use crate::data_api::errors::{self, Answer};
use crate::data_api::paging;
use crate::openapi::evm::{block_bounds, full_transaction, page_answer};
use crate::openapi::{respond_with, Request};
use crate::world::erc20::find_token;
use crate::world::evm_index::Deployment;
use crate::world::nft::contracts;
use crate::world::{pool_address, Chain, DataWorld};

pub(crate) fn answer(request: &Request) -> Answer {
    let chain = chain_of(request)?;
    let address = address_param(request, "address")?;
    let world = &request.state.world;
    match request.op.id {
        "getContractMetadata" => Ok(respond_with(request.op, metadata(world, chain, &address))),
        "getDeploymentTransaction" => {
            let Some(d) = world.activity(chain).deployment_of(&address) else {
                return Err(errors::not_found(format!(
                    "No deployment transaction of {address} on chain {}: it is no contract the chain's transactions created",
                    chain.evm_chain_id
                )));
            };
            let txs = world.transactions(chain, d.number).unwrap_or_default();
            Ok(respond_with(request.op, full_transaction(request, chain, d.number, &txs[d.index as usize])))
        }
        "listContractDeployments" => {
            let start = request.start()?;
            let items: Vec<&Deployment> = match world.pool_index(&address).filter(|&i| i < chain.address_pool) {
                Some(i) => world.activity(chain).deployed_by(i).rev().collect(),
                None => Vec::new(),
            };
            let (page, next) = paging::slice(request.state, &items, start, request.size, &request.fingerprint());
            let contracts = page.iter().map(|d| deployed(world, chain, d)).collect();
            Ok(page_answer(request, "contracts", contracts, next))
        }
        _ => internal_transactions(request, world, chain, &address),
    }
}

/// `listInternalTransactions`: the `CREATE`s of `address` (its deployments, or the one that
/// created it), newest first within the request's block bounds.
fn internal_transactions(request: &Request, world: &DataWorld, chain: &Chain, address: &str) -> Answer {
    let start = request.start()?;
    let activity = world.activity(chain);
    let mut items: Vec<&Deployment> = match world.pool_index(address).filter(|&i| i < chain.address_pool) {
        Some(i) => activity.deployed_by(i).collect(),
        None => activity.deployment_of(address).into_iter().collect(),
    };
    let (low, high) = block_bounds(request, world);
    items.retain(|d| (low..=high).contains(&d.number));
    items.reverse();
    let (page, next) = paging::slice(request.state, &items, start, request.size, &request.fingerprint());
    let page = page
        .iter()
        .map(|d| {
            let (f, hash) = world.tx_facts_and_hash(chain, d.number, d.index);
            let ms = world.block_timestamp_ms(chain, d.number);
            json!({
                "blockNumber": d.number.to_string(),
                "blockTimestamp": ms.div_euclid(1000),
                "blockTimestampMilliseconds": ms,
                "blockHash": world.block_hash(chain, d.number),
                "txHash": hash,
                "from": { "address": pool_address(d.deployer) },
                "to": { "address": d.contract },
                "internalTxType": "CREATE",
                "value": f.value.to_string(),
                "isReverted": false,
                "gasUsed": f.gas_used.to_string(),
                "gasLimit": f.gas_used.to_string(),
            })
        })
        .collect();
    Ok(page_answer(request, "transactions", page, next))
}

/// `UnknownContract` of a deployed contract, with its deployment.
fn deployed(world: &DataWorld, chain: &Chain, d: &Deployment) -> Value {
    json!({
        "address": d.contract,
        "ercType": "UNKNOWN",
        "deploymentDetails": {
            "txHash": world.tx_facts_and_hash(chain, d.number, d.index).1,
            "deployerAddress": pool_address(d.deployer),
        },
    })
}

/// `getContractMetadata` of `address` (lowercase) on `chain`.
pub(crate) fn metadata(world: &DataWorld, chain: &Chain, address: &str) -> Value {
    if let Some(t) = find_token(chain.evm_chain_id, address) {
        return json!({
            "address": t.address,
            "ercType": "ERC-20",
            "name": t.name,
            "symbol": t.symbol,
            "decimals": t.decimals,
            "logoAsset": { "imageUri": format!("https://images.emulator.invalid/tokens/{}.png", t.symbol.to_lowercase()) },
        });
    }
    if let Some((contract, name, symbol, erc)) = contracts(chain).into_iter().find(|c| c.0 == address) {
        return json!({ "address": contract, "ercType": erc, "name": name, "symbol": symbol });
    }
    match world.activity(chain).deployment_of(address) {
        Some(d) => deployed(world, chain, d),
        None => json!({ "address": address, "ercType": "UNKNOWN" }),
    }
}
