//! The emulator's one deterministic world: the supported EVM chains, their blocks and the
//! transactions inside them, as pure functions of `(seed, chain, number)`, with the ICM messages
//! ([`icm`]) and stakes ([`rewards`]) generated from them and the chains' coreth form
//! ([`cchain`]). The world depends on no service: the Data API (`data_api/`, `openapi/`), the
//! Metrics API (`metrics_api/`) and the Index RPC (`formats/`, `index_rpc.rs`) read it, so the
//! services agree.
//!
//! - **Chains** ([`chains`]) are fixed (not seed dependent): the C-chain on mainnet (`43114`) and
//!   fuji (`43113`) plus three L1s per network with their own tokens and features.
//! - **Blocks** `0..blocks_per_chain` of each chain. The tip (block `blocks_per_chain - 1`) of every
//!   chain is just before [`WORLD_NOW_MS`] (2026-01-01T00:00:00Z, the world's "now"), except the
//!   C-Chain's when the `C/block` index is longer ([`DataWorld::with_c_span`]: then the index's
//!   last block is); block `n` is
//!   at `anchor + n * gap + jitter(n)` with `0 <= jitter < gap - 1000` ms, so `blockTimestamp`
//!   (seconds) strictly increases. `blockHash` is keccak256 of the block's coreth header and
//!   `parentHash` the hash of block `n - 1` (zero hash for block 0): every block is a real coreth
//!   block ([`cchain`], which also builds them into the `C/block` index).
//! - **Transactions** of block `n`: [`block_transactions`]; a tx hash is keccak256 of its coreth
//!   encoding. `txCount` = their number,
//!   `gasUsed` = the sum of their gas, `feesSpent` = sum of `gas_used * gas_price`, `gasCost` =
//!   `feesSpent / gasUsed` (average effective gas price, 0 for an empty block),
//!   `cumulativeTransactions` = txCount of blocks `0..=n` (prefix sums cached per 256 blocks).
//! - **History** before the blocks ([`history`]): each chain's activity from its launch, hour by
//!   hour, for the metric series.
//! - **Addresses**: one shared pool ([`pool_address`], seed independent); each chain uses its first
//!   [`Chain::address_pool`] entries. Senders and recipients are a Zipf-like draw ([`zipf`]): pool
//!   entry 0 takes part in about a tenth of a chain's transactions, entry 500 in one in 3,500, so a
//!   window of a few thousand transactions holds a few busy addresses and many one-time ones.
//! - **Shapes** a data scientist meets: failed transactions ([`TxFacts::failed`], `txStatus` 0),
//!   contract deployments (no `to`, [`Tx::contract_address`]), a spam ERC-20 token whose transfers
//!   carry 2^256-1 ([`erc20`]), an NFT collection minted by the world's transactions ([`nft`]) and
//!   a multi-token collection they mint and resell ([`erc1155`]).

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::formats::coreth;
use avax_data_core::index::cb58;

pub mod busy;
pub mod cchain;
pub mod erc1155;
pub mod erc20;
pub mod evm_index;
pub mod history;
pub mod icm;
pub mod nft;
mod purpose;
pub mod rewards;
mod tx_index;
mod zipf_table;

use erc1155::{Erc1155Call, Erc1155Log};
use erc20::{Erc20Call, Erc20Transfer};
use icm::IcmMessage;
use nft::Erc721Transfer;
use rewards::PendingReward;
pub(crate) use zipf_table::zipf;

/// The world's "now": 2026-01-01T00:00:00Z in Unix milliseconds. Every chain's tip block, the
/// newest X-chain vertex and the newest ICM message are just before it; pending rewards are
/// pending at this instant.
pub const WORLD_NOW_MS: i64 = 1_767_225_600_000;

/// Mainnet C-chain blockchain id.
pub const C_CHAIN_MAINNET_ID: &str = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
/// Fuji C-chain blockchain id.
pub const C_CHAIN_FUJI_ID: &str = "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp";
/// Mainnet X-chain blockchain id.
pub const X_CHAIN_MAINNET_ID: &str = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM";
/// Fuji X-chain blockchain id.
pub const X_CHAIN_FUJI_ID: &str = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm";
/// The primary network's subnet id.
pub const PRIMARY_NETWORK_SUBNET_ID: &str = "11111111111111111111111111111111LpoYY";
/// coreth's VM id (the C-chains).
pub const CORETH_VM_ID: &str = "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6";
/// subnet-evm's VM id (the L1s).
pub const SUBNET_EVM_VM_ID: &str = "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy";
/// Multicall3, at the same address on every chain.
pub const MULTICALL_ADDRESS: &str = "0xca11bde05977b3631167028862be2a173976ca11";

avax_data_core::named_enum! {
    /// Mainnet or fuji (the API's `testnet` is an alias of `fuji`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Network {
        /// The main network.
        Mainnet => "mainnet",
        /// The fuji test network.
        Fuji => "fuji",
    }
    /// Both networks, mainnet first.
    ALL;
    /// `mainnet` or `fuji`.
    fn as_str;
}

impl Network {
    /// `mainnet`, `fuji` or `testnet` (= fuji).
    pub fn parse(text: &str) -> Option<Network> {
        match text {
            "mainnet" => Some(Network::Mainnet),
            "fuji" | "testnet" => Some(Network::Fuji),
            _ => None,
        }
    }

    /// The bech32 prefix of its P/X addresses: `avax` or `fuji`.
    pub fn hrp(self) -> &'static str {
        match self {
            Network::Mainnet => "avax",
            Network::Fuji => "fuji",
        }
    }

    /// The X-chain blockchain id of this network.
    pub fn x_chain_id(self) -> &'static str {
        match self {
            Network::Mainnet => X_CHAIN_MAINNET_ID,
            Network::Fuji => X_CHAIN_FUJI_ID,
        }
    }

    pub(crate) fn tag(self) -> u64 {
        match self {
            Network::Mainnet => 1,
            Network::Fuji => 5,
        }
    }
}

/// A chain feature (`enabledFeatures`, the `feature` filter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    NftIndexing,
    Webhooks,
    Teleporter,
}

