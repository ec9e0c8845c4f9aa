//! The Mainnet X-chain's transactions as the Data API reports them, read from the very containers
//! the Index RPC serves: `X/tx` (standalone txs from Mainnet genesis to Cortina, the DAG era:
//! `chainFormat` `non-linear`) and then `X/block` (StandardBlocks from Cortina to now:
//! `linear`, with the block's height and container id). One timeline of *units*: unit `u <
//! tx_span` is `X/tx` container `u` (one tx), unit `tx_span + h` is `X/block` height `h` (its
//! txs, in block order); unit times never decrease.
//!
//! A tx's outputs, in UTXO order (output index = position): its BaseTx outputs, then the
//! exported outputs of an ExportTx (held on the destination chain), the initial outputs of a
//! CreateAssetTx (of the new asset, whose id is the tx id), the mint and transfer outputs of a
//! secp256k1fx MintOperation. Its AVAX inputs exceed its AVAX outputs by its fee ([`tx_fee`]).
//! Who spends what is [`super::x_spends`]: an input is held by the key that signed its
//! credential (`addresses` and `credentials` of a consumed UTXO), and the payment of a DAG-era tx
//! is spent by the first tx of the `X/block` height of its number, if the world holds that
//! block by now; every other output is unspent.

use avax_data_core::decode::avax::{Atomic, Credential, Input, Output, OutputOwners};
use avax_data_core::decode::proposervm as penv;
use avax_data_core::decode::xchain::{self as xdecode, Op, XTx, XTxBody};
use avax_data_core::index::cb58;
use serde_json::{json, Value};

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use base64::Engine;

use super::p_txs::{avax_id, p_address_of, set_atomic_chains, utxo_id};
use super::px_clock::MIN_SPAN;
use super::x_spends;
use super::{pxchains, xchain};
use crate::world::{Network, C_CHAIN_MAINNET_ID, X_CHAIN_MAINNET_ID};

const SEC: i64 = 1_000_000_000;

/// The Mainnet X-chain of one world: its `X/block` and `X/tx` timelines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct XWorld {
    /// The world's seed.
    pub seed: u64,
    /// Heights of `X/block` up to now.
    pub block_span: u64,
    /// Containers of `X/tx` (genesis to Cortina).
    pub tx_span: u64,
}

/// Where a tx sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XPlace {
    /// `X/tx` container `index` (before Cortina).
    Dag { index: u64, timestamp_s: i64 },
    /// A tx of `X/block` height `height`, whose container id is `hash`.
    Linear { height: u64, hash: String, timestamp_s: i64 },
}

impl XPlace {
    /// Unix seconds the tx was accepted in.
    pub fn timestamp_s(&self) -> i64 {
        match self {
            XPlace::Dag { timestamp_s, .. } | XPlace::Linear { timestamp_s, .. } => *timestamp_s,
        }
    }

    /// The block number the Data API names: the `X/block` height, or the `X/tx` index.
    pub fn number(&self) -> u64 {
        match self {
            XPlace::Dag { index, .. } => *index,
            XPlace::Linear { height, .. } => *height,
        }
    }
}

impl XWorld {
    /// The X-chain of the world of `seed` whose `X/block` and `X/tx` indexes start with
    /// `[block_span, tx_span]` containers (at least [`MIN_SPAN`] each, as the indexes).
    pub fn new(seed: u64, [block_span, tx_span]: [u64; 2]) -> XWorld {
        XWorld { seed, block_span: block_span.max(MIN_SPAN), tx_span: tx_span.max(MIN_SPAN) }
    }

    /// Units of the timeline (`X/tx` containers, then `X/block` heights).
    pub fn units(&self) -> u64 {
        self.tx_span + self.block_span
    }

    /// Unix seconds of unit `u` (never decreasing in `u`).
    pub fn time_s(&self, u: u64) -> i64 {
        let ns = if u < self.tx_span {
            pxchains::x_tx_accepted_ns(self.seed, self.tx_span, u)
        } else {
            pxchains::x_accepted_ns(self.seed, self.block_span, u - self.tx_span)
        };
        ns.div_euclid(SEC)
    }

