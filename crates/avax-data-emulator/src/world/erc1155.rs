//! The world's multi-token (ERC-1155) collection: on every `nftIndexing` chain, its "Items"
//! contract ([`ITEMS`], the second of [`super::nft::contracts`]) is minted and traded by the
//! world's transactions, each call emitting one `TransferSingle` or `TransferBatch` log
//! ([`TRANSFER_SINGLE_TOPIC`], [`TRANSFER_BATCH_TOPIC`]: operator, from and to indexed, the ids
//! and values in the data).
//!
//! - **Mints**: about one plain transaction in [`MINT_ONE_IN`] (not a contract creation, an
//!   ERC-20 call or an ERC-721 mint) calls `mint(to, id, amount, "")` (a `TransferSingle` from
//!   the zero address) or, one mint in four, `mintBatch(to, ids, amounts, "")` of 2 to 4
//!   consecutive ids (a `TransferBatch`); the tokens go to the sender. Ids are `1..=`[`ITEM_IDS`],
//!   amounts 1 to 100. A mint never fails.
//! - **Resales**: half of the plain transactions [`LAG`] blocks after a mint, at the same
//!   position in their block (when that transaction is plain and no mint itself), are sent by the
//!   minter: `safeTransferFrom` (or `safeBatchTransferFrom` for a batch mint) of the mint's ids,
//!   1 up to the minted amount of each, to a Zipf-like pick of the pool. Each mint is resold at
//!   most once and only after it happened, so no balance ever goes below zero; such a transaction
//!   fails (status 0, no log, nothing moves) as often as any plain one.
//!
//! Every decision is a pure function of `(seed, chain, number, k)` ([`erc1155_call`]), so the
//! `C/block` containers carry the calls (the transaction's `to` is the contract, its input the
//! ABI-encoded call) without any table; the Data API's transfers, balances and collectibles read
//! the per-chain ledger ([`Ledger`], built once on first use from the transactions' facts).

use super::{derive, pool_address_bytes, range, zipf, Chain, Feature};

/// The position of the collection among a chain's NFT contracts ([`super::nft::contracts`]).
pub const ITEMS: usize = 1;
/// Plain transactions per ERC-1155 mint, on average.
pub const MINT_ONE_IN: u64 = 60;
/// Blocks between a mint and the transaction that may resell it.
pub const LAG: u64 = 5;
/// Token ids of the collection: `1..=ITEM_IDS`.
pub const ITEM_IDS: u32 = 24;
/// Most ids in one batch.
pub const MAX_BATCH: usize = 4;

/// `keccak256("TransferSingle(address,address,address,uint256,uint256)")`.
pub const TRANSFER_SINGLE_TOPIC: [u8; 32] = [
    0xc3, 0xd5, 0x81, 0x68, 0xc5, 0xae, 0x73, 0x97, 0x73, 0x1d, 0x06, 0x3d, 0x5b, 0xbf, 0x3d, 0x65, 0x78, 0x54, 0x42,
    0x73, 0x43, 0xf4, 0xc0, 0x83, 0x24, 0x0f, 0x7a, 0xac, 0xaa, 0x2d, 0x0f, 0x62,
];
/// `keccak256("TransferBatch(address,address,address,uint256[],uint256[])")`.
pub const TRANSFER_BATCH_TOPIC: [u8; 32] = [
    0x4a, 0x39, 0xdc, 0x06, 0xd4, 0xc0, 0xdb, 0xc6, 0x4b, 0x70, 0xaf, 0x90, 0xfd, 0x69, 0x8a, 0x23, 0x3a, 0x51, 0x8a,
    0xa5, 0xd0, 0x7e, 0x59, 0x5d, 0x98, 0x3b, 0x8c, 0x05, 0x26, 0xc8, 0xf7, 0xfb,
];