impl Feature {
    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Feature::NftIndexing => "nftIndexing",
            Feature::Webhooks => "webhooks",
            Feature::Teleporter => "teleporter",
        }
    }

    pub fn parse(text: &str) -> Option<Feature> {
        match text {
            "nftIndexing" => Some(Feature::NftIndexing),
            "webhooks" => Some(Feature::Webhooks),
            "teleporter" => Some(Feature::Teleporter),
            _ => None,
        }
    }
}

/// One supported EVM chain.
#[derive(Debug, Clone)]
pub struct Chain {
    /// Position in [`chains`].
    pub index: usize,
    pub evm_chain_id: u64,
    pub name: &'static str,
    pub description: &'static str,
    pub network: Network,
    /// CB58 blockchain id (`platformChainId`).
    pub blockchain_id: String,
    pub subnet_id: String,
    pub vm_id: &'static str,
    pub token_name: &'static str,
    pub token_symbol: &'static str,
    pub token_decimals: u32,
    pub features: &'static [Feature],
    /// `status`: `OK` when true, else `UNAVAILABLE` (its data is served all the same).
    pub available: bool,
    /// Nominal time between blocks, ms (>= 2000).
    pub block_gap_ms: i64,
    pub gas_limit: u64,
    /// Transactions per block are uniform in `0..=max_txs_per_block`.
    pub max_txs_per_block: u32,
    /// How many entries of the shared address pool the chain uses.
    pub address_pool: u64,
    /// Base fee range per block, wei (inclusive).
    pub base_fee_min: u128,
    pub base_fee_max: u128,
}

impl Chain {
    pub fn has(&self, feature: Feature) -> bool {
        self.features.contains(&feature)
    }

    fn slug(&self) -> String {
        self.name.to_lowercase().replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    }

    /// The chain as `ChainInfo` JSON.
    pub fn to_json(&self) -> Value {
        let slug = self.slug();
        let (explorer, rpc, ws) = if self.evm_chain_id == 43114 || self.evm_chain_id == 43113 {
            let sub = if self.network == Network::Mainnet { "" } else { "testnet." };
            let api = if self.network == Network::Mainnet { "api.avax.network" } else { "api.avax-test.network" };
            (
                format!("https://{sub}snowtrace.io"),
                format!("https://{api}/ext/bc/C/rpc"),
                format!("wss://{api}/ext/bc/C/ws"),
            )
        } else {
            (
                format!("https://subnets.avax.network/{slug}"),
                format!("https://{slug}.rpc.emulator.invalid/ext/bc/{}/rpc", self.blockchain_id),
                format!("wss://{slug}.rpc.emulator.invalid/ext/bc/{}/ws", self.blockchain_id),
            )
        };
        json!({
            "chainId": self.evm_chain_id.to_string(),
            "status": if self.available { "OK" } else { "UNAVAILABLE" },
            "chainName": self.name,
            "description": self.description,
            "platformChainId": self.blockchain_id,
            "subnetId": self.subnet_id,
            "vmId": self.vm_id,
            "vmName": "EVM",
            "explorerUrl": explorer,
            "rpcUrl": rpc,
            "wsUrl": ws,
            "isTestnet": self.network == Network::Fuji,
            "utilityAddresses": {"multicall": MULTICALL_ADDRESS},
            "networkToken": {
                "name": self.token_name,
                "symbol": self.token_symbol,
                "decimals": self.token_decimals,
                "logoUri": format!("https://images.emulator.invalid/tokens/{}.png", self.token_symbol.to_lowercase()),
                "description": format!("The native token of {}.", self.name),
            },
            "chainLogoUri": format!("https://images.emulator.invalid/chains/{slug}.png"),
            "private": false,
            "enabledFeatures": self.features.iter().map(|f| f.as_str()).collect::<Vec<_>>(),
        })
    }
}

fn cb58_of(label: &str) -> String {
    cb58::encode(&cb58::sha256(label.as_bytes()))
}

/// The supported chains, in a fixed order (mainnet first).
pub fn chains() -> &'static [Chain] {
    static CHAINS: std::sync::OnceLock<Vec<Chain>> = std::sync::OnceLock::new();
    CHAINS.get_or_init(|| {
        use Feature::*;
        type Row = (
            u64,
            &'static str,
            &'static str,
            Network,
            &'static str,
            &'static str,
            u32,
            &'static [Feature],
            bool,
            i64,
            u64,
            u32,
            u64,
            u128,
            u128,
        );
        // One chain a line: evm chain id, name, description, network, token name, symbol, decimals,
        // features, available, block gap (ms), gas limit, max txs per block, address pool, base fee
        // min and max (wei).
        #[rustfmt::skip]
        let rows: [Row; 8] = [
            (43114, "Avalanche (C-Chain)", "The Contract Chain on Avalanche's primary network supports EVM smart contracts.", Network::Mainnet, "Avalanche", "AVAX", 18, &[NftIndexing, Webhooks, Teleporter], true, 2_000, 15_000_000, 40, 1_000, 1_000_000_000, 60_000_000_000),
            (4337, "Beam", "A gaming L1 with its own gas token.", Network::Mainnet, "Beam", "BEAM", 18, &[NftIndexing, Webhooks], true, 3_000, 20_000_000, 12, 300, 5_000_000_000, 30_000_000_000),
            (53935, "DFK Chain", "An L1 for a game economy, connected over ICM.", Network::Mainnet, "JEWEL", "JEWEL", 18, &[Webhooks, Teleporter], true, 2_500, 8_000_000, 12, 300, 25_000_000_000, 40_000_000_000),
            (432204, "Dexalot", "An exchange L1 (reported UNAVAILABLE by the emulator).", Network::Mainnet, "Dexalot", "ALOT", 18, &[Teleporter], false, 5_000, 15_000_000, 8, 200, 2_000_000_000, 3_000_000_000),
            (43113, "Avalanche (C-Chain) Fuji", "The Contract Chain on Avalanche's Fuji test network.", Network::Fuji, "Avalanche", "AVAX", 18, &[NftIndexing, Webhooks, Teleporter], true, 2_000, 15_000_000, 20, 500, 1_000_000_000, 30_000_000_000),
            (173750, "Echo", "A test L1 that echoes ICM messages.", Network::Fuji, "Echo", "ECH", 18, &[NftIndexing, Teleporter], true, 4_000, 12_000_000, 10, 200, 1_000_000_000, 5_000_000_000),
            (779672, "Dispatch", "A test L1 whose gas token has 6 decimals.", Network::Fuji, "Dispatch", "DIS", 6, &[Webhooks, Teleporter], true, 2_200, 10_000_000, 10, 200, 1_000_000, 9_000_000),
            (11111, "WAGMI", "A test L1 without ICM.", Network::Fuji, "WAGMI", "WGM", 18, &[Webhooks], true, 6_000, 20_000_000, 6, 150, 1_000_000_000, 2_000_000_000),
        ];
        rows.iter()
            .enumerate()
            .map(|(index, r)| {
                let c_chain = r.0 == 43114 || r.0 == 43113;
                let blockchain_id = match r.0 {
                    43114 => C_CHAIN_MAINNET_ID.to_string(),
                    43113 => C_CHAIN_FUJI_ID.to_string(),
                    id => cb58_of(&format!("avax-data blockchain {id}")),
                };
                let subnet_id = if c_chain {
                    PRIMARY_NETWORK_SUBNET_ID.to_string()
                } else {
                    cb58_of(&format!("avax-data subnet {}", r.0))
                };
                Chain {
                    index,
                    evm_chain_id: r.0,
                    name: r.1,
                    description: r.2,
                    network: r.3,
                    blockchain_id,
                    subnet_id,
                    vm_id: if c_chain { CORETH_VM_ID } else { SUBNET_EVM_VM_ID },
                    token_name: r.4,
                    token_symbol: r.5,
                    token_decimals: r.6,
                    features: r.7,
                    available: r.8,
                    block_gap_ms: r.9,
                    gas_limit: r.10,
                    max_txs_per_block: r.11,
                    address_pool: r.12,
                    base_fee_min: r.13,
                    base_fee_max: r.14,
                }
            })
            .collect()
    })
}

