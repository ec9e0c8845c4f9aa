//! Real-format AVM transactions and standard blocks (FORMATS.md §6) for the emulator's `X/tx` and
//! `X/block` indexes, on Mainnet's X-chain (network ID 1, Mainnet AVAX asset and chain IDs).
//!
//! [`dag_tx`] is a standalone signed tx (codec version first, ID = sha256 of the bytes), a pure
//! function of `(seed, index)`: BaseTx about half the time, then ImportTx, ExportTx, OperationTx
//! (secp256k1fx MintOperation) and CreateAssetTx; 300–600 bytes. [`standard_block`] is a
//! StandardBlock (typeID 20, zero merkle root) of 1–5 such txs in block form (no codec versions).

use super::avax_codec::{self as codec, Atomic, BaseTx, Credential, Input, Output, OutputOwners, Rng, Writer};
use super::avax_codec::{SignedTx, TransferableInput, TransferableOutput, UnsignedTx};
use crate::world::rewards::avax_asset_id;
use crate::world::{Network, C_CHAIN_MAINNET_ID};
use avax_data_core::decode::xchain::{InitialState, Op, Operation, UnsignedXTx, UtxoId, XTxBody};
use avax_data_core::index::cb58;

/// avm.StandardBlock.
pub const TYPE_STANDARD_BLOCK: u32 = 20;

impl UnsignedTx for UnsignedXTx {
    fn write(&self, w: &mut Writer) {
        w.u32(self.type_id).base_tx(&self.base);
        match &self.body {
            XTxBody::Base => {}
            XTxBody::CreateAsset { name, symbol, denomination, initial_states } => {
                w.str16(name).str16(symbol).u8(*denomination).u32(initial_states.len() as u32);
                for s in initial_states {
                    w.u32(s.fx_index).u32(s.outputs.len() as u32);
                    for o in &s.outputs {
                        w.output(o);
                    }
                }
            }
            XTxBody::Operation { operations } => {
                w.u32(operations.len() as u32);
                for op in operations {
                    w.raw(&op.asset_id).u32(op.utxo_ids.len() as u32);
                    for utxo in &op.utxo_ids {
                        w.raw(&utxo.tx_id).u32(utxo.output_index);
                    }
                    write_op(w, &op.op);
                }
            }
            XTxBody::Atomic(atomic) => {
                w.atomic(atomic);
            }
        }
    }
}

/// A typed operation: `u32 typeID`, the signature indices of the spent UTXOs, its fields.
fn write_op(w: &mut Writer, op: &Op) {
    w.u32(op.type_id());
    match op {
        Op::SecpMint { sig_indices, mint_owners, amount, transfer_owners } => {
            w.u32s(sig_indices).owners_body(mint_owners).u64(*amount).owners_body(transfer_owners);
        }
        Op::NftMint { sig_indices, group_id, payload, owners } => {
            w.u32s(sig_indices).u32(*group_id).bytes(payload).u32(owners.len() as u32);
            for o in owners {
                w.owners_body(o);
            }
        }
        Op::NftTransfer { sig_indices, group_id, payload, owners } => {
            w.u32s(sig_indices).u32(*group_id).bytes(payload).owners_body(owners);
        }
        Op::PropertyMint { sig_indices, mint_owners, owned_owners } => {
            w.u32s(sig_indices).owners_body(mint_owners).owners_body(owned_owners);
        }
        Op::PropertyBurn { sig_indices } => {
            w.u32s(sig_indices);
        }
    }
}

/// A signed AVM tx.
pub type XTx = SignedTx<UnsignedXTx>;

/// The signed tx of type `type_id` on the X-chain.
pub fn x_tx(type_id: u32, base: BaseTx, body: XTxBody, credentials: Vec<Credential>) -> XTx {
    XTx { unsigned: UnsignedXTx { type_id, base, body }, credentials }
}

/// One emulated X-chain inner block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XInnerBlock {
    /// The block bytes (codec version first).
    pub bytes: Vec<u8>,
    /// `sha256(bytes)`.
    pub id: [u8; 32],
    /// IDs of its txs, in block order.
    pub tx_ids: Vec<[u8; 32]>,
}

/// Writes a StandardBlock: `parentID, height, time, merkleRoot (zero), []tx` (txs in block form).
pub fn encode_standard_block(parent_id: &[u8; 32], height: u64, time_unix_s: u64, txs: &[Vec<u8>]) -> Vec<u8> {
    let mut w = Writer::new();
    w.u16(0).u32(TYPE_STANDARD_BLOCK).raw(parent_id).u64(height).u64(time_unix_s).raw(&[0u8; 32]);
    w.u32(txs.len() as u32);
    for t in txs {
        w.raw(t);
    }
    w.into_bytes()
}

/// The standalone signed tx `index` of the `X/tx` index in the world of `seed`.
pub fn dag_tx(seed: u64, index: u64) -> Vec<u8> {
    XGen::new(Rng::new("avax-data x dag tx", &[seed, index])).tx().standalone()
}

/// The X-chain StandardBlock at `height` in the world of `seed`, with 1–5 txs.
pub fn standard_block(seed: u64, height: u64, parent_id: [u8; 32], time_unix_s: u64) -> XInnerBlock {
    let txs = standard_block_txs(seed, height);
    let tx_ids = txs.iter().map(|t| codec::tx_id(t)).collect();
    let bytes = encode_standard_block(&parent_id, height, time_unix_s, &txs);
    XInnerBlock { id: codec::sha256(&bytes), bytes, tx_ids }
}