/// `mint(address,uint256,uint256,bytes)`.
pub const MINT_SELECTOR: [u8; 4] = [0x73, 0x11, 0x33, 0xe9];
/// `mintBatch(address,uint256[],uint256[],bytes)`.
pub const MINT_BATCH_SELECTOR: [u8; 4] = [0x1f, 0x7f, 0xdf, 0xfa];
/// `safeTransferFrom(address,address,uint256,uint256,bytes)`.
pub const SAFE_TRANSFER_SELECTOR: [u8; 4] = [0xf2, 0x42, 0x43, 0x2a];
/// `safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)`.
pub const SAFE_BATCH_TRANSFER_SELECTOR: [u8; 4] = [0x2e, 0xb2, 0xc2, 0xd6];

const P_1155: u64 = 0x0031_3135_3500;

/// One ERC-1155 call of a transaction: what its input says and its log reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Erc1155Call {
    /// The transaction's sender (the log's operator), a pool index.
    pub sender: u64,
    /// The holder the tokens leave (a pool index); `None` for a mint (the zero address).
    pub from: Option<u64>,
    /// The recipient, a pool index (the sender for a mint).
    pub to: u64,
    /// Whether the call moves a batch (`TransferBatch`) or one id (`TransferSingle`).
    pub batch: bool,
    /// Ids moved (the first `len`).
    pub ids: [u32; MAX_BATCH],
    /// Amount of each id (the first `len`).
    pub amounts: [u32; MAX_BATCH],
    /// How many ids.
    pub len: u8,
}

fn draw(seed: u64, chain: &Chain, number: u64, k: u32, p: u64) -> u64 {
    let key = number.wrapping_mul(1_000).wrapping_add(k as u64);
    derive(seed, chain.evm_chain_id, key, P_1155 ^ (p << 40))
}

/// Whether the mint draw of position `(number, k)` hits (the transaction mints if it is plain).
fn mint_drawn(seed: u64, chain: &Chain, number: u64, k: u32) -> bool {
    draw(seed, chain, number, k, 0).is_multiple_of(MINT_ONE_IN)
}

/// The mint transaction `k` of block `number` makes, sent by pool address `sender`.
fn mint(seed: u64, chain: &Chain, number: u64, k: u32, sender: u64) -> Erc1155Call {
    let shape = draw(seed, chain, number, k, 1);
    let batch = shape.is_multiple_of(4);
    let len = if batch { 2 + (shape / 4 % 3) as usize } else { 1 };
    let first = (draw(seed, chain, number, k, 2) % u64::from(ITEM_IDS)) as u32;
    let mut call = Erc1155Call {
        sender,
        from: None,
        to: sender,
        batch,
        ids: [0; MAX_BATCH],
        amounts: [0; MAX_BATCH],
        len: len as u8,
    };
    for i in 0..len {
        call.ids[i] = 1 + (first + i as u32) % ITEM_IDS;
        call.amounts[i] = range(draw(seed, chain, number, k, 3 + i as u64), 1, 100) as u32;
    }
    call
}

/// The ERC-1155 call of transaction `k` of block `number` of `chain`, if it is a plain
/// transaction sent by pool address `sender` (decided in [`super::tx_facts`]): a mint, or the
/// resale of the mint [`LAG`] blocks before at the same position, whose minter
/// (`plain_sender(earlier, k)`: the sender of that transaction if it exists and is plain) then
/// sends this transaction. `None` on a chain without `nftIndexing`.
pub fn erc1155_call(
    seed: u64,
    chain: &Chain,
    number: u64,
    k: u32,
    sender: u64,
    plain_sender: impl FnOnce(u64, u32) -> Option<u64>,
) -> Option<Erc1155Call> {
    if !chain.has(Feature::NftIndexing) {
        return None;
    }
    let x = draw(seed, chain, number, k, 0);
    if x.is_multiple_of(MINT_ONE_IN) {
        return Some(mint(seed, chain, number, k, sender));
    }
    let earlier = number.checked_sub(LAG)?;
    if !(x / MINT_ONE_IN).is_multiple_of(2) || !mint_drawn(seed, chain, earlier, k) {
        return None;
    }
    let minter = plain_sender(earlier, k)?;
    let minted = mint(seed, chain, earlier, k, minter);
    let pool = chain.address_pool;
    let mut to = zipf(draw(seed, chain, number, k, 1), pool);
    if to == minter {
        to = (to + 1) % pool;
    }
    let mut call = Erc1155Call { sender: minter, from: Some(minter), to, ..minted };
    for i in 0..minted.len as usize {
        call.amounts[i] = range(draw(seed, chain, number, k, 3 + i as u64), 1, u64::from(minted.amounts[i])) as u32;
    }
    Some(call)
}

