//! P-Chain (platformvm) blocks and txs (FORMATS.md §5).
//!
//! [`decode_block`] reads an inner P-Chain block (Apricot type IDs 0–4, Banff 29–32; block ID
//! = sha256 of the bytes). [`decode_tx`] reads a standalone signed tx, [`decode_unsigned_tx`]
//! the codec version plus an unsigned tx alone (what `Unsigned.Bytes()` gives). Every tx type
//! of the §5 table is read ([`PTxBody`]); an unknown type ID is a [`DecodeError`] naming it,
//! and so are trailing bytes.

pub use super::pchain_txs::{tx_type_name, L1Owner, L1Validator, PTxBody, TransformSubnet, UnsignedPTx};

use super::avax::Id;
use super::codec::Reader;
use super::tx::Tx;
use super::DecodeError;

/// Smallest encoded P-Chain tx inside a block: an AdvanceTimeTx with no credentials.
const MIN_TX_SIZE: usize = 4 + 8 + 4;

/// A decoded P-Chain tx: `base` is `None` for AdvanceTimeTx, RewardValidatorTx and
/// RewardAutoRenewedValidatorTx; `consumed` and `produced` as [`UnsignedPTx::totals`] counts them
/// (stake included in `produced`).
pub type PTx = Tx<UnsignedPTx>;

/// Decodes a standalone signed P-Chain tx (`u16 codec version ‖ unsigned ‖ credentials`).
pub fn decode_tx(bytes: &[u8]) -> Result<PTx, DecodeError> {
    PTx::decode(bytes)
}

/// Decodes `u16 codec version ‖ unsigned tx` with no credentials.
pub fn decode_unsigned_tx(bytes: &[u8]) -> Result<PTx, DecodeError> {
    PTx::decode_unsigned(bytes)
}

/// A decoded P-Chain block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PBlock {
    /// sha256 of the block bytes.
    pub block_id: Id,
    /// The block type ID (0–4, 29–32).
    pub type_id: u32,
    /// The block type's name, e.g. `"BanffStandardBlock"`.
    pub type_name: &'static str,
    /// Banff block time, unix seconds; `None` for Apricot blocks.
    pub time: Option<u64>,
    /// The parent block.
    pub parent_id: Id,
    /// The height.
    pub height: u64,
    /// The txs in byte order (a BanffProposalBlock's decision txs, then its proposal tx).
    pub txs: Vec<PTx>,
}

/// The name of a P-Chain block type ID, or `None` for an ID that is not a block.
pub fn block_type_name(type_id: u32) -> Option<&'static str> {
    Some(match type_id {
        0 => "ApricotProposalBlock",
        1 => "ApricotAbortBlock",
        2 => "ApricotCommitBlock",
        3 => "ApricotStandardBlock",
        4 => "ApricotAtomicBlock",
        29 => "BanffProposalBlock",
        30 => "BanffAbortBlock",
        31 => "BanffCommitBlock",
        32 => "BanffStandardBlock",
        _ => return None,
    })
}

fn read_txs(r: &mut Reader<'_>, txs: &mut Vec<PTx>) -> Result<(), DecodeError> {
    let n = r.count("tx count", MIN_TX_SIZE)?;
    txs.reserve(n);
    for _ in 0..n {
        txs.push(PTx::read_signed(r)?);
    }
    Ok(())
}

