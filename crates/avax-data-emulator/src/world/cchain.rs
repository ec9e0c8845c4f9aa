//! The Data API's EVM chains as coreth blocks, and the `C/block` index built from them.
//!
//! **One world.** Block `n` of an EVM chain is encoded from exactly the numbers the Data API
//! serves for it ([`crate::world`]): number, time, gas limit, gas used (sum
//! of its transactions' gas), base fee, tx count and the transactions themselves (sender, to,
//! value, gas, gas price). So the Data API's `blockHash` IS `keccak256(rlp(header))`,
//! `parentHash` is the previous block's, and every tx hash IS `keccak256(tx encoding)`.
//! Encoding facts the Data API does not report are derived from `(seed, chain, number)`:
//! - `coinbase` = `0x0100…00` (coreth's black-hole address, as on Mainnet), difficulty 1, zero
//!   bloom, mixDigest and nonce, empty extData (`extDataHash` = keccak(0x80)), version 0, no
//!   uncles;
//! - `stateRoot`, `receiptsRoot` and `transactionsRoot` are pseudo-random stand-ins
//!   (`transactionsRoot`/`receiptsRoot` = the empty-trie root for an empty block), **not** trie
//!   roots;
//! - a transaction's nonce and input data (contract creations carry init code, about half of the
//!   calls a 4-byte selector and one word, an ERC-20 call its `transfer(to, amount)` input,
//!   [`super::erc20`], a mint the `mint()` selector, [`super::nft`]); gas limit = gas used. A
//!   failed transaction is in its block like any other (its status is a receipt's, which a
//!   `C/block` container does not hold); a deployment has no `to`, and the contract it creates is
//!   at [`created_address`] of its sender and nonce. Every transaction is signed by
//!   its sender's pool key ([`crate::formats::evm_keys`]): the `from` the Data API reports is the address
//!   a client recovers from v/r/s.
//!
//! **Upgrade schedule by height** (the Data API's block times all lie in 2025, so the coreth
//! upgrades are placed by height to make a small world cross them; every EVM chain uses it):
//!
//! | heights | upgrade | header fields | txs | `C/block` container |
//! |---|---|---|---|---|
//! | `0..16` | ApricotPhase1/2 | 16 (no baseFee) | legacy (EIP-155 v) | raw coreth block, id = cb58(eth hash) |
//! | `16..48` | ApricotPhase3 | 17 (+baseFee), 80-byte fee window in `extra` | 90% EIP-1559 | raw coreth block |
//! | `48..1024` | ApricotPhase4 = proposervm fork | 19 (+extDataGasUsed, blockGasCost) | 90% EIP-1559 | proposervm typeID 0 |
//! | `1024..4096` | Etna | 22 (+blobGasUsed, excessBlobGas, parentBeaconRoot) | 90% EIP-1559 | typeID 0 |
//! | `4096..` | Granite | 24 (+timeMilliseconds, minDelayExcess), 24-byte ACP-176 `extra` | 90% EIP-1559 | typeID 2 (epochs of 128 blocks) |
//!
//! Before ApricotPhase3 the header has no baseFee; the Data API's `baseFee` of such a block is
//! the floor its legacy gas prices were set against.
//!
//! **`C/block` index** ([`EvmChain::c_block`]): container `h` is block `h` of the emulated C-chain
//! (43114) of the world `(seed, data_blocks_per_chain)`. The functions are not bounded by the
//! Data API's tip, so an index longer than the Data API chain continues the same chain (equal
//! fields where both exist). Post-fork envelopes: parent = the previous container's id (the
//! first one's parent is the last raw block's eth hash), time = block time (s), P-chain height
//! `793005 + (h - 48) / 3`, about one in eight unsigned (empty cert and signature), the others
//! signed by [`crate::formats::proposervm::proposer_node_id`] with chain id = the Mainnet C-chain id.
//! Acceptance timestamp = block time (ms) + a jitter inside the rest of that second, so
//! timestamps strictly increase.
//!
//! **Cost.** The hash chain and the container-id chain are [`ChainCache`]s: a checkpoint every
//! 256 heights plus the last few 256-height segments, so walking the chain costs one header (or
//! one block) per height, amortised, and a million-block chain keeps ~4,000 checkpoints.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::world::{
    base_fee, block_timestamp_ms, derive, pool_address_bytes, purpose, range, tx_count, tx_facts, Chain, TxFacts,
    C_CHAIN_MAINNET_ID,
};
use avax_data_core::index::cb58;