/// A 32-byte ABI word holding `value`.
fn word(value: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[24..].copy_from_slice(&value.to_be_bytes());
    out
}

/// A 32-byte ABI word holding the address of pool entry `index`.
fn address_word(index: Option<u64>) -> [u8; 32] {
    let mut out = [0u8; 32];
    if let Some(i) = index {
        out[12..].copy_from_slice(&pool_address_bytes(i));
    }
    out
}

impl Erc1155Call {
    /// The (id, amount) pairs moved, in call order.
    pub fn items(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ids.iter().zip(&self.amounts).take(self.len as usize).map(|(&id, &amount)| (id, amount))
    }

    /// Appends the dynamic `uint256[]` arrays of ids and amounts and the empty `bytes` (their
    /// offsets are in the head).
    fn write_arrays(&self, data: &mut Vec<u8>) {
        for column in [&self.ids, &self.amounts] {
            data.extend_from_slice(&word(u64::from(self.len)));
            for value in &column[..self.len as usize] {
                data.extend_from_slice(&word(u64::from(*value)));
            }
        }
    }

    /// Appends the transaction's input (the ABI-encoded call, with empty `data` bytes) to `data`.
    pub fn write_call_data(&self, data: &mut Vec<u8>) {
        let n = u64::from(self.len);
        match (self.from, self.batch) {
            (None, false) => {
                data.extend_from_slice(&MINT_SELECTOR);
                data.extend_from_slice(&address_word(Some(self.to)));
                data.extend_from_slice(&word(u64::from(self.ids[0])));
                data.extend_from_slice(&word(u64::from(self.amounts[0])));
                data.extend_from_slice(&word(4 * 32));
                data.extend_from_slice(&word(0));
            }
            (Some(_), false) => {
                data.extend_from_slice(&SAFE_TRANSFER_SELECTOR);
                data.extend_from_slice(&address_word(self.from));
                data.extend_from_slice(&address_word(Some(self.to)));
                data.extend_from_slice(&word(u64::from(self.ids[0])));
                data.extend_from_slice(&word(u64::from(self.amounts[0])));
                data.extend_from_slice(&word(5 * 32));
                data.extend_from_slice(&word(0));
            }
            (from, true) => {
                // Head: [from,] to, offset of ids, offset of amounts, offset of the bytes.
                let head = if from.is_some() { 5 } else { 4 } * 32;
                data.extend_from_slice(if from.is_some() {
                    &SAFE_BATCH_TRANSFER_SELECTOR
                } else {
                    &MINT_BATCH_SELECTOR
                });
                if from.is_some() {
                    data.extend_from_slice(&address_word(from));
                }
                data.extend_from_slice(&address_word(Some(self.to)));
                let array = (n + 1) * 32;
                data.extend_from_slice(&word(head));
                data.extend_from_slice(&word(head + array));
                data.extend_from_slice(&word(head + 2 * array));
                self.write_arrays(data);
                data.extend_from_slice(&word(0));
            }
        }
    }

    /// The log's topics: the event's signature, then operator, from and to (each an address
    /// in a 32-byte word; from is zero for a mint).
    pub fn topics(&self) -> [[u8; 32]; 4] {
        let signature = if self.batch { TRANSFER_BATCH_TOPIC } else { TRANSFER_SINGLE_TOPIC };
        [signature, address_word(Some(self.sender)), address_word(self.from), address_word(Some(self.to))]
    }

