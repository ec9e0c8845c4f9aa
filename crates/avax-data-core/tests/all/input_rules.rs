//! One input rule set on every method (issue 34, section 4): each id rule of the core
//! ([`IdKind`]) runs through every operation that takes a parameter of its kind, generated or
//! hand-written, and a refused value gives the same `InvalidArgument` message everywhere: the
//! one the rule itself writes, naming the parameter, the value and what is allowed. A refusal is
//! an `Err` of the check that builds the request, so nothing is sent.

use std::collections::BTreeMap;

use avax_data_core::data::{DataClient, DataClientOptions};
use avax_data_core::inputs::IdKind;
use avax_data_core::metrics::client::icm_summary_query;
use avax_data_core::rest::openapi::{check, operations, Operation, Param, ParamType};
use avax_data_core::Error;
use serde_json::{json, Value};

/// Values every rule refuses: not base58 (`l`), a CB58 id with a wrong checksum, short hex, a
/// bech32 address with a wrong checksum, a path trick.
const BAD: &[&str] =
    &["hello", "11111111111111111111111111111111LpoYZ", "0xabc", "avax1x459sj0ssujguq723cljfty4jlae28evjzt7xz", "../x"];

const P_CHAIN_ID: &str = "11111111111111111111111111111111LpoYY";

/// A value the rule takes.
fn good(kind: IdKind) -> &'static str {
    match kind {
        IdKind::PxAddress { .. } => "avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c",
        IdKind::EvmAddress => "0x000000000000000000000000000000000000dEaD",
        IdKind::Cb58 { .. } | IdKind::BlockId { primary: true } => P_CHAIN_ID,
        IdKind::NodeId => "NodeID-111111111111111111116DBWJs",
        IdKind::EvmHash { .. } => "0x8bf584d7b14b92a32a339872a66b134a70ba3ba7c305823f348db6f860253f45",
        IdKind::BlockId { primary: false } | IdKind::IcmChain => "43114",
    }
}

/// A valid value of a required parameter (mainnet, the document's first enum value, ...).
fn valid(p: &Param) -> Value {
    if let Some(kind) = p.kind {
        return json!(good(kind));
    }
    if p.name == "network" {
        return json!("mainnet");
    }
    if let Some(first) = p.schema.enum_values.first() {
        return json!(first);
    }
    match p.schema.ty {
        _ if p.is_chain_id() => json!("43114"),
        ParamType::Integer | ParamType::Number => json!(1),
        ParamType::Boolean => json!(true),
        ParamType::String | ParamType::Any => json!("abc"),
    }
}

/// The message of `op` refusing `value` for its parameter `p` (every other required parameter
/// valid).
fn refusal(op: &'static Operation, p: &Param, value: &str) -> String {
    let mut args: Vec<(&str, Value)> =
        op.params.iter().filter(|q| q.required && q.name != p.name).map(|q| (q.py_name.as_str(), valid(q))).collect();
    args.push((p.py_name.as_str(), json!(value)));
    match check(op, &args) {
        Err(e @ Error::InvalidArgument { .. }) => e.to_string(),
        other => panic!("{}.{} = {value:?}: expected a refusal, got {other:?}", op.id, p.py_name),
    }
}

#[test]
fn every_id_rule_refuses_with_one_message_in_every_operation_that_takes_it() {
    let mut by_rule: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for op in operations() {
        for p in op.params.iter().filter(|p| p.kind.is_some()) {
            let kind = p.kind.unwrap();
            by_rule.entry(kind.name()).or_default().push(format!("{}.{}", op.id, p.py_name));
            // The good value passes in this operation.
            let mut args: Vec<(&str, Value)> =
                op.params.iter().filter(|q| q.required).map(|q| (q.py_name.as_str(), valid(q))).collect();
            args.push((p.py_name.as_str(), json!(good(kind))));
            check(op, &args).unwrap_or_else(|e| panic!("{}.{}: {e}", op.id, p.py_name));
            // Every bad value is refused with the rule's own message.
            let network = op.param("network").map(|_| "mainnet");
            for bad in BAD {
                let expected = kind.check(&p.py_name, bad, network).unwrap_err().to_string();
                assert_eq!(refusal(op, p, bad), expected, "{}.{}", op.id, p.py_name);
                assert!(expected.starts_with(&format!("invalid {}={bad:?}: ", p.py_name)), "{expected}");
            }
        }
    }
    let counts: BTreeMap<&str, usize> = by_rule.iter().map(|(k, v)| (*k, v.len())).collect();
    assert_eq!(
        counts,
        BTreeMap::from([
            ("block_id", 3),
            ("cb58", 16),
            ("evm_address", 26),
            ("evm_hash", 1),
            ("icm_chain", 7),
            ("node_id", 7),
            ("px_address", 8),
            ("px_or_evm_address", 1),
        ]),
        "{by_rule:#?}"
    );
}