use crate::formats::chain_cache::ChainCache;
use crate::formats::coreth::{self, Header, HeaderRlp, Signature, Tx, EMPTY_ROOT, EMPTY_UNCLE_HASH};
use crate::formats::enveloped::{EnvelopedChain, InnerChain};
use crate::formats::evm_keys;
use crate::formats::proposervm::{Epoch, Kind};

/// First ApricotPhase3 height (baseFee, EIP-1559 txs).
pub const AP3_HEIGHT: u64 = 16;
/// First ApricotPhase4 height, also the proposervm fork: the first enveloped `C/block`.
pub const FORK_HEIGHT: u64 = 48;
/// First Etna height.
pub const ETNA_HEIGHT: u64 = 1_024;
/// First Granite height (typeID 2 envelopes).
pub const GRANITE_HEIGHT: u64 = 4_096;
/// Blocks per proposervm epoch after Granite.
pub const EPOCH_BLOCKS: u64 = 128;
/// P-chain height of the first post-fork block (Mainnet's `ApricotPhase4MinPChainHeight`).
pub const FORK_P_CHAIN_HEIGHT: u64 = 793_005;

/// The coreth upgrade a height falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Upgrade {
    ApricotPhase1,
    ApricotPhase3,
    ApricotPhase4,
    Etna,
    Granite,
}

/// The upgrade active at `height` (the schedule in the module doc).
pub fn upgrade_at(height: u64) -> Upgrade {
    match height {
        h if h >= GRANITE_HEIGHT => Upgrade::Granite,
        h if h >= ETNA_HEIGHT => Upgrade::Etna,
        h if h >= FORK_HEIGHT => Upgrade::ApricotPhase4,
        h if h >= AP3_HEIGHT => Upgrade::ApricotPhase3,
        _ => Upgrade::ApricotPhase1,
    }
}

/// coreth's `BlackholeAddr`, the coinbase of every C-chain block.
pub const COINBASE: [u8; 20] = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// 32 pseudo-random bytes for `(seed, chain, a, purpose)`.
fn word(seed: u64, chain: u64, a: u64, purpose: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, part) in out.chunks_mut(8).enumerate() {
        part.copy_from_slice(&derive(seed, chain, a, purpose ^ ((i as u64 + 1) << 40)).to_be_bytes());
    }
    out
}

/// The nonce of transaction `k` of block `number` of `chain`.
pub fn tx_nonce(seed: u64, chain: &Chain, number: u64, k: u32) -> u64 {
    let key = number.wrapping_mul(1_000).wrapping_add(k as u64);
    derive(seed, chain.evm_chain_id, key, purpose::NONCE) % 100_000
}

/// The address of the contract `sender` creates with `nonce`: `keccak256(rlp([sender,
/// nonce]))[12..]`, as the EVM derives it.
pub fn created_address(sender: &[u8; 20], nonce: u64) -> [u8; 20] {
    use alloy_rlp::Encodable;
    let mut payload = Vec::with_capacity(30);
    sender[..].encode(&mut payload);
    nonce.encode(&mut payload);
    let mut rlp = Vec::with_capacity(32);
    alloy_rlp::Header { list: true, payload_length: payload.len() }.encode(&mut rlp);
    rlp.extend_from_slice(&payload);
    let mut out = [0u8; 20];
    out.copy_from_slice(&coreth::keccak256(&rlp)[12..]);
    out
}

/// Transaction `k` of block `number` in coreth form, from its Data API facts `f`.
pub fn coreth_tx(seed: u64, chain: &Chain, number: u64, k: u32, f: &TxFacts) -> Tx {
    coreth_tx_with(seed, chain, number, k, f, Vec::new())
}

