//! Tests of the P-chain encoders: published vectors re-encoded byte for byte from their field
//! values, and generated blocks walked independently (`walk.rs`).

use std::collections::{BTreeSet, HashMap};

use super::avax_codec::{self as codec, Atomic, Signer, UnsignedTx, Writer};
use super::p_rewards;
use super::pchain::{encode_block, inner_block, kind_at, stake_height, stake_heights, PChainConfig, PKind};
use super::ptx::{p_tx, PTx};
use super::test_json::{self as tj, vector};
use super::walk;
use crate::world::Network;
use avax_data_core::decode::pchain_txs::{PTxBody, UnsignedPTx};

fn time_of(height: u64) -> u64 {
    1_600_000_000 + height * 3
}

fn parent_of(height: u64) -> [u8; 32] {
    codec::sha256(&height.to_be_bytes())
}

#[test]
fn banff_golden_blocks_are_reproduced() {
    let zero = [0u8; 32];
    let advance = p_tx(19, None, PTxBody::AdvanceTime { time: 0 }, vec![]).bytes();
    for (name, kind, txs) in [
        ("TestBanffBlockSerialization/BanffProposalBlock{Tx: AdvanceTimeTx{}}", PKind::BanffProposal, vec![advance]),
        ("TestBanffBlockSerialization/BanffCommitBlock{}", PKind::BanffCommit, vec![]),
        ("TestBanffBlockSerialization/BanffStandardBlock{Transactions: []}", PKind::BanffStandard, vec![]),
    ] {
        let v = vector("pchain_blocks", name);
        assert_eq!(hex::encode(encode_block(kind, &zero, 0, 0, &txs)), v["hex"].as_str().unwrap(), "{name}");
    }
}

#[test]
fn mainnet_block_1000001_is_reproduced_with_its_ids() {
    let v = vector(
        "pchain_blocks",
        "docs platform.getBlock hex example (Mainnet P-Chain height 1000001, ApricotStandardBlock)",
    );
    let d = &v["decoded"];
    let t = &d["txs"][0];
    let u = &t["unsignedTx"];
    let export = Atomic::Export {
        destination_chain: tj::id(&u["destinationChain"]),
        outputs: tj::outputs(&u["exportedOutputs"]),
    };
    let tx = p_tx(18, Some(tj::base(u)), PTxBody::Atomic(export), tj::credentials(&t["credentials"]));
    let tx_bytes = tx.bytes();
    assert_eq!(codec::tx_id(&tx_bytes), tj::id(&t["txID"]));
    let height = d["height"].as_u64().unwrap();
    let block = encode_block(PKind::ApricotStandard, &tj::id(&d["parentID"]), height, 0, &[tx_bytes]);
    assert_eq!(hex::encode(&block), v["hex"].as_str().unwrap());
    assert_eq!(codec::sha256(&block), tj::id(&d["blockID"]));
}

fn pop(s: &serde_json::Value) -> Signer {
    Signer::ProofOfPossession {
        public_key: tj::hexv(&s["publicKey"]).try_into().unwrap(),
        signature: tj::hexv(&s["signature"]).try_into().unwrap(),
    }
}

/// The unsigned tx of a vector's `unsignedTx` object, for its staking tx types.
fn staking_tx(u: &serde_json::Value) -> UnsignedPTx {
    let (validator, stake) = (tj::validator(&u["validator"]), tj::outputs(&u["stake"]));
    let owner = |key: &str| tj::owners(&u[key]);
    let shares = || u["shares"].as_u64().unwrap() as u32;
    let type_id = u["typeID"].as_u64().unwrap() as u32;
    let body = match type_id {
        12 => PTxBody::AddValidator { validator, stake, rewards_owner: owner("rewardsOwner"), shares: shares() },
        25 => PTxBody::AddPermissionlessValidator {
            validator,
            subnet_id: tj::id(&u["subnetID"]),
            signer: pop(&u["signer"]),
            stake,
            validator_rewards_owner: owner("validatorRewardsOwner"),
            delegator_rewards_owner: owner("delegatorRewardsOwner"),
            shares: shares(),
        },
        26 => {
            let (subnet_id, rewards_owner) = (tj::id(&u["subnetID"]), owner("rewardsOwner"));
            PTxBody::AddPermissionlessDelegator { validator, subnet_id, stake, rewards_owner }
        }
        other => panic!("not a staking tx type: {other}"),
    };
    UnsignedPTx { type_id, base: Some(tj::base(u)), body }
}

