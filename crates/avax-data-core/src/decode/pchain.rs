//! P-Chain (platformvm) blocks and txs (FORMATS.md §5).
//!
//! [`decode_block`] reads an inner P-Chain block (Apricot type IDs 0–4, Banff 29–32; block ID
//! = sha256 of the bytes). [`decode_tx`] reads a standalone signed tx, [`decode_unsigned_tx`]
//! the codec version plus an unsigned tx alone (what `Unsigned.Bytes()` gives). Every tx type
//! of the §5 table is read ([`PTxBody`]); an unknown type ID is a [`DecodeError`] naming it,
//! and so are trailing bytes.

pub use super::pchain_txs::{
    tx_type_name, AutoRenewedValidator, L1Owner, L1Validator, PTxBody, TransformSubnet, UnsignedPTx,
};

use super::avax::{read_list, Id};
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
    txs.extend(read_list(r, "tx count", MIN_TX_SIZE, PTx::read_signed)?);
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
    use crate::decode::test_bytes::Bytes;

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
        // Parent 0x07.., height 5, then a RewardValidatorTx (20) of staker tx 0x09.. with no credentials.
        let bytes = Bytes::typed(0).fill(7, 32).u64(5).u32(20).fill(9, 32).u32(0).build();
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
        let bytes = Bytes::typed(19).u64(1_700_000_000).u32(0).build();
        let tx = decode_tx(&bytes).unwrap();
        assert_eq!(tx.body, PTxBody::AdvanceTime { time: 1_700_000_000 });
        assert!(tx.base.is_none() && tx.consumed.is_empty());
        assert_eq!(tx.tx_id, crate::index::cb58::sha256(&bytes));

        let bytes = Bytes::typed(42).fill(3, 32).u64(77).build();
        let tx = decode_unsigned_tx(&bytes).unwrap();
        assert_eq!(tx.body, PTxBody::RewardAutoRenewedValidator { staker_tx_id: [3; 32], timestamp: 77 });
        assert_eq!(tx.credentials, None);
    }

    /// A secp256k1fx TransferInput (5) of `amount` of asset 0xAA.. spending UTXO
    /// (0x01.., `output_index`), with no signature indices.
    fn input(b: Bytes, output_index: u32, amount: u64) -> Bytes {
        b.fill(1, 32).u32(output_index).fill(0xAA, 32).u32(5).u64(amount).u32(0)
    }

    /// A standalone tx's start: codec version, `type_id`, then a BaseTx on network 1 with no
    /// outputs, one 5-nAVAX input of asset 0xAA.. and no memo.
    fn base_header(type_id: u32) -> Bytes {
        input(Bytes::typed(type_id).u32(1).fill(0, 32).u32(0).u32(1), 0, 5).u32(0)
    }

    #[test]
    fn create_chain_and_import_txs() {
        // Subnet 0x02.., name "abc", VM 0x04.., fx IDs [0x05..], genesis [6, 7], subnet auth
        // (type 10) with signature index 0, no credentials.
        let b = base_header(15).fill(2, 32).str16("abc").fill(4, 32).u32(1).fill(5, 32).bytes32(&[6, 7]);
        let b = b.u32(10).u32(1).u32(0).u32(0).build();
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

        // Source chain 0x08.., one imported input of 7 nAVAX, no credentials.
        let b = input(base_header(17).fill(8, 32).u32(1), 1, 7).u32(0).build();
        let tx = decode_tx(&b).unwrap();
        assert_eq!(tx.type_name, "ImportTx");
        assert_eq!(tx.consumed, vec![AssetAmount { asset_id: [0xAA; 32], amount: 12 }]);
    }
}
