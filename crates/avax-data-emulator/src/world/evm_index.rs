//! Per-chain tables of the world's EVM transactions that answers look up instead of scanning the
//! blocks: the mints of the NFT collection ([`Mints`]), the contract deployments ([`Activity`]),
//! the pool addresses that took part in a transaction ([`DataWorld::took_part`]) and the ERC-1155
//! collection's transfers ([`Ledger`]). Each table is built on its first use on a chain, once:
//! the mints and deployments in one pass over the draw that decides them, with the facts
//! ([`super::tx_facts`]: no encoding, no signing) of the transactions it picks; the ERC-1155
//! transfers in one pass over the facts; the addresses by a scan of the facts from the first
//! block that goes only as far as a question needs (the next resumes it). Nothing is built with
//! the world, so building it and serving `C/block` cost what they did.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::erc1155::{Erc1155Item, Ledger};
use super::{
    base_fee, cchain, chains, creates_contract, hex0x, nft, pool_address_bytes, tx_count, tx_facts, Chain, DataWorld,
    Feature, TxFacts,
};
use crate::formats::coreth;

/// One `mint()` of the chain's NFT collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mint {
    /// The block.
    pub number: u64,
    /// The transaction's index in the block.
    pub index: u32,
    /// The minter's index in the address pool (the token's holder: minted tokens stay put).
    pub minter: u64,
    /// The minted token ([`nft::minted_token_id`]).
    pub token_id: u128,
}

/// One contract deployment (a transaction without `to`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployment {
    /// The block.
    pub number: u64,
    /// The transaction's index in the block.
    pub index: u32,
    /// The deployer's index in the address pool.
    pub deployer: u64,
    /// The created contract, `0x` + 40 lowercase hex ([`cchain::created_address`]).
    pub contract: String,
}

/// The mints of a chain's collection, in block order.
#[derive(Debug, Default)]
pub struct Mints {
    all: Vec<Mint>,
    by_minter: HashMap<u64, Vec<usize>>,
}

impl Mints {
    /// Every mint, oldest first.
    pub fn all(&self) -> &[Mint] {
        &self.all
    }

    /// The mints of pool address `minter`, oldest first.
    pub fn of(&self, minter: u64) -> impl Iterator<Item = &Mint> {
        self.by_minter.get(&minter).into_iter().flatten().map(|&i| &self.all[i])
    }

    /// The mint of `token_id`.
    pub fn token(&self, token_id: u128) -> Option<&Mint> {
        // Token ids grow with (block, index), so the mints are sorted by token id.
        self.all.binary_search_by_key(&token_id, |m| m.token_id).ok().map(|i| &self.all[i])
    }
}

/// The contract deployments of a chain.
#[derive(Debug, Default)]
pub struct Activity {
    deployments: Vec<Deployment>,
    by_contract: HashMap<String, usize>,
    by_deployer: HashMap<u64, Vec<usize>>,
}

impl Activity {
    /// Every deployment, oldest first.
    pub fn deployments(&self) -> &[Deployment] {
        &self.deployments
    }

    /// The deployment that created `contract` (lowercase `0x` hex).
    pub fn deployment_of(&self, contract: &str) -> Option<&Deployment> {
        self.by_contract.get(contract).map(|&i| &self.deployments[i])
    }

    /// The deployments pool address `deployer` made, oldest first.
    pub fn deployed_by(&self, deployer: u64) -> impl DoubleEndedIterator<Item = &Deployment> {
        self.by_deployer.get(&deployer).map_or(&[][..], Vec::as_slice).iter().map(|&i| &self.deployments[i])
    }
}

/// The pool addresses seen in a chain's transactions of blocks `0..next`: a bit per address.
#[derive(Debug, Default)]
struct Parties {
    next: u64,
    seen: Vec<u64>,
}

impl Parties {
    fn mark(&mut self, index: u64) {
        let word = (index / 64) as usize;
        if self.seen.len() <= word {
            self.seen.resize(word + 1, 0);
        }
        self.seen[word] |= 1 << (index % 64);
    }

    fn has(&self, index: u64) -> bool {
        self.seen.get((index / 64) as usize).is_some_and(|w| w & (1 << (index % 64)) != 0)
    }
}