#[test]
fn the_p_chain_id_and_the_aliases_pass_where_the_document_allows_them() {
    let op = avax_data_core::rest::openapi::operation("getBlockchainById").unwrap();
    let r = check(op, &[("network", json!("mainnet")), ("blockchain_id", json!(P_CHAIN_ID))]).unwrap();
    assert_eq!(r.path, format!("/v1/networks/mainnet/blockchains/{P_CHAIN_ID}"));
    // Not an alias there: the document's blockchain ids are CB58.
    let e = check(op, &[("network", json!("mainnet")), ("blockchain_id", json!("p-chain"))]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid blockchain_id=\"p-chain\": a CB58 blockchain id (32 bytes and a valid checksum)"
    );
    // Where the document lists the aliases, they pass, and a near miss is named.
    let utxos = avax_data_core::rest::openapi::operation("getUtxosByAddresses").unwrap();
    let args = |chain: &str| {
        vec![
            ("network", json!("mainnet")),
            ("blockchain_id", json!(chain)),
            ("addresses", json!(["P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c"])),
        ]
    };
    for alias in ["p-chain", "x-chain", P_CHAIN_ID] {
        assert!(check(utxos, &args(alias)).is_ok(), "{alias}");
    }
    let e = check(utxos, &args("P-Chain")).unwrap_err().to_string();
    assert!(
        e.starts_with("invalid blockchain_id=\"P-Chain\": one of ") && e.ends_with("(did you mean 'p-chain'?)"),
        "{e}"
    );
    // The address of another network is refused with the network named.
    let mut fuji = args("p-chain");
    fuji[0] = ("network", json!("fuji"));
    let e = check(utxos, &fuji).unwrap_err().to_string();
    assert!(e.contains("fuji addresses like 'fuji1...'") && e.ends_with("the prefix \"avax\" is not fuji's"), "{e}");
}

#[test]
fn the_hand_written_methods_refuse_with_the_messages_of_the_generated_ones() {
    let data = DataClient::new(Some("http://127.0.0.1:1"), DataClientOptions::default()).unwrap();
    let px = IdKind::PxAddress { evm_too: false };
    for bad in BAD {
        // pending_rewards (hand-written) and utxos (generated) on one address.
        let hand = data.pending_rewards("mainnet", &[(*bad).into()], &[], None, None).unwrap_err().to_string();
        assert_eq!(hand, px.check("addresses", bad, Some("mainnet")).unwrap_err().to_string());
        let op = avax_data_core::rest::openapi::operation("getUtxosByAddresses").unwrap();
        let utxos = check(
            op,
            &[("network", json!("mainnet")), ("blockchain_id", json!("p-chain")), ("addresses", json!([bad]))],
        );
        assert_eq!(utxos.unwrap_err().to_string(), hand);
        let nodes = data.pending_rewards("mainnet", &[], &[(*bad).into()], None, None).unwrap_err().to_string();
        assert_eq!(nodes, IdKind::NodeId.check("node_ids", bad, None).unwrap_err().to_string());
        let evm = IdKind::EvmAddress.check("address", bad, None).unwrap_err().to_string();
        assert_eq!(data.collectibles("43114", bad, None, None).err().unwrap().to_string(), evm);
        let icm = |param: &str| IdKind::IcmChain.check(param, bad, None).unwrap_err().to_string();
        let e = data.icm_messages(Some(bad), None, None, None, None, None, None).err().unwrap().to_string();
        assert_eq!(e, icm("source_blockchain_id"));
        let e = data.icm_messages(None, None, None, None, Some(bad), None, None).err().unwrap().to_string();
        assert_eq!(e, IdKind::EvmAddress.check("from_", bad, None).unwrap_err().to_string());
        assert_eq!(icm_summary_query(Some(bad), None, None, None).unwrap_err().to_string(), icm("src_blockchain_id"));
        let block = data.block("43114", bad).err().unwrap().to_string();
        assert_eq!(block, IdKind::BlockId { primary: false }.check("block_id", bad, None).unwrap_err().to_string());
    }
}
