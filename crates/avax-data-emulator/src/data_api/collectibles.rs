//! NFTs: `GET /v1/chains/{chainId}/addresses/{address}/balances:listCollectibles`.
//!
//! Every `nftIndexing` chain has four contracts ([`contracts`]: two ERC-721, two ERC-1155); the
//! first is the world's collection, minted by its transactions ([`crate::world::nft`]): the
//! tokens an address minted in blocks `0..=tip` follow its pre-minted ones (ids above
//! [`nft::MINTED_BASE`], indexed, `metadataLastUpdatedTimestamp` = the mint's block time).
//! Pool address `i` (see [`crate::world::pool_address`]) owns a deterministic set of items per
//! contract but the ERC-1155 collection (whose balances are what the blocks' logs moved,
//! [`crate::world::erc1155`]): entry 0 owns 40 per contract, entries 1..4 own 5..14, the rest 0..3 (half of them
//! none). Addresses outside the chain's pool, and chains without `nftIndexing`, own nothing (an
//! empty list, not an error). Items are listed by contract, then token id. Metadata `indexStatus`
//! is `INDEXED` for most items, else one of six other values of the OpenAPI enum; only indexed
//! items carry the descriptive metadata fields. An ERC-1155 token's metadata is the token's (the
//! same for every holder). The minted tokens come from the chain's mint table
//! ([`DataWorld::mints`], built on first use), not from a scan of the blocks per answer.

use std::sync::Arc;

use axum::extract::{Path, State};
use serde_json::{json, Map, Value};

use super::chains::lookup;
use super::errors::{self, Answer};
use super::paging;
use super::params::Params;
use super::DataApiState;
use crate::world::erc1155;
use crate::world::nft::{self, contracts};
use crate::world::{derive, range, Chain, DataWorld, WORLD_NOW_MS};

/// One NFT holding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collectible {
    pub evm_chain_id: u64,
    /// Contract address (lowercase hex).
    pub contract: String,
    pub name: String,
    pub symbol: String,
    /// `ERC-721` or `ERC-1155`.
    pub erc_type: &'static str,
    pub token_id: u128,
    pub token_uri: String,
    pub owner: String,
    /// ERC-1155 only.
    pub balance: Option<u128>,
    pub index_status: &'static str,
    /// Unix seconds.
    pub metadata_updated: i64,
}

const STATUSES: [&str; 6] = [
    "UNINDEXED",
    "UNKNOWN",
    "INVALID_TOKEN_URI",
    "UNREACHABLE_TOKEN_URI",
    "METADATA_CONTENT_TOO_LARGE",
    "INVALID_METADATA_JSON",
];
const P_NFT: u64 = 0x006e_6674;