/// The chain with EVM chain id `evm_chain_id`.
pub fn chain(evm_chain_id: u64) -> Option<&'static Chain> {
    chains().iter().find(|c| c.evm_chain_id == evm_chain_id)
}

/// The chain named by `id`: an EVM chain id (decimal) or a CB58 blockchain id.
pub fn find_chain(id: &str) -> Option<&'static Chain> {
    chains().iter().find(|c| c.blockchain_id == id || c.evm_chain_id.to_string() == id)
}

pub(crate) fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A well-mixed 64-bit value for `(seed, a, b, purpose)`.
pub(crate) fn derive(seed: u64, a: u64, b: u64, purpose: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(splitmix64(seed ^ purpose) ^ a) ^ b) ^ purpose.rotate_left(17))
}

/// Uniform in `lo..=hi`.
pub(crate) fn range(x: u64, lo: u64, hi: u64) -> u64 {
    lo + x % (hi - lo + 1)
}

/// `10^e` (`e` <= 38) from a table: the world's amounts scale by a token's decimals on every
/// transaction, where `10u128.pow` costs a few 128-bit multiplications.
pub(crate) fn pow10(e: u32) -> u128 {
    const TABLE: [u128; 39] = {
        let mut table = [1u128; 39];
        let mut i = 1;
        while i < 39 {
            table[i] = table[i - 1] * 10;
            i += 1;
        }
        table
    };
    TABLE[e as usize]
}

/// Uniform in `[0, 1)`.
pub(crate) fn unit(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// sha256 over a label and numbers.
pub(crate) fn digest(label: &str, parts: &[u64]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(label.as_bytes());
    for p in parts {
        h.update(p.to_le_bytes());
    }
    h.finalize().into()
}

pub(crate) fn hex0x(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

/// Entry `i` of the shared EVM address pool: lowercase `0x` + 40 hex, seed independent.
pub fn pool_address(i: u64) -> String {
    hex0x(&pool_address_bytes(i))
}

/// Entry `i` of the shared EVM address pool, raw 20 bytes: the address of the deterministic
/// secp256k1 key `i` ([`crate::formats::evm_keys`]), which signs that sender's txs.
pub fn pool_address_bytes(i: u64) -> [u8; 20] {
    crate::formats::evm_keys::pool_key(i).address
}

/// Addresses with a known, non-empty NFT collection on every `nftIndexing` chain (pool entries
/// 0..4; entry 0 holds 40 items of each allocated contract, 120 per chain, enough to page through,
/// plus what the blocks mint it):
/// `0x6a2474f3e677ce65e495508043237ea93738a031`, `0xdf91d2f275960a7d202c39c48c7c9c923b2d0b6d`,
/// `0x7d96d2878ed8ea03c37d6a21ed4d7f8dd164ac61`, `0x9a89ca45db20ce655687f0ef376bb2ab088af0aa`.
/// They are also the most frequent transaction senders.
pub fn known_owner_addresses() -> Vec<String> {
    (0..4).map(pool_address).collect()
}

/// Skewed pick in `0..n`: low indices much more often (repeat senders).
pub(crate) fn skewed(x: u64, n: u64) -> u64 {
    let u = unit(x);
    ((u * u * u) * n as f64) as u64 % n.max(1)
}

const P_TXC: u64 = 0x0074_7863_6f75_6e74;
const P_TS: u64 = 0x7473;
const P_FEE: u64 = 0x0066_6565;
const P_TX: u64 = 0x7478;

/// Number of transactions in block `number` of `chain`.
pub fn tx_count(seed: u64, chain: &Chain, number: u64) -> u32 {
    range(derive(seed, chain.evm_chain_id, number, P_TXC), 0, chain.max_txs_per_block as u64) as u32
}

/// Base fee of block `number`, wei.
pub fn base_fee(seed: u64, chain: &Chain, number: u64) -> u128 {
    let span = chain.base_fee_max - chain.base_fee_min + 1;
    chain.base_fee_min + (derive(seed, chain.evm_chain_id, number, P_FEE) as u128) % span
}

/// One transaction of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tx {
    /// `0x` + 64 hex.
    pub hash: String,
    /// Position in the block.
    pub index: u32,
    pub from: String,
    /// `None` for a contract creation; the token contract for an ERC-20 transfer call.
    pub to: Option<String>,
    /// Whether the transaction creates a contract (`to` is `None`).
    pub contract_creation: bool,
    pub gas_used: u64,
    /// Effective gas price, wei (base fee + priority fee).
    pub gas_price: u128,
    /// Native value transferred, wei (some exceed 2^64).
    pub value: u128,
    /// The ERC-20 transfer this transaction makes (a `transfer` call to a token contract; `None`
    /// when the call failed: a failed transaction emits no log).
    pub erc20: Option<Erc20Transfer>,
    /// The ERC-721 token this transaction mints ([`nft`]).
    pub nft: Option<Erc721Transfer>,
    /// The ERC-1155 log this transaction emits ([`erc1155`]; `None` when it failed).
    pub erc1155: Option<Erc1155Log>,
    /// Whether the transaction failed (receipt status 0: it pays its gas, moves no value and
    /// emits no log).
    pub failed: bool,
    /// The contract a deployment creates: `keccak256(rlp([from, nonce]))[12..]`.
    pub contract_address: Option<String>,
}

impl Tx {
    /// Fee paid: `gas_used * gas_price`, wei.
    pub fn fee(&self) -> u128 {
        self.gas_used as u128 * self.gas_price
    }
}

/// The numbers of transaction `k` of block `number`, before any encoding (what the metrics and
/// the coreth encoder start from).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxFacts {
    /// Index of the sender in the shared address pool.
    pub from: u64,
    /// Index of the recipient in the pool; `None` for a contract creation or an ERC-20 call
    /// (whose recipient is the token contract, and the pool recipient of the tokens `erc20.to`).
    pub to: Option<u64>,
    pub contract_creation: bool,
    pub gas_used: u64,
    /// Priority fee per gas, wei.
    pub priority: u128,
    /// Effective gas price, wei (base fee + priority fee).
    pub gas_price: u128,
    pub value: u128,
    /// The `transfer(to, amount)` call this transaction makes to a token contract ([`erc20`]).
    pub erc20: Option<Erc20Call>,
    /// Whether the transaction is a `mint()` of the chain's NFT collection ([`nft`]); its `to`
    /// is `None` (the collection contract).
    pub mint: bool,
    /// The call this transaction makes to the chain's ERC-1155 collection ([`erc1155`]): a mint,
    /// or the resale of an earlier mint (whose minter is then `from`). Its `to` is `None`.
    pub erc1155: Option<Erc1155Call>,
    /// Whether it failed (status 0): about one in forty of the calls that are neither a contract
    /// creation nor a mint. A failed transaction pays its gas but moves no value and no token.
    pub failed: bool,
}