    /// The first unit at or after `time_s` (`units()` if none).
    pub fn first_at_or_after(&self, time_s: i64) -> u64 {
        super::px_clock::first_at_or_after(self.units(), time_s, |u| self.time_s(u))
    }

    /// Where the txs of unit `u` sit.
    pub fn place(&self, u: u64) -> XPlace {
        let timestamp_s = self.time_s(u);
        if u < self.tx_span {
            return XPlace::Dag { index: u, timestamp_s };
        }
        let height = u - self.tx_span;
        let hash = cb58::encode(&pxchains::x_chain(self.seed, self.block_span).ids(height).1);
        XPlace::Linear { height, hash, timestamp_s }
    }

    /// The place of unit `u` for the facts of its outputs ([`XTxFacts::utxo`]), which name no
    /// block: as [`XWorld::place`], but a linear place's `hash` is left empty, so no id chain is
    /// walked (an address holding outputs across the chain is read in milliseconds).
    pub fn utxo_place(&self, u: u64) -> XPlace {
        let timestamp_s = self.time_s(u);
        match u.checked_sub(self.tx_span) {
            None => XPlace::Dag { index: u, timestamp_s },
            Some(height) => XPlace::Linear { height, hash: String::new(), timestamp_s },
        }
    }

    /// The txs of unit `u`, decoded from the container the index serves.
    pub fn txs(&self, u: u64) -> Vec<XTx> {
        if u < self.tx_span {
            let tx = xdecode::decode_tx(&xchain::dag_tx(self.seed, u)).expect("the emulator's X txs decode");
            return vec![tx];
        }
        let served = pxchains::x_chain(self.seed, self.block_span).served(u - self.tx_span);
        let env = penv::parse(&served.entry().bytes).expect("the emulator's X envelopes parse");
        xdecode::decode_block(env.inner).expect("the emulator's X blocks decode").txs
    }

    /// The txs of unit `u` made again from the world's seed (the same bytes as [`XWorld::txs`]
    /// without building the container and its id chain): for indexing the whole chain.
    pub fn txs_quick(&self, u: u64) -> Vec<XTx> {
        if u < self.tx_span {
            return self.txs(u);
        }
        xchain::standard_block_txs(self.seed, u - self.tx_span)
            .iter()
            .map(|t| xdecode::decode_tx(&super::avax_codec::with_version(t)).expect("the emulator's X txs decode"))
            .collect()
    }
}

/// The kind of an output or input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UtxoKind {
    /// A secp256k1fx transfer output: an amount.
    Transfer,
    /// A secp256k1fx mint output: the right to mint more (amount 0).
    Mint,
}

/// One output of a tx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XOut<'a> {
    /// Position among the tx's outputs.
    pub index: u32,
    pub asset_id: [u8; 32],
    pub amount: u64,
    pub owners: &'a OutputOwners,
    pub kind: UtxoKind,
    /// The chain that holds it (the X-chain, or an ExportTx's destination).
    pub held_on: [u8; 32],
}

/// One UTXO a tx spends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XIn {
    pub tx_id: [u8; 32],
    pub output_index: u32,
    pub asset_id: [u8; 32],
    pub amount: u64,
    pub kind: UtxoKind,
    /// The chain that created it (the X-chain, or an ImportTx's source).
    pub created_on: [u8; 32],
}

fn chain_id(text: &str) -> [u8; 32] {
    cb58::decode_id(text).expect("constant ids are CB58")
}

/// The Mainnet X-chain's raw id.
pub fn x_chain_raw() -> [u8; 32] {
    chain_id(X_CHAIN_MAINNET_ID)
}

/// The Mainnet C-chain's raw id.
pub fn c_chain_raw() -> [u8; 32] {
    chain_id(C_CHAIN_MAINNET_ID)
}

fn transfer_or_mint(output: &Output) -> Option<(u64, &OutputOwners, UtxoKind)> {
    match output {
        Output::Transfer { amount, owners } => Some((*amount, owners, UtxoKind::Transfer)),
        Output::SecpMint { owners } => Some((0, owners, UtxoKind::Mint)),
        _ => None,
    }
}

