//! The P-chain's transactions as the Data API's `PChainTransaction` reports them, read from the
//! `P/block` containers ([`super::px_blocks`]): the tx id, type, block, the UTXOs it consumed
//! (its inputs: the spent UTXO's id, amount and asset; the emulated chain does not hold the
//! outputs they spent, so their owners are unknown: `addresses` is empty) and emitted (its
//! outputs, change and stake, each held by its owners' bech32 P-addresses), the AVAX it moved,
//! burned and staked, and the staking fields of the staking txs.

use std::collections::HashMap;

use avax_data_core::decode::avax::{Atomic, Input, Output, TransferableInput, TransferableOutput};
use avax_data_core::decode::pchain::{self as pdecode, PTx, PTxBody};
use avax_data_core::decode::proposervm as penv;
use avax_data_core::index::cb58;
use serde_json::{json, Value};

use super::px_blocks::{PerChain, PxBlock, PxChain};
use super::pxchains::P_FORK_HEIGHT;
use crate::world::rewards::avax_asset_id;
use crate::world::{Network, PRIMARY_NETWORK_SUBNET_ID};

/// The P-chain's blockchain id (32 zero bytes).
const P_CHAIN_ID: &str = "11111111111111111111111111111111LpoYY";

/// The bech32 P-address (no `P-`) of a short id on `network`.
pub fn p_address_of(network: Network, short: &[u8; 20]) -> String {
    let hrp = bech32::Hrp::parse(network.hrp()).expect("the network prefixes are valid HRPs");
    bech32::encode::<bech32::Bech32>(hrp, short).expect("a 20-byte address fits bech32")
}

/// The UTXO id of output `index` of tx `tx_id`: sha256(u64 big-endian index ‖ tx id), as
/// avalanchego's `ID.Prefix` makes it.
pub fn utxo_id(tx_id: &[u8; 32], index: u32) -> [u8; 32] {
    let mut bytes = Vec::with_capacity(40);
    bytes.extend_from_slice(&u64::from(index).to_be_bytes());
    bytes.extend_from_slice(tx_id);
    cb58::sha256(&bytes)
}

/// AVAX (or another asset) as the Data API's `AssetAmount`.
pub fn asset_amount(network: Network, asset_id: &[u8; 32], amount: u128) -> Value {
    let id = cb58::encode(asset_id);
    let avax = id == avax_asset_id(network);
    json!({
        "assetId": id,
        "name": if avax { "Avalanche" } else { "Unknown" },
        "symbol": if avax { "AVAX" } else { "UNK" },
        "denomination": 9,
        "type": "secp256k1",
        "amount": amount.to_string(),
    })
}

/// The txs of block `h` of `chain` (a P-chain).
pub fn block_txs(chain: &PxChain, h: u64) -> Vec<PTx> {
    let PxChain::P(c) = chain else { return Vec::new() };
    let served = c.served(h);
    let bytes = &served.entry().bytes;
    let inner = if h < P_FORK_HEIGHT { &bytes[..] } else { penv::parse(bytes).expect("envelopes parse").inner };
    pdecode::decode_block(inner).expect("the emulator's P blocks decode").txs
}

/// An output's amount, owners, locktime and (through a stakeable lock) stakeable locktime.
type Owned<'a> = (u64, &'a [[u8; 20]], u64, Option<u64>);

/// One output's amount and owners, through a stakeable lock.
fn owned(output: &Output) -> Option<Owned<'_>> {
    match output {
        Output::Transfer { amount, owners } => Some((*amount, &owners.addresses, owners.locktime, None)),
        Output::StakeableLock { locktime, output } => owned(output).map(|(a, o, l, _)| (a, o, l, Some(*locktime))),
        _ => None,
    }
}

/// An input's amount and, through a stakeable lock, its locktime.
fn input_amount(input: &Input) -> (u64, Option<u64>) {
    match input {
        Input::Transfer { amount, .. } => (*amount, None),
        Input::StakeableLock { locktime, input } => (input_amount(input).0, Some(*locktime)),
    }
}