/// The draw `p` of transaction `k` of block `number` of `chain`'s facts.
fn fact_draw(seed: u64, chain: &Chain, number: u64, k: u32, p: u64) -> u64 {
    let key = number.wrapping_mul(1_000).wrapping_add(k as u64);
    derive(seed, chain.evm_chain_id, key, P_TX ^ (p << 32))
}

/// Whether transaction `k` of block `number` of `chain` creates a contract (3% do): the one draw
/// [`tx_facts`] decides it by, for a table of the deployments that reads nothing else.
pub(crate) fn creates_contract(seed: u64, chain: &Chain, number: u64, k: u32) -> bool {
    fact_draw(seed, chain, number, k, 2) % 100 < 3
}

/// The calls that decide what kind of transaction `k` of block `number` is, drawn before its
/// other facts: (its sender before any resale, whether it creates a contract, its ERC-20 call,
/// whether it mints the ERC-721 collection). A transaction with none of them is plain.
fn call_kind(seed: u64, chain: &Chain, number: u64, k: u32) -> (u64, bool, Option<Erc20Call>, bool) {
    let d = |p: u64| fact_draw(seed, chain, number, k, p);
    let from = zipf(d(1), chain.address_pool);
    let contract_creation = creates_contract(seed, chain, number, k);
    let erc20 = if contract_creation {
        None
    } else {
        erc20::erc20_call(seed, chain.evm_chain_id, chain.address_pool, number, k)
    };
    let mint = !contract_creation && erc20.is_none() && nft::mint_at(seed, chain, number, k);
    (from, contract_creation, erc20, mint)
}

/// The sender of transaction `k` of block `number` of `chain` if that transaction exists and is
/// plain (see [`call_kind`]): the minter an ERC-1155 resale names ([`erc1155::erc1155_call`]).
fn plain_sender(seed: u64, chain: &Chain, number: u64, k: u32) -> Option<u64> {
    if k >= tx_count(seed, chain, number) {
        return None;
    }
    let (from, contract_creation, erc20, mint) = call_kind(seed, chain, number, k);
    (!contract_creation && erc20.is_none() && !mint).then_some(from)
}

/// The facts of transaction `k` of block `number` of `chain` (see [`block_transactions`]).
pub fn tx_facts(seed: u64, chain: &Chain, number: u64, k: u32, base_fee: u128) -> TxFacts {
    let pool = chain.address_pool;
    let d = |p: u64| fact_draw(seed, chain, number, k, p);
    let (from, contract_creation, erc20, mint) = call_kind(seed, chain, number, k);
    let gas_used = if d(4) % 3 == 0 { 21_000 } else { range(d(5), 21_000, 300_000) };
    let priority = (d(6) % 2_000_000_001) as u128 / if chain.token_decimals < 18 { 1_000 } else { 1 };
    let value = match d(7) % 10 {
        0..=3 => 0,
        4..=8 => (d(8) % 10_000) as u128 * pow10(chain.token_decimals.saturating_sub(4)),
        _ => (range(d(9), 20, 500) as u128) * pow10(chain.token_decimals) + (d(10) % 1_000_000) as u128,
    };
    let plain = !contract_creation && erc20.is_none() && !mint;
    let erc1155 = if plain {
        erc1155::erc1155_call(seed, chain, number, k, from, |n, k| plain_sender(seed, chain, n, k))
    } else {
        None
    };
    let (to, value, gas_used) = match (erc20, mint, erc1155) {
        (Some(_), _, _) => (None, 0, range(d(11), 34_000, 65_000)),
        (None, true, _) => (None, 0, range(d(11), 80_000, 160_000)),
        (None, false, Some(call)) => (None, 0, range(d(11), 50_000, if call.batch { 180_000 } else { 110_000 })),
        // The pool recipient is drawn only where it is the recipient.
        (None, false, None) => ((!contract_creation).then(|| zipf(d(3), pool)), value, gas_used),
    };
    // A resale is sent by the minter; a mint of either collection never fails.
    let from = erc1155.map_or(from, |call| call.sender);
    let minting = mint || erc1155.is_some_and(|call| call.from.is_none());
    let failed = !contract_creation && !minting && d(12).is_multiple_of(40);
    let gas_price = base_fee + priority;
    TxFacts { from, to, contract_creation, gas_used, priority, gas_price, value, erc20, mint, erc1155, failed }
}