/// One NFT contract of a chain: (address, name, symbol, ercType), as [`contracts`] lists them.
pub type NftContract = (String, String, String, &'static str);

impl DataWorld {
    /// The NFTs `owner` (any case) holds on `chain`, by contract then token id.
    pub fn collectibles(&self, chain: &Chain, owner: &str) -> Vec<Collectible> {
        self.collectibles_at(chain, owner, self.tip())
    }

    /// [`DataWorld::collectibles`] after block `upto`: the ERC-1155 collection's balances
    /// ([`crate::world::erc1155`]) are those after that block; the other contracts' holdings do
    /// not depend on it.
    pub fn collectibles_at(&self, chain: &Chain, owner: &str, upto: u64) -> Vec<Collectible> {
        let Some(i) = self.pool_index(owner).filter(|&i| i < chain.address_pool) else { return Vec::new() };
        contracts(chain)
            .iter()
            .enumerate()
            .flat_map(|(j, contract)| self.holdings_at(chain, i, j, contract, upto))
            .collect()
    }

    /// The items of contract `j` (`contract`, the `j`th of [`contracts`]) that pool address `i`
    /// holds, by token id: its pre-minted ones, then (the collection, `j` = 0) the tokens it
    /// minted in blocks `0..=tip`, looked up in the chain's mint table ([`DataWorld::mints`],
    /// built once), so an answer does not grow with the chain. The ERC-1155 collection
    /// ([`erc1155::ITEMS`]) holds no pre-minted items: its balances are what the blocks' logs
    /// moved ([`DataWorld::erc1155_ledger`]).
    pub fn holdings(&self, chain: &Chain, i: u64, j: usize, contract: &NftContract) -> Vec<Collectible> {
        self.holdings_at(chain, i, j, contract, self.tip())
    }

    /// [`DataWorld::holdings`] after block `upto` (the ERC-1155 collection's balances then).
    pub fn holdings_at(&self, chain: &Chain, i: u64, j: usize, contract: &NftContract, upto: u64) -> Vec<Collectible> {
        let seed = self.seed();
        let id = chain.evm_chain_id;
        let d = |k: u64, p: u64| derive(seed, id, i * 1_000_003 + j as u64 * 1_009 + k, P_NFT + p);
        let erc1155 = contract.3 == "ERC-1155";
        let item = |token_id: u128, balance: Option<u128>| self.nft_item(chain, i, j, contract, token_id, balance);
        if j == erc1155::ITEMS && erc1155 {
            let balances = self.erc1155_ledger(chain).balances(i, upto);
            return balances.into_iter().map(|(token, balance)| item(u128::from(token), Some(balance))).collect();
        }
        let count = match i {
            0 => 40,
            1..=3 => range(d(0, 1), 5, 14),
            _ => (d(0, 2) % 8).saturating_sub(4),
        };
        let mut out: Vec<Collectible> = (0..count)
            .map(|k| {
                let token_id = if erc1155 { k as u128 + 1 } else { i as u128 * 10_000 + k as u128 + 1 };
                item(token_id, erc1155.then(|| range(d(k + 1, 4), 1, 1_000) as u128))
            })
            .collect();
        if j == 0 {
            for mint in self.mints(chain).of(i) {
                let block_s = self.block_timestamp_ms(chain, mint.number).div_euclid(1000);
                out.push(Collectible {
                    index_status: "INDEXED",
                    metadata_updated: block_s,
                    ..item(mint.token_id, None)
                });
            }
        }
        out
    }

    /// Token `token_id` of contract `j` (`contract`) held by pool address `i` (an ERC-1155
    /// token's `balance` given): its URI, and metadata drawn per token (an ERC-1155 token's the
    /// same for every holder) or per holding (an ERC-721 token's).
    pub fn nft_item(
        &self,
        chain: &Chain,
        i: u64,
        j: usize,
        contract: &NftContract,
        token_id: u128,
        balance: Option<u128>,
    ) -> Collectible {
        let (address, name, symbol, erc) = (&contract.0, &contract.1, &contract.2, contract.3);
        let (seed, id) = (self.seed(), chain.evm_chain_id);
        // The k of the token among the holding (pre-minted ERC-721 ids are `i * 10_000 + k + 1`).
        let k = if erc == "ERC-1155" { token_id as u64 - 1 } else { (token_id as u64 - 1) % 10_000 };
        let m = |p: u64| {
            if erc == "ERC-1155" {
                derive(seed, id, j as u64 * 1_009 + k + 1, P_NFT + p)
            } else {
                derive(seed, id, i * 1_000_003 + j as u64 * 1_009 + k + 1, P_NFT + p)
            }
        };
        let x = m(3);
        let index_status = if x % 10 < 7 { "INDEXED" } else { STATUSES[(x / 10 % STATUSES.len() as u64) as usize] };
        Collectible {
            evm_chain_id: id,
            contract: address.clone(),
            name: name.clone(),
            symbol: symbol.clone(),
            erc_type: erc,
            token_id,
            token_uri: nft::token_uri(address, token_id),
            owner: crate::world::pool_address(i),
            balance,
            index_status,
            metadata_updated: WORLD_NOW_MS / 1000 - (m(5) % (90 * 86_400)) as i64,
        }
    }
}

impl Collectible {
    /// As `Erc721TokenBalance` / `Erc1155TokenBalance` JSON.
    pub fn to_json(&self) -> Value {
        let mut metadata = Map::new();
        metadata.insert("indexStatus".into(), json!(self.index_status));
        metadata.insert("metadataLastUpdatedTimestamp".into(), json!(self.metadata_updated));
        if self.index_status == "INDEXED" {
            metadata.insert("name".into(), json!(format!("{} #{}", self.name, self.token_id)));
            metadata.insert("symbol".into(), json!(self.symbol));
            metadata.insert(
                "imageUri".into(),
                json!(format!("https://images.emulator.invalid/nft/{}/{}.png", self.contract, self.token_id)),
            );
            metadata.insert("description".into(), json!(format!("Token {} of {}", self.token_id, self.name)));
            metadata.insert(
                "externalUrl".into(),
                json!(format!("https://nft.emulator.invalid/{}/{}", self.contract, self.token_id)),
            );
            metadata.insert("background".into(), json!("#1f1f1f"));
            if self.balance.is_some() {
                metadata.insert("decimals".into(), json!(0));
                metadata.insert("properties".into(), json!(format!("{{\"rarity\":\"{}\"}}", self.token_id % 5)));
            } else {
                metadata.insert("animationUri".into(), json!(""));
                metadata.insert(
                    "attributes".into(),
                    json!(format!("[{{\"trait_type\":\"level\",\"value\":{}}}]", self.token_id % 100)),
                );
            }
        }
        let mut item = json!({
            "address": self.contract,
            "ercType": self.erc_type,
            "tokenId": self.token_id.to_string(),
            "tokenUri": self.token_uri,
            "metadata": Value::Object(metadata),
            "chainId": self.evm_chain_id.to_string(),
        });
        match self.balance {
            Some(balance) => item["balance"] = json!(balance.to_string()),
            None => {
                item["name"] = json!(self.name);
                item["symbol"] = json!(self.symbol);
                item["ownerAddress"] = json!(self.owner);
            }
        }
        item
    }
}

pub(crate) fn is_address(text: &str) -> bool {
    text.len() == 42
        && (text.starts_with("0x") || text.starts_with("0X"))
        && text[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

pub(crate) async fn list(
    State(data): State<Arc<DataApiState>>,
    Path((chain_id, address)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let size = params.page_size(500);
    let contract = params.get("contractAddress").map(str::to_string);
    if contract.as_deref().is_some_and(|c| !is_address(c)) {
        params.problem("contractAddress must be an Ethereum address".to_string());
    }
    params.finish()?;
    let chain = lookup(&chain_id)?;
    if !is_address(&address) {
        return Err(errors::bad_request(format!("Invalid address {address:?}: expected 0x followed by 40 hex digits")));
    }
    let route = format!("collectibles/{}/{}", chain.evm_chain_id, address.to_ascii_lowercase());
    let fingerprint = params.fingerprint(&route).to_ascii_lowercase();
    let start = paging::start(&data, &params, &fingerprint)?;
    let mut items = data.world.collectibles(chain, &address);
    if let Some(c) = contract {
        items.retain(|item| item.contract.eq_ignore_ascii_case(&c));
    }
    paging::list_page(&data, "collectibleBalances", &items, (start, size), &fingerprint, Collectible::to_json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{chain, known_owner_addresses, pool_address};

    #[test]
    fn known_owners_hold_both_kinds_and_strangers_nothing() {
        let w = DataWorld::new(4, 10);
        for id in [43114, 4337, 43113, 173750] {
            let c = chain(id).unwrap();
            let first = w.collectibles(c, &known_owner_addresses()[0]);
            let minted = first.iter().filter(|i| i.token_id > nft::MINTED_BASE).count();
            let items = first.iter().filter(|i| i.contract == contracts(c)[erc1155::ITEMS].0).count();
            assert_eq!(first.len() - minted - items, 120, "40 pre-minted items per allocated contract");
            assert!(first.iter().any(|i| i.balance.is_some()) && first.iter().any(|i| i.balance.is_none()));
            assert!(first.iter().any(|i| i.index_status != "INDEXED"));
            for a in known_owner_addresses() {
                assert!(!w.collectibles(c, &a.to_uppercase().replacen("0X", "0x", 1)).is_empty());
            }
            assert!(w.collectibles(c, "0x000000000000000000000000000000000000dead").is_empty());
        }
        assert!(w.collectibles(chain(53935).unwrap(), &pool_address(0)).is_empty());
        let pre_minted = |w: &DataWorld| -> Vec<Collectible> {
            let held = w.collectibles(chain(43114).unwrap(), &pool_address(7));
            held.into_iter().filter(|i| i.token_id <= nft::MINTED_BASE).collect()
        };
        assert_eq!(pre_minted(&w), pre_minted(&DataWorld::new(4, 99)), "pre-minted items do not depend on the blocks");
    }

    #[test]
    fn a_minter_holds_every_token_it_minted() {
        let w = DataWorld::new(2, 1_500);
        let c = chain(43114).unwrap();
        let mut mints = 0;
        for n in 0..w.blocks_per_chain() {
            for tx in w.transactions(c, n).unwrap() {
                let Some(t) = &tx.nft else { continue };
                mints += 1;
                assert_eq!((t.to.as_str(), tx.to.as_deref()), (tx.from.as_str(), Some(t.contract.as_str())));
                let held = w.collectibles(c, &tx.from);
                let item = held.iter().find(|i| i.token_id == t.token_id).expect("the minter holds it");
                assert_eq!((item.contract.as_str(), item.erc_type), (t.contract.as_str(), "ERC-721"));
                if mints > 20 {
                    return;
                }
            }
        }
        panic!("only {mints} mints in 1,500 blocks");
    }
}
