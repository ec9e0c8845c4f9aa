//! The coreth block header (`HeaderSerializable`): its fields in RLP order, and how the
//! decoder reads them (16 base fields, then the optional ones each upgrade appended).

use super::super::rlp::Item;
use super::super::DecodeError;

/// Header fields coreth defines (16 base, 14 optional); more is an unknown format.
const MAX_HEADER_FIELDS: usize = 30;

/// A coreth block header, fields in their RLP order; an optional field is `None` when the
/// header ends before it (the encoder writes fields up to the last one present).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Parent block hash.
    pub parent_hash: [u8; 32],
    /// Hash of the uncle list.
    pub uncle_hash: [u8; 32],
    /// Fee recipient (`miner`).
    pub coinbase: [u8; 20],
    /// State root.
    pub state_root: [u8; 32],
    /// Transactions root.
    pub transactions_root: [u8; 32],
    /// Receipts root.
    pub receipts_root: [u8; 32],
    /// The logs bloom filter.
    pub logs_bloom: [u8; 256],
    /// Difficulty (1 on Avalanche).
    pub difficulty: u128,
    /// Block number (height).
    pub number: u64,
    /// Gas limit.
    pub gas_limit: u64,
    /// Gas used.
    pub gas_used: u64,
    /// Block time, Unix seconds.
    pub time: u64,
    /// Extra data (fee window or ACP-176 state, then warp predicate results).
    pub extra: Vec<u8>,
    /// Mix digest.
    pub mix_digest: [u8; 32],
    /// Nonce.
    pub nonce: [u8; 8],
    /// keccak256 of the atomic extData (Avalanche).
    pub ext_data_hash: [u8; 32],
    /// Base fee (ApricotPhase3 on).
    pub base_fee: Option<u128>,
    /// Gas used by atomic txs (ApricotPhase4 on).
    pub ext_data_gas_used: Option<u128>,
    /// Block gas cost (ApricotPhase4 on).
    pub block_gas_cost: Option<u128>,
    /// Blob gas used (Etna on).
    pub blob_gas_used: Option<u64>,
    /// Excess blob gas (Etna on).
    pub excess_blob_gas: Option<u64>,
    /// Parent beacon block root (Etna on).
    pub parent_beacon_root: Option<[u8; 32]>,
    /// Block time in milliseconds (Granite on).
    pub time_milliseconds: Option<u64>,
    /// Minimum block delay excess (Granite on, ACP-226).
    pub min_delay_excess: Option<u64>,
}

impl Header {
    /// A header of zeros and no optional field: the scratch space [`decode_header_into`] fills.
    pub fn empty() -> Self {
        Header {
            parent_hash: [0; 32],
            uncle_hash: [0; 32],
            coinbase: [0; 20],
            state_root: [0; 32],
            transactions_root: [0; 32],
            receipts_root: [0; 32],
            logs_bloom: [0; 256],
            difficulty: 0,
            number: 0,
            gas_limit: 0,
            gas_used: 0,
            time: 0,
            extra: Vec::new(),
            mix_digest: [0; 32],
            nonce: [0; 8],
            ext_data_hash: [0; 32],
            base_fee: None,
            ext_data_gas_used: None,
            block_gas_cost: None,
            blob_gas_used: None,
            excess_blob_gas: None,
            parent_beacon_root: None,
            time_milliseconds: None,
            min_delay_excess: None,
        }
    }
}

/// Reads a header (the RLP list of its fields) into `out` (every field overwritten, its
/// `extra` buffer reused; `out` is unspecified after an error); returns its field count (16, 17, 19, 22, 24 ...).
pub(super) fn decode_header_into(header: &Item<'_>, out: &mut Header) -> Result<u8, DecodeError> {
    let mut h = header.as_list("header")?;
    let mut extra = std::mem::take(&mut out.extra);
    extra.clear();
    *out = Header {
        parent_hash: h.fixed("parentHash")?,
        uncle_hash: h.fixed("uncleHash")?,
        coinbase: h.fixed("coinbase")?,
        state_root: h.fixed("root")?,
        transactions_root: h.fixed("txHash")?,
        receipts_root: h.fixed("receiptHash")?,
        logs_bloom: h.fixed("bloom")?,
        difficulty: h.u128("difficulty")?,
        number: h.u64("number")?,
        gas_limit: h.u64("gasLimit")?,
        gas_used: h.u64("gasUsed")?,
        time: h.u64("time")?,
        extra: {
            extra.extend_from_slice(h.bytes("extra")?);
            extra
        },
        mix_digest: h.fixed("mixDigest")?,
        nonce: h.fixed("nonce")?,
        ext_data_hash: h.fixed("extDataHash")?,
        ..Header::empty()
    };
    let mut field = 16usize;
    while let Some(item) = h.next_item("header field")? {
        if field >= MAX_HEADER_FIELDS {
            return Err(DecodeError::new(item.offset, format!("header has more than {MAX_HEADER_FIELDS} fields")));
        }
        match field {
            16 => out.base_fee = Some(item.as_uint("baseFee", 16)?),
            17 => out.ext_data_gas_used = Some(item.as_uint("extDataGasUsed", 16)?),
            18 => out.block_gas_cost = Some(item.as_uint("blockGasCost", 16)?),
            19 => out.blob_gas_used = Some(item.as_uint("blobGasUsed", 8)? as u64),
            20 => out.excess_blob_gas = Some(item.as_uint("excessBlobGas", 8)? as u64),
            21 => {
                let root = item.as_bytes("parentBeaconRoot")?;
                out.parent_beacon_root = match root.len() {
                    0 => None,
                    32 => Some(root.try_into().expect("32 bytes")),
                    n => {
                        return Err(DecodeError::new(
                            item.offset,
                            format!("parentBeaconRoot: expected 32 bytes, found {n}"),
                        ))
                    }
                };
            }
            22 => out.time_milliseconds = Some(item.as_uint("timeMilliseconds", 8)? as u64),
            23 => out.min_delay_excess = Some(item.as_uint("minDelayExcess", 8)? as u64),
            // Helicon and SAE fields, not active on any network: checked as integers, not kept.
            _ => {
                item.as_uint("header field", 32)?;
            }
        }
        field += 1;
    }
    Ok(field as u8)
}