#[test]
fn staking_tx_vectors_are_reproduced() {
    // Signed AddValidatorTx (LockIn / LockOut) and AddPermissionlessDelegatorTx: bytes and tx ID.
    for name in
        ["fee/calculator_test AddValidatorTx", "fee/calculator_test AddPermissionlessDelegatorTx for primary network"]
    {
        let v = vector("pchain_txs", name);
        let d = &v["decoded"];
        let tx = PTx { unsigned: staking_tx(&d["unsignedTx"]), credentials: tj::credentials(&d["credentials"]) };
        let want = (v["hex"].as_str().unwrap().to_owned(), tj::id(&d["txID"]));
        assert_eq!((hex::encode(tx.standalone()), codec::tx_id(&tx.bytes())), want, "{name}");
    }
    // An unsigned AddPermissionlessValidatorTx with a proof of possession: the codec version, then
    // the unsigned tx alone.
    let v = vector("pchain_txs", "add_permissionless_validator_tx_test.go:expectedUnsignedSimpleAddPrimaryTxBytes");
    let mut w = Writer::new();
    staking_tx(&v["decoded"]["unsignedTx"]).write(w.u16(0));
    assert_eq!(hex::encode(w.into_bytes()), v["hex"].as_str().unwrap());
}

fn walk_chain(seed: u64, cfg: &PChainConfig, heights: std::ops::Range<u64>) -> Vec<(PKind, Vec<walk::TxSpan>, usize)> {
    let mut out = Vec::new();
    for h in heights {
        let b = inner_block(seed, h, parent_of(h), time_of(h), cfg);
        assert_eq!(b.kind, kind_at(seed, h, cfg));
        assert_eq!(b.id, codec::sha256(&b.bytes));
        let (t, height, txs) = walk::p_block(&b.bytes);
        assert_eq!((t, height), (b.kind.type_id(), h));
        assert_eq!(&b.bytes[6..38].len(), &32);
        let ids: Vec<[u8; 32]> =
            txs.iter().map(|s| codec::sha256(&codec::with_version(&b.bytes[s.start..s.end]))).collect();
        assert_eq!(ids, b.tx_ids, "height {h}");
        if b.kind.is_banff() {
            assert_eq!(&b.bytes[6..14], &time_of(h).to_be_bytes());
        }
        out.push((b.kind, txs, b.bytes.len()));
    }
    out
}

#[test]
fn generated_blocks_walk_cleanly_and_options_follow_proposals() {
    for network in Network::ALL {
        let cfg = PChainConfig { network, ..Default::default() };
        let blocks = walk_chain(11, &cfg, 0..900);
        let mut kinds = BTreeSet::new();
        let mut types = BTreeSet::new();
        for (h, (kind, txs, len)) in blocks.iter().enumerate() {
            kinds.insert(kind.type_id());
            types.extend(txs.iter().map(|t| t.type_id));
            assert_eq!(kind.is_banff(), h as u64 >= cfg.banff_height);
            assert_eq!(kind.is_option(), h > 0 && blocks[h - 1].0.is_proposal(), "height {h}");
            match kind {
                k if k.is_option() => assert!(txs.is_empty() && *len <= 54),
                PKind::ApricotProposal | PKind::ApricotAtomic => assert_eq!(txs.len(), 1),
                PKind::BanffProposal => assert_eq!(txs.last().unwrap().type_id, 20),
                _ => assert!((1..=4).contains(&txs.len()) && (150..4000).contains(len), "{kind:?} {len}"),
            }
        }
        assert_eq!(kinds.len(), 9, "every block type occurs: {kinds:?}");
        for t in [12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 25, 26, 33, 34] {
            assert!(types.contains(&t), "tx type {t} occurs ({network:?})");
        }
        let sizes: Vec<usize> = blocks.iter().filter(|b| !b.0.is_option()).map(|b| b.2).collect();
        let mean = sizes.iter().sum::<usize>() / sizes.len();
        assert!((250..1500).contains(&mean), "mean P block {mean}");
    }
}

