//! The EVM transactions of the world, as the Data API's transaction operations serve them: every
//! transaction is one of the world's blocks ([`DataWorld::transactions`]), so an address's
//! transactions, a block's transactions, the latest transactions and a transaction by hash agree
//! with each other and with `getBlock`. Fields the world does not model (the method, the
//! nonce) come from the schema generator.
//!
//! - `listLatestTransactions`: newest first (blocks from the tip down, each block's transactions
//!   from the last);
//! - `listTransactions` / `listNativeTransactions`: the same order, only those sent or received by
//!   the address (`startBlock`, inclusive, and `endBlock`, exclusive, bound the block numbers);
//! - `getTransactionsForBlock`: the block's transactions in block order;
//! - `getTransaction`: by hash (a lookup table per chain, built on first use); 404 when unknown.
//!
//! `listTransactions` and `getTransaction` list the ERC-20 transfer a transaction makes
//! (`erc20Transfers`, [`super::erc20`]), the ERC-721 token it mints (`erc721Transfers`,
//! [`crate::world::nft`]) and, for a deployment, the `CREATE` of its contract
//! (`internalTransactions`, `to` = the created contract). A failed transaction has `txStatus`
//! `"0"`. A deployment's `to` (which the schema requires) is the zero address.

use serde_json::{json, Map, Value};

use super::{respond_with, Request};
use crate::data_api::blocks::block_number;
use crate::data_api::errors::{self, Answer};
use crate::world::erc20::{Erc20Transfer, Token};
use crate::world::nft::Erc721Transfer;
use crate::world::{base_fee, Chain, DataWorld, Tx};

/// A position in the newest-first walk: transaction `index` of block `number` is the next one.
#[derive(Clone, Copy)]
struct Cursor {
    number: u64,
    index: u32,
}

impl Cursor {
    fn encode(self) -> u128 {
        (u128::from(self.number) << 32 | u128::from(self.index)) + 1
    }

    fn decode(pos: u128) -> Option<Cursor> {
        let pos = pos.checked_sub(1)?;
        Some(Cursor { number: (pos >> 32) as u64, index: (pos & 0xffff_ffff) as u32 })
    }
}

pub(crate) fn answer(request: &Request) -> Answer {
    let Some(chain) = request.chain else { return Err(errors::bad_request("chainId is required")) };
    let world = &request.state.world;
    match request.op.id {
        "getTransaction" => {
            let hash = request.path("txHash").to_ascii_lowercase();
            if hash.len() != 66 || !hash.starts_with("0x") || !hash[2..].bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(errors::bad_request(format!(
                    "Invalid txHash {:?}: expected a 0x-prefixed 32-byte transaction hash",
                    request.path("txHash")
                )));
            }
            let Some((number, index)) = world.transaction_position(chain, &hash) else {
                return Err(errors::not_found(format!("Transaction {hash} not found on chain {}", chain.evm_chain_id)));
            };
            let txs = world.transactions(chain, number).unwrap_or_default();
            let tx = &txs[index as usize];
            Ok(respond_with(request.op, full_transaction(request, chain, number, tx)))
        }
        "getTransactionsForBlock" => {
            let number = block_number(world, chain, request.path("blockId"))?;
            let txs = world.transactions(chain, number).unwrap_or_default();
            let start = request.start()?.min(txs.len() as u128) as usize;
            let end = (start + request.size).min(txs.len());
            let page: Vec<Value> = txs[start..end].iter().map(|tx| native(request, chain, number, tx)).collect();
            Ok(page_answer(request, "transactions", page, request.next_token(end < txs.len(), end as u128)))
        }
        _ => {
            let address = request.path("address").to_ascii_lowercase();
            let filtered = request.op.id != "listLatestTransactions";
            let member = world.pool_index(&address).is_some_and(|i| i < chain.address_pool);
            if filtered && !member {
                request.start()?;
                return Ok(page_answer(request, "transactions", Vec::new(), None));
            }
            walk_newest_first(request, chain, "transactions", |number, tx| {
                let mine = !filtered || tx.from == address || tx.to.as_deref() == Some(address.as_str());
                mine.then(|| match request.op.id {
                    "listTransactions" => details(request, chain, number, tx),
                    _ => native(request, chain, number, tx),
                })
            })
        }
    }
}

/// One page of the world's transactions of `chain`, newest first (blocks from the request's
/// `endBlock - 1` or the tip down to its `startBlock`, each block's transactions from the last),
/// resuming at the page token's position: the items `keep` makes of the transactions it keeps,
/// under `key`.
pub(crate) fn walk_newest_first(
    request: &Request,
    chain: &Chain,
    key: &str,
    keep: impl FnMut(u64, &Tx) -> Option<Value>,
) -> Answer {
    walk(request, chain, key, false, keep)
}

