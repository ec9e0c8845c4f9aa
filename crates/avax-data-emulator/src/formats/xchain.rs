//! Real-format AVM transactions and standard blocks (FORMATS.md §6) for the emulator's `X/tx` and
//! `X/block` indexes, on Mainnet's X-chain (network ID 1, Mainnet AVAX asset and chain IDs).
//!
//! [`dag_tx`] is a standalone signed tx (codec version first, ID = sha256 of the bytes), a pure
//! function of `(seed, index)`: BaseTx about half the time, then ImportTx, ExportTx, OperationTx
//! (secp256k1fx MintOperation) and CreateAssetTx; 300–600 bytes. [`standard_block`] is a
//! StandardBlock (typeID 20, zero merkle root) of 1–5 such txs in block form (no codec versions).
//! Every tx's AVAX inputs exceed its AVAX outputs (exported ones included) by its fee
//! ([`super::fees`]): 0.001 AVAX, 0.01 AVAX for a CreateAssetTx.

use super::avax_codec::{self as codec, Atomic, BaseTx, Credential, Input, Output, OutputOwners, Rng, Writer};
use super::avax_codec::{SignedTx, TransferableInput, TransferableOutput, UnsignedTx};
use super::fees;
use super::x_spends;
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
    dag_tx_value(seed, index).standalone()
}

fn dag_tx_value(seed: u64, index: u64) -> XTx {
    XGen::new(seed, Rng::new("avax-data x dag tx", &[seed, index])).tx(XPos::Dag(index))
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
    let mut g = XGen::new(seed, Rng::new("avax-data x block", &[seed, height]));
    let n = g.rng.range(1, 5);
    (0..n).map(|k| g.tx(XPos::Block(height, k)).bytes()).collect()
}

/// The payment of `X/tx` tx `index` ([`x_spends`]): `(its tx id, output index, amount, owner
/// key)`.
pub fn dag_payment(seed: u64, index: u64) -> ([u8; 32], u32, u64, u64) {
    let (amount, key) = payment_of_dag(seed, index);
    let tx = dag_tx_value(seed, index);
    let owner = x_spends::short_id(key);
    let at = tx.unsigned.base.outputs.iter().position(
        |o| matches!(&o.output, Output::Transfer { amount: a, owners } if *a == amount && owners.addresses == [owner]),
    );
    (codec::tx_id(&tx.bytes()), at.expect("a DAG tx pays its payment") as u32, amount, key)
}

/// `(amount, owner key)` of the payment of `X/tx` tx `index`, drawn apart from the tx.
fn payment_of_dag(seed: u64, index: u64) -> (u64, u64) {
    let mut rng = Rng::new("avax-data x dag payment", &[seed, index]);
    (rng.range(1_000_000, 500_000_000_000), rng.range(0, x_spends::KEYS - 1))
}

/// Where a tx sits, which decides what it spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum XPos {
    /// `X/tx` container `index`.
    Dag(u64),
    /// Tx `k` of `X/block` height `h`.
    Block(u64, u64),
}

/// What one tx spends and pays ([`x_spends`]).
struct Plan {
    /// The owner key that signs every input.
    sender: u64,
    /// `(tx id, output index, amount)` of the world UTXO it spends, if any.
    spent: Option<([u8; 32], u32, u64)>,
    /// The genesis output it spends when short.
    genesis_index: u32,
    /// `(amount, owner key)` of its payment.
    pay: (u64, u64),
}

fn amount_of(input: &TransferableInput) -> u64 {
    match &input.input {
        Input::Transfer { amount, .. } => *amount,
        Input::StakeableLock { .. } => 0,
    }
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
    seed: u64,
    avax: [u8; 32],
    x_chain: [u8; 32],
    p_chain: [u8; 32],
    c_chain: [u8; 32],
}