/// `(nodeID, start, end, weight)`.
type ValidatorKey = ([u8; 20], u64, u64, u64);
/// `(height, tx typeID, reward addresses)`.
type Hit = (u64, u32, Vec<[u8; 20]>);

#[test]
fn every_stake_of_the_data_api_is_in_exactly_one_block() {
    for network in Network::ALL {
        let cfg = PChainConfig { network, ..Default::default() };
        let stakes = stake_heights(5, &cfg);
        let last = stakes.iter().map(|(h, _)| *h).max().unwrap();
        let mut found: HashMap<ValidatorKey, Vec<Hit>> = HashMap::new();
        for (h, (_, txs, _)) in walk_chain(5, &cfg, 0..last + 3).into_iter().enumerate() {
            for t in txs.iter().filter(|t| [12, 14, 25, 26].contains(&t.type_id)) {
                found.entry(t.validator.unwrap()).or_default().push((h as u64, t.type_id, t.reward_addresses.clone()));
            }
        }
        assert_eq!(found.len(), stakes.len());
        let mut eras = BTreeSet::new();
        for (k, (height, s)) in stakes.iter().enumerate() {
            assert_eq!(*height, super::p_rewards::start_height(5, &cfg, k));
            let hits = &found[&(s.node_id, s.start, s.end, s.weight)];
            assert_eq!(hits.len(), 1, "{s:?}");
            let (h, t, addrs) = &hits[0];
            assert_eq!(h, height);
            assert_eq!(addrs, &s.reward_addresses);
            let want = match (*height >= cfg.banff_height, s.delegation) {
                (false, false) => 12,
                (false, true) => 14,
                (true, false) => 25,
                (true, true) => 26,
            };
            assert_eq!(*t, want);
            eras.insert(*t);
        }
        assert_eq!(eras.len(), 4, "{network:?}: both eras, validators and delegators");
    }
}

#[test]
fn blocks_are_deterministic_and_depend_on_every_input() {
    let cfg = PChainConfig::default();
    for h in [0, 1, 50, 51, 249, 250, 251, 777] {
        let a = inner_block(3, h, parent_of(h), time_of(h), &cfg);
        assert_eq!(a, inner_block(3, h, parent_of(h), time_of(h), &cfg));
        assert_ne!(a.bytes, inner_block(3, h + 1, parent_of(h), time_of(h), &cfg).bytes);
        assert_ne!(a.bytes, inner_block(3, h, parent_of(h + 1), time_of(h), &cfg).bytes);
        if !a.kind.is_option() && kind_at(4, h, &cfg) == a.kind {
            assert_ne!(a.bytes, inner_block(4, h, parent_of(h), time_of(h), &cfg).bytes);
        }
    }
}

#[test]
fn schedule_holds_for_tight_and_shifted_configs() {
    for (banff_height, first_stake_height, stake_spacing) in [(0, 0, 3), (10, 1, 3), (1_000, 7, 5), (u64::MAX, 2, 1)] {
        let cfg = PChainConfig { network: Network::Fuji, banff_height, first_stake_height, stake_spacing };
        let kinds: Vec<PKind> = (0..3_000).map(|h| kind_at(2, h, &cfg)).collect();
        for h in 1..kinds.len() {
            assert_eq!(kinds[h].is_option(), kinds[h - 1].is_proposal(), "{cfg:?} height {h}");
            assert!(!(kinds[h].is_proposal() && kinds[h - 1].is_proposal()));
        }
        let ends = |h: u64| super::p_rewards::ends_at(2, &cfg, h);
        for k in 0..100 {
            let h = stake_height(&cfg, k);
            assert_eq!(super::pchain::stake_slot(&cfg, h), Some(k));
            let want = match (h < banff_height, ends(h)) {
                (true, _) => PKind::ApricotProposal,
                (false, true) => PKind::BanffProposal,
                (false, false) => PKind::BanffStandard,
            };
            assert_eq!(kinds[h as usize], want, "{cfg:?} slot {k}");
        }
        // At spacing 3 only the Apricot stake slots and the reward slots propose (no room for a
        // random proposal pair).
        let proposals = kinds.iter().filter(|k| k.is_proposal()).count();
        let slots = (0..3_000u64).filter(|&h| super::pchain::stake_slot(&cfg, h).is_some());
        let proposing_slots = slots.filter(|&h| h < banff_height || ends(h)).count();
        if stake_spacing < 4 {
            assert_eq!(proposals, proposing_slots, "{cfg:?}");
        } else {
            assert!(proposals > 300, "{cfg:?}: {proposals}");
        }
    }
}