/// [`walk_newest_first`], or oldest first when `ascending` (blocks from `startBlock` up to the
/// request's `endBlock - 1` or the tip, each block's transactions from the first).
pub(crate) fn walk(
    request: &Request,
    chain: &Chain,
    key: &str,
    ascending: bool,
    mut keep: impl FnMut(u64, &Tx) -> Option<Value>,
) -> Answer {
    let world = &request.state.world;
    let (low, high) = block_bounds(request, world);
    let first = if ascending { Cursor { number: low, index: 0 } } else { Cursor { number: high, index: u32::MAX } };
    let start = Cursor::decode(request.start()?).unwrap_or(first);
    let mut page = Vec::with_capacity(request.size);
    let mut next = None;
    let mut number = if ascending { start.number.max(low) } else { start.number.min(high) };
    'walk: while (low..=high).contains(&number) {
        let txs = world.transactions(chain, number).unwrap_or_default();
        let at_start = number == start.number;
        let order: Box<dyn Iterator<Item = &Tx> + '_> = if ascending {
            Box::new(txs.iter().filter(move |t| !at_start || t.index >= start.index))
        } else {
            Box::new(txs.iter().rev().filter(move |t| !at_start || t.index <= start.index))
        };
        for tx in order {
            if page.len() == request.size {
                next = Some(Cursor { number, index: tx.index });
                break 'walk;
            }
            if let Some(item) = keep(number, tx) {
                page.push(item);
            }
        }
        let Some(after) = (if ascending { number.checked_add(1) } else { number.checked_sub(1) }) else { break };
        number = after;
        if page.len() == request.size && (low..=high).contains(&number) {
            next = Some(if ascending { Cursor { number, index: 0 } } else { Cursor { number, index: u32::MAX } });
            break;
        }
    }
    let token = next.and_then(|c| request.next_token(true, c.encode()));
    Ok(page_answer(request, key, page, token))
}

/// The block numbers `startBlock..endBlock` asks for, within the world, as the lowest and the
/// highest: `startBlock` is inclusive and `endBlock` exclusive, as the service's document says
/// (`spec/ground-truth.md`); an `endBlock` of 0 or at most `startBlock` asks for none (a low
/// above the high).
pub(crate) fn block_bounds(request: &Request, world: &DataWorld) -> (u64, u64) {
    let read =
        |name: &str| request.params.get(name).and_then(|v| v.trim().parse::<f64>().ok()).map(|x| x.max(0.0) as u64);
    let low = read("startBlock").unwrap_or(0);
    match read("endBlock") {
        Some(0) => (1, 0),
        Some(end) => (low, (end - 1).min(world.tip())),
        None => (low, world.tip()),
    }
}

pub(crate) fn page_answer(
    request: &Request,
    key: &str,
    page: Vec<Value>,
    token: Option<String>,
) -> axum::response::Response {
    let mut body = Map::new();
    body.insert(key.to_string(), Value::Array(page));
    if let Some(token) = token {
        body.insert("nextPageToken".to_string(), Value::String(token));
    }
    respond_with(request.op, Value::Object(body))
}

/// The world's facts of `tx` (in block `number`) over a schema-generated `NativeTransaction`.
pub(crate) fn native(request: &Request, chain: &Chain, number: u64, tx: &Tx) -> Value {
    let salt = u64::from_str_radix(&tx.hash[2..18], 16).unwrap_or(0);
    let mut value = request.component("NativeTransaction", salt);
    overlay(&mut value, request, chain, number, tx);
    value
}

pub(crate) fn full_transaction(request: &Request, chain: &Chain, number: u64, tx: &Tx) -> Value {
    let salt = u64::from_str_radix(&tx.hash[2..18], 16).unwrap_or(0);
    let mut native = request.component("FullNativeTransactionDetails", salt);
    overlay(&mut native, request, chain, number, tx);
    native["input"] = Value::String("0x".to_string());
    native["baseFeePerGas"] = Value::String(base_fee(request.state.world.seed(), chain, number).to_string());
    let mut token = request.component("NetworkTokenDetails", salt);
    if let Some(t) = token.get_mut("networkToken").and_then(Value::as_object_mut) {
        t.insert("name".to_string(), Value::from(chain.token_name));
        t.insert("symbol".to_string(), Value::from(chain.token_symbol));
        t.insert("decimals".to_string(), Value::from(chain.token_decimals));
    }
    let mut details = json!({ "nativeTransaction": native, "networkTokenDetails": token });
    add_transfers(&mut details, chain, tx);
    details
}

