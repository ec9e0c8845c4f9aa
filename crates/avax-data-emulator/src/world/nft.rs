//! The world's NFT collection: on every `nftIndexing` chain, its first ERC-721 contract
//! ([`collection_address`], the "Punks" of `listCollectibleBalances`) is minted by the world's
//! transactions.
//!
//! About one in forty plain transactions of such a chain (not a contract creation, not an ERC-20
//! call) is a `mint()` call ([`mint_at`]): its `to` is the collection, its native value 0, its
//! input the 4-byte selector [`MINT_SELECTOR`], and it emits one ERC-721 `Transfer` log from the
//! zero address to the sender with a token id no other mint uses ([`minted_token_id`]). The
//! minted token stays with its minter, so `listErc721Transactions` of an address and its
//! collectibles agree: every token it minted in blocks `0..=tip` is among its collectibles.

use std::sync::OnceLock;

use super::{chains, derive, digest, hex0x, Chain, Feature};

/// The `mint()` selector.
pub const MINT_SELECTOR: [u8; 4] = [0x12, 0x49, 0xc5, 0x8b];
/// Minted token ids start above this (the collection's pre-minted holdings stay below it).
pub const MINTED_BASE: u128 = 100_000_000;

const P_MINT: u64 = 0x6d69_6e74;

/// Contract `j` of the NFT contracts of the chain `evm_chain_id` (`0x` + 40 lowercase hex);
/// contract 0 is the world's collection.
pub fn contract_address(evm_chain_id: u64, j: u64) -> String {
    hex0x(&contract_bytes(evm_chain_id, j))
}

/// [`contract_address`] as 20 bytes.
fn contract_bytes(evm_chain_id: u64, j: u64) -> [u8; 20] {
    let mut out = [0u8; 20];
    out.copy_from_slice(&digest("avax-data nft contract", &[evm_chain_id, j])[..20]);
    out
}

/// The NFT contracts of `chain` (none without `nftIndexing`): (address, name, symbol, ercType).
pub fn contracts(chain: &Chain) -> Vec<(String, String, String, &'static str)> {
    if !chain.has(Feature::NftIndexing) {
        return Vec::new();
    }
    let kinds = [
        ("Punks", "PUNK", "ERC-721"),
        ("Items", "ITEM", "ERC-1155"),
        ("Lands", "LAND", "ERC-721"),
        ("Badges", "BADGE", "ERC-1155"),
    ];
    kinds
        .iter()
        .enumerate()
        .map(|(j, (name, symbol, erc))| {
            let address = contract_address(chain.evm_chain_id, j as u64);
            (address, format!("{} {name}", chain.name), format!("{}{symbol}", &chain.token_symbol[..1]), *erc)
        })
        .collect()
}

/// The collection minted on `chain`; `None` for a chain without `nftIndexing`.
pub fn collection_address(chain: &Chain) -> Option<String> {
    chain.has(Feature::NftIndexing).then(|| contract_address(chain.evm_chain_id, 0))
}

/// The collection's address as 20 bytes (a mint's transaction reads it).
pub fn collection_bytes(chain: &Chain) -> [u8; 20] {
    cached_contract_bytes(chain, 0)
}

/// The address of the chain's ERC-1155 collection ([`super::erc1155::ITEMS`]) as 20 bytes.
pub fn items_bytes(chain: &Chain) -> [u8; 20] {
    cached_contract_bytes(chain, super::erc1155::ITEMS)
}

/// [`contract_bytes`] of contract `j` of `chain` (`j` < 4), hashed once per chain for all.
fn cached_contract_bytes(chain: &Chain, j: usize) -> [u8; 20] {
    static BYTES: OnceLock<Vec<[[u8; 20]; 4]>> = OnceLock::new();
    let all = BYTES.get_or_init(|| {
        chains().iter().map(|c| std::array::from_fn(|j| contract_bytes(c.evm_chain_id, j as u64))).collect()
    });
    match all.get(chain.index) {
        Some(bytes) if j < 4 && chains()[chain.index].evm_chain_id == chain.evm_chain_id => bytes[j],
        _ => contract_bytes(chain.evm_chain_id, j as u64),
    }
}

/// The token id transaction `k` of block `number` mints (distinct for every `(number, k)`).
pub fn minted_token_id(number: u64, k: u32) -> u128 {
    MINTED_BASE + u128::from(number) * 1_000 + u128::from(k) + 1
}

/// Whether transaction `k` of block `number` of `chain` mints, if it is a plain transaction
/// (decided in [`super::tx_facts`]): about one in forty, on an `nftIndexing` chain.
pub fn mint_at(seed: u64, chain: &Chain, number: u64, k: u32) -> bool {
    let key = number.wrapping_mul(1_000).wrapping_add(k as u64);
    chain.has(Feature::NftIndexing) && derive(seed, chain.evm_chain_id, key, P_MINT).is_multiple_of(40)
}

/// One ERC-721 transfer as a transaction of the world carries it (a mint: from the zero address).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erc721Transfer {
    /// The collection's contract.
    pub contract: String,
    /// The recipient (the minter).
    pub to: String,
    pub token_id: u128,
    /// Position of the `Transfer` log in the block.
    pub log_index: u32,
}

impl Erc721Transfer {
    /// The sender of a mint: the zero address.
    pub fn from(&self) -> String {
        hex0x(&[0u8; 20])
    }

    /// The token's metadata URI.
    pub fn token_uri(&self) -> String {
        token_uri(&self.contract, self.token_id)
    }
}

/// The metadata URI of token `token_id` of `contract`.
pub fn token_uri(contract: &str, token_id: u128) -> String {
    format!("ipfs://bafybeig{}/{token_id}.json", &contract[2..14])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::chain;

    #[test]
    fn mints_are_rare_distinct_and_only_where_nfts_are_indexed() {
        let c = chain(43114).unwrap();
        let mints = (0..4_000u64).filter(|&n| mint_at(3, c, n, 1)).count();
        assert!((50..160).contains(&mints), "{mints}");
        assert!((0..4_000u64).all(|n| !mint_at(3, chain(53935).unwrap(), n, 1)), "DFK has no nftIndexing");
        assert_ne!(minted_token_id(1, 0), minted_token_id(0, 1));
        assert!(minted_token_id(0, 0) > MINTED_BASE);
        assert_eq!(collection_address(c).unwrap(), hex0x(&collection_bytes(c)));
        assert_eq!(collection_address(chain(53935).unwrap()), None);
    }
}
