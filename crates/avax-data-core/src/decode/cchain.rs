//! C-chain inner blocks: coreth's RLP block `[header, txs, uncles, version, extData]`
//! (FORMATS.md §4), its header through Granite (later optional fields are read and skipped),
//! and its Ethereum transactions (legacy and typed 1–4).
//!
//! The block hash is keccak256 of the header's RLP encoding; a transaction's hash is keccak256
//! of its encoding (the list for legacy, `type ‖ payload` for typed ones). A block's hashes are
//! computed four at a time where the CPU has AVX2 (`avax_data_keccak::Batch`).

use avax_data_keccak::Batch;
/// Which keccak code hashes a block: one message at a time, or four with AVX2 or AVX-512.
pub use avax_data_keccak::Path;

use super::rlp::{Item, Items};
use super::DecodeError;

mod header;
pub use header::Header;

/// A decoded C-chain block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CBlock {
    /// keccak256 of the RLP header: the block hash.
    pub hash: [u8; 32],
    /// The header's fields.
    pub header: Header,
    /// How many fields the header has (16, 17, 19, 22, 24 ...).
    pub header_fields: u8,
    /// The block's Ethereum transactions, in order.
    pub transactions: Vec<CTx>,
    /// Number of uncle headers.
    pub uncle_count: u32,
    /// Block version (0 on every observed block); `None` when absent.
    pub version: Option<u32>,
    /// Size in bytes of the atomic extData; `None` when absent.
    pub ext_data_size: Option<u32>,
}

/// A decoded Ethereum transaction of a C-chain block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CTx {
    /// keccak256 of the encoding.
    pub hash: [u8; 32],
    /// EIP-2718 type: 0 legacy, 1 access list, 2 dynamic fee, 3 blob, 4 set-code.
    pub tx_type: u8,
    /// Chain id (from `v` for EIP-155 legacy txs; `None` for pre-EIP-155 ones).
    pub chain_id: Option<u64>,
    /// Sender nonce.
    pub nonce: u64,
    /// Gas price (types 0 and 1).
    pub gas_price: Option<u128>,
    /// Max fee per gas (types 2–4).
    pub max_fee_per_gas: Option<u128>,
    /// Max priority fee per gas (types 2–4).
    pub max_priority_fee_per_gas: Option<u128>,
    /// Gas limit.
    pub gas: u64,
    /// Recipient; `None` for contract creation.
    pub to: Option<[u8; 20]>,
    /// Value in wei.
    pub value: u128,
    /// Length of the call data.
    pub input_len: u32,
    /// Access-list entries (types 1–4).
    pub access_list_len: Option<u32>,
    /// Max fee per blob gas (type 3).
    pub max_fee_per_blob_gas: Option<u128>,
    /// Blob versioned hashes (type 3).
    pub blob_hash_count: Option<u32>,
    /// Authorizations (type 4).
    pub authorization_count: Option<u32>,
}

/// Which keccak256 hashes a block's decode computes. A walk whose columns need neither the
/// block hash nor the transactions' hashes skips them (as reth and alloy compute a
/// transaction's hash lazily); a hash not computed is left all zero and its column is not
/// handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hashes {
    /// The block hash (`hash`, and the envelope's `inner_id` of C/block).
    pub block: bool,
    /// Each transaction's hash (`transactions.hash`).
    pub transactions: bool,
}

impl Hashes {
    /// Every hash: what a full decode computes.
    pub const ALL: Hashes = Hashes { block: true, transactions: true };
}

/// keccak256 of `data` (CRYPTOGAMS assembly on x86_64 and aarch64, through `keccak-asm`).
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    avax_data_keccak::keccak256(data)
}

/// The bytes a transaction's hash covers: the list of a legacy transaction, `type ‖ payload` of
/// a typed one (the byte string's content).
fn tx_hash_input<'a>(item: &Item<'a>) -> &'a [u8] {
    if item.is_list {
        item.raw
    } else {
        item.payload
    }
}

/// The block hash without decoding the rest: keccak256 of the header's encoding.
pub fn block_hash(bytes: &[u8]) -> Result<[u8; 32], DecodeError> {
    let mut top = Items::new(bytes, 0);
    let mut block = top.list("block")?;
    let header = block.item("header")?;
    if !header.is_list {
        return Err(DecodeError::new(header.offset, "header: expected an RLP list"));
    }
    Ok(keccak256(header.raw))
}

