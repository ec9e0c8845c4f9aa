//! X-Chain (AVM) txs and the linear StandardBlock (FORMATS.md §6).
//!
//! [`decode_tx`] reads a standalone signed tx (what an `X/tx` container holds); [`decode_block`]
//! reads a StandardBlock (type ID 20; block ID = sha256 of the bytes), whose txs carry no codec
//! version. Outputs use the primary-network fx types (secp256k1fx, nftfx, propertyfx: 6, 7, 10,
//! 11, 15, 16), operations the types 8, 12, 13, 17, 18, credentials 9, 14, 19.
//!
//! Amount totals: `consumed` = BaseTx inputs + imported inputs; `produced` = BaseTx outputs +
//! exported outputs + the amounts a CreateAssetTx's initial states create (under the new asset,
//! whose ID is the tx ID) + the amounts secp256k1fx mint operations mint.

use super::avax::{
    read_list, read_sig_indices, AmountTotals, Atomic, BaseTx, Fxs, Id, Output, OutputOwners, MIN_OWNERS_SIZE,
};
use super::codec::Reader;
use super::tx::{read_type_id, Tx, UnsignedTx};
use super::DecodeError;

/// Smallest encoded AVM tx inside a block: a BaseTx with nothing in it and no credentials.
const MIN_TX_SIZE: usize = 4 + 4 + 32 + 4 + 4 + 4 + 4;
/// Smallest encoded operation: asset ID, UTXO count, op type ID, an empty `Input`.
const MIN_OPERATION_SIZE: usize = 32 + 4 + 4 + 4;
/// Smallest typed output body: type ID and `OutputOwners`.
const MIN_OUTPUT_SIZE: usize = 4 + MIN_OWNERS_SIZE;

/// A decoded X-Chain tx: `consumed` and `produced` as the module doc counts them.
pub type XTx = Tx<UnsignedXTx>;

/// The fields an AVM tx type adds after its BaseTx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XTxBody {
    /// 0, BaseTx.
    Base,
    /// 1, CreateAssetTx.
    CreateAsset {
        /// The asset's name.
        name: String,
        /// Its symbol.
        symbol: String,
        /// Its decimal places.
        denomination: u8,
        /// The outputs it starts with, per fx.
        initial_states: Vec<InitialState>,
    },
    /// 2, OperationTx.
    Operation {
        /// The operations.
        operations: Vec<Operation>,
    },
    /// 3, ImportTx, and 4, ExportTx.
    Atomic(Atomic),
}

/// One fx's initial outputs in a CreateAssetTx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialState {
    /// Index of the fx (0 secp256k1fx, 1 nftfx, 2 propertyfx).
    pub fx_index: u32,
    /// The outputs.
    pub outputs: Vec<Output>,
}

/// A UTXO reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtxoId {
    /// The tx that produced it.
    pub tx_id: Id,
    /// Its index among that tx's outputs.
    pub output_index: u32,
}

/// One operation of an OperationTx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// The asset operated on.
    pub asset_id: Id,
    /// The UTXOs it spends.
    pub utxo_ids: Vec<UtxoId>,
    /// What it does.
    pub op: Op,
}

/// A typed operation body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// 8, secp256k1fx.MintOperation.
    SecpMint {
        /// Signature indices.
        sig_indices: Vec<u32>,
        /// The new mint output's owners.
        mint_owners: OutputOwners,
        /// The minted amount.
        amount: u64,
        /// The minted output's owners.
        transfer_owners: OutputOwners,
    },
    /// 12, nftfx.MintOperation.
    NftMint {
        /// Signature indices.
        sig_indices: Vec<u32>,
        /// The NFT group.
        group_id: u32,
        /// The NFT payload.
        payload: Vec<u8>,
        /// One owner set per minted NFT.
        owners: Vec<OutputOwners>,
    },
    /// 13, nftfx.TransferOperation.
    NftTransfer {
        /// Signature indices.
        sig_indices: Vec<u32>,
        /// The NFT group.
        group_id: u32,
        /// The NFT payload.
        payload: Vec<u8>,
        /// The new owners.
        owners: OutputOwners,
    },
    /// 17, propertyfx.MintOperation.
    PropertyMint {
        /// Signature indices.
        sig_indices: Vec<u32>,
        /// The new mint output's owners.
        mint_owners: OutputOwners,
        /// The owned output's owners.
        owned_owners: OutputOwners,
    },
    /// 18, propertyfx.BurnOperation.
    PropertyBurn {
        /// Signature indices.
        sig_indices: Vec<u32>,
    },
}

