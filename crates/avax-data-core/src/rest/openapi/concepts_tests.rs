//! One concept, one column type: every field name the users get from the 85 operations (frames
//! of lists, dicts of objects, nested fields included) has one type across all of them.

use std::collections::BTreeMap;

use super::operations;
use crate::arrow::json::Kind;
use crate::arrow::labels::label;
use crate::arrow::{Col, Resource};

/// Names that are two concepts in the documents, with why they keep two types.
const TWO_CONCEPTS: &[(&str, &str)] = &[
    ("value", "a uint256 amount (text), a price `Money.value` and a metric's value (Float64)"),
    ("txType", "a P-/X-Chain transaction's type name (String) and an EVM transaction's EIP-2718 type (UInt64)"),
    ("lastHour", "ICM message counts (Int64) and a chain metric's rolling aggregate (Float64: averages)"),
    ("lastDay", "as lastHour"),
    ("lastWeek", "as lastHour"),
    ("lastMonth", "as lastHour"),
    ("last90Days", "as lastHour"),
    ("lastYear", "as lastHour"),
    ("allTime", "as lastHour"),
];

fn leaves(cols: &[Col], at: &str, out: &mut BTreeMap<&'static str, BTreeMap<String, String>>) {
    for c in cols {
        let mut kind = c.1;
        while let Kind::List(inner) = kind {
            kind = *inner;
        }
        match kind {
            Kind::Struct(inner) | Kind::StructList(inner) => leaves(inner, &format!("{at}.{}", c.0), out),
            // JSON text holds what the schema could not type: no concept to compare.
            Kind::Json => {}
            Kind::StrList => {
                out.entry(c.0).or_default().entry(label(Kind::Str)).or_insert_with(|| format!("{at}.{}", c.0));
            }
            scalar => {
                out.entry(c.0).or_default().entry(label(scalar)).or_insert_with(|| format!("{at}.{}", c.0));
            }
        }
    }
}

/// Every field name of every operation's columns, with its types (and where each was met).
fn types_of_every_operation() -> BTreeMap<&'static str, BTreeMap<String, String>> {
    let mut types = BTreeMap::new();
    for op in operations() {
        if let Some(cols) = Resource::operation_columns(op) {
            leaves(cols, op.id, &mut types);
        }
    }
    types
}

#[test]
fn one_concept_has_one_type_across_every_operation() {
    let types = types_of_every_operation();
    let two: Vec<String> = types
        .iter()
        .filter(|(name, found)| found.len() > 1 && !TWO_CONCEPTS.iter().any(|(n, _)| n == *name))
        .map(|(name, found)| format!("{name}: {found:?}"))
        .collect();
    assert!(two.is_empty(), "fields with two types:\n{}", two.join("\n"));
    // The exceptions are real: each still has two types (or the list is stale).
    for (name, why) in TWO_CONCEPTS {
        assert!(types.get(name).is_some_and(|t| t.len() > 1), "{name} no longer has two types ({why})");
    }
}

#[test]
fn integers_uint256_and_series_follow_the_rule() {
    let types = types_of_every_operation();
    let only = |name: &str| -> Vec<String> { types[name].keys().cloned().collect() };
    for name in [
        "blockNumber",
        "blockHeight",
        "logIndex",
        "decimals",
        "txCount",
        "blockIndex",
        "outputIndex",
        "cumulativeTransactions",
    ] {
        assert_eq!(only(name), ["UInt64"], "{name}");
    }
    for name in ["tokenId", "balance"] {
        assert_eq!(only(name), ["String (uint256)"], "{name}");
    }
    assert_eq!(only("balanceFloat"), ["Float64 (uint256)"]);
    assert_eq!(only("createBlockNumber"), ["Int64"]);
    assert_eq!(only("txType"), ["String", "UInt64"], "type names of P/X transactions, EIP-2718 types of EVM ones");
    // Every series frame (a Metrics API list with a timestamp) starts with it.
    for op in operations().iter().filter(|op| op.service == super::Service::Metrics && op.is_list()) {
        let cols = Resource::operation_columns(op).unwrap();
        if cols.iter().any(|c| c.0 == "timestamp") {
            assert_eq!(cols[0].0, "timestamp", "{}", op.id);
        }
    }
}