impl XGen {
    fn new(seed: u64, rng: Rng) -> XGen {
        let id = |t: &str| cb58::decode_id(t).expect("constant ids are cb58");
        XGen {
            rng,
            seed,
            avax: id(avax_asset_id(Network::Mainnet)),
            x_chain: id(Network::Mainnet.x_chain_id()),
            p_chain: [0; 32],
            c_chain: id(C_CHAIN_MAINNET_ID),
        }
    }

    /// Random owners (one, or two one time in eight; threshold 1) outside the key pool: where
    /// exports and new assets go.
    fn owners(&mut self) -> OutputOwners {
        let n = if self.rng.chance(1, 8) { 2 } else { 1 };
        let mut addresses: Vec<[u8; 20]> = (0..n).map(|_| self.rng.array()).collect();
        addresses.sort();
        OutputOwners { locktime: 0, threshold: 1, addresses }
    }

    fn out(&mut self, asset_id: [u8; 32], amount: u64) -> TransferableOutput {
        TransferableOutput { asset_id, output: Output::Transfer { amount, owners: self.owners() } }
    }

    fn avax_input(&self, tx_id: [u8; 32], output_index: u32, amount: u64) -> TransferableInput {
        TransferableInput {
            tx_id,
            output_index,
            asset_id: self.avax,
            input: Input::Transfer { amount, sig_indices: vec![0] },
        }
    }

    /// What the tx at `pos` spends and pays; an ImportTx (`import`) spends no X-Chain UTXO.
    fn plan(&mut self, pos: XPos, import: bool) -> Plan {
        let spent = match pos {
            XPos::Block(h, 0) if h < x_spends::SPENDING_HEIGHTS && !import => Some(dag_payment(self.seed, h)),
            _ => None,
        };
        let sender = match spent {
            Some((.., key)) => key,
            None => self.rng.range(0, x_spends::KEYS - 1),
        };
        let (genesis_index, pay) = match pos {
            XPos::Dag(i) => (x_spends::genesis_index_dag(i), payment_of_dag(self.seed, i)),
            XPos::Block(h, k) => (
                x_spends::genesis_index_linear(h, k),
                (self.rng.range(1_000_000, 500_000_000_000), self.rng.range(0, x_spends::KEYS - 1)),
            ),
        };
        Plan { sender, spent: spent.map(|(tx_id, index, amount, _)| (tx_id, index, amount)), genesis_index, pay }
    }

    /// The payment and the change (`change` nAVAX, at least 1) to the sender, in byte order
    /// (amount first: the outputs of a signed tx are sorted).
    fn pay_and_change(&self, plan: &Plan, change: u64) -> Vec<TransferableOutput> {
        let to = |amount: u64, key: u64| TransferableOutput {
            asset_id: self.avax,
            output: Output::Transfer {
                amount,
                owners: OutputOwners { locktime: 0, threshold: 1, addresses: vec![x_spends::short_id(key)] },
            },
        };
        let mut outputs = [
            (plan.pay.0, x_spends::short_id(plan.pay.1), plan.pay.1),
            (change, x_spends::short_id(plan.sender), plan.sender),
        ];
        outputs.sort();
        outputs.iter().map(|&(amount, _, key)| to(amount, key)).collect()
    }

    /// A BaseTx with `inputs` (sorted by UTXO, as a signed tx holds them) and `outputs`, a memo
    /// one time in twelve.
    fn base_of(&mut self, mut inputs: Vec<TransferableInput>, outputs: Vec<TransferableOutput>) -> BaseTx {
        inputs.sort_by_key(|i| (i.tx_id, i.output_index));
        let memo = if self.rng.chance(1, 12) { b"gm".to_vec() } else { Vec::new() };
        BaseTx { network_id: 1, blockchain_id: self.x_chain, outputs, inputs, memo }
    }