/// [`coreth_tx`] with its input written into `data` (cleared first): a block's encoder hands
/// back the buffers of its previous block's transactions, so a transaction allocates nothing.
fn coreth_tx_with(seed: u64, chain: &Chain, number: u64, k: u32, f: &TxFacts, mut data: Vec<u8>) -> Tx {
    let id = chain.evm_chain_id;
    let key = number.wrapping_mul(1_000).wrapping_add(k as u64);
    let d = |p: u64| derive(seed, id, key, p);
    let collection = f.mint.then(|| super::nft::collection_bytes(chain));
    let items = f.erc1155.map(|_| super::nft::items_bytes(chain));
    let to = f.erc20.map(|c| c.token.address_bytes()).or(collection).or(items).or_else(|| f.to.map(pool_address_bytes));
    data.clear();
    if let Some(call) = &f.erc20 {
        super::erc20::write_call_data(call, pool_address_bytes(call.to), &mut data);
    } else if f.mint {
        data.extend_from_slice(&super::nft::MINT_SELECTOR);
    } else if let Some(call) = &f.erc1155 {
        call.write_call_data(&mut data);
    } else if f.contract_creation {
        data.extend_from_slice(&[0x60, 0x80, 0x60, 0x40, 0x52]);
        let len = range(d(purpose::INPUT), 40, 400) as usize;
        while data.len() < len {
            data.extend_from_slice(&d(purpose::INPUT ^ data.len() as u64).to_be_bytes());
        }
        data.truncate(len);
    } else if d(purpose::INPUT) % 2 == 0 {
        data.extend_from_slice(&(d(purpose::INPUT ^ 1) as u32).to_be_bytes());
        data.extend_from_slice(&[0u8; 12]);
        data.extend_from_slice(&pool_address_bytes(d(purpose::INPUT ^ 2) % chain.address_pool));
    }
    let nonce = tx_nonce(seed, chain, number, k);
    // Signed below by the sender's pool key; `v` starts as the EIP-155 base for the chain.
    let unsigned = Signature { v: 0, r: [0; 32], s: [0; 32] };
    let mut tx = if number < AP3_HEIGHT || d(purpose::TYPE) % 10 == 0 {
        let sig = Signature { v: id * 2 + 35, ..unsigned };
        Tx::Legacy { nonce, gas_price: f.gas_price, gas: f.gas_used, to, value: f.value, data, sig }
    } else {
        Tx::DynamicFee {
            chain_id: id,
            nonce,
            max_priority_fee: f.priority,
            max_fee: f.gas_price,
            gas: f.gas_used,
            to,
            value: f.value,
            data,
            sig: unsigned,
        }
    };
    evm_keys::sign_tx(&mut tx, &evm_keys::pool_key(f.from));
    tx
}

/// The buffers [`EvmBlocks::encode_block`] reuses from block to block on one thread: the facts
/// of a block's transactions, its coreth transactions and the input buffers they hand back.
#[derive(Default)]
struct BlockScratch {
    facts: Vec<TxFacts>,
    txs: Vec<Tx>,
    inputs: Vec<Vec<u8>>,
}

impl BlockScratch {
    /// Empties `txs`, keeping each transaction's input buffer for the next block's.
    fn recycle(&mut self) {
        for tx in self.txs.drain(..) {
            let (Tx::Legacy { data, .. } | Tx::DynamicFee { data, .. }) = tx;
            self.inputs.push(data);
        }
    }
}

/// The blocks of one EVM chain of one world: pure functions of the height (no caches).
#[derive(Debug, Clone)]
pub struct EvmBlocks {
    seed: u64,
    blocks_per_chain: u64,
    chain: &'static Chain,
}