/// The transactions of block `number` of the chain with `evm_chain_id` (empty for an unknown
/// chain), deterministic in `(seed, chain, number)`: tx `k`'s sender and recipient are Zipf-like
/// picks from the chain's address pool ([`zipf`]), 3% are contract creations (`to` = `None`, with
/// their contract's address), about 2.5% of the others fail, gas 21,000–300,000, gas price = the
/// block's base fee + 0–2 gwei. The hash is keccak256 of the transaction's coreth
/// encoding ([`cchain::coreth_tx`]), exactly as in the block's RLP.
/// Does not check `number` against the tip.
pub fn block_transactions(seed: u64, evm_chain_id: u64, number: u64) -> Vec<Tx> {
    let Some(chain) = chain(evm_chain_id) else {
        return Vec::new();
    };
    let count = tx_count(seed, chain, number);
    let base = base_fee(seed, chain, number);
    let mut enc = Vec::with_capacity(256);
    let mut logs = 0u32;
    (0..count)
        .map(|k| {
            let f = tx_facts(seed, chain, number, k, base);
            enc.clear();
            cchain::coreth_tx(seed, chain, number, k, &f).encode(&mut enc);
            let mut next_log = || {
                logs += 1;
                logs - 1
            };
            let erc20 = f.erc20.filter(|_| !f.failed).map(|c| Erc20Transfer {
                token: c.token,
                from: pool_address(f.from),
                to: pool_address(c.to),
                amount: c.amount,
                log_index: next_log(),
            });
            let collection = f.mint.then(|| nft::collection_address(chain)).flatten();
            let minted = collection.clone().map(|contract| Erc721Transfer {
                contract,
                to: pool_address(f.from),
                token_id: nft::minted_token_id(number, k),
                log_index: next_log(),
            });
            let items = f.erc1155.map(|_| nft::contract_address(chain.evm_chain_id, erc1155::ITEMS as u64));
            let erc1155 = f.erc1155.filter(|_| !f.failed).zip(items.clone()).map(|(call, contract)| Erc1155Log {
                contract,
                call,
                log_index: next_log(),
            });
            let contract_address = f.contract_creation.then(|| {
                let nonce = cchain::tx_nonce(seed, chain, number, k);
                hex0x(&cchain::created_address(&pool_address_bytes(f.from), nonce))
            });
            Tx {
                hash: hex0x(&coreth::keccak256(&enc)),
                index: k,
                from: pool_address(f.from),
                to: f
                    .erc20
                    .map(|c| c.token.address.to_string())
                    .or(collection)
                    .or(items)
                    .or_else(|| f.to.map(pool_address)),
                contract_creation: f.contract_creation,
                gas_used: f.gas_used,
                gas_price: f.gas_price,
                value: f.value,
                erc20,
                nft: minted,
                erc1155,
                failed: f.failed,
                contract_address,
            }
        })
        .collect()
}

fn anchor_ms(blocks_per_chain: u64, chain: &Chain) -> i64 {
    WORLD_NOW_MS - blocks_per_chain as i64 * chain.block_gap_ms
}

/// Timestamp of block `number` of `chain` in the world of `(seed, blocks_per_chain)`, Unix ms;
/// strictly increasing in whole seconds (valid past the tip too).
pub fn block_timestamp_ms(seed: u64, blocks_per_chain: u64, chain: &Chain, number: u64) -> i64 {
    let jitter = (derive(seed, chain.evm_chain_id, number, P_TS) % (chain.block_gap_ms as u64 - 1_000)) as i64;
    anchor_ms(blocks_per_chain, chain) + number as i64 * chain.block_gap_ms + jitter
}

/// One block as the Data API serves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub evm_chain_id: u64,
    pub number: u64,
    /// Unix milliseconds (`blockTimestampMilliseconds`; `blockTimestamp` is this / 1000).
    pub timestamp_ms: i64,
    pub hash: String,
    pub parent_hash: String,
    pub tx_count: u32,
    pub gas_used: u64,
    pub gas_limit: u64,
    pub base_fee: u128,
    /// Sum of the transactions' fees, wei.
    pub fees_spent: u128,
    /// Transactions in blocks `0..=number`.
    pub cumulative_transactions: u64,
}

impl Block {
    /// Unix seconds.
    pub fn timestamp(&self) -> i64 {
        self.timestamp_ms.div_euclid(1000)
    }

    /// `feesSpent / gasUsed` (0 for an empty block).
    pub fn gas_cost(&self) -> u128 {
        if self.gas_used == 0 {
            0
        } else {
            self.fees_spent / self.gas_used as u128
        }
    }

    /// The block as `EvmBlock` JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "chainId": self.evm_chain_id.to_string(),
            "blockNumber": self.number.to_string(),
            "blockTimestamp": self.timestamp(),
            "blockTimestampMilliseconds": self.timestamp_ms,
            "blockHash": self.hash,
            "txCount": self.tx_count,
            "baseFee": self.base_fee.to_string(),
            "gasUsed": self.gas_used.to_string(),
            "gasLimit": self.gas_limit.to_string(),
            "gasCost": self.gas_cost().to_string(),
            "parentHash": self.parent_hash,
            "feesSpent": self.fees_spent.to_string(),
            "cumulativeTransactions": self.cumulative_transactions.to_string(),
        })
    }
}

const CHUNK: u64 = 256;

/// The rewards of the stakes not ended at now, per network.
fn split_pending(all: &[(Network, Vec<PendingReward>)]) -> Vec<(Network, Vec<PendingReward>)> {
    all.iter().map(|(n, r)| (*n, r.iter().filter(|r| !r.ended()).cloned().collect())).collect()
}

