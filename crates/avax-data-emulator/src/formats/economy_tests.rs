//! The P- and X-chain worlds burn AVAX only as fees: over every tx of the served chains, the
//! AVAX the core's decoder reads as consumed exceeds what it reads as produced (staked and
//! exported outputs included) by exactly the tx's fee ([`super::fees`]).

use std::collections::BTreeMap;

use avax_data_core::decode::avax::AssetAmount;

use super::fees::{self, ETNA_S, P_MAX_GAS_PRICE};
use super::p_txs::{avax_id, block_txs, tx_burned, tx_l1_balances, tx_outputs};
use super::px_blocks::{PxChain, PxKind};
use super::px_clock::MIN_SPAN;
use super::x_index::x_index;
use super::x_txs::{tx_fee, XWorld};
use crate::world::Network;

fn avax_in(sums: &[AssetAmount], avax: &[u8; 32]) -> u128 {
    sums.iter().filter(|a| a.asset_id == *avax).map(|a| a.amount).sum()
}

#[test]
fn every_p_tx_pays_its_eras_fee_and_burns_nothing_more() {
    for network in Network::ALL {
        let avax = avax_id(network);
        let chain = PxChain::of(11, network, PxKind::P, MIN_SPAN).expect("every network has a P-chain");
        let mut seen: BTreeMap<(&str, bool), usize> = BTreeMap::new();
        for h in 0..chain.span() {
            let time = chain.timestamp_s(h) as u64;
            for tx in block_txs(&chain, h) {
                let Some(base) = &tx.base else {
                    assert!(tx.consumed.is_empty() && tx.produced.is_empty(), "{} moves nothing", tx.type_name);
                    continue;
                };
                let (consumed, produced) = (avax_in(&tx.consumed, &avax), avax_in(&tx.produced, &avax));
                assert!(consumed >= produced, "{network:?} height {h} {}: creates AVAX", tx.type_name);
                // A ConvertSubnetToL1Tx also funds its L1 validators' balances: not a fee.
                let fee = consumed - produced - tx_l1_balances(&tx);
                assert_eq!(fee, tx_burned(&tx), "the Data API's amountBurned is the decoder's fee");
                let etna = time >= ETNA_S;
                if etna {
                    let n_in = base.inputs.len() + consumed_imports(&tx);
                    let n_out = tx_outputs(&tx).len();
                    let gas = u128::from(fees::p_gas(n_in as u64, n_out as u64));
                    let price = fee / gas;
                    assert!(
                        fee.is_multiple_of(gas) && (1..=u128::from(P_MAX_GAS_PRICE)).contains(&price),
                        "{fee} for {gas} gas"
                    );
                } else {
                    assert_eq!(
                        fee,
                        u128::from(fees::p_static_fee(tx.type_id)),
                        "{network:?} height {h} {}",
                        tx.type_name
                    );
                }
                assert!(fee <= 1_000_000_000, "at most 1 AVAX");
                *seen.entry((tx.type_name, etna)).or_default() += 1;
            }
        }
        for kind in
            ["ImportTx", "ExportTx", "CreateSubnetTx", "AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"]
        {
            assert!(seen.keys().any(|(k, _)| *k == kind), "{network:?}: no {kind} in {seen:?}");
        }
        assert!(seen.keys().any(|(_, etna)| *etna) && seen.keys().any(|(_, etna)| !etna), "both eras: {seen:?}");
    }
}

/// The imported inputs of an ImportTx (none for another tx).
fn consumed_imports(tx: &avax_data_core::decode::pchain::PTx) -> usize {
    use avax_data_core::decode::avax::Atomic;
    use avax_data_core::decode::pchain_txs::PTxBody;
    match &tx.body {
        PTxBody::Atomic(Atomic::Import { inputs, .. }) => inputs.len(),
        _ => 0,
    }
}

#[test]
fn every_x_tx_pays_the_avm_fee_and_the_index_sums_them() {
    let world = XWorld::new(11, [0, 0]);
    let avax = avax_id(Network::Mainnet);
    let (mut total, mut kinds) = (0u128, BTreeMap::<&str, usize>::new());
    for u in 0..world.units() {
        for tx in world.txs_quick(u) {
            let fee = avax_in(&tx.consumed, &avax) - avax_in(&tx.produced, &avax);
            assert_eq!(fee, u128::from(fees::x_fee(tx.type_id)), "unit {u} {}", tx.type_name);
            assert_eq!(tx_fee(&tx), fee);
            total += fee;
            *kinds.entry(tx.type_name).or_default() += 1;
        }
    }
    assert_eq!(kinds.len(), 5, "every avm tx type: {kinds:?}");
    assert_eq!(x_index(&world).burned, total);
}

#[test]
fn x_inputs_spend_earlier_world_utxos_of_their_signers_each_once() {
    use super::x_spends::{short_id, signer_of, SPENDING_HEIGHTS};
    use super::x_txs::{inputs, outputs};
    use std::collections::HashMap;
    let world = XWorld::new(12, [0, 0]);
    let avax = avax_id(Network::Mainnet);
    /// `(unit, amount, asset, owners)` of an X-held output.
    type Created = (u64, u64, [u8; 32], Vec<[u8; 20]>);
    // (tx id, output index) -> every X-held output so far.
    let mut created: HashMap<([u8; 32], u32), Created> = HashMap::new();
    let mut spent: HashMap<([u8; 32], u32), [u8; 32]> = HashMap::new();
    let (mut from_world, mut from_genesis) = (0, 0);
    for u in 0..world.units() {
        for tx in world.txs_quick(u) {
            let credentials = tx.credentials.clone().expect("signed");
            for (k, input) in inputs(&tx).iter().enumerate() {
                let key = (input.tx_id, input.output_index);
                assert!(spent.insert(key, tx.tx_id).is_none(), "unit {u}: {key:?} spent twice");
                let signer = signer_of(&credentials[k].signatures[0]).expect("a pool key signs every input");
                if let Some((at, amount, asset, owners)) = created.get(&key) {
                    assert!(*at < u, "spent after it was created");
                    assert_eq!((*amount, *asset), (input.amount, input.asset_id), "the input is the output it names");
                    assert_eq!(owners, &vec![short_id(signer)], "signed by the output's owner");
                    from_world += 1;
                } else if input.tx_id == avax {
                    from_genesis += 1;
                }
            }
            for o in outputs(&tx).iter().filter(|o| o.held_on == super::x_txs::x_chain_raw()) {
                created.insert((tx.tx_id, o.index), (u, o.amount, o.asset_id, o.owners.addresses.clone()));
            }
        }
    }
    assert!(from_world > SPENDING_HEIGHTS as usize / 2, "{from_world} DAG payments spent");
    assert!(from_genesis > world.tx_span as usize, "{from_genesis} genesis allocations");
    // The Data API's view: the spender of a DAG payment is the one the scan found.
    for dag in [0, 1, 17, 4_000, SPENDING_HEIGHTS - 1] {
        let (tx_id, index, ..) = super::xchain::dag_payment(12, dag);
        match world.spender(dag, &tx_id, index) {
            Some((tx, unit, _)) => {
                assert_eq!(spent.get(&(tx_id, index)), Some(&tx.tx_id));
                assert_eq!(unit, world.tx_span + dag);
            }
            None => assert!(!spent.contains_key(&(tx_id, index)), "DAG tx {dag}: an ImportTx spends no payment"),
        }
    }
}