/// The tables of every chain, each built on first use.
pub(crate) struct EvmIndex {
    mints: Vec<OnceLock<Mints>>,
    activity: Vec<OnceLock<Activity>>,
    parties: Vec<Mutex<Parties>>,
    erc1155: Vec<OnceLock<Ledger>>,
}

impl EvmIndex {
    /// No table built yet.
    pub(crate) fn new() -> EvmIndex {
        EvmIndex {
            mints: chains().iter().map(|_| OnceLock::new()).collect(),
            activity: chains().iter().map(|_| OnceLock::new()).collect(),
            parties: chains().iter().map(|_| Mutex::new(Parties::default())).collect(),
            erc1155: chains().iter().map(|_| OnceLock::new()).collect(),
        }
    }
}

impl DataWorld {
    /// The facts and the hash of transaction `k` of block `number` of `chain` (the hash
    /// [`DataWorld::transactions`] gives it), without building the rest of the block.
    pub fn tx_facts_and_hash(&self, chain: &Chain, number: u64, k: u32) -> (TxFacts, String) {
        let seed = self.seed();
        let f = tx_facts(seed, chain, number, k, base_fee(seed, chain, number));
        let mut encoded = Vec::with_capacity(256);
        cchain::coreth_tx(seed, chain, number, k, &f).encode(&mut encoded);
        (f, hex0x(&coreth::keccak256(&encoded)))
    }

    /// The mints of `chain`'s collection in blocks `0..=tip` (built on the first call).
    pub fn mints(&self, chain: &Chain) -> &Mints {
        self.evm_index.mints[chain.index].get_or_init(|| {
            let seed = self.seed();
            let mut mints = Mints::default();
            for n in 0..self.blocks_per_chain() {
                for k in 0..tx_count(seed, chain, n) {
                    if !nft::mint_at(seed, chain, n, k) {
                        continue;
                    }
                    let f = tx_facts(seed, chain, n, k, base_fee(seed, chain, n));
                    if f.mint {
                        mints.by_minter.entry(f.from).or_default().push(mints.all.len());
                        let token_id = nft::minted_token_id(n, k);
                        mints.all.push(Mint { number: n, index: k, minter: f.from, token_id });
                    }
                }
            }
            mints
        })
    }

    /// Every ERC-1155 item (one per id a log moved) of `chain`'s blocks `0..=tip`, oldest first
    /// (built on the first call, one pass over the chain's transaction facts). A log's index
    /// counts the block's earlier logs: one per transaction that emits any (an ERC-20 transfer,
    /// an ERC-721 mint or an ERC-1155 call that did not fail), as [`super::block_transactions`]
    /// numbers them.
    pub fn erc1155_ledger(&self, chain: &Chain) -> &Ledger {
        self.evm_index.erc1155[chain.index].get_or_init(|| {
            let seed = self.seed();
            let mut items = Vec::new();
            if !chain.has(Feature::NftIndexing) {
                return Ledger { items };
            }
            for n in 0..self.blocks_per_chain() {
                let base = base_fee(seed, chain, n);
                let mut logs = 0u32;
                for k in 0..tx_count(seed, chain, n) {
                    let f = tx_facts(seed, chain, n, k, base);
                    if let Some(call) = f.erc1155.filter(|_| !f.failed) {
                        items.extend(call.items().map(|(token_id, value)| Erc1155Item {
                            number: n,
                            index: k,
                            log_index: logs,
                            from: call.from,
                            to: call.to,
                            token_id,
                            value,
                        }));
                    }
                    logs += u32::from(f.mint || (!f.failed && (f.erc20.is_some() || f.erc1155.is_some())));
                }
            }
            Ledger { items }
        })
    }

    /// The deployments of `chain` in blocks `0..=tip` (built on the first call, from the facts of
    /// the transactions [`creates_contract`] picks).
    pub fn activity(&self, chain: &Chain) -> &Activity {
        self.evm_index.activity[chain.index].get_or_init(|| {
            let seed = self.seed();
            let mut out = Activity::default();
            for n in 0..self.blocks_per_chain() {
                for k in (0..tx_count(seed, chain, n)).filter(|&k| creates_contract(seed, chain, n, k)) {
                    let f = tx_facts(seed, chain, n, k, base_fee(seed, chain, n));
                    let nonce = cchain::tx_nonce(seed, chain, n, k);
                    let contract = hex0x(&cchain::created_address(&pool_address_bytes(f.from), nonce));
                    out.by_contract.insert(contract.clone(), out.deployments.len());
                    out.by_deployer.entry(f.from).or_default().push(out.deployments.len());
                    out.deployments.push(Deployment { number: n, index: k, deployer: f.from, contract });
                }
            }
            out
        })
    }