impl EvmBlocks {
    pub fn chain(&self) -> &'static Chain {
        self.chain
    }

    /// Block time of `number`, Unix ms (the Data API's `blockTimestampMilliseconds`).
    pub fn timestamp_ms(&self, number: u64) -> i64 {
        block_timestamp_ms(self.seed, self.blocks_per_chain, self.chain, number)
    }
    /// The facts of every transaction of block `number`.
    pub fn tx_facts(&self, number: u64) -> Vec<TxFacts> {
        let mut out = Vec::new();
        self.fill_tx_facts(number, &mut out);
        out
    }
    /// [`EvmBlocks::tx_facts`] into `out` (cleared first).
    fn fill_tx_facts(&self, number: u64, out: &mut Vec<TxFacts>) {
        let base = base_fee(self.seed, self.chain, number);
        out.clear();
        out.extend(
            (0..tx_count(self.seed, self.chain, number)).map(|k| tx_facts(self.seed, self.chain, number, k, base)),
        );
    }
    /// The header of block `number` whose parent hash is `parent`.
    pub fn header(&self, number: u64, parent: [u8; 32]) -> Header {
        let (seed, chain) = (self.seed, self.chain);
        let base = base_fee(seed, chain, number);
        let count = tx_count(seed, chain, number);
        let gas_used = (0..count).map(|k| tx_facts(seed, chain, number, k, base).gas_used).sum();
        self.header_with(number, parent, count, gas_used)
    }
    /// The header of block `number` with `count` transactions using `gas_used` in all.
    fn header_with(&self, number: u64, parent: [u8; 32], count: u32, gas_used: u64) -> Header {
        let (seed, id, chain) = (self.seed, self.chain.evm_chain_id, self.chain);
        let base = base_fee(seed, chain, number);
        let ms = self.timestamp_ms(number);
        let upgrade = upgrade_at(number);
        let extra_words = match upgrade {
            Upgrade::ApricotPhase1 => 0,
            Upgrade::Granite => 3,
            _ => 10,
        };
        let extra = (0..extra_words)
            .flat_map(|i| (derive(seed, id, number, purpose::EXTRA ^ (i << 40)) >> 8).to_be_bytes())
            .collect();
        let tx_root = if count == 0 { EMPTY_ROOT } else { word(seed, id, number, purpose::ROOT ^ 1) };
        let receipt_root = if count == 0 { EMPTY_ROOT } else { word(seed, id, number, purpose::ROOT ^ 2) };
        let since = |u: Upgrade| upgrade >= u;
        Header {
            parent_hash: parent,
            uncle_hash: EMPTY_UNCLE_HASH,
            coinbase: COINBASE,
            state_root: word(seed, id, number, purpose::ROOT),
            transactions_root: tx_root,
            receipts_root: receipt_root,
            logs_bloom: [0; 256],
            difficulty: 1,
            number,
            gas_limit: chain.gas_limit,
            gas_used,
            time: ms.div_euclid(1000) as u64,
            extra,
            mix_digest: [0; 32],
            nonce: [0; 8],
            ext_data_hash: EMPTY_ROOT,
            base_fee: since(Upgrade::ApricotPhase3).then_some(base),
            ext_data_gas_used: since(Upgrade::ApricotPhase4).then_some(0),
            block_gas_cost: since(Upgrade::ApricotPhase4)
                .then(|| (derive(seed, id, number, purpose::EXTRA) % 20 * 10_000) as u128),
            blob_gas_used: since(Upgrade::Etna).then_some(0),
            excess_blob_gas: since(Upgrade::Etna).then_some(0),
            parent_beacon_root: since(Upgrade::Etna).then_some([0; 32]),
            time_milliseconds: since(Upgrade::Granite).then_some(ms as u64),
            min_delay_excess: since(Upgrade::Granite)
                .then(|| 7_970_000 + derive(seed, id, number, purpose::EXTRA ^ 1) % 1_000),
        }
    }
    /// The transactions of block `number` in coreth form.
    pub fn txs(&self, number: u64) -> Vec<Tx> {
        self.txs_of(number, &self.tx_facts(number))
    }
    fn txs_of(&self, number: u64, facts: &[TxFacts]) -> Vec<Tx> {
        facts.iter().enumerate().map(|(k, f)| coreth_tx(self.seed, self.chain, number, k as u32, f)).collect()
    }
    /// Appends `rlp(block)` of block `number` with parent hash `parent`; returns its eth hash.
    /// The transactions' facts are drawn once for the header's gas and the transactions. The
    /// facts, the transactions and their inputs live in buffers of the thread reused from block to
    /// block ([`BlockScratch`]): a walk encodes every block it serves, so nothing is allocated
    /// per transaction.
    pub fn encode_block(&self, number: u64, parent: [u8; 32], out: &mut Vec<u8>) -> [u8; 32] {
        thread_local! {
            static SCRATCH: std::cell::RefCell<BlockScratch> = std::cell::RefCell::default();
        }
        SCRATCH.with(|scratch| {
            // A nested call on this thread (none today) would get buffers of its own.
            let mut own = BlockScratch::default();
            let mut borrowed = scratch.try_borrow_mut();
            let scratch = borrowed.as_deref_mut().unwrap_or(&mut own);
            let (seed, chain) = (self.seed, self.chain);
            self.fill_tx_facts(number, &mut scratch.facts);
            let gas_used = scratch.facts.iter().map(|f| f.gas_used).sum();
            let header = self.header_with(number, parent, scratch.facts.len() as u32, gas_used);
            scratch.recycle();
            for (k, f) in scratch.facts.iter().enumerate() {
                let data = scratch.inputs.pop().unwrap_or_default();
                scratch.txs.push(coreth_tx_with(seed, chain, number, k as u32, f, data));
            }
            coreth::encode_block(out, &header, &scratch.txs, 0, &[])
        })
    }
    /// Whether `C/block` container `h` (post-fork) carries a certificate and a signature.
    pub fn is_signed(&self, h: u64) -> bool {
        !derive(self.seed, self.chain.evm_chain_id, h, purpose::SIGNED).is_multiple_of(8)
    }
    /// The P-chain height a post-fork envelope at `h` names.
    pub fn p_chain_height(&self, h: u64) -> u64 {
        FORK_P_CHAIN_HEIGHT + h.saturating_sub(FORK_HEIGHT) / 3
    }
    /// The envelope kind of post-fork container `h`.
    pub fn envelope_kind(&self, h: u64) -> Kind {
        if h < GRANITE_HEIGHT {
            return Kind::Stateless;
        }
        let number = (h - GRANITE_HEIGHT) / EPOCH_BLOCKS + 1;
        let start = GRANITE_HEIGHT + (number - 1) * EPOCH_BLOCKS;
        Kind::Granite(Epoch {
            p_chain_height: self.p_chain_height(start),
            number,
            start_time: self.timestamp_ms(start).div_euclid(1000),
        })
    }
    /// The node's acceptance time of `C/block` container `h`, Unix ns: the block time plus a
    /// jitter that stays inside the block's second (so strictly increasing).
    pub fn accepted_ns(&self, h: u64) -> i64 {
        let ms = self.timestamp_ms(h);
        let rest_ns = (1000 - ms.rem_euclid(1000)) as u64 * 1_000_000;
        ms * 1_000_000 + (derive(self.seed, self.chain.evm_chain_id, h, purpose::ACCEPT) % rest_ns) as i64
    }
}