impl Op {
    fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let at = r.pos();
        let type_id = r.u32("operation type ID")?;
        let sig_indices = match type_id {
            8 | 12 | 13 | 17 | 18 => read_sig_indices(r)?,
            other => return Err(DecodeError::new(at, format!("unknown operation type ID {other}"))),
        };
        Ok(match type_id {
            8 => {
                let mint_owners = OutputOwners::read(r)?;
                let amount = r.u64("minted amount")?;
                Op::SecpMint { sig_indices, mint_owners, amount, transfer_owners: OutputOwners::read(r)? }
            }
            12 => {
                let group_id = r.u32("NFT group ID")?;
                let payload = r.bytes_u32("NFT payload")?.to_vec();
                let owners = read_list(r, "NFT owner count", MIN_OWNERS_SIZE, OutputOwners::read)?;
                Op::NftMint { sig_indices, group_id, payload, owners }
            }
            13 => {
                let group_id = r.u32("NFT group ID")?;
                let payload = r.bytes_u32("NFT payload")?.to_vec();
                Op::NftTransfer { sig_indices, group_id, payload, owners: OutputOwners::read(r)? }
            }
            17 => Op::PropertyMint {
                sig_indices,
                mint_owners: OutputOwners::read(r)?,
                owned_owners: OutputOwners::read(r)?,
            },
            _ => Op::PropertyBurn { sig_indices },
        })
    }

    /// The codec type ID of this operation.
    pub fn type_id(&self) -> u32 {
        match self {
            Op::SecpMint { .. } => 8,
            Op::NftMint { .. } => 12,
            Op::NftTransfer { .. } => 13,
            Op::PropertyMint { .. } => 17,
            Op::PropertyBurn { .. } => 18,
        }
    }
}

/// The name of an AVM tx type ID, or `None` for an ID that is not a tx.
pub fn tx_type_name(type_id: u32) -> Option<&'static str> {
    Some(match type_id {
        0 => "BaseTx",
        1 => "CreateAssetTx",
        2 => "OperationTx",
        3 => "ImportTx",
        4 => "ExportTx",
        _ => return None,
    })
}

/// An unsigned AVM tx as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsignedXTx {
    /// The tx type ID.
    pub type_id: u32,
    /// The common fields.
    pub base: BaseTx,
    /// The type-specific fields.
    pub body: XTxBody,
}