/// The `TransactionDetails` of `tx` (`listTransactions`): its native transaction and the ERC-20
/// transfer it makes, if any.
pub(crate) fn details(request: &Request, chain: &Chain, number: u64, tx: &Tx) -> Value {
    let mut details = json!({ "nativeTransaction": native(request, chain, number, tx) });
    add_transfers(&mut details, chain, tx);
    details
}

/// The ERC-20 transfer, the minted ERC-721 token and the contract creation of `tx`, each under
/// its key of `TransactionDetails` when the transaction has one.
fn add_transfers(details: &mut Value, chain: &Chain, tx: &Tx) {
    if let Some(t) = &tx.erc20 {
        details["erc20Transfers"] = json!([transfer_details(t)]);
    }
    if let Some(t) = &tx.nft {
        details["erc721Transfers"] = json!([erc721_transfer_details(chain, t)]);
    }
    if let Some(created) = create_details(tx) {
        details["internalTransactions"] = json!([created]);
    }
}

/// `InternalTransactionDetails` of the `CREATE` a deployment makes (`None` for another
/// transaction): from the deployer to the created contract, with the transaction's value and gas.
pub(crate) fn create_details(tx: &Tx) -> Option<Value> {
    let contract = tx.contract_address.as_ref()?;
    Some(json!({
        "from": { "address": tx.from },
        "to": { "address": contract },
        "internalTxType": "CREATE",
        "value": tx.value.to_string(),
        "isReverted": false,
        "gasUsed": tx.gas_used.to_string(),
        "gasLimit": tx.gas_used.to_string(),
    }))
}

fn overlay(value: &mut Value, request: &Request, chain: &Chain, number: u64, tx: &Tx) {
    let world = &request.state.world;
    let ms = world.block_timestamp_ms(chain, number);
    let Some(obj) = value.as_object_mut() else { return };
    let zero = format!("0x{}", "0".repeat(40));
    let facts = [
        ("blockNumber", Value::from(number.to_string())),
        ("blockTimestamp", Value::from(ms.div_euclid(1000))),
        ("blockTimestampMilliseconds", Value::from(ms)),
        ("blockHash", Value::from(world.block_hash(chain, number))),
        ("chainId", Value::from(chain.evm_chain_id.to_string())),
        ("blockIndex", Value::from(tx.index)),
        ("txHash", Value::from(tx.hash.clone())),
        ("txStatus", Value::from(if tx.failed { "0" } else { "1" })),
        ("gasLimit", Value::from(tx.gas_used.to_string())),
        ("gasUsed", Value::from(tx.gas_used.to_string())),
        ("gasPrice", Value::from(tx.gas_price.to_string())),
        ("from", json!({ "address": tx.from })),
        ("to", json!({ "address": tx.to.clone().unwrap_or(zero) })),
        ("value", Value::from(tx.value.to_string())),
    ];
    for (key, fact) in facts {
        obj.insert(key.to_string(), fact);
    }
}

/// `Erc20Token`: the token's contract and metadata.
pub(crate) fn token_json(token: &Token) -> Value {
    json!({
        "address": token.address,
        "name": token.name,
        "symbol": token.symbol,
        "decimals": token.decimals,
        "logoUri": format!("https://images.emulator.invalid/tokens/{}.png", token.symbol.to_lowercase()),
        "ercType": "ERC-20",
    })
}

/// `Erc20TransferDetails`: the transfer inside a transaction's details.
pub(crate) fn transfer_details(t: &Erc20Transfer) -> Value {
    json!({
        "from": { "address": t.from },
        "to": { "address": t.to },
        "logIndex": t.log_index,
        "value": t.value(),
        "erc20Token": token_json(t.token),
    })
}

/// `Erc721TransferDetails`: the transfer inside a transaction's details.
pub(crate) fn erc721_transfer_details(chain: &Chain, t: &Erc721Transfer) -> Value {
    json!({
        "from": { "address": t.from() },
        "to": { "address": t.to },
        "logIndex": t.log_index,
        "erc721Token": erc721_token_json(chain, t),
    })
}

/// `Erc721Token`: the collection and the token, its metadata indexed.
fn erc721_token_json(chain: &Chain, t: &Erc721Transfer) -> Value {
    let (_, name, symbol, _) = crate::world::nft::contracts(chain).swap_remove(0);
    json!({
        "address": t.contract,
        "name": name,
        "symbol": symbol,
        "ercType": "ERC-721",
        "tokenId": t.token_id.to_string(),
        "tokenUri": t.token_uri(),
        "metadata": { "indexStatus": "INDEXED", "name": format!("{name} #{}", t.token_id), "symbol": symbol },
        "ownerAddress": t.to,
    })
}