impl InnerChain for EvmBlocks {
    fn inner_block(&self, height: u64, parent: &[u8; 32], out: &mut Vec<u8>) -> [u8; 32] {
        self.encode_block(height, *parent, out)
    }

    fn fork_height(&self) -> u64 {
        FORK_HEIGHT
    }

    fn chain_id(&self) -> [u8; 32] {
        c_chain_id()
    }

    fn envelope(&self, height: u64) -> (Kind, i64, u64, bool) {
        let time = self.timestamp_ms(height).div_euclid(1000);
        (self.envelope_kind(height), time, self.p_chain_height(height), self.is_signed(height))
    }
}

/// One EVM chain of one world as coreth blocks ([`EvmBlocks`], reachable through `Deref`), with
/// its hash chain and its `C/block` id chain.
pub struct EvmChain {
    blocks: EvmBlocks,
    /// Eth hash of each block.
    hashes: ChainCache<[u8; 32]>,
    /// The `C/block` index: (eth hash, container id) of each block.
    index: EnvelopedChain<EvmBlocks>,
    /// Eth hash -> number for blocks `0..blocks_per_chain`, built on the first lookup.
    by_hash: Mutex<Option<HashMap<[u8; 32], u64>>>,
}

impl std::ops::Deref for EvmChain {
    type Target = EvmBlocks;

    fn deref(&self) -> &EvmBlocks {
        &self.blocks
    }
}

impl std::fmt::Debug for EvmChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvmChain").field("seed", &self.seed).field("chain", &self.chain.evm_chain_id).finish()
    }
}