/// The whole Data API world of one seed: chains, blocks (on demand), ICM messages and stakes
/// (generated once, a few hundred each).
pub struct DataWorld {
    seed: u64,
    blocks_per_chain: u64,
    /// Blocks of the C-Chain's (43114) timeline: its block `c_span - 1` is just before now.
    c_span: u64,
    /// Per chain: `checkpoints[k]` = transactions in blocks `0..k*CHUNK`.
    checkpoints: Vec<Mutex<Vec<u64>>>,
    pool_index: HashMap<String, u64>,
    /// Per chain (by [`Chain::index`]): its blocks in coreth form and their hash chain.
    evm: Vec<std::sync::Arc<cchain::EvmChain>>,
    messages: Vec<IcmMessage>,
    /// Per network, the reward of every stake (ended and pending) and of the pending ones.
    rewards: Vec<(Network, Vec<PendingReward>)>,
    pending: Vec<(Network, Vec<PendingReward>)>,
    tx_index: tx_index::TxIndex,
    /// The mints, deployments and active addresses of each chain, built on first use.
    evm_index: evm_index::EvmIndex,
}

impl std::fmt::Debug for DataWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataWorld").field("seed", &self.seed).field("blocks_per_chain", &self.blocks_per_chain).finish()
    }
}

impl DataWorld {
    /// The world of `seed` with blocks `0..blocks_per_chain` on every chain (at least 1).
    pub fn new(seed: u64, blocks_per_chain: u64) -> DataWorld {
        DataWorld::with_c_span(seed, blocks_per_chain, blocks_per_chain)
    }

    /// [`DataWorld::new`] with the C-Chain's (43114) timeline `c_span` blocks long (at least
    /// `blocks_per_chain`): its block `c_span - 1` is just before now, so the Data API's
    /// C-Chain ends `c_span - blocks_per_chain` blocks earlier (the `C/block` index of that
    /// length, [`crate::formats::Source`], ends at now).
    pub fn with_c_span(seed: u64, blocks_per_chain: u64, c_span: u64) -> DataWorld {
        let blocks_per_chain = blocks_per_chain.max(1);
        let c_span = c_span.max(blocks_per_chain);
        let span = |c: &Chain| if c.evm_chain_id == 43114 { c_span } else { blocks_per_chain };
        let max_pool = chains().iter().map(|c| c.address_pool).max().unwrap_or(0);
        let mut world = DataWorld {
            seed,
            blocks_per_chain,
            c_span,
            checkpoints: chains().iter().map(|_| Mutex::new(vec![0])).collect(),
            pool_index: (0..max_pool).map(|i| (pool_address(i), i)).collect(),
            evm: chains().iter().map(|c| cchain::EvmChain::shared(seed, span(c), c)).collect(),
            messages: Vec::new(),
            rewards: Vec::new(),
            pending: Vec::new(),
            tx_index: tx_index::TxIndex::new(),
            evm_index: evm_index::EvmIndex::new(),
        };
        world.messages = icm::generate(&world);
        world.rewards = Network::ALL.iter().map(|&n| (n, rewards::generate(seed, n))).collect();
        world.pending = split_pending(&world.rewards);
        world
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Blocks per chain: block numbers are `0..blocks_per_chain()`.
    pub fn blocks_per_chain(&self) -> u64 {
        self.blocks_per_chain
    }

    /// The supported chains ([`chains`]).
    pub fn chains(&self) -> &'static [Chain] {
        chains()
    }

    /// Blocks of the C-Chain's timeline (the `C/block` index's length at start, or
    /// [`DataWorld::blocks_per_chain`] if larger).
    pub fn c_span(&self) -> u64 {
        self.c_span
    }

    /// The newest block number of every chain.
    pub fn tip(&self) -> u64 {
        self.blocks_per_chain - 1
    }

    /// Index of `address` (any case) in the shared pool, if it is in it.
    pub fn pool_index(&self, address: &str) -> Option<u64> {
        self.pool_index.get(&address.to_ascii_lowercase()).copied()
    }

    /// The world's name: what its answers depend on (the seed and the blocks per chain), as
    /// `seed{seed}-blocks{blocks_per_chain}`. Two emulators of one name serve the same Data and
    /// Metrics answers; the cache keys their entries by it.
    pub fn name(&self) -> String {
        if self.c_span == self.blocks_per_chain {
            format!("seed{}-blocks{}", self.seed, self.blocks_per_chain)
        } else {
            format!("seed{}-blocks{}-c{}", self.seed, self.blocks_per_chain, self.c_span)
        }
    }

    /// What the world spans, Unix ms: from the earliest launch of any chain
    /// ([`history::launch_s`], where the metric series begin) to the world's "now"
    /// ([`WORLD_NOW_MS`]); every block, message and metric bucket lies inside.
    pub fn span_ms(&self) -> (i64, i64) {
        let first = chains().iter().map(|c| history::launch_s(c) * 1000).min().unwrap_or(WORLD_NOW_MS);
        (first, WORLD_NOW_MS)
    }

    /// What the blocks of the world span, Unix ms: from the earliest first block of any chain to
    /// the world's "now"; Data API lists of blocks and transactions hold nothing before it.
    pub fn blocks_span_ms(&self) -> (i64, i64) {
        let first = chains().iter().map(|c| self.block_timestamp_ms(c, 0)).min().unwrap_or(WORLD_NOW_MS);
        (first, WORLD_NOW_MS)
    }

    fn anchor_ms(&self, chain: &Chain) -> i64 {
        let span = if chain.evm_chain_id == 43114 { self.c_span } else { self.blocks_per_chain };
        WORLD_NOW_MS - span as i64 * chain.block_gap_ms
    }

    /// Timestamp of block `number` of `chain`, Unix ms; strictly increasing in whole seconds.
    pub fn block_timestamp_ms(&self, chain: &Chain, number: u64) -> i64 {
        let jitter = (derive(self.seed, chain.evm_chain_id, number, P_TS) % (chain.block_gap_ms as u64 - 1_000)) as i64;
        self.anchor_ms(chain) + number as i64 * chain.block_gap_ms + jitter
    }