    /// The log's data: `id ‖ value` (`TransferSingle`) or `abi.encode(ids, values)`
    /// (`TransferBatch`).
    pub fn log_data(&self) -> Vec<u8> {
        let mut data = Vec::with_capacity(64 + 64 * MAX_BATCH + 64);
        if self.batch {
            data.extend_from_slice(&word(2 * 32));
            data.extend_from_slice(&word(2 * 32 + (u64::from(self.len) + 1) * 32));
            self.write_arrays(&mut data);
        } else {
            data.extend_from_slice(&word(u64::from(self.ids[0])));
            data.extend_from_slice(&word(u64::from(self.amounts[0])));
        }
        data
    }
}

/// One ERC-1155 log as a transaction of the world carries it (none for a failed transaction).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erc1155Log {
    /// The collection's contract, `0x` + 40 lowercase hex.
    pub contract: String,
    /// What the call moved.
    pub call: Erc1155Call,
    /// Position of the log in the block.
    pub log_index: u32,
}

/// One item of an ERC-1155 log: one id moved (a `TransferBatch` has one per id), as the Data API
/// lists it (`Erc1155Transfer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Erc1155Item {
    /// The block.
    pub number: u64,
    /// The transaction's index in the block.
    pub index: u32,
    /// The log's position in the block (shared by a batch's items).
    pub log_index: u32,
    /// The holder the tokens left; `None` for a mint.
    pub from: Option<u64>,
    /// The recipient.
    pub to: u64,
    pub token_id: u32,
    pub value: u32,
}

/// Every ERC-1155 item of a chain's blocks `0..=tip`, in block order (then log order, then the
/// batch's id order).
#[derive(Debug, Default)]
pub struct Ledger {
    pub(crate) items: Vec<Erc1155Item>,
}

impl Ledger {
    /// Every item, oldest first.
    pub fn items(&self) -> &[Erc1155Item] {
        &self.items
    }