/// The outputs of `tx` in UTXO order (see the module doc).
pub fn outputs(tx: &XTx) -> Vec<XOut<'_>> {
    let x = x_chain_raw();
    let mut listed: Vec<([u8; 32], &Output, [u8; 32])> =
        tx.base.outputs.iter().map(|o| (o.asset_id, &o.output, x)).collect();
    let mut minted: Vec<([u8; 32], u64, &OutputOwners, UtxoKind)> = Vec::new();
    match &tx.body {
        XTxBody::Atomic(Atomic::Export { destination_chain, outputs }) => {
            listed.extend(outputs.iter().map(|o| (o.asset_id, &o.output, *destination_chain)));
        }
        XTxBody::CreateAsset { initial_states, .. } => {
            listed.extend(initial_states.iter().flat_map(|s| s.outputs.iter()).map(|o| (tx.tx_id, o, x)));
        }
        XTxBody::Operation { operations } => {
            for op in operations {
                if let Op::SecpMint { mint_owners, amount, transfer_owners, .. } = &op.op {
                    minted.push((op.asset_id, 0, mint_owners, UtxoKind::Mint));
                    minted.push((op.asset_id, *amount, transfer_owners, UtxoKind::Transfer));
                }
            }
        }
        _ => {}
    }
    let mut out: Vec<XOut<'_>> = listed
        .into_iter()
        .filter_map(|(asset_id, o, held_on)| {
            let (amount, owners, kind) = transfer_or_mint(o)?;
            Some(XOut { index: 0, asset_id, amount, owners, kind, held_on })
        })
        .collect();
    out.extend(minted.into_iter().map(|(asset_id, amount, owners, kind)| XOut {
        index: 0,
        asset_id,
        amount,
        owners,
        kind,
        held_on: x,
    }));
    for (i, o) in out.iter_mut().enumerate() {
        o.index = i as u32;
    }
    out
}

/// The UTXOs `tx` spends: its BaseTx inputs, an ImportTx's imported ones, an operation's.
pub fn inputs(tx: &XTx) -> Vec<XIn> {
    let x = x_chain_raw();
    let amount = |i: &Input| match i {
        Input::Transfer { amount, .. } => *amount,
        Input::StakeableLock { .. } => 0,
    };
    let mut out: Vec<XIn> = tx
        .base
        .inputs
        .iter()
        .map(|i| XIn {
            tx_id: i.tx_id,
            output_index: i.output_index,
            asset_id: i.asset_id,
            amount: amount(&i.input),
            kind: UtxoKind::Transfer,
            created_on: x,
        })
        .collect();
    match &tx.body {
        XTxBody::Atomic(Atomic::Import { source_chain, inputs }) => out.extend(inputs.iter().map(|i| XIn {
            tx_id: i.tx_id,
            output_index: i.output_index,
            asset_id: i.asset_id,
            amount: amount(&i.input),
            kind: UtxoKind::Transfer,
            created_on: *source_chain,
        })),
        XTxBody::Operation { operations } => {
            for op in operations {
                out.extend(op.utxo_ids.iter().map(|u| XIn {
                    tx_id: u.tx_id,
                    output_index: u.output_index,
                    asset_id: op.asset_id,
                    amount: 0,
                    kind: UtxoKind::Mint,
                    created_on: x,
                }));
            }
        }
        _ => {}
    }
    out
}