#[test]
#[should_panic(expected = "trailing bytes")]
fn the_walk_rejects_trailing_bytes() {
    let mut b = inner_block(1, 52, [0; 32], 9, &PChainConfig::default()).bytes;
    b.push(0);
    walk::p_block(&b);
}

#[test]
#[should_panic(expected = "truncated")]
fn the_walk_rejects_truncated_blocks() {
    let b = inner_block(1, 50, [0; 32], 9, &PChainConfig::default()).bytes;
    walk::p_block(&b[..b.len() - 1]);
}

/// The emulator's signed tx of what the core decoded (no credentials for an unsigned-only tx).
fn rebuilt(tx: avax_data_core::decode::pchain::PTx) -> PTx {
    p_tx(tx.type_id, tx.base, tx.body, tx.credentials.unwrap_or_default())
}

#[test]
fn every_published_p_tx_decodes_and_writes_back_to_its_bytes() {
    use avax_data_core::decode::pchain as pdecode;
    let path = format!("{}/../../tests/data/decode/pchain_txs.json", env!("CARGO_MANIFEST_DIR"));
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut types = BTreeSet::new();
    for v in doc["vectors"].as_array().unwrap() {
        let raw = tj::hexv(&v["hex"]);
        let (name, signed) = (&v["name"], pdecode::decode_tx(&raw).is_ok());
        let tx = if signed { pdecode::decode_tx(&raw) } else { pdecode::decode_unsigned_tx(&raw) }.unwrap();
        types.insert(tx.type_id);
        let tx = rebuilt(tx);
        let mut w = Writer::new();
        tx.unsigned.write(w.u16(0));
        let written = if signed { tx.standalone() } else { w.into_bytes() };
        assert_eq!(hex::encode(written), hex::encode(&raw), "{name}");
    }
    // Every body the writer knows but the generated blocks do not carry is among them.
    for t in [24, 35, 36, 37, 38, 39, 40, 41] {
        assert!(types.contains(&t), "type {t}: {types:?}");
    }
}

#[test]
fn generated_txs_are_what_the_core_decodes() {
    use avax_data_core::decode::pchain as pdecode;
    for network in Network::ALL {
        let cfg = PChainConfig { network, ..Default::default() };
        for h in 0..300 {
            let b = inner_block(7, h, parent_of(h), time_of(h), &cfg);
            let decoded = pdecode::decode_block(&b.bytes).unwrap();
            let ids: Vec<[u8; 32]> = decoded.txs.into_iter().map(|t| codec::tx_id(&rebuilt(t).bytes())).collect();
            assert_eq!(ids, b.tx_ids, "height {h}");
        }
    }
}

#[test]
fn an_ended_stake_is_rewarded_by_a_proposal_naming_its_staking_tx_then_committed() {
    let cfg = PChainConfig { network: Network::Mainnet, banff_height: 250, first_stake_height: 300, stake_spacing: 8 };
    let life = p_rewards::lifecycle(6, cfg.network);
    let mut rewarded = 0;
    for k in 0..life.stakes.len() {
        let Some(h) = p_rewards::end_height(6, &cfg, k) else { continue };
        assert!(h > p_rewards::start_height(6, &cfg, k));
        assert_eq!(kind_at(6, h, &cfg), PKind::BanffProposal);
        assert_eq!(kind_at(6, h + 1, &cfg), PKind::BanffCommit, "a reward is committed");
        let block = inner_block(6, h, [7; 32], life.stakes[k].end, &cfg);
        let staker = super::pchain::staker_tx_id(6, &cfg, k);
        assert_eq!(block.tx_ids, vec![p_rewards::reward_tx_id(staker)]);
        let starter = inner_block(6, p_rewards::start_height(6, &cfg, k), [7; 32], life.stakes[k].start, &cfg);
        assert_eq!(starter.tx_ids[0], staker, "the named tx is the stake's");
        rewarded += 1;
    }
    assert!(rewarded > 10);
}
