//! The world's L1: on each network, the subnet of the world's first EVM L1 ([`chains`], in
//! their order) is converted to an L1 by a ConvertSubnetToL1Tx (type 35) 30 days after Etna or
//! the chain's launch, whichever is later, naming the L1's chain and a validator manager
//! contract, with [`INITIAL_VALIDATORS`] initial L1 validators. The tx lives in the stake slot of
//! its time ([`super::p_rewards`]), in a Banff standard block.
//!
//! Rules (documented in `docs/guides/emulator.md`): a validator's `validationID` is
//! `sha256(subnetID ‖ u32 big-endian index)`, as avalanchego names the conversion's validators;
//! weights 100..10,000, balances 10..500 AVAX; an L1 validator pays [`FEE_PER_SECOND`] nAVAX of
//! its balance each second from the conversion (its remaining balance, never below 0). The tx's
//! fields besides those come from a generator seeded by the network alone, so its id does not
//! depend on the world's seed.

use super::avax_codec::TransferableOutput;
use super::avax_codec::{self as codec, BaseTx, Input, Output, OutputOwners, Rng, TransferableInput};
use super::fees;
use super::ptx::{p_tx, PTx};
use crate::world::history::launch_s;
use crate::world::rewards::avax_asset_id;
use crate::world::{chains, Chain, Network, WORLD_NOW_MS};
use avax_data_core::decode::pchain_txs::{L1Owner, L1Validator, PTxBody};
use avax_data_core::index::cb58;

/// Initial validators of the conversion.
pub const INITIAL_VALIDATORS: u64 = 4;
/// The platformvm type id of a ConvertSubnetToL1Tx.
const CONVERT_SUBNET_TO_L1_TX: u32 = 35;

/// The continuous fee an L1 validator pays, nAVAX a second.
pub const FEE_PER_SECOND: u64 = 512;
/// 2024-12-16T17:00:00Z: Etna, which brought ConvertSubnetToL1Tx.
pub const ETNA_S: i64 = 1_734_368_400;
const DAY: i64 = 86_400;

/// The world's L1 conversion on one network.
#[derive(Debug, Clone)]
pub struct Conversion {
    /// The converted subnet's L1 chain.
    pub chain: &'static Chain,
    /// Unix seconds.
    pub time: u64,
    /// The validator manager's address on the L1.
    pub manager: [u8; 20],
    /// The signed tx.
    pub tx: PTx,
}

/// The L1 whose subnet `network` converts.
fn converted_chain(network: Network) -> Option<&'static Chain> {
    chains().iter().find(|c| c.network == network && c.evm_chain_id != 43114 && c.evm_chain_id != 43113)
}

/// The conversion of `network`, if the world has an L1 there converted before now.
pub fn conversion(network: Network) -> Option<Conversion> {
    let chain = converted_chain(network)?;
    let time = launch_s(chain).max(ETNA_S) + 30 * DAY;
    if time >= WORLD_NOW_MS / 1000 {
        return None;
    }
    let mut rng = Rng::new("avax-data l1 conversion", &[network.tag(), chain.evm_chain_id]);
    let manager: [u8; 20] = rng.array();
    let owner = |rng: &mut Rng| L1Owner { threshold: 1, addresses: vec![rng.array()] };
    let validators: Vec<L1Validator> = (0..INITIAL_VALIDATORS)
        .map(|_| L1Validator {
            node_id: rng.array::<20>().to_vec(),
            weight: rng.range(100, 10_000),
            balance: rng.range(10, 500) * 1_000_000_000,
            public_key: rng.array(),
            proof_of_possession: rng.array(),
            remaining_balance_owner: owner(&mut rng),
            deactivation_owner: owner(&mut rng),
        })
        .collect();
    let avax = cb58::decode_id(avax_asset_id(network)).expect("AVAX's id is CB58");
    let balances: u64 = validators.iter().map(|v| v.balance).sum();
    // The era's dynamic fee of a tx with one input and one output (`fees::p_fee`), as every
    // other P-Chain tx of the world pays; the balances go to the validators, not to the fee.
    let fee = fees::p_fee(CONVERT_SUBNET_TO_L1_TX, time as u64, 1, 1, rng.range(1, fees::P_MAX_GAS_PRICE));
    let spent = balances + fee + rng.range(1_000_000_000, 90_000_000_000);
    let change = spent - balances - fee;
    let base = BaseTx {
        network_id: if network == Network::Mainnet { 1 } else { 5 },
        blockchain_id: [0; 32],
        outputs: vec![TransferableOutput {
            asset_id: avax,
            output: Output::Transfer {
                amount: change,
                owners: OutputOwners { locktime: 0, threshold: 1, addresses: vec![rng.array()] },
            },
        }],
        inputs: vec![TransferableInput {
            tx_id: rng.array(),
            output_index: 0,
            asset_id: avax,
            input: Input::Transfer { amount: spent, sig_indices: vec![0] },
        }],
        memo: Vec::new(),
    };
    let body = PTxBody::ConvertSubnetToL1 {
        subnet_id: id_of(&chain.subnet_id),
        chain_id: id_of(&chain.blockchain_id),
        address: manager.to_vec(),
        validators,
        subnet_auth: vec![0],
    };
    let credentials = vec![rng.credential(1), rng.credential(1)];
    Some(Conversion {
        chain,
        time: time as u64,
        manager,
        tx: p_tx(CONVERT_SUBNET_TO_L1_TX, Some(base), body, credentials),
    })
}