/// A tx's outputs in UTXO order, each with whether it is staked: the BaseTx outputs, then its
/// export or stake outputs.
pub fn tx_outputs(tx: &PTx) -> Vec<(&TransferableOutput, bool)> {
    let mut out: Vec<(&TransferableOutput, bool)> =
        tx.base.iter().flat_map(|b| b.outputs.iter()).map(|o| (o, false)).collect();
    match &tx.body {
        PTxBody::Atomic(Atomic::Export { outputs, .. }) => out.extend(outputs.iter().map(|o| (o, false))),
        PTxBody::AddValidator { stake, .. }
        | PTxBody::AddDelegator { stake, .. }
        | PTxBody::AddPermissionlessValidator { stake, .. }
        | PTxBody::AddPermissionlessDelegator { stake, .. } => out.extend(stake.iter().map(|o| (o, true))),
        _ => {}
    }
    out
}

/// A tx's inputs: the BaseTx inputs, then its import inputs.
fn tx_inputs(tx: &PTx) -> Vec<&TransferableInput> {
    let mut out: Vec<&TransferableInput> = tx.base.iter().flat_map(|b| b.inputs.iter()).collect();
    if let PTxBody::Atomic(Atomic::Import { inputs, .. }) = &tx.body {
        out.extend(inputs.iter());
    }
    out
}

/// The nAVAX a tx moves: `(consumed, value, staked)`, its inputs' amounts, its unstaked and its
/// staked outputs' amounts. What it burned is `consumed - value - staked` ([`tx_burned`]).
pub fn tx_amounts(tx: &PTx) -> (u128, u128, u128) {
    let consumed = tx_inputs(tx).iter().map(|i| u128::from(input_amount(&i.input).0)).sum();
    let (mut value, mut staked) = (0u128, 0u128);
    for (o, is_staked) in tx_outputs(tx) {
        if let Some((amount, ..)) = owned(&o.output) {
            *(if is_staked { &mut staked } else { &mut value }) += u128::from(amount);
        }
    }
    (consumed, value, staked)
}

/// The nAVAX a tx burned: what its inputs consumed beyond its outputs and the L1 validators'
/// balances it funds (its fee).
pub fn tx_burned(tx: &PTx) -> u128 {
    let (consumed, value, staked) = tx_amounts(tx);
    consumed.saturating_sub(value + staked + tx_l1_balances(tx))
}

/// The nAVAX a tx moves into L1 validators' balances (a ConvertSubnetToL1Tx's initial
/// validators): the Data API's `amountL1ValidatorBalanceBurned`, apart from its fee.
pub fn tx_l1_balances(tx: &PTx) -> u128 {
    match &tx.body {
        PTxBody::ConvertSubnetToL1 { validators, .. } => validators.iter().map(|v| u128::from(v.balance)).sum(),
        _ => 0,
    }
}

/// The nAVAX of a tx's outputs still locked at Unix second `now` (a platform or stakeable
/// locktime after it).
pub fn tx_locked(tx: &PTx, now: u64) -> u128 {
    tx_outputs(tx)
        .iter()
        .filter_map(|(o, _)| owned(&o.output))
        .filter(|(_, _, locktime, stakeable)| *locktime > now || stakeable.is_some_and(|l| l > now))
        .map(|(amount, ..)| u128::from(amount))
        .sum()
}

/// The facts of one P-chain tx in its block.
pub struct PTxFacts<'a> {
    pub network: Network,
    pub block: &'a PxBlock,
    pub tx: &'a PTx,
}