/// The Mainnet C-chain's 32-byte blockchain id: the `chainID` the envelopes are signed for.
pub fn c_chain_id() -> [u8; 32] {
    static ID: OnceLock<[u8; 32]> = OnceLock::new();
    *ID.get_or_init(|| cb58::decode_id(C_CHAIN_MAINNET_ID).expect("a valid id"))
}

impl EvmChain {
    fn new(seed: u64, blocks_per_chain: u64, chain: &'static Chain) -> EvmChain {
        let blocks = EvmBlocks { seed, blocks_per_chain, chain };
        let genesis = blocks.header(0, [0; 32]).hash();
        EvmChain {
            hashes: ChainCache::new(genesis),
            index: EnvelopedChain::new(blocks.clone()),
            blocks,
            by_hash: Mutex::new(None),
        }
    }

    /// (eth hash, container id) of `C/block` container `h`.
    pub fn index_state(&self, h: u64) -> ([u8; 32], [u8; 32]) {
        self.index.ids(h)
    }

    /// Writes `C/block` container `h` into `buf` (cleared first); returns its raw id.
    pub fn c_block(&self, h: u64, buf: &mut Vec<u8>) -> [u8; 32] {
        self.index.container(h, buf)
    }

    /// `C/block` container `h` as the cache of built containers holds it.
    pub fn c_block_served(&self, h: u64) -> crate::formats::served::Served {
        self.index.served(h)
    }

    /// How many blocks the `C/block` index has encoded ([`EnvelopedChain::blocks_encoded`]).
    pub fn c_blocks_encoded(&self) -> u64 {
        self.index.blocks_encoded()
    }

    /// Whether `C/block` container `h` is made without walking the id chain
    /// ([`EnvelopedChain::starts_cheaply`]).
    pub fn c_block_starts_cheaply(&self, h: u64) -> bool {
        self.index.starts_cheaply(h)
    }

    /// The shared instance for `(seed, blocks_per_chain, chain)` (the Data API world and the
    /// index use the same one, so each chain is hashed once per process).
    pub fn shared(seed: u64, blocks_per_chain: u64, chain: &'static Chain) -> Arc<EvmChain> {
        type Registry = Mutex<HashMap<(u64, u64, u64), Arc<EvmChain>>>;
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        let mut map = REGISTRY.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        map.entry((seed, blocks_per_chain, chain.evm_chain_id))
            .or_insert_with(|| Arc::new(EvmChain::new(seed, blocks_per_chain, chain)))
            .clone()
    }

    /// Eth hash of block `number` (any number, past the tip too).
    pub fn hash(&self, number: u64) -> [u8; 32] {
        self.hashes.state(number, |h, parent| self.header(h, *parent).hash())
    }

    /// Parent hash of block `number` (zero for block 0).
    pub fn parent_hash(&self, number: u64) -> [u8; 32] {
        number.checked_sub(1).map_or([0; 32], |p| self.hash(p))
    }

