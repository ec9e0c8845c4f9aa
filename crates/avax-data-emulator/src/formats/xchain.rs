//! Real-format AVM transactions and standard blocks (FORMATS.md §6) for the emulator's `X/tx` and
//! `X/block` indexes, on Mainnet's X-chain (network ID 1, Mainnet AVAX asset and chain IDs).
//!
//! [`dag_tx`] is a standalone signed tx (codec version first, ID = sha256 of the bytes), a pure
//! function of `(seed, index)`: BaseTx about half the time, then ImportTx, ExportTx, OperationTx
//! (secp256k1fx MintOperation) and CreateAssetTx; 300–600 bytes. [`standard_block`] is a
//! StandardBlock (typeID 20, zero merkle root) of 1–5 such txs in block form (no codec versions).

use super::avax_codec::{self as codec, BaseTx, Credential, Input, Output, OutputOwners, Rng, Writer};
use super::avax_codec::{SignedTx, TransferableInput, TransferableOutput, UnsignedTx};
use crate::world::rewards::avax_asset_id;
use crate::world::{Network, C_CHAIN_MAINNET_ID};
use avax_data_core::index::cb58;

/// secp256k1fx.MintOperation.
pub const TYPE_MINT_OPERATION: u32 = 8;
/// avm.StandardBlock.
pub const TYPE_STANDARD_BLOCK: u32 = 20;

/// A CreateAssetTx initial state: `fxIndex u32, []typed output`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialState {
    /// 0 = secp256k1fx.
    pub fx_index: u32,
    /// The asset's first outputs (TransferOutput 7 / MintOutput 6).
    pub outputs: Vec<Output>,
}

/// secp256k1fx.MintOperation (8): `Input, MintOutput body, TransferOutput body`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MintOperation {
    /// Signature indices of the spent mint output.
    pub sig_indices: Vec<u32>,
    /// The new mint output's owners.
    pub mint_owners: OutputOwners,
    /// Amount minted.
    pub amount: u64,
    /// Owners of the minted amount.
    pub transfer_owners: OutputOwners,
}

/// An OperationTx operation: `assetID, []UTXOID{txID, index}, op (typed)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// The asset operated on.
    pub asset_id: [u8; 32],
    /// The UTXOs consumed.
    pub utxo_ids: Vec<([u8; 32], u32)>,
    /// The operation.
    pub op: MintOperation,
}

/// An unsigned AVM transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XUnsignedTx {
    /// avm.BaseTx (0).
    Base(BaseTx),
    /// avm.CreateAssetTx (1).
    CreateAsset { base: BaseTx, name: String, symbol: String, denomination: u8, initial_states: Vec<InitialState> },
    /// avm.OperationTx (2).
    Operation { base: BaseTx, operations: Vec<Operation> },
    /// avm.ImportTx (3).
    Import { base: BaseTx, source_chain: [u8; 32], imported_inputs: Vec<TransferableInput> },
    /// avm.ExportTx (4).
    Export { base: BaseTx, destination_chain: [u8; 32], exported_outputs: Vec<TransferableOutput> },
}

impl XUnsignedTx {
    /// The codec type ID.
    pub fn type_id(&self) -> u32 {
        match self {
            XUnsignedTx::Base(_) => 0,
            XUnsignedTx::CreateAsset { .. } => 1,
            XUnsignedTx::Operation { .. } => 2,
            XUnsignedTx::Import { .. } => 3,
            XUnsignedTx::Export { .. } => 4,
        }
    }
}

impl UnsignedTx for XUnsignedTx {
    fn write(&self, w: &mut Writer) {
        w.u32(self.type_id());
        match self {
            XUnsignedTx::Base(base) => {
                w.base_tx(base);
            }
            XUnsignedTx::CreateAsset { base, name, symbol, denomination, initial_states } => {
                w.base_tx(base).str16(name).str16(symbol).u8(*denomination).u32(initial_states.len() as u32);
                for s in initial_states {
                    w.u32(s.fx_index).u32(s.outputs.len() as u32);
                    for o in &s.outputs {
                        w.output(o);
                    }
                }
            }
            XUnsignedTx::Operation { base, operations } => {
                w.base_tx(base).u32(operations.len() as u32);
                for op in operations {
                    w.raw(&op.asset_id).u32(op.utxo_ids.len() as u32);
                    for (tx, index) in &op.utxo_ids {
                        w.raw(tx).u32(*index);
                    }
                    let m = &op.op;
                    w.u32(TYPE_MINT_OPERATION).u32s(&m.sig_indices).owners_body(&m.mint_owners);
                    w.u64(m.amount).owners_body(&m.transfer_owners);
                }
            }
            XUnsignedTx::Import { base, source_chain, imported_inputs } => {
                w.base_tx(base).raw(source_chain).inputs(imported_inputs);
            }
            XUnsignedTx::Export { base, destination_chain, exported_outputs } => {
                w.base_tx(base).raw(destination_chain).outputs(exported_outputs);
            }
        }
    }
}

/// A signed AVM tx.
pub type XTx = SignedTx<XUnsignedTx>;

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
    let mut g = XGen::new(Rng::new("avax-data x block", &[seed, height]));
    let n = g.rng.range(1, 5);
    let txs: Vec<Vec<u8>> = (0..n).map(|_| g.tx().bytes()).collect();
    let tx_ids = txs.iter().map(|t| codec::tx_id(t)).collect();
    let bytes = encode_standard_block(&parent_id, height, time_unix_s, &txs);
    XInnerBlock { id: codec::sha256(&bytes), bytes, tx_ids }
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
                XTx { unsigned: XUnsignedTx::Base(base), credentials }
            }
            50..=64 => {
                let (base, mut credentials) = self.base(0, 1);
                let source_chain = if self.rng.chance(1, 2) { self.p_chain } else { self.c_chain };
                let n = self.rng.range(1, 2);
                let imported_inputs = (0..n).map(|_| self.input(self.avax)).collect();
                credentials.extend((0..n).map(|_| self.rng.credential(1)));
                XTx { unsigned: XUnsignedTx::Import { base, source_chain, imported_inputs }, credentials }
            }
            65..=79 => {
                let (base, credentials) = self.base(1, 1);
                let destination_chain = if self.rng.chance(1, 2) { self.p_chain } else { self.c_chain };
                let exported_outputs = vec![self.out(self.avax)];
                XTx { unsigned: XUnsignedTx::Export { base, destination_chain, exported_outputs }, credentials }
            }
            80..=91 => {
                let (base, mut credentials) = self.base(1, 1);
                let op = MintOperation {
                    sig_indices: vec![0],
                    mint_owners: self.owners(),
                    amount: self.rng.range(1, 1_000_000_000_000),
                    transfer_owners: self.owners(),
                };
                let operations = vec![Operation {
                    asset_id: self.rng.array(),
                    utxo_ids: vec![(self.rng.array(), self.rng.range(0, 3) as u32)],
                    op,
                }];
                credentials.push(self.rng.credential(1));
                XTx { unsigned: XUnsignedTx::Operation { base, operations }, credentials }
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
                    outputs.push(Output::Mint(self.owners()));
                }
                let unsigned = XUnsignedTx::CreateAsset {
                    base,
                    name: name.to_string(),
                    symbol: symbol.to_string(),
                    denomination,
                    initial_states: vec![InitialState { fx_index: 0, outputs }],
                };
                XTx { unsigned, credentials }
            }
        }
    }
}