impl PTxFacts<'_> {
    /// `(outputs in UTXO order, whether staked)`: the BaseTx outputs, then export and stake
    /// outputs.
    pub fn outputs(&self) -> Vec<(&TransferableOutput, bool)> {
        tx_outputs(self.tx)
    }

    fn inputs(&self) -> Vec<&TransferableInput> {
        tx_inputs(self.tx)
    }

    /// The outputs as the Data API's `PChainUtxo`s (unspent).
    pub fn emitted_utxos(&self) -> Vec<Value> {
        let tx_hash = cb58::encode(&self.tx.tx_id);
        self.outputs()
            .iter()
            .enumerate()
            .filter_map(|(i, (o, staked))| {
                let (amount, owners, locktime, stakeable) = owned(&o.output)?;
                let mut u = json!({
                    "addresses": owners.iter().map(|a| p_address_of(self.network, a)).collect::<Vec<_>>(),
                    "asset": asset_amount(self.network, &o.asset_id, u128::from(amount)),
                    "consumedOnChainId": P_CHAIN_ID,
                    "createdOnChainId": P_CHAIN_ID,
                    "utxoId": cb58::encode(&utxo_id(&self.tx.tx_id, i as u32)),
                    "amount": amount.to_string(),
                    "assetId": cb58::encode(&o.asset_id),
                    "blockNumber": self.block.number.to_string(),
                    "blockTimestamp": self.block.timestamp_s,
                    "outputIndex": i,
                    "txHash": tx_hash,
                    "utxoType": if *staked { "STAKE" } else { "TRANSFER" },
                    "staked": staked,
                    "threshold": 1,
                    "platformLocktime": locktime,
                });
                if let Some(l) = stakeable {
                    u["stakeableLocktime"] = json!(l);
                }
                Some(u)
            })
            .collect()
    }

    /// The inputs as consumed `PChainUtxo`s (owners unknown).
    pub fn consumed_utxos(&self) -> Vec<Value> {
        let tx_hash = cb58::encode(&self.tx.tx_id);
        self.inputs()
            .iter()
            .map(|input| {
                let (amount, stakeable) = input_amount(&input.input);
                let mut u = json!({
                    "addresses": [],
                    "asset": asset_amount(self.network, &input.asset_id, u128::from(amount)),
                    "consumedOnChainId": P_CHAIN_ID,
                    "createdOnChainId": P_CHAIN_ID,
                    "utxoId": cb58::encode(&utxo_id(&input.tx_id, input.output_index)),
                    "amount": amount.to_string(),
                    "assetId": cb58::encode(&input.asset_id),
                    "blockNumber": self.block.number.to_string(),
                    "blockTimestamp": self.block.timestamp_s,
                    "outputIndex": input.output_index,
                    "txHash": cb58::encode(&input.tx_id),
                    "consumingTxHash": tx_hash,
                    "consumingBlockNumber": self.block.number.to_string(),
                    "consumingBlockTimestamp": self.block.timestamp_s,
                    "utxoType": "TRANSFER",
                });
                if let Some(l) = stakeable {
                    u["stakeableLocktime"] = json!(l);
                }
                u
            })
            .collect()
    }

    /// Every P-address the tx pays (its outputs' owners and its reward owners).
    pub fn addresses(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .outputs()
            .iter()
            .filter_map(|(o, _)| owned(&o.output))
            .flat_map(|(_, owners, _, _)| owners.iter().map(|a| p_address_of(self.network, a)))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// As the Data API's `PChainTransaction`.
    pub fn to_json(&self) -> Value {
        let avax = avax_id(self.network);
        let (_, value, staked) = tx_amounts(self.tx);
        let burned = tx_burned(self.tx);
        let list =
            |amount: u128| if amount == 0 { json!([]) } else { json!([asset_amount(self.network, &avax, amount)]) };
        let mut v = json!({
            "txHash": cb58::encode(&self.tx.tx_id),
            "txType": self.tx.type_name,
            "blockTimestamp": self.block.timestamp_s,
            "blockNumber": self.block.number.to_string(),
            "blockHash": self.block.hash,
            "consumedUtxos": self.consumed_utxos(),
            "emittedUtxos": self.emitted_utxos(),
            "value": list(value),
            "amountBurned": list(burned),
            "amountStaked": list(staked),
            "amountL1ValidatorBalanceBurned": list(tx_l1_balances(self.tx)),
        });
        if let Some(base) = &self.tx.base {
            if !base.memo.is_empty() {
                v["memo"] = json!(String::from_utf8_lossy(&base.memo));
            }
        }
        self.body_fields(&mut v);
        v
    }

    fn body_fields(&self, v: &mut Value) {
        let network = self.network;
        let node = |id: &[u8; 20]| format!("NodeID-{}", cb58::encode(id));
        let subnet =
            |id: &[u8; 32]| if *id == [0; 32] { PRIMARY_NETWORK_SUBNET_ID.to_string() } else { cb58::encode(id) };
        let owners = |o: &avax_data_core::decode::avax::OutputOwners| {
            o.addresses.iter().map(|a| p_address_of(network, a)).collect::<Vec<_>>()
        };
        let fee = |shares: u32| format!("{:.4}", f64::from(shares) / 10_000.0);
        let stake = |v: &mut Value, val: &avax_data_core::decode::avax::Validator| {
            v["nodeId"] = json!(node(&val.node_id));
            v["startTimestamp"] = json!(val.start);
            v["endTimestamp"] = json!(val.end);
        };
        match &self.tx.body {
            PTxBody::AddValidator { validator, rewards_owner, shares, .. } => {
                stake(v, validator);
                v["subnetId"] = json!(PRIMARY_NETWORK_SUBNET_ID);
                v["rewardAddresses"] = json!(owners(rewards_owner));
                v["delegationFeePercent"] = json!(fee(*shares));
            }
            PTxBody::AddPermissionlessValidator { validator, subnet_id, validator_rewards_owner, shares, .. } => {
                stake(v, validator);
                v["subnetId"] = json!(subnet(subnet_id));
                v["rewardAddresses"] = json!(owners(validator_rewards_owner));
                v["delegationFeePercent"] = json!(fee(*shares));
            }
            PTxBody::AddDelegator { validator, rewards_owner, .. } => {
                stake(v, validator);
                v["subnetId"] = json!(PRIMARY_NETWORK_SUBNET_ID);
                v["rewardAddresses"] = json!(owners(rewards_owner));
            }
            PTxBody::AddPermissionlessDelegator { validator, subnet_id, rewards_owner, .. } => {
                stake(v, validator);
                v["subnetId"] = json!(subnet(subnet_id));
                v["rewardAddresses"] = json!(owners(rewards_owner));
            }
            PTxBody::AddSubnetValidator { validator, subnet_id, .. } => {
                stake(v, validator);
                v["subnetId"] = json!(subnet(subnet_id));
            }
            PTxBody::RemoveSubnetValidator { node_id, subnet_id, .. } => {
                v["nodeId"] = json!(node(node_id));
                v["subnetId"] = json!(subnet(subnet_id));
            }
            PTxBody::CreateChain { subnet_id, .. } | PTxBody::TransferSubnetOwnership { subnet_id, .. } => {
                v["subnetId"] = json!(subnet(subnet_id));
            }
            PTxBody::Atomic(atomic) => set_atomic_chains(v, atomic, P_CHAIN_ID),
            PTxBody::RewardValidator { staker_tx_id } => {
                v["stakingTxHash"] = json!(cb58::encode(staker_tx_id));
            }
            _ => {}
        }
    }
}