fn id_of(text: &str) -> [u8; 32] {
    cb58::decode_id(text).expect("the world's ids are CB58")
}

impl Conversion {
    /// The tx id.
    pub fn tx_id(&self) -> [u8; 32] {
        codec::tx_id(&self.tx.bytes())
    }

    /// The initial validators, in the tx's order.
    pub fn validators(&self) -> &[L1Validator] {
        match &self.tx.unsigned.body {
            PTxBody::ConvertSubnetToL1 { validators, .. } => validators,
            _ => unreachable!("a conversion carries a ConvertSubnetToL1Tx"),
        }
    }

    /// The validation ID of initial validator `index`: `sha256(subnetID ‖ u32 big-endian index)`.
    pub fn validation_id(&self, index: u32) -> [u8; 32] {
        let mut bytes = id_of(&self.chain.subnet_id).to_vec();
        bytes.extend_from_slice(&index.to_be_bytes());
        codec::sha256(&bytes)
    }

    /// What remains at Unix second `at` of a validator's `balance`: [`FEE_PER_SECOND`] paid
    /// each second since the conversion.
    pub fn remaining_balance(&self, balance: u64, at: i64) -> u64 {
        let seconds = u64::try_from(at - self.time as i64).unwrap_or(0);
        balance.saturating_sub(seconds.saturating_mul(FEE_PER_SECOND))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_network_converts_one_l1_after_etna_and_before_now() {
        for network in Network::ALL {
            let c = conversion(network).expect("the world converts an L1");
            assert!(c.time as i64 > ETNA_S && (c.time as i64) < WORLD_NOW_MS / 1000);
            assert_eq!(c.chain.network, network);
            assert_eq!(c.validators().len() as u64, INITIAL_VALIDATORS);
            let bytes = codec::with_version(&c.tx.bytes());
            let decoded = avax_data_core::decode::pchain::decode_tx(&bytes).unwrap();
            assert_eq!((decoded.type_name, decoded.tx_id), ("ConvertSubnetToL1Tx", c.tx_id()));
            let ids: std::collections::BTreeSet<_> = (0..4).map(|i| c.validation_id(i)).collect();
            assert_eq!(ids.len(), 4);
            let again = conversion(network).unwrap();
            assert_eq!(
                (again.time, again.tx_id(), again.chain.evm_chain_id),
                (c.time, c.tx_id(), c.chain.evm_chain_id)
            );
            let v = &c.validators()[0];
            assert_eq!(c.remaining_balance(v.balance, c.time as i64), v.balance);
            assert_eq!(c.remaining_balance(v.balance, c.time as i64 + 10), v.balance - 5_120);
        }
    }
}