/// Every address `tx` pays (owners of its outputs, wherever held), as short ids, sorted, once.
pub fn paid_addresses(tx: &XTx) -> Vec<[u8; 20]> {
    let mut out: Vec<[u8; 20]> = outputs(tx).iter().flat_map(|o| o.owners.addresses.iter().copied()).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The AVAX `tx` burned: its AVAX inputs beyond its AVAX outputs (exported ones included), nAVAX:
/// its fee ([`super::fees::x_fee`]).
pub fn tx_fee(tx: &XTx) -> u128 {
    let avax = avax_id(Network::Mainnet);
    let consumed: u128 = inputs(tx).iter().filter(|i| i.asset_id == avax).map(|i| u128::from(i.amount)).sum();
    let created: u128 = outputs(tx).iter().filter(|o| o.asset_id == avax).map(|o| u128::from(o.amount)).sum();
    consumed.saturating_sub(created)
}

/// Whether `tx` moves `asset_id` (an input, an output or an operation of it).
pub fn moves(tx: &XTx, asset_id: &[u8; 32]) -> bool {
    outputs(tx).iter().any(|o| o.asset_id == *asset_id) || inputs(tx).iter().any(|i| i.asset_id == *asset_id)
}

/// An asset's name, symbol and denomination as a tx knows it: AVAX, the asset a CreateAssetTx
/// creates, else unknown (an asset created before the emulated history).
fn asset_meta(network: Network, tx: &XTx, asset_id: &[u8; 32]) -> (String, String, u8) {
    if *asset_id == avax_id(network) {
        return ("Avalanche".into(), "AVAX".into(), 9);
    }
    match &tx.body {
        XTxBody::CreateAsset { name, symbol, denomination, .. } if *asset_id == tx.tx_id => {
            (name.clone(), symbol.clone(), *denomination)
        }
        _ => ("Unknown".into(), "UNK".into(), 0),
    }
}

/// The Data API's `XChainAssetDetails` of the asset a CreateAssetTx `tx` accepted at
/// `created_s` creates (`None` for another tx).
pub fn created_asset(tx: &XTx, created_s: i64) -> Option<Value> {
    let XTxBody::CreateAsset { name, symbol, denomination, initial_states } = &tx.body else { return None };
    let variable = initial_states.iter().flat_map(|s| &s.outputs).any(|o| matches!(o, Output::SecpMint { .. }));
    Some(json!({
        "assetId": cb58::encode(&tx.tx_id),
        "name": name,
        "symbol": symbol,
        "denomination": denomination,
        "type": "secp256k1",
        "createdAtTimestamp": created_s,
        "cap": if variable { "variable" } else { "fixed" },
    }))
}

/// The facts of one X-chain tx at its place in `world`.
pub struct XTxFacts<'a> {
    pub network: Network,
    pub world: &'a XWorld,
    pub place: &'a XPlace,
    pub tx: &'a XTx,
}

/// A credential as the Data API's `credentials`: the signer's compressed public key (standard
/// base64) and each signature (base64 without padding), with the signer's key; empty for a
/// signature no owner key made.
fn credential_json(credential: Option<&Credential>) -> (Option<u64>, Vec<Value>) {
    let Some(c) = credential else { return (None, Vec::new()) };
    let mut signer = None;
    let items = c
        .signatures
        .iter()
        .filter_map(|sig| {
            let key = x_spends::signer_of(sig)?;
            signer = signer.or(Some(key));
            Some(json!({
                "publicKey": STANDARD.encode(x_spends::public_key(key)),
                "signature": STANDARD_NO_PAD.encode(sig),
            }))
        })
        .collect();
    (signer, items)
}

/// The credential of `tx` for input `i` (in [`inputs`] order: a credential per input, then
/// one per operation).
fn credential_of(tx: &XTx, i: usize) -> Option<&Credential> {
    tx.credentials.as_ref()?.get(i)
}

impl XWorld {
    /// The tx that spent output `index` of `X/tx` tx `dag` (whose id is `tx_id`) by now, with
    /// the unit it sits in and the position of that input among its inputs
    /// ([`super::x_spends`]: the first tx of `X/block` height `dag`).
    pub fn spender(&self, dag: u64, tx_id: &[u8; 32], index: u32) -> Option<(XTx, u64, usize)> {
        if dag >= x_spends::SPENDING_HEIGHTS || dag >= self.block_span {
            return None;
        }
        let unit = self.tx_span + dag;
        let first = self.txs_quick(unit).into_iter().next()?;
        let at = inputs(&first).iter().position(|i| i.tx_id == *tx_id && i.output_index == index)?;
        Some((first, unit, at))
    }
}