/// Decodes a P-Chain block (`u16 codec version ‖ u32 typeID ‖ fields`).
pub fn decode_block(bytes: &[u8]) -> Result<PBlock, DecodeError> {
    let mut r = Reader::new(bytes);
    r.codec_version()?;
    let at = r.pos();
    let type_id = r.u32("block type ID")?;
    let type_name = block_type_name(type_id)
        .ok_or_else(|| DecodeError::new(at, format!("unknown P-Chain block type ID {type_id}")))?;
    let mut txs = Vec::new();
    let time = if type_id >= 29 { Some(r.u64("block time")?) } else { None };
    if type_id == 29 {
        read_txs(&mut r, &mut txs)?;
    }
    let parent_id = r.array("parent ID")?;
    let height = r.u64("height")?;
    match type_id {
        0 | 4 | 29 => txs.push(PTx::read_signed(&mut r)?),
        3 | 32 => read_txs(&mut r, &mut txs)?,
        _ => {}
    }
    r.finish("block")?;
    Ok(PBlock { block_id: crate::index::cb58::sha256(bytes), type_id, type_name, time, parent_id, height, txs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::avax::{self, AssetAmount};

    #[test]
    fn banff_commit_block_with_zero_fields() {
        let mut bytes = vec![0, 0, 0, 0, 0, 31];
        bytes.extend([0; 8 + 32 + 8]);
        let block = decode_block(&bytes).unwrap();
        assert_eq!(block.type_name, "BanffCommitBlock");
        assert_eq!(block.time, Some(0));
        assert!(block.txs.is_empty());
        bytes.push(0);
        assert!(decode_block(&bytes).unwrap_err().message.contains("1 trailing bytes"));
    }

    #[test]
    fn apricot_proposal_block_with_reward_validator_tx() {
        let mut bytes = vec![0, 0, 0, 0, 0, 0];
        bytes.extend([7; 32]);
        bytes.extend(5u64.to_be_bytes());
        bytes.extend(20u32.to_be_bytes());
        bytes.extend([9; 32]);
        bytes.extend(0u32.to_be_bytes());
        let block = decode_block(&bytes).unwrap();
        assert_eq!((block.type_name, block.height, block.time), ("ApricotProposalBlock", 5, None));
        let tx = &block.txs[0];
        assert_eq!(tx.type_name, "RewardValidatorTx");
        assert_eq!(tx.body, PTxBody::RewardValidator { staker_tx_id: [9; 32] });
        assert_eq!(tx.tx_id, avax::tx_id(&bytes[6 + 40..]));
        assert_eq!(tx.credentials, Some(vec![]));
    }

    #[test]
    fn unknown_type_ids_are_named() {
        let err = decode_block(&[0, 0, 0, 0, 0, 5]).unwrap_err();
        assert_eq!((err.offset, err.message.as_str()), (2, "unknown P-Chain block type ID 5"));
        let err = decode_tx(&[0, 0, 0, 0, 0, 21, 0, 0]).unwrap_err();
        assert_eq!((err.offset, err.message.as_str()), (2, "unknown P-Chain tx type ID 21"));
    }

    #[test]
    fn advance_time_and_reward_auto_renewed_have_no_base_tx() {
        let mut bytes = vec![0, 0, 0, 0, 0, 19];
        bytes.extend(1_700_000_000u64.to_be_bytes());
        bytes.extend([0; 4]);
        let tx = decode_tx(&bytes).unwrap();
        assert_eq!(tx.body, PTxBody::AdvanceTime { time: 1_700_000_000 });
        assert!(tx.base.is_none() && tx.consumed.is_empty());
        assert_eq!(tx.tx_id, crate::index::cb58::sha256(&bytes));

        let mut bytes = vec![0, 0, 0, 0, 0, 42];
        bytes.extend([3; 32]);
        bytes.extend(77u64.to_be_bytes());
        let tx = decode_unsigned_tx(&bytes).unwrap();
        assert_eq!(tx.body, PTxBody::RewardAutoRenewedValidator { staker_tx_id: [3; 32], timestamp: 77 });
        assert_eq!(tx.credentials, None);
    }

    /// A BaseTx header with no outputs, one 5-nAVAX input of asset 0xAA.., and no memo.
    fn base_header(type_id: u32) -> Vec<u8> {
        let mut b = vec![0, 0];
        b.extend(type_id.to_be_bytes());
        b.extend(1u32.to_be_bytes());
        b.extend([0; 32]);
        b.extend(0u32.to_be_bytes());
        b.extend(1u32.to_be_bytes());
        b.extend([1; 32]);
        b.extend(0u32.to_be_bytes());
        b.extend([0xAA; 32]);
        b.extend(5u32.to_be_bytes());
        b.extend(5u64.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        b
    }

    #[test]
    fn create_chain_and_import_txs() {
        let mut b = base_header(15);
        b.extend([2; 32]);
        b.extend(3u16.to_be_bytes());
        b.extend(b"abc");
        b.extend([4; 32]);
        b.extend(1u32.to_be_bytes());
        b.extend([5; 32]);
        b.extend(2u32.to_be_bytes());
        b.extend([6, 7]);
        b.extend(10u32.to_be_bytes());
        b.extend(1u32.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        let tx = decode_tx(&b).unwrap();
        assert_eq!(tx.type_name, "CreateChainTx");
        assert_eq!(
            tx.body,
            PTxBody::CreateChain {
                subnet_id: [2; 32],
                chain_name: "abc".into(),
                vm_id: [4; 32],
                fx_ids: vec![[5; 32]],
                genesis: vec![6, 7],
                subnet_auth: vec![0],
            }
        );
        assert_eq!(tx.consumed, vec![AssetAmount { asset_id: [0xAA; 32], amount: 5 }]);

        let mut b = base_header(17);
        b.extend([8; 32]);
        b.extend(1u32.to_be_bytes());
        b.extend([1; 32]);
        b.extend(1u32.to_be_bytes());
        b.extend([0xAA; 32]);
        b.extend(5u32.to_be_bytes());
        b.extend(7u64.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        b.extend(0u32.to_be_bytes());
        let tx = decode_tx(&b).unwrap();
        assert_eq!(tx.type_name, "ImportTx");
        assert_eq!(tx.consumed, vec![AssetAmount { asset_id: [0xAA; 32], amount: 12 }]);
    }
}