    /// The first block of `chain` at or after `timestamp_ms`; `None` if past the tip.
    pub fn first_block_at_or_after(&self, chain: &Chain, timestamp_ms: i64) -> Option<u64> {
        let guess = (timestamp_ms - self.anchor_ms(chain)).div_euclid(chain.block_gap_ms) - 1;
        let mut n = guess.max(0) as u64;
        while n < self.blocks_per_chain {
            if self.block_timestamp_ms(chain, n) >= timestamp_ms {
                return Some(n);
            }
            n += 1;
        }
        None
    }

    /// (block number, index in the block) of the transaction `hash` (lowercase `0x` hex) of
    /// `chain`; `None` if no transaction of the world has it. The first lookup on a chain builds
    /// its table (one pass over its blocks).
    pub fn transaction_position(&self, chain: &Chain, hash: &str) -> Option<(u64, u32)> {
        self.tx_index.find(self, chain, hash)
    }

    /// The balance (smallest units) of `token` held by pool address `index` after block `upto`
    /// (at most the tip): the genesis allocation, plus every transfer it received, minus every
    /// transfer it sent, in blocks `0..=upto` (a failed transaction moves nothing). An address
    /// outside the chain's pool holds nothing, and nobody holds the spam token (its transfers are
    /// logs its contract emits without moving a balance, [`erc20`]).
    pub fn erc20_balance(&self, chain: &Chain, token: &erc20::Token, index: u64, upto: u64) -> u128 {
        if index >= chain.address_pool || token.evm_chain_id != chain.evm_chain_id || token.spam {
            return 0;
        }
        let mut balance = token.genesis_balance();
        for n in 0..=upto.min(self.tip()) {
            let base = base_fee(self.seed, chain, n);
            for k in 0..tx_count(self.seed, chain, n) {
                let f = tx_facts(self.seed, chain, n, k, base);
                let Some(call) = f.erc20.filter(|c| !f.failed && std::ptr::eq(c.token, token)) else { continue };
                if call.to == index {
                    balance += call.amount;
                }
                if f.from == index {
                    balance = balance.saturating_sub(call.amount);
                }
            }
        }
        balance
    }

    /// The coreth view of `chain` in this world (block encodings, the hash chain).
    pub fn evm_chain(&self, chain: &Chain) -> &cchain::EvmChain {
        &self.evm[chain.index]
    }

    /// `0x` hash of block `number` (any number, even past the tip): keccak256 of its coreth
    /// header ([`cchain::EvmChain::hash`]).
    pub fn block_hash(&self, chain: &Chain, number: u64) -> String {
        hex0x(&self.evm[chain.index].hash(number))
    }

    /// The number of the block of `chain` whose hash is `hash` (`0x` + 64 hex, any case). The
    /// first lookup on a chain hashes its whole chain (a reverse map, 40 bytes per block).
    pub fn block_number_by_hash(&self, chain: &Chain, hash: &str) -> Option<u64> {
        let hex = hash.strip_prefix("0x").or_else(|| hash.strip_prefix("0X"))?;
        let bytes: [u8; 32] = hex::decode(hex).ok()?.try_into().ok()?;
        self.evm[chain.index].number_by_hash(&bytes).filter(|&n| n < self.blocks_per_chain)
    }

    /// Transactions in blocks `0..=number` of `chain`.
    pub fn cumulative_transactions(&self, chain: &Chain, number: u64) -> u64 {
        let chunk = (number / CHUNK) as usize;
        let base = {
            let mut cps = self.checkpoints[chain.index].lock().unwrap_or_else(|e| e.into_inner());
            while cps.len() <= chunk {
                let k = (cps.len() - 1) as u64;
                let sum: u64 = (k * CHUNK..(k + 1) * CHUNK).map(|n| tx_count(self.seed, chain, n) as u64).sum();
                let last = *cps.last().unwrap();
                cps.push(last + sum);
            }
            cps[chunk]
        };
        base + (chunk as u64 * CHUNK..=number).map(|n| tx_count(self.seed, chain, n) as u64).sum::<u64>()
    }

    /// Block `number` of `chain`; `None` past the tip.
    pub fn block(&self, chain: &Chain, number: u64) -> Option<Block> {
        if number >= self.blocks_per_chain {
            return None;
        }
        let txs = block_transactions(self.seed, chain.evm_chain_id, number);
        Some(Block {
            evm_chain_id: chain.evm_chain_id,
            number,
            timestamp_ms: self.block_timestamp_ms(chain, number),
            hash: self.block_hash(chain, number),
            parent_hash: if number == 0 { hex0x(&[0u8; 32]) } else { self.block_hash(chain, number - 1) },
            tx_count: txs.len() as u32,
            gas_used: txs.iter().map(|t| t.gas_used).sum(),
            gas_limit: chain.gas_limit,
            base_fee: base_fee(self.seed, chain, number),
            fees_spent: txs.iter().map(Tx::fee).sum(),
            cumulative_transactions: self.cumulative_transactions(chain, number),
        })
    }

    /// The transactions of block `number` of `chain` ([`block_transactions`]); `None` past the tip.
    pub fn transactions(&self, chain: &Chain, number: u64) -> Option<Vec<Tx>> {
        (number < self.blocks_per_chain).then(|| block_transactions(self.seed, chain.evm_chain_id, number))
    }

    /// Every ICM message of the world, newest first (by source timestamp, then message id).
    pub fn icm_messages(&self) -> &[IcmMessage] {
        &self.messages
    }

    /// Replaces the rewards of each network by `f(network, rewards)` (the emulator names each
    /// stake by its P-Chain tx id, which the world's module cannot build).
    pub fn map_pending_rewards(&mut self, f: impl Fn(Network, Vec<PendingReward>) -> Vec<PendingReward>) {
        for (network, rewards) in &mut self.rewards {
            *rewards = f(*network, std::mem::take(rewards));
        }
        self.pending = split_pending(&self.rewards);
    }

    /// The reward of every stake of `network`, ended or pending, in generation order
    /// ([`rewards::generate`]).
    pub fn stake_rewards(&self, network: Network) -> &[PendingReward] {
        self.rewards.iter().find(|(n, _)| *n == network).map(|(_, r)| r.as_slice()).unwrap_or(&[])
    }