impl XTxFacts<'_> {
    fn asset_amount(&self, asset_id: &[u8; 32], amount: u128) -> Value {
        let (name, symbol, denomination) = asset_meta(self.network, self.tx, asset_id);
        json!({
            "assetId": cb58::encode(asset_id),
            "name": name,
            "symbol": symbol,
            "denomination": denomination,
            "type": "secp256k1",
            "amount": amount.to_string(),
        })
    }

    /// Output `o` as the Data API's `Utxo`, with its spender's `consumingTxHash`,
    /// `consumingTxTimestamp` and `credentials` once a tx of the world spent it.
    pub fn utxo(&self, o: &XOut<'_>) -> Value {
        let mut u = self.unspent_utxo(o);
        if let XPlace::Dag { index, .. } = self.place {
            if let Some((spender, unit, at)) = self.world.spender(*index, &self.tx.tx_id, o.index) {
                let (_, credentials) = credential_json(credential_of(&spender, at));
                u["consumingTxHash"] = json!(cb58::encode(&spender.tx_id));
                u["consumingTxTimestamp"] = json!(self.world.time_s(unit));
                u["credentials"] = json!(credentials);
            }
        }
        u
    }

    fn unspent_utxo(&self, o: &XOut<'_>) -> Value {
        json!({
            "addresses": o.owners.addresses.iter().map(|a| p_address_of(self.network, a)).collect::<Vec<_>>(),
            "asset": self.asset_amount(&o.asset_id, u128::from(o.amount)),
            "consumedOnChainId": cb58::encode(&o.held_on),
            "createdOnChainId": X_CHAIN_MAINNET_ID,
            "utxoId": cb58::encode(&utxo_id(&self.tx.tx_id, o.index)),
            "creationTxHash": cb58::encode(&self.tx.tx_id),
            "locktime": o.owners.locktime,
            "outputIndex": o.index.to_string(),
            "threshold": o.owners.threshold,
            "timestamp": self.place.timestamp_s(),
            "utxoType": kind_name(o.kind),
        })
    }

    /// The UTXOs it spends, as consumed `Utxo`s: each held by the key that signed its
    /// credential, with that credential.
    pub fn consumed_utxos(&self) -> Vec<Value> {
        let tx_hash = cb58::encode(&self.tx.tx_id);
        inputs(self.tx)
            .iter()
            .enumerate()
            .map(|(k, i)| {
                let (signer, credentials) = credential_json(credential_of(self.tx, k));
                let owners: Vec<String> =
                    signer.iter().map(|&key| p_address_of(self.network, &x_spends::short_id(key))).collect();
                json!({
                    "addresses": owners,
                    "credentials": credentials,
                    "asset": self.asset_amount(&i.asset_id, u128::from(i.amount)),
                    "consumedOnChainId": X_CHAIN_MAINNET_ID,
                    "createdOnChainId": cb58::encode(&i.created_on),
                    "utxoId": cb58::encode(&utxo_id(&i.tx_id, i.output_index)),
                    "creationTxHash": cb58::encode(&i.tx_id),
                    "consumingTxHash": tx_hash,
                    "consumingTxTimestamp": self.place.timestamp_s(),
                    "locktime": 0,
                    "outputIndex": i.output_index.to_string(),
                    "threshold": 1,
                    "timestamp": self.place.timestamp_s(),
                    "utxoType": kind_name(i.kind),
                })
            })
            .collect()
    }

    /// Per-asset sums, assets in first-seen order.
    fn sums(&self, items: impl Iterator<Item = ([u8; 32], u64)>) -> Vec<Value> {
        let mut totals: Vec<([u8; 32], u128)> = Vec::new();
        for (asset, amount) in items {
            match totals.iter_mut().find(|(a, _)| *a == asset) {
                Some((_, sum)) => *sum += u128::from(amount),
                None => totals.push((asset, u128::from(amount))),
            }
        }
        totals.iter().map(|(a, sum)| self.asset_amount(a, *sum)).collect()
    }

    /// As the Data API's `XChainNonLinearTransaction` or `XChainLinearTransaction`.
    pub fn to_json(&self) -> Value {
        let outs = outputs(self.tx);
        let ins = inputs(self.tx);
        let memo = &self.tx.base.memo;
        let mut v = json!({
            "txHash": cb58::encode(&self.tx.tx_id),
            "timestamp": self.place.timestamp_s(),
            "txType": self.tx.type_name,
            "memo": if memo.is_empty() { String::new() } else { format!("0x{}", hex::encode(memo)) },
            "consumedUtxos": self.consumed_utxos(),
            "emittedUtxos": outs.iter().map(|o| self.utxo(o)).collect::<Vec<_>>(),
            "amountUnlocked": self.sums(ins.iter().map(|i| (i.asset_id, i.amount))),
            "amountCreated": self.sums(outs.iter().map(|o| (o.asset_id, o.amount))),
        });
        match self.place {
            XPlace::Dag { .. } => {
                v["chainFormat"] = json!("non-linear");
                // The world's `X/vtx` holds no vertices to name (module doc of `data_api::xchain_txs`).
                v["vertices"] = json!([]);
            }
            XPlace::Linear { height, hash, .. } => {
                v["chainFormat"] = json!("linear");
                v["blockHeight"] = json!(height);
                v["blockHash"] = json!(hash);
            }
        }
        match &self.tx.body {
            XTxBody::Atomic(atomic) => set_atomic_chains(&mut v, atomic, X_CHAIN_MAINNET_ID),
            XTxBody::CreateAsset { .. } => {
                v["assetCreated"] = created_asset(self.tx, self.place.timestamp_s()).expect("a CreateAssetTx");
            }
            _ => {}
        }
        v
    }
}