/// The txs (block form: no codec version) of the X-chain StandardBlock at `height` in the world
/// of `seed`: they depend on neither its parent nor its time, so an index of the chain's txs is
/// built without walking its id chain.
pub fn standard_block_txs(seed: u64, height: u64) -> Vec<Vec<u8>> {
    let mut g = XGen::new(Rng::new("avax-data x block", &[seed, height]));
    let n = g.rng.range(1, 5);
    (0..n).map(|_| g.tx().bytes()).collect()
}

const ASSET_NAMES: [(&str, &str, u8); 6] = [
    ("Tether USD", "USDT", 6),
    ("Wrapped Ether", "WETH", 18),
    ("Pangolin", "PNG", 18),
    ("Avalanche Dog", "ADOG", 9),
    ("Volatility Index", "VIX", 2),
    ("Emulated Coin", "EMU", 9),
];

struct XGen {
    rng: Rng,
    avax: [u8; 32],
    x_chain: [u8; 32],
    p_chain: [u8; 32],
    c_chain: [u8; 32],
}

impl XGen {
    fn new(rng: Rng) -> XGen {
        let id = |t: &str| cb58::decode_id(t).expect("constant ids are cb58");
        XGen {
            rng,
            avax: id(avax_asset_id(Network::Mainnet)),
            x_chain: id(Network::Mainnet.x_chain_id()),
            p_chain: [0; 32],
            c_chain: id(C_CHAIN_MAINNET_ID),
        }
    }

    fn owners(&mut self) -> OutputOwners {
        let n = if self.rng.chance(1, 8) { 2 } else { 1 };
        let mut addresses: Vec<[u8; 20]> = (0..n).map(|_| self.rng.array()).collect();
        addresses.sort();
        OutputOwners { locktime: 0, threshold: 1, addresses }
    }

    fn out(&mut self, asset_id: [u8; 32]) -> TransferableOutput {
        let amount = self.rng.range(1_000_000, 500_000_000_000);
        TransferableOutput { asset_id, output: Output::Transfer { amount, owners: self.owners() } }
    }

    fn input(&mut self, asset_id: [u8; 32]) -> TransferableInput {
        let amount = self.rng.range(2_000_000, 900_000_000_000);
        TransferableInput {
            tx_id: self.rng.array(),
            output_index: self.rng.range(0, 2) as u32,
            asset_id,
            input: Input::Transfer { amount, sig_indices: vec![0] },
        }
    }

    fn base(&mut self, n_in: u64, n_out: u64) -> (BaseTx, Vec<Credential>) {
        let inputs = (0..n_in).map(|_| self.input(self.avax)).collect();
        let outputs = (0..n_out).map(|_| self.out(self.avax)).collect();
        let memo = if self.rng.chance(1, 12) { b"gm".to_vec() } else { Vec::new() };
        let credentials = (0..n_in).map(|_| self.rng.credential(1)).collect();
        (BaseTx { network_id: 1, blockchain_id: self.x_chain, outputs, inputs, memo }, credentials)
    }

    fn tx(&mut self) -> XTx {
        let roll = self.rng.range(0, 99);
        match roll {
            0..=49 => {
                let n_in = self.rng.range(1, 2);
                let (base, credentials) = self.base(n_in, 2);
                x_tx(0, base, XTxBody::Base, credentials)
            }
            50..=64 => {
                let (base, mut credentials) = self.base(0, 1);
                let source_chain = if self.rng.chance(1, 2) { self.p_chain } else { self.c_chain };
                let n = self.rng.range(1, 2);
                let inputs = (0..n).map(|_| self.input(self.avax)).collect();
                credentials.extend((0..n).map(|_| self.rng.credential(1)));
                x_tx(3, base, XTxBody::Atomic(Atomic::Import { source_chain, inputs }), credentials)
            }
            65..=79 => {
                let (base, credentials) = self.base(1, 1);
                let destination_chain = if self.rng.chance(1, 2) { self.p_chain } else { self.c_chain };
                let outputs = vec![self.out(self.avax)];
                x_tx(4, base, XTxBody::Atomic(Atomic::Export { destination_chain, outputs }), credentials)
            }
            80..=91 => {
                let (base, mut credentials) = self.base(1, 1);
                let op = Op::SecpMint {
                    sig_indices: vec![0],
                    mint_owners: self.owners(),
                    amount: self.rng.range(1, 1_000_000_000_000),
                    transfer_owners: self.owners(),
                };
                let operations = vec![Operation {
                    asset_id: self.rng.array(),
                    utxo_ids: vec![UtxoId { tx_id: self.rng.array(), output_index: self.rng.range(0, 3) as u32 }],
                    op,
                }];
                credentials.push(self.rng.credential(1));
                x_tx(2, base, XTxBody::Operation { operations }, credentials)
            }
            _ => {
                let (base, credentials) = self.base(1, 1);
                let (name, symbol, denomination) =
                    ASSET_NAMES[self.rng.range(0, ASSET_NAMES.len() as u64 - 1) as usize];
                let mut outputs = vec![Output::Transfer {
                    amount: self.rng.range(1_000, 1_000_000_000_000_000),
                    owners: self.owners(),
                }];
                if self.rng.chance(1, 2) {
                    outputs.push(Output::SecpMint { owners: self.owners() });
                }
                let body = XTxBody::CreateAsset {
                    name: name.to_string(),
                    symbol: symbol.to_string(),
                    denomination,
                    initial_states: vec![InitialState { fx_index: 0, outputs }],
                };
                x_tx(1, base, body, credentials)
            }
        }
    }
}