    /// The balance of each id pool address `holder` has after block `upto`: `(id, balance)`
    /// by id, non-zero only.
    pub fn balances(&self, holder: u64, upto: u64) -> Vec<(u32, u128)> {
        let mut balance = [0i128; ITEM_IDS as usize + 1];
        for item in self.items.iter().take_while(|item| item.number <= upto) {
            if item.to == holder {
                balance[item.token_id as usize] += i128::from(item.value);
            }
            if item.from == Some(holder) {
                balance[item.token_id as usize] -= i128::from(item.value);
            }
        }
        (1..=ITEM_IDS)
            .filter_map(|id| {
                let b = balance[id as usize];
                assert!(b >= 0, "an ERC-1155 balance below zero: {holder} of id {id} after block {upto}");
                (b > 0).then_some((id, b as u128))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::coreth::keccak256;
    use crate::world::chain;

    #[test]
    fn topics_and_selectors_are_the_keccak_of_their_signatures() {
        assert_eq!(keccak256(b"TransferSingle(address,address,address,uint256,uint256)"), TRANSFER_SINGLE_TOPIC);
        assert_eq!(keccak256(b"TransferBatch(address,address,address,uint256[],uint256[])"), TRANSFER_BATCH_TOPIC);
        let selector = |s: &str| -> [u8; 4] { keccak256(s.as_bytes())[..4].try_into().unwrap() };
        assert_eq!(selector("mint(address,uint256,uint256,bytes)"), MINT_SELECTOR);
        assert_eq!(selector("mintBatch(address,uint256[],uint256[],bytes)"), MINT_BATCH_SELECTOR);
        assert_eq!(selector("safeTransferFrom(address,address,uint256,uint256,bytes)"), SAFE_TRANSFER_SELECTOR);
        assert_eq!(
            selector("safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)"),
            SAFE_BATCH_TRANSFER_SELECTOR
        );
    }

    #[test]
    fn a_batch_call_and_its_log_are_abi_encoded() {
        let call = Erc1155Call {
            sender: 3,
            from: Some(3),
            to: 9,
            batch: true,
            ids: [5, 6, 7, 0],
            amounts: [10, 1, 99, 0],
            len: 3,
        };
        let mut data = Vec::new();
        call.write_call_data(&mut data);
        assert_eq!(&data[..4], &SAFE_BATCH_TRANSFER_SELECTOR);
        let words: Vec<&[u8]> = data[4..].chunks(32).collect();
        assert_eq!(data.len(), 4 + 32 * (5 + 4 + 4 + 1));
        assert_eq!(&words[0][12..], &pool_address_bytes(3));
        assert_eq!(&words[1][12..], &pool_address_bytes(9));
        let at = |w: &[u8]| u64::from_be_bytes(w[24..].try_into().unwrap());
        assert_eq!((at(words[2]), at(words[3]), at(words[4])), (160, 288, 416));
        assert_eq!([at(words[5]), at(words[6]), at(words[7]), at(words[8])], [3, 5, 6, 7]);
        assert_eq!([at(words[9]), at(words[10]), at(words[11]), at(words[12])], [3, 10, 1, 99]);
        assert_eq!(at(words[13]), 0, "empty bytes");
        let log = call.log_data();
        let words: Vec<u64> = log.chunks(32).map(at).collect();
        assert_eq!(words, [64, 192, 3, 5, 6, 7, 3, 10, 1, 99]);
        let topics = call.topics();
        assert_eq!(topics[0], TRANSFER_BATCH_TOPIC);
        assert_eq!((&topics[1][12..], &topics[2][12..]), (&pool_address_bytes(3)[..], &pool_address_bytes(3)[..]));
        let single = Erc1155Call { from: None, batch: false, len: 1, ..call };
        assert_eq!(single.topics()[2], [0; 32], "a mint comes from the zero address");
        assert_eq!(single.log_data().chunks(32).map(at).collect::<Vec<_>>(), [5, 10]);
        let mut data = Vec::new();
        single.write_call_data(&mut data);
        assert_eq!(&data[..4], &MINT_SELECTOR);
        assert_eq!(data[4..].chunks(32).map(at).skip(1).collect::<Vec<_>>(), [5, 10, 128, 0]);
    }

    #[test]
    fn mints_are_rare_and_a_resale_moves_at_most_what_its_mint_made() {
        let c = chain(43114).unwrap();
        let plain = |_: u64, _: u32| Some(7u64);
        let calls: Vec<(u64, Erc1155Call)> =
            (0..20_000u64).filter_map(|n| erc1155_call(4, c, n, 2, 1, plain).map(|call| (n, call))).collect();
        let mints: Vec<_> = calls.iter().filter(|(_, c)| c.from.is_none()).collect();
        let resales: Vec<_> = calls.iter().filter(|(_, c)| c.from.is_some()).collect();
        assert!((240..430).contains(&mints.len()), "{}", mints.len());
        assert!((90..230).contains(&resales.len()), "{}", resales.len());
        assert!(mints.iter().any(|(_, c)| c.batch) && mints.iter().any(|(_, c)| !c.batch));
        for (n, resale) in resales {
            let minted = mint(4, c, n - LAG, 2, 7);
            assert!(mint_drawn(4, c, n - LAG, 2), "{n}");
            assert_eq!((resale.sender, resale.from, resale.batch, resale.len), (7, Some(7), minted.batch, minted.len));
            assert_ne!(resale.to, 7, "no transfer to oneself");
            for ((id, amount), (minted_id, minted_amount)) in resale.items().zip(minted.items()) {
                assert_eq!(id, minted_id);
                assert!((1..=minted_amount).contains(&amount));
            }
        }
        assert!(
            (0..2_000u64).all(|n| erc1155_call(4, chain(53935).unwrap(), n, 2, 1, plain).is_none()),
            "DFK has no nftIndexing"
        );
        assert!((0..2_000u64).all(|n| erc1155_call(4, c, n, 2, 1, |_, _| None).is_none_or(|c| c.from.is_none())));
    }
}