fn kind_name(kind: UtxoKind) -> &'static str {
    match kind {
        UtxoKind::Transfer => "transfer",
        UtxoKind::Mint => "mint",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_run_from_genesis_through_cortina_to_now_and_quick_txs_equal_the_served_ones() {
        let w = XWorld::new(7, [0, 0]);
        assert_eq!(w.units(), 2 * MIN_SPAN);
        let times: Vec<i64> =
            (0..w.units()).step_by(97).chain([w.tx_span - 1, w.tx_span]).map(|u| w.time_s(u)).collect();
        assert!(w.time_s(w.tx_span - 1) < super::super::px_clock::CORTINA_S);
        assert_eq!(w.time_s(w.tx_span), super::super::px_clock::CORTINA_S);
        assert!(times[..times.len() - 2].windows(2).all(|p| p[0] <= p[1]));
        for u in [0, 5, w.tx_span - 1, w.tx_span, w.tx_span + 4_097, w.units() - 1] {
            let quick: Vec<[u8; 32]> = w.txs_quick(u).iter().map(|t| t.tx_id).collect();
            let served: Vec<[u8; 32]> = w.txs(u).iter().map(|t| t.tx_id).collect();
            assert_eq!(quick, served, "unit {u}");
            assert!(!served.is_empty());
        }
        let t = w.first_at_or_after(w.time_s(w.tx_span + 10));
        assert!(t <= w.tx_span + 10 && w.time_s(t) == w.time_s(w.tx_span + 10));
        assert_eq!(w.first_at_or_after(i64::MAX), w.units());
    }

    #[test]
    fn outputs_are_numbered_in_order_and_exports_are_held_on_their_destination() {
        let w = XWorld::new(3, [0, 0]);
        let (mut exports, mut creates, mut mints) = (0, 0, 0);
        for u in w.tx_span..w.tx_span + 300 {
            for tx in w.txs(u) {
                let outs = outputs(&tx);
                assert!(outs.iter().enumerate().all(|(i, o)| o.index == i as u32));
                match &tx.body {
                    XTxBody::Atomic(Atomic::Export { destination_chain, .. }) => {
                        exports += 1;
                        assert_eq!(outs.last().unwrap().held_on, *destination_chain);
                        assert_eq!(outs[0].held_on, x_chain_raw());
                    }
                    XTxBody::CreateAsset { .. } => {
                        creates += 1;
                        assert!(outs.iter().any(|o| o.asset_id == tx.tx_id));
                        assert!(created_asset(&tx, 1).is_some());
                    }
                    XTxBody::Operation { .. } => {
                        mints += 1;
                        assert_eq!(outs.iter().filter(|o| o.kind == UtxoKind::Mint).count(), 1);
                        assert_eq!(inputs(&tx).iter().filter(|i| i.kind == UtxoKind::Mint).count(), 1);
                    }
                    _ => assert!(created_asset(&tx, 1).is_none()),
                }
            }
        }
        assert!(exports > 0 && creates > 0 && mints > 0, "{exports} {creates} {mints}");
    }
}