    /// The pending rewards of `network` (the stakes active at now), in generation order
    /// (validators, then their delegations).
    pub fn pending_rewards(&self, network: Network) -> &[PendingReward] {
        self.pending.iter().find(|(n, _)| *n == network).map(|(_, r)| r.as_slice()).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_have_unique_ids_and_both_networks_have_l1s() {
        let cs = chains();
        for n in Network::ALL {
            let on: Vec<_> = cs.iter().filter(|c| c.network == n).collect();
            assert!(on.len() >= 3);
            assert!(on.iter().filter(|c| c.has(Feature::Teleporter)).count() >= 2);
        }
        let mut ids: Vec<_> = cs.iter().map(|c| c.blockchain_id.clone()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), cs.len());
        assert_eq!(find_chain("43114").unwrap().blockchain_id, C_CHAIN_MAINNET_ID);
        assert_eq!(find_chain(C_CHAIN_FUJI_ID).unwrap().evm_chain_id, 43113);
        assert!(cb58::decode(&find_chain("4337").unwrap().blockchain_id).is_ok());
        assert_eq!(
            known_owner_addresses(),
            [
                "0x6a2474f3e677ce65e495508043237ea93738a031",
                "0xdf91d2f275960a7d202c39c48c7c9c923b2d0b6d",
                "0x7d96d2878ed8ea03c37d6a21ed4d7f8dd164ac61",
                "0x9a89ca45db20ce655687f0ef376bb2ab088af0aa",
            ]
        );
    }

    #[test]
    fn the_powers_of_ten_table_is_10_pow() {
        for e in 0..39 {
            assert_eq!(pow10(e), 10u128.pow(e), "10^{e}");
        }
    }

    #[test]
    fn blocks_are_consistent() {
        let w = DataWorld::new(3, 2_000);
        for chain in chains() {
            let mut prev: Option<Block> = None;
            let mut cumulative = 0;
            for n in 0..w.blocks_per_chain() {
                let b = w.block(chain, n).unwrap();
                let txs = w.transactions(chain, n).unwrap();
                cumulative += txs.len() as u64;
                assert_eq!(b.cumulative_transactions, cumulative);
                assert_eq!(b.gas_used, txs.iter().map(|t| t.gas_used).sum::<u64>());
                assert!(b.gas_used <= b.gas_limit);
                assert_eq!(b.fees_spent, txs.iter().map(|t| t.fee()).sum::<u128>());
                assert_eq!(w.block_number_by_hash(chain, &b.hash), Some(n));
                if let Some(p) = &prev {
                    assert_eq!(b.parent_hash, p.hash);
                    assert!(b.timestamp() > p.timestamp());
                } else {
                    assert_eq!(b.parent_hash, hex0x(&[0; 32]));
                }
                prev = Some(b);
            }
            assert!(prev.unwrap().timestamp_ms < WORLD_NOW_MS);
            assert_eq!(w.block(chain, w.blocks_per_chain()), None);
        }
    }

    #[test]
    fn hashes_look_random_and_lookup_rejects_others() {
        let w = DataWorld::new(1, 100);
        let c = chain(43114).unwrap();
        let h = w.block_hash(c, 5);
        assert_eq!(h.len(), 66);
        assert_eq!(w.block_number_by_hash(c, &h.to_uppercase().replacen("0X", "0x", 1)), Some(5));
        assert_eq!(w.block_number_by_hash(c, &w.block_hash(c, 100)), None, "past the tip");
        assert_eq!(w.block_number_by_hash(chain(43113).unwrap(), &h), None);
        let mut flipped = h.clone();
        flipped.replace_range(10..11, if &h[10..11] == "a" { "b" } else { "a" });
        assert_eq!(w.block_number_by_hash(c, &flipped), None);
    }

    #[test]
    fn same_seed_same_world_other_seed_other_blocks() {
        let (a, b, c) = (DataWorld::new(9, 50), DataWorld::new(9, 50), DataWorld::new(10, 50));
        let ch = chain(4337).unwrap();
        assert_eq!(a.block(ch, 7), b.block(ch, 7));
        assert_ne!(a.block(ch, 7).unwrap().hash, c.block(ch, 7).unwrap().hash);
        assert_eq!(block_transactions(9, 4337, 7), block_transactions(9, 4337, 7));
    }

    #[test]
    fn senders_repeat_and_some_values_exceed_u64() {
        let mut senders = HashMap::new();
        let mut big = false;
        let mut creations = 0;
        for n in 0..300 {
            for t in block_transactions(1, 43114, n) {
                *senders.entry(t.from).or_insert(0) += 1;
                big |= t.value > u64::MAX as u128;
                creations += usize::from(t.to.is_none() && t.contract_creation);
            }
        }
        assert!(senders.len() < 1000 && senders.values().any(|&c| c > 20));
        assert!(big && creations > 0);
    }

    #[test]
    fn first_block_at_or_after_inverts_timestamps() {
        let w = DataWorld::new(2, 500);
        let c = chain(53935).unwrap();
        for n in [0u64, 1, 17, 499] {
            let t = w.block_timestamp_ms(c, n);
            assert_eq!(w.first_block_at_or_after(c, t), Some(n));
            if n > 0 {
                assert_eq!(w.first_block_at_or_after(c, t - 1), Some(n));
            }
        }
        assert_eq!(w.first_block_at_or_after(c, WORLD_NOW_MS + 1), None);
    }

    #[test]
    fn a_million_block_world_serves_its_tip_and_the_blocks_below_it_chained() {
        let w = DataWorld::new(0, 1_000_000);
        let c = chain(43114).unwrap();
        let tip = w.block(c, w.tip()).unwrap();
        assert_eq!(tip.number, 999_999);
        assert!(tip.cumulative_transactions > 1_000_000);
        // The tip's hash needs the whole hash chain (a million keccak'd headers) once; the blocks
        // below it come from the cached chain, each the parent of the one above.
        let mut child = tip;
        for n in (w.tip() - 100..w.tip()).rev() {
            let block = w.block(c, n).unwrap();
            assert_eq!((block.number, &block.hash), (n, &child.parent_hash));
            assert_eq!(block.cumulative_transactions + u64::from(child.tx_count), child.cumulative_transactions);
            child = block;
        }
    }
}