impl UnsignedTx for UnsignedXTx {
    type Base = BaseTx;
    type Body = XTxBody;
    const FXS: Fxs = Fxs::Avm;
    /// Reads `u32 typeID` and the tx fields.
    fn read(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let type_id = read_type_id(r, "X-Chain", tx_type_name)?;
        let base = BaseTx::read(r, Fxs::Avm)?;
        let body = match type_id {
            0 => XTxBody::Base,
            1 => {
                let name = r.string_u16("asset name")?.to_owned();
                let symbol = r.string_u16("asset symbol")?.to_owned();
                let denomination = r.u8("denomination")?;
                let initial_states = read_list(r, "initial state count", 8, |r| {
                    let fx_index = r.u32("fx index")?;
                    let outputs = read_list(r, "initial output count", MIN_OUTPUT_SIZE, |r| Output::read(r, Fxs::Avm))?;
                    Ok(InitialState { fx_index, outputs })
                })?;
                XTxBody::CreateAsset { name, symbol, denomination, initial_states }
            }
            2 => {
                let operations = read_list(r, "operation count", MIN_OPERATION_SIZE, |r| {
                    let asset_id = r.array("operation asset ID")?;
                    let utxo_ids = read_list(r, "operation UTXO count", 36, |r| {
                        Ok(UtxoId { tx_id: r.array("UTXO tx ID")?, output_index: r.u32("UTXO index")? })
                    })?;
                    Ok(Operation { asset_id, utxo_ids, op: Op::read(r)? })
                })?;
                XTxBody::Operation { operations }
            }
            _ => XTxBody::Atomic(Atomic::read(r, Fxs::Avm, type_id == 4)?),
        };
        Ok(UnsignedXTx { type_id, base, body })
    }
    fn type_name(type_id: u32) -> Option<&'static str> {
        tx_type_name(type_id)
    }
    fn totals(&self, tx_id: &Id) -> (AmountTotals, AmountTotals) {
        UnsignedXTx::totals(self, tx_id)
    }
    fn into_parts(self) -> (u32, BaseTx, XTxBody) {
        (self.type_id, self.base, self.body)
    }
}

impl UnsignedXTx {
    /// Per-asset `(consumed, produced)` totals (see the module doc); `tx_id` names the asset a
    /// CreateAssetTx creates.
    pub fn totals(&self, tx_id: &Id) -> (AmountTotals, AmountTotals) {
        let mut consumed = AmountTotals::default();
        let mut produced = AmountTotals::default();
        self.base.add_totals(&mut consumed, &mut produced);
        match &self.body {
            XTxBody::Base => {}
            XTxBody::CreateAsset { initial_states, .. } => {
                for state in initial_states {
                    for output in &state.outputs {
                        produced.add_output(tx_id, output);
                    }
                }
            }
            XTxBody::Operation { operations } => {
                for op in operations {
                    if let Op::SecpMint { amount, .. } = op.op {
                        produced.add(&op.asset_id, amount);
                    }
                }
            }
            XTxBody::Atomic(atomic) => atomic.add_totals(&mut consumed, &mut produced),
        }
        (consumed, produced)
    }
}

/// Decodes a standalone signed X-Chain tx (`u16 codec version ‖ unsigned ‖ credentials`).
pub fn decode_tx(bytes: &[u8]) -> Result<XTx, DecodeError> {
    XTx::decode(bytes)
}

/// Decodes `u16 codec version ‖ unsigned tx` with no credentials.
pub fn decode_unsigned_tx(bytes: &[u8]) -> Result<XTx, DecodeError> {
    XTx::decode_unsigned(bytes)
}

/// A decoded X-Chain StandardBlock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XBlock {
    /// sha256 of the block bytes.
    pub block_id: Id,
    /// The block type ID (20).
    pub type_id: u32,
    /// `"StandardBlock"`.
    pub type_name: &'static str,
    /// The parent block.
    pub parent_id: Id,
    /// The height.
    pub height: u64,
    /// Block time, unix seconds.
    pub time: u64,
    /// The merkle root (zero as built by avalanchego).
    pub merkle_root: Id,
    /// The txs.
    pub txs: Vec<XTx>,
}