    /// Whether pool address `index` sent or received a transaction of `chain` (or the tokens of
    /// an ERC-20 transfer that did not fail) in blocks `0..=tip`. The chain's transactions are
    /// scanned from block 0 until the address is seen (or to the tip), once: a later question
    /// resumes where the last stopped.
    pub fn took_part(&self, chain: &Chain, index: u64) -> bool {
        if index >= chain.address_pool {
            return false;
        }
        let seed = self.seed();
        let mut parties = self.evm_index.parties[chain.index].lock().unwrap_or_else(PoisonError::into_inner);
        while !parties.has(index) && parties.next < self.blocks_per_chain() {
            let n = parties.next;
            let base = base_fee(seed, chain, n);
            for k in 0..tx_count(seed, chain, n) {
                let f = tx_facts(seed, chain, n, k, base);
                parties.mark(f.from);
                f.to.into_iter().chain(f.erc20.filter(|_| !f.failed).map(|c| c.to)).for_each(|i| parties.mark(i));
            }
            parties.next = n + 1;
        }
        parties.has(index)
    }
}

#[cfg(test)]
mod tests {
    use crate::world::{chain, pool_address, DataWorld};

    #[test]
    fn the_tables_are_the_blocks_transactions() {
        let w = DataWorld::new(6, 600);
        let c = chain(43114).unwrap();
        let (mut mints, mut deployments, mut involved) = (Vec::new(), Vec::new(), std::collections::HashSet::new());
        for n in 0..w.blocks_per_chain() {
            for tx in w.transactions(c, n).unwrap() {
                involved.insert(tx.from.clone());
                involved.extend(tx.to.clone());
                involved.extend(tx.erc20.as_ref().map(|t| t.to.clone()));
                if let Some(t) = &tx.nft {
                    mints.push((n, tx.index, tx.from.clone(), t.token_id));
                }
                if let Some(contract) = &tx.contract_address {
                    deployments.push((n, tx.index, tx.from.clone(), contract.clone()));
                }
            }
        }
        let index = w.mints(c);
        let got: Vec<_> = index.all().iter().map(|m| (m.number, m.index, pool_address(m.minter), m.token_id)).collect();
        assert_eq!(got, mints);
        assert!(mints.len() > 20, "{}", mints.len());
        for m in index.all() {
            assert_eq!(index.token(m.token_id), Some(m));
            assert!(index.of(m.minter).any(|x| x == m));
        }
        assert_eq!(index.token(1), None);
        let activity = w.activity(c);
        let got: Vec<_> = activity
            .deployments()
            .iter()
            .map(|d| (d.number, d.index, pool_address(d.deployer), d.contract.clone()))
            .collect();
        assert_eq!(got, deployments);
        assert!(deployments.len() > 50, "{}", deployments.len());
        for d in activity.deployments() {
            assert_eq!(activity.deployment_of(&d.contract), Some(d));
            let tx = &w.transactions(c, d.number).unwrap()[d.index as usize];
            let (f, hash) = w.tx_facts_and_hash(c, d.number, d.index);
            assert_eq!((hash.as_str(), f.value, f.gas_used), (tx.hash.as_str(), tx.value, tx.gas_used));
            assert!(activity.deployed_by(d.deployer).any(|x| x == d));
        }
        // Each question resumes the scan where the last stopped; the last two are past the pool.
        for i in 0..c.address_pool + 2 {
            assert_eq!(w.took_part(c, i), involved.contains(&pool_address(i)), "pool address {i}");
        }
        assert!(w.took_part(c, 0));
        assert!((0..c.address_pool).any(|i| !w.took_part(c, i)), "600 blocks leave some of the pool out");
        assert!(w.mints(chain(53935).unwrap()).all().is_empty(), "DFK has no nftIndexing");
    }
}