    /// The BaseTx of a tx of `type_id`: it spends the plan's UTXO and, when that does not cover
    /// its fee ([`fees::x_fee`]), `kept` (what its body exports) and its payment with 0.001 AVAX
    /// of change to spare, a genesis allocation of the sender's; it pays the payment and returns
    /// the rest to the sender.
    fn base(&mut self, plan: &Plan, type_id: u32, kept: u64) -> BaseTx {
        let need = fees::x_fee(type_id) + kept + plan.pay.0;
        let mut inputs: Vec<TransferableInput> =
            plan.spent.iter().map(|&(tx_id, index, amount)| self.avax_input(tx_id, index, amount)).collect();
        let have: u64 = inputs.iter().map(amount_of).sum();
        if have < need + 1_000_000 {
            let amount = self.rng.range(2_000_000, 900_000_000_000) + (need - have.min(need));
            inputs.push(self.avax_input(self.avax, plan.genesis_index, amount));
        }
        let total: u64 = inputs.iter().map(amount_of).sum();
        let outputs = self.pay_and_change(plan, total - need);
        self.base_of(inputs, outputs)
    }

    /// The signed tx: one credential of the sender per input (and per operation) over sha256
    /// of the unsigned tx.
    fn signed(&self, type_id: u32, base: BaseTx, body: XTxBody, sender: u64) -> XTx {
        let unsigned = UnsignedXTx { type_id, base, body };
        let mut w = Writer::new();
        unsigned.write(&mut w);
        let hash = codec::tx_id(&w.into_bytes());
        let n = unsigned.base.inputs.len()
            + match &unsigned.body {
                XTxBody::Atomic(Atomic::Import { inputs, .. }) => inputs.len(),
                XTxBody::Operation { operations } => operations.len(),
                _ => 0,
            };
        let credential = x_spends::credential(sender, &hash);
        XTx { unsigned, credentials: vec![credential; n] }
    }

    fn tx(&mut self, pos: XPos) -> XTx {
        let roll = self.rng.range(0, 99);
        let plan = self.plan(pos, (50..=64).contains(&roll));
        match roll {
            0..=49 => {
                let base = self.base(&plan, 0, 0);
                self.signed(0, base, XTxBody::Base, plan.sender)
            }
            50..=64 => {
                // The imported inputs (the sender's, exported to it by the source chain) pay the
                // fee and the payment; the rest is the change.
                let source_chain = if self.rng.chance(1, 2) { self.p_chain } else { self.c_chain };
                let n = self.rng.range(1, 2);
                let need = fees::x_fee(3) + plan.pay.0;
                let mut inputs: Vec<TransferableInput> = (0..n)
                    .map(|k| {
                        let amount = self.rng.range(2_000_000, 900_000_000_000) + if k == 0 { need } else { 0 };
                        let (tx_id, index) = (self.rng.array(), self.rng.range(0, 2) as u32);
                        self.avax_input(tx_id, index, amount)
                    })
                    .collect();
                inputs.sort_by_key(|i| (i.tx_id, i.output_index));
                let total: u64 = inputs.iter().map(amount_of).sum();
                let outputs = self.pay_and_change(&plan, total - need);
                let base = self.base_of(Vec::new(), outputs);
                self.signed(3, base, XTxBody::Atomic(Atomic::Import { source_chain, inputs }), plan.sender)
            }
            65..=79 => {
                let amount = self.rng.range(1_000_000, 500_000_000_000);
                let base = self.base(&plan, 4, amount);
                let destination_chain = if self.rng.chance(1, 2) { self.p_chain } else { self.c_chain };
                let outputs = vec![self.out(self.avax, amount)];
                self.signed(4, base, XTxBody::Atomic(Atomic::Export { destination_chain, outputs }), plan.sender)
            }
            80..=91 => {
                let base = self.base(&plan, 2, 0);
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
                self.signed(2, base, XTxBody::Operation { operations }, plan.sender)
            }
            _ => {
                let base = self.base(&plan, 1, 0);
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
                self.signed(1, base, body, plan.sender)
            }
        }
    }
}