/// Decodes an X-Chain block (`u16 codec version ‖ u32 20 ‖ fields`).
pub fn decode_block(bytes: &[u8]) -> Result<XBlock, DecodeError> {
    let mut r = Reader::new(bytes);
    r.codec_version()?;
    let at = r.pos();
    let type_id = r.u32("block type ID")?;
    if type_id != 20 {
        return Err(DecodeError::new(at, format!("unknown X-Chain block type ID {type_id}")));
    }
    let parent_id = r.array("parent ID")?;
    let height = r.u64("height")?;
    let time = r.u64("block time")?;
    let merkle_root = r.array("merkle root")?;
    let txs = read_list(&mut r, "tx count", MIN_TX_SIZE, XTx::read_signed)?;
    r.finish("block")?;
    Ok(XBlock {
        block_id: crate::index::cb58::sha256(bytes),
        type_id,
        type_name: "StandardBlock",
        parent_id,
        height,
        time,
        merkle_root,
        txs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::avax::AssetAmount;
    use crate::decode::test_bytes::Bytes;

    /// Codec version, AVM tx `type_id`, then a BaseTx on network 1 with no outputs, no inputs
    /// and no memo.
    fn empty_base(type_id: u32) -> Bytes {
        Bytes::typed(type_id).u32(1).fill(0, 32).u32(0).u32(0).u32(0)
    }

    /// An OperationTx with a secp mint (5 units of asset 0x22..) and a property burn.
    fn operation_tx() -> Vec<u8> {
        // Two operations. A secp mint (8) of asset 0x22.. spending UTXO (0x33.., 0), signature
        // index 0, empty mint owners, amount 5, empty transfer owners.
        let b = empty_base(2).u32(2).fill(0x22, 32).u32(1).fill(0x33, 32).u32(0);
        let b = b.u32(8).u32(1).u32(0).fill(0, 16).u64(5).fill(0, 16);
        // A property burn (18) of asset 0x44.. spending nothing; one propertyfx credential (19).
        b.fill(0x44, 32).u32(0).u32(18).u32(0).u32(1).u32(19).u32(0).build()
    }

    #[test]
    fn operation_tx_with_mint_and_burn() {
        let tx = decode_tx(&operation_tx()).unwrap();
        assert_eq!(tx.type_name, "OperationTx");
        let XTxBody::Operation { operations } = &tx.body else { panic!() };
        assert_eq!(operations.len(), 2);
        assert_eq!(operations[0].op.type_id(), 8);
        assert_eq!(operations[0].utxo_ids, vec![UtxoId { tx_id: [0x33; 32], output_index: 0 }]);
        assert_eq!(operations[1].op, Op::PropertyBurn { sig_indices: vec![] });
        assert_eq!(tx.produced, vec![AssetAmount { asset_id: [0x22; 32], amount: 5 }]);
        assert_eq!(tx.credentials.as_ref().unwrap()[0].type_id, 19);
    }

    #[test]
    fn unknown_operation_and_tx_types_are_named() {
        let mut b = operation_tx();
        b[6 + 4 + 32 + 12 + 4 + 32 + 4 + 36 + 3] = 9;
        assert!(decode_tx(&b).unwrap_err().message.contains("unknown operation type ID 9"));
        let err = decode_tx(&[0, 0, 0, 0, 0, 5]).unwrap_err();
        assert_eq!((err.offset, err.message.as_str()), (2, "unknown X-Chain tx type ID 5"));
    }

    #[test]
    fn nft_outputs_in_a_create_asset_tx() {
        // Asset "N" / "S", denomination 0, one initial state of fx 1 with two outputs: an NFT
        // mint (10) of group 7 and a transfer (7) of 9 units; no credentials.
        let b = empty_base(1).str16("N").str16("S").u8(0).u32(1).u32(1).u32(2);
        let b = b.u32(10).u32(7).fill(0, 16).u32(7).u64(9).fill(0, 16).u32(0).build();
        let tx = decode_tx(&b).unwrap();
        let XTxBody::CreateAsset { name, initial_states, .. } = &tx.body else { panic!() };
        assert_eq!(name, "N");
        assert_eq!(initial_states[0].outputs[0], Output::NftMint { group_id: 7, owners: OutputOwners::default() });
        // The minted amount is produced under the new asset, whose ID is the tx ID.
        assert_eq!(tx.produced, vec![AssetAmount { asset_id: tx.tx_id, amount: 9 }]);
    }
}
