//! The busy address: one address of the Mainnet C-chain with at least [`BUSY_TRANSFERS`] ERC-20
//! transfers, for walks long enough to measure (sharded walks against a tier's budget).
//!
//! Its transfers are a stream of their own, generated when asked for (nothing is built with the
//! world): block `n` holds [`transfers_in`] of them, a seed-dependent count of at least
//! `ceil(BUSY_TRANSFERS / blocks)` (so the whole chain holds at least [`BUSY_TRANSFERS`]), with
//! one block in [`DENSE_EVERY`] ten times as busy (a heavy tail for the walks to split). Each
//! moves eUSDC between the busy address and one of the pool's first addresses, in turn sent and
//! received. They are served by `listErc20Transactions` of that address only: the blocks, the
//! transactions lists and the token's own list (`listTransfers`) do not show them.

use std::sync::OnceLock;

use super::{derive, hex0x};

/// The busy address (lowercase), on the Mainnet C-chain (`43114`).
pub const BUSY_ADDRESS: &str = "0xb5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5";

/// The EVM chain the busy address transfers on.
pub const BUSY_CHAIN: u64 = 43114;

/// The fewest transfers the busy address has over the whole chain.
pub const BUSY_TRANSFERS: u64 = 100_000;

/// One block in this many holds ten times the usual transfers.
pub const DENSE_EVERY: u64 = 50;

/// Counterparties: the first addresses of the pool.
const COUNTERPARTIES: u64 = 8;

const P_BUSY: u64 = 0x6275_7379;
const P_BUSY_HASH: u64 = 0x6275_7379_6861;

/// The transfers of the busy address in block `number` of a chain of `blocks` blocks.
pub fn transfers_in(seed: u64, blocks: u64, number: u64) -> u32 {
    let base = BUSY_TRANSFERS.div_ceil(blocks.max(1));
    let x = derive(seed, BUSY_CHAIN, number, P_BUSY);
    let dense = if (x >> 40).is_multiple_of(DENSE_EVERY) { 10 * base } else { 0 };
    (base + x % (base + 1) + dense).min(u64::from(u32::MAX)) as u32
}

/// Every transfer of the busy address in a chain of `blocks` blocks.
pub fn total_transfers(seed: u64, blocks: u64) -> u64 {
    (0..blocks).map(|n| u64::from(transfers_in(seed, blocks, n))).sum()
}

/// Transfer `index` of block `number` (0 = the first of the block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusyTransfer {
    /// The transaction hash, `0x` + 64 hex.
    pub tx_hash: String,
    /// The sender.
    pub from: String,
    /// The recipient.
    pub to: String,
    /// Smallest units of eUSDC.
    pub amount: u64,
    /// The transfer's log index in its block.
    pub log_index: u32,
}

/// Transfer `index` of block `number` of the world of `seed`.
pub fn transfer(seed: u64, number: u64, index: u32) -> BusyTransfer {
    static PARTIES: OnceLock<Vec<String>> = OnceLock::new();
    let parties = PARTIES.get_or_init(|| (0..COUNTERPARTIES).map(super::pool_address).collect());
    let word = |k: u64| derive(seed, number, u64::from(index), P_BUSY_HASH + k).to_be_bytes();
    let hash: Vec<u8> = (0..4).flat_map(word).collect();
    let x = derive(seed, number, u64::from(index), P_BUSY);
    let other = parties[(x % COUNTERPARTIES) as usize].clone();
    let busy = BUSY_ADDRESS.to_string();
    let (from, to) = if index.is_multiple_of(2) { (busy, other) } else { (other, busy) };
    BusyTransfer { tx_hash: hex0x(&hash), from, to, amount: 1 + (x >> 8) % 1_000_000_000, log_index: index }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_holds_at_least_the_promised_transfers_with_a_heavy_tail() {
        for blocks in [500, 10_000] {
            let total = total_transfers(7, blocks);
            assert!(total >= BUSY_TRANSFERS, "{blocks} blocks: {total}");
            let counts: Vec<u32> = (0..blocks).map(|n| transfers_in(7, blocks, n)).collect();
            let base = BUSY_TRANSFERS.div_ceil(blocks) as u32;
            assert!(counts.iter().all(|&c| c >= base));
            assert!(counts.iter().any(|&c| c > 10 * base), "some blocks are dense");
        }
    }

    #[test]
    fn transfers_are_deterministic_per_seed_and_distinct() {
        assert_eq!(transfer(1, 5, 3), transfer(1, 5, 3));
        assert_ne!(transfer(1, 5, 3).tx_hash, transfer(2, 5, 3).tx_hash);
        let hashes: std::collections::HashSet<String> =
            (0..200).flat_map(|n| (0..20).map(move |i| transfer(1, n, i).tx_hash)).collect();
        assert_eq!(hashes.len(), 4_000);
        let t = transfer(1, 5, 2);
        assert_eq!((t.from.as_str(), t.log_index), (BUSY_ADDRESS, 2));
        assert_eq!(transfer(1, 5, 3).to, BUSY_ADDRESS);
    }
}