/// Decodes a header on its own (the RLP list of its fields); body fields stay empty.
pub fn decode_header_only(bytes: &[u8]) -> Result<CBlock, DecodeError> {
    let mut top = Items::new(bytes, 0);
    let header = top.item("header")?;
    top.finish("header")?;
    decode_header(&header, true)
}

/// Decodes a coreth block.
pub fn decode_block(bytes: &[u8]) -> Result<CBlock, DecodeError> {
    decode_block_with(bytes, Hashes::ALL)
}

/// Decodes a coreth block, computing the hashes `hashes` asks for (the others stay zero).
pub fn decode_block_with(bytes: &[u8], hashes: Hashes) -> Result<CBlock, DecodeError> {
    let mut out = CBlock::empty();
    decode_block_into(bytes, hashes, &mut out)?;
    Ok(out)
}

impl CBlock {
    /// A block with no transactions and a zero header: the scratch space [`decode_block_into`]
    /// fills.
    pub fn empty() -> Self {
        CBlock {
            hash: [0; 32],
            header: Header::empty(),
            header_fields: 0,
            transactions: Vec::new(),
            uncle_count: 0,
            version: None,
            ext_data_size: None,
        }
    }
}

/// [`decode_block_with`] into `out`, whose buffers (the transactions, the header's extra data)
/// are reused: a walk decodes each block of a batch into the same one, so a block costs no
/// allocation and no copy of its transactions. Every field of `out` is overwritten; after an
/// error its content is unspecified.
pub fn decode_block_into(bytes: &[u8], hashes: Hashes, out: &mut CBlock) -> Result<(), DecodeError> {
    decode_block_into_on(bytes, hashes, out, Path::detect())
}

/// The id of the header's hash in a block's [`Batch`] (the transactions' are their positions).
const HEADER: usize = usize::MAX;

/// Stores a hash of a block's [`Batch`] where it belongs.
fn store(out: &mut CBlock, id: usize, hash: [u8; 32]) {
    match id {
        HEADER => out.hash = hash,
        position => out.transactions[position].hash = hash,
    }
}

/// [`decode_block_into`] with the block's hashes computed on `path` ([`Path::Scalar`]: one at a
/// time, as on a CPU without AVX2; the tests compare the paths).
pub fn decode_block_into_on(bytes: &[u8], hashes: Hashes, out: &mut CBlock, path: Path) -> Result<(), DecodeError> {
    let mut top = Items::new(bytes, 0);
    let mut block = top.list("block")?;
    top.finish("block")?;
    let header = block.item("header")?;
    out.header_fields = header::decode_header_into(&header, &mut out.header)?;
    out.hash = [0; 32];
    let mut batch = Batch::on(path);
    if hashes.block {
        batch.push(HEADER, header.raw, &mut |id, hash| store(out, id, hash));
    }
    out.uncle_count = 0;
    out.version = None;
    out.ext_data_size = None;
    out.transactions.clear();
    let txs = block.item("transactions")?;
    // Room for the usual count at once (a transaction takes 100 bytes or more; fewer is fine).
    out.transactions.reserve(txs.payload.len() / 100);
    let mut txs = txs.as_list("transactions")?;
    while let Some(item) = txs.next_item("transaction")? {
        let position = out.transactions.len();
        out.transactions.push(CTx::default());
        let tx = out.transactions.last_mut().expect("just pushed");
        decode_tx_into(&item, false, tx)
            .map_err(|e| DecodeError::new(e.offset, format!("transaction {position}: {}", e.message)))?;
        if hashes.transactions {
            batch.push(position, tx_hash_input(&item), &mut |id, hash| store(out, id, hash));
        }
    }
    batch.finish(&mut |id, hash| store(out, id, hash));
    let mut uncles = block.list("uncles")?;
    while uncles.next_item("uncle")?.is_some() {
        out.uncle_count += 1;
    }
    if let Some(version) = block.next_item("version")? {
        out.version = Some(version.as_uint("version", 4)? as u32);
        let ext = block.bytes("extData")?;
        out.ext_data_size = Some(ext.len() as u32);
    }
    block.finish("block")?;
    Ok(())
}

fn decode_header(header: &Item<'_>, hash: bool) -> Result<CBlock, DecodeError> {
    let mut out = CBlock::empty();
    out.header_fields = header::decode_header_into(header, &mut out.header)?;
    out.hash = if hash { keccak256(header.raw) } else { [0; 32] };
    Ok(out)
}