    /// The number of the block among `0..blocks_per_chain` whose eth hash is `hash`.
    pub fn number_by_hash(&self, hash: &[u8; 32]) -> Option<u64> {
        let mut map = self.by_hash.lock().unwrap_or_else(|e| e.into_inner());
        let map = map.get_or_insert_with(|| {
            let hashes = self.hashes.states(0, self.blocks_per_chain - 1, |h, parent| self.header(h, *parent).hash());
            hashes.into_iter().enumerate().map(|(n, h)| (h, n as u64)).collect()
        });
        map.get(hash).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::proposervm;
    use crate::formats::proposervm::tests::{cert_key, parse};
    use crate::world::{block_transactions, chain, DataWorld};
    use alloy_rlp::Header as RlpHeader;
    use p256::ecdsa::signature::Verifier;

    /// The items of an RLP list payload: (is a list, payload, whole item).
    fn items(mut payload: &[u8]) -> Vec<(bool, &[u8], &[u8])> {
        let mut out = Vec::new();
        while !payload.is_empty() {
            let start = payload;
            let h = RlpHeader::decode(&mut payload).unwrap();
            let header_len = start.len() - payload.len();
            out.push((h.list, &payload[..h.payload_length], &start[..header_len + h.payload_length]));
            payload = &payload[h.payload_length..];
        }
        out
    }

    fn list_payload(item: &[u8]) -> &[u8] {
        let mut rest = item;
        let h = RlpHeader::decode(&mut rest).unwrap();
        assert!(h.list);
        assert_eq!(rest.len(), h.payload_length, "the whole buffer is one list");
        rest
    }

    fn uint(bytes: &[u8]) -> u128 {
        bytes.iter().fold(0u128, |acc, &b| acc << 8 | b as u128)
    }

    fn hex0x(b: &[u8]) -> String {
        format!("0x{}", hex::encode(b))
    }

    /// Checks one coreth block against the Data API's block `h`; returns its eth hash.
    fn check_block(world: &DataWorld, inner: &[u8], h: u64) -> [u8; 32] {
        let c = chain(43114).unwrap();
        let block = world.block(c, h).unwrap();
        let parts = items(list_payload(inner));
        assert_eq!(parts.len(), 5, "header, txs, uncles, version, extData");
        let (_, header_payload, header_item) = parts[0];
        let hash = coreth::keccak256(header_item);
        assert_eq!(hex0x(&hash), block.hash, "{h}");
        let fields = items(header_payload);
        let expected_fields = match upgrade_at(h) {
            Upgrade::ApricotPhase1 => 16,
            Upgrade::ApricotPhase3 => 17,
            Upgrade::ApricotPhase4 => 19,
            Upgrade::Etna => 22,
            Upgrade::Granite => 24,
        };
        assert_eq!(fields.len(), expected_fields, "{h}");
        assert_eq!(hex0x(fields[0].1), block.parent_hash);
        assert_eq!(fields[2].1, COINBASE);
        assert_eq!(uint(fields[8].1), h as u128);
        assert_eq!(uint(fields[9].1), block.gas_limit as u128);
        assert_eq!(uint(fields[10].1), block.gas_used as u128);
        assert_eq!(uint(fields[11].1), block.timestamp() as u128);
        assert_eq!(fields[15].1, EMPTY_ROOT, "extDataHash of empty extData");
        if expected_fields >= 17 {
            assert_eq!(uint(fields[16].1), block.base_fee);
        }
        if expected_fields == 24 {
            assert_eq!(uint(fields[22].1), block.timestamp_ms as u128);
        }
        // Transactions: count and hashes equal the Data API's.
        let txs = items(parts[1].1);
        assert_eq!(txs.len() as u32, block.tx_count);
        let api_txs = block_transactions(world.seed(), 43114, h);
        for ((is_list, payload, whole), api) in txs.iter().zip(&api_txs) {
            let tx_hash = if *is_list {
                coreth::keccak256(whole)
            } else {
                assert_eq!(payload[0], 2, "typed txs are EIP-1559");
                assert!(h >= AP3_HEIGHT);
                coreth::keccak256(payload)
            };
            assert_eq!(hex0x(&tx_hash), api.hash);
        }
        // Every tx is signed by its sender's key: the recovered `from` is the Data API's.
        let senders = avax_data_core::decode::senders::block_senders(inner).unwrap();
        let api_from: Vec<&str> = api_txs.iter().map(|t| t.from.as_str()).collect();
        assert_eq!(senders.iter().map(|a| hex0x(a)).collect::<Vec<_>>(), api_from, "{h}");
        assert_eq!(parts[2].2, [0xc0], "no uncles");
        assert_eq!(parts[3].2, [0x80], "version 0");
        assert_eq!(parts[4].2, [0x80], "empty extData");
        hash
    }

    #[test]
    fn c_block_containers_are_the_data_api_blocks_in_real_formats() {
        let world = DataWorld::new(21, 5_000);
        let evm = world.evm_chain(chain(43114).unwrap());
        let key = cert_key(proposervm::proposer_cert());
        let mut buf = Vec::new();
        let (mut prev_id, mut prev_ts) = ([0u8; 32], i64::MIN);
        let (mut signed, mut unsigned, mut granite) = (0, 0, 0);
        let heights: Vec<u64> = (0..400).chain(GRANITE_HEIGHT - 200..GRANITE_HEIGHT + 200).collect();
        for (i, &h) in heights.iter().enumerate() {
            if i > 0 && heights[i - 1] != h - 1 {
                prev_id = evm.index_state(h - 1).1;
                prev_ts = evm.accepted_ns(h - 1);
            }
            let id = evm.c_block(h, &mut buf);
            assert_eq!(evm.index_state(h).1, id, "the id chain agrees with the bytes");
            let ts = evm.accepted_ns(h);
            assert!(ts > prev_ts, "{h}");
            assert!(ts >= evm.timestamp_ms(h) * 1_000_000);
            prev_ts = ts;
            if h < FORK_HEIGHT {
                assert!(buf[0] >= 0xf8, "a raw block is an RLP list");
                let eth = check_block(&world, &buf, h);
                assert_eq!(id, eth, "pre-fork id = eth hash");
            } else {
                let (parent, cert, inner, sig, parsed_id) = parse(&buf);
                assert_eq!(parsed_id, id, "id = sha256 of the bytes without the signature");
                assert_eq!(parent, prev_id, "{h}");
                let type_id = u32::from_be_bytes(buf[2..6].try_into().unwrap());
                assert_eq!(type_id, if h >= GRANITE_HEIGHT { 2 } else { 0 });
                assert_eq!(u64::from_be_bytes(buf[38..46].try_into().unwrap()), evm.timestamp_ms(h) as u64 / 1000);
                if type_id == 2 {
                    granite += 1;
                    let epoch = &buf[buf.len() - 4 - sig.len() - 24..buf.len() - 4 - sig.len()];
                    assert!(epoch.chunks(8).all(|w| w != [0; 8]), "non-zero epoch");
                }
                if cert.is_empty() {
                    unsigned += 1;
                    assert!(sig.is_empty());
                } else {
                    signed += 1;
                    let sig = p256::ecdsa::Signature::from_der(&sig).unwrap();
                    key.verify(&proposervm::signed_header(&c_chain_id(), &parent, &id), &sig).unwrap();
                }
                check_block(&world, &inner, h);
            }
            prev_id = id;
        }
        assert!(signed > 300 && unsigned > 20 && granite == 200, "{signed} {unsigned} {granite}");
    }

    #[test]
    fn a_created_contract_is_at_the_evm_address_of_sender_and_nonce() {
        let sender: [u8; 20] = hex::decode("6ac7ea33f8831ea9dcc53393aaa88b25a785dbf0").unwrap().try_into().unwrap();
        assert_eq!(hex::encode(created_address(&sender, 0)), "cd234a471b72ba2f1ccf0a70fcaba648a5eecd8d");
        assert_eq!(hex::encode(created_address(&sender, 1)), "343c43a37d37dff08ae8c4a11544c718abb4fcf8");
        assert_ne!(created_address(&sender, 70_000), created_address(&sender, 70_001));
    }

    #[test]
    fn the_first_post_fork_parent_is_the_last_raw_block() {
        let world = DataWorld::new(4, 100);
        let evm = world.evm_chain(chain(43114).unwrap());
        let mut buf = Vec::new();
        let last_raw = evm.c_block(FORK_HEIGHT - 1, &mut buf);
        assert_eq!(hex0x(&last_raw), world.block(chain(43114).unwrap(), FORK_HEIGHT - 1).unwrap().hash);
        evm.c_block(FORK_HEIGHT, &mut buf);
        assert_eq!(parse(&buf).0, last_raw);
    }

    #[test]
    fn c_block_generation_speed() {
        let world = DataWorld::new(1, 5_000);
        let evm = world.evm_chain(chain(43114).unwrap());
        let t = std::time::Instant::now();
        evm.index_state(4_999);
        let walk = t.elapsed();
        let mut buf = Vec::new();
        let t = std::time::Instant::now();
        let mut bytes = 0;
        for h in 3_000..3_000 + 1_024 {
            evm.c_block(h, &mut buf);
            bytes += buf.len();
        }
        let range = t.elapsed();
        println!(
            "id chain walk {:.1} µs/height; 1024 containers {:.1} µs each ({} bytes avg)",
            walk.as_secs_f64() * 1e6 / 5_000.0,
            range.as_secs_f64() * 1e6 / 1_024.0,
            bytes / 1_024
        );
    }
}