/// Sets an atomic tx's `sourceChain` and `destinationChain` (CB58 ids), `own` being the id of
/// the chain the tx is on: the P- and the X-Chain's ImportTx and ExportTx read alike.
pub fn set_atomic_chains(v: &mut Value, atomic: &Atomic, own: &str) {
    let (source, destination) = match atomic {
        Atomic::Import { source_chain, .. } => (cb58::encode(source_chain), own.to_string()),
        Atomic::Export { destination_chain, .. } => (own.to_string(), cb58::encode(destination_chain)),
    };
    v["sourceChain"] = json!(source);
    v["destinationChain"] = json!(destination);
}

/// AVAX's raw asset id on `network`.
pub fn avax_id(network: Network) -> [u8; 32] {
    cb58::decode_id(avax_asset_id(network)).expect("AVAX's id is CB58")
}

/// Where each tx of a P-chain is: tx id -> height, built once per chain over its span.
pub fn tx_height(chain: &PxChain, tx_id: &[u8; 32]) -> Option<u64> {
    static MAPS: PerChain<HashMap<[u8; 32], u64>> = PerChain::new();
    if !matches!(chain, PxChain::P(_)) {
        return None;
    }
    let map = MAPS.get_or_build(chain, || {
        (0..chain.span()).flat_map(|h| block_txs(chain, h).into_iter().map(move |t| (t.tx_id, h))).collect()
    });
    map.get(tx_id).copied()
}