fn count_items(item: &Item<'_>, what: &str) -> Result<u32, DecodeError> {
    let mut items = item.as_list(what)?;
    let mut n = 0u32;
    while items.next_item(what)?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// The largest value `Decimal128(38, 0)` holds.
pub const DECIMAL38_MAX: u128 = 99_999_999_999_999_999_999_999_999_999_999_999_999;

/// `value`, or an error naming `what` when it does not fit [`DECIMAL38_MAX`].
fn decimal(value: u128, what: &str, offset: usize) -> Result<u128, DecodeError> {
    if value > DECIMAL38_MAX {
        return Err(DecodeError::new(offset, format!("{what} {value} does not fit Decimal(38, 0)")));
    }
    Ok(value)
}

/// The fields every transaction type has in this order: `gas`, `to`, `value`, `input`.
fn gas_to_value_input(f: &mut Items<'_>, tx: &mut CTx) -> Result<(), DecodeError> {
    tx.gas = f.u64("gas")?;
    let to = f.item("to")?;
    let bytes = to.as_bytes("to")?;
    tx.to = match bytes.len() {
        0 => None,
        20 => Some(bytes.try_into().expect("20 bytes")),
        n => return Err(DecodeError::new(to.offset, format!("to: expected 20 bytes or none, found {n}"))),
    };
    let value = f.item("value")?;
    tx.value = decimal(value.as_uint("value", 16)?, "value", value.offset)?;
    tx.input_len = f.bytes("input")?.len() as u32;
    Ok(())
}

/// Decodes one transaction item of a block body.
pub fn decode_tx(item: &Item<'_>) -> Result<CTx, DecodeError> {
    decode_tx_with(item, true)
}

/// Decodes one transaction item of a block body; its hash only when `hash` (else zero).
pub fn decode_tx_with(item: &Item<'_>, hash: bool) -> Result<CTx, DecodeError> {
    let mut tx = CTx::default();
    decode_tx_into(item, hash, &mut tx)?;
    Ok(tx)
}

/// [`decode_tx_with`] into `tx`, which must be [`CTx::default`] (every field it leaves alone
/// keeps its default).
fn decode_tx_into(item: &Item<'_>, hash: bool, tx: &mut CTx) -> Result<(), DecodeError> {
    if item.is_list {
        return decode_legacy(item, hash, tx);
    }
    let Some((&tx_type, body)) = item.payload.split_first() else {
        return Err(DecodeError::new(item.offset, "empty typed transaction"));
    };
    if !(1..=4).contains(&tx_type) {
        return Err(DecodeError::new(item.offset, format!("unknown transaction type {tx_type}")));
    }
    let base = item.payload_offset() + 1;
    let mut top = Items::new(body, base);
    let mut f = top.list("typed transaction")?;
    top.finish("typed transaction")?;
    if hash {
        tx.hash = keccak256(tx_hash_input(item));
    }
    tx.tx_type = tx_type;
    tx.chain_id = Some(f.u64("chainId")?);
    tx.nonce = f.u64("nonce")?;
    if tx_type == 1 {
        tx.gas_price = Some(f.u128("gasPrice")?);
    } else {
        tx.max_priority_fee_per_gas = Some(f.u128("maxPriorityFeePerGas")?);
        tx.max_fee_per_gas = Some(f.u128("maxFeePerGas")?);
    }
    gas_to_value_input(&mut f, tx)?;
    tx.access_list_len = Some(count_items(&f.item("accessList")?, "accessList")?);
    if tx_type == 3 {
        tx.max_fee_per_blob_gas = Some(f.u128("maxFeePerBlobGas")?);
        tx.blob_hash_count = Some(count_items(&f.item("blobVersionedHashes")?, "blobVersionedHashes")?);
    }
    if tx_type == 4 {
        tx.authorization_count = Some(count_items(&f.item("authorizationList")?, "authorizationList")?);
    }
    f.u64("yParity")?;
    f.bytes("r")?;
    f.bytes("s")?;
    f.finish("typed transaction")
}

fn decode_legacy(item: &Item<'_>, hash: bool, tx: &mut CTx) -> Result<(), DecodeError> {
    let mut f = item.as_list("legacy transaction")?;
    if hash {
        tx.hash = keccak256(tx_hash_input(item));
    }
    tx.nonce = f.u64("nonce")?;
    tx.gas_price = Some(f.u128("gasPrice")?);
    gas_to_value_input(&mut f, tx)?;
    let v = f.u128("v")?;
    tx.chain_id = if v >= 35 { u64::try_from((v - 35) / 2).ok() } else { None };
    f.bytes("r")?;
    f.bytes("s")?;
    f.finish("legacy transaction")
}
