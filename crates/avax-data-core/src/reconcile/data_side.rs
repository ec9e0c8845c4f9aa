//! A Data API block answer (and, for the C-Chain, its transactions) as a [`BlockRecord`].
//!
//! Nothing here fails: a field the answer lacks is not stated (`None`), and a value in an
//! unexpected form is kept as its JSON text, so either shows up as a difference.

use super::chain::Chain;
use super::record::{BlockRecord, Field, TxRecord};
use crate::exact::Exact;

/// The record of block `height` of `chain` from the Data API's `block` answer and (C-Chain) the
/// items of its transaction list, in the order the service listed them.
pub fn data_record(chain: Chain, height: u64, block: &Exact, txs: &[Exact]) -> BlockRecord {
    let height = block.get("blockNumber").and_then(integer).and_then(|n| n.parse().ok()).unwrap_or(height);
    let id = block.get("blockHash").map(|v| text(chain, v)).unwrap_or_default();
    let stated = |name: &'static str, read: &dyn Fn(&Exact) -> Option<String>| -> Field {
        (name, block.get(name).map(|v| read(v).unwrap_or_else(|| shown(v))))
    };
    let hash = &|v: &Exact| Some(text(chain, v));
    match chain {
        Chain::C => BlockRecord {
            height,
            id,
            fields: vec![
                stated("blockHash", hash),
                stated("parentHash", hash),
                stated("txCount", &integer),
                stated("gasUsed", &integer),
                stated("baseFee", &integer),
                stated("blockTimestamp", &integer),
            ],
            txs: txs
                .iter()
                .map(|tx| TxRecord {
                    id: tx.get("txHash").map(|v| text(chain, v)).unwrap_or_default(),
                    fields: vec![("gasPrice", tx.get("gasPrice").map(|v| integer(v).unwrap_or_else(|| shown(v))))],
                })
                .collect(),
        },
        Chain::P | Chain::X => BlockRecord {
            height,
            id,
            fields: vec![stated("blockHash", hash), stated("txCount", &integer), stated("blockTimestamp", &integer)],
            txs: match block.get("transactions") {
                Some(Exact::Array(ids)) => {
                    ids.iter().map(|v| TxRecord { id: text(chain, v), fields: Vec::new() }).collect()
                }
                _ => Vec::new(),
            },
        },
    }
}

/// An integer sent as a JSON integer or a decimal string, in canonical decimal; `None` for any
/// other value (a fraction, a word, a negative number).
pub fn integer(value: &Exact) -> Option<String> {
    let digits = match value {
        Exact::Int(n) if *n >= 0 => return Some(n.to_string()),
        Exact::UInt(n) => return Some(n.to_string()),
        Exact::BigInt(d) => d.as_ref(),
        Exact::Str(s) => s.as_str(),
        _ => return None,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let trimmed = digits.trim_start_matches('0');
    Some(if trimmed.is_empty() { "0".to_string() } else { trimmed.to_string() })
}

/// A hash or id: a string as sent (an EVM hash lowercased, as the index writes it); any other
/// value as its JSON text.
fn text(chain: Chain, value: &Exact) -> String {
    match (value, chain) {
        (Exact::Str(s), Chain::C) => s.to_ascii_lowercase(),
        (Exact::Str(s), _) => s.clone(),
        _ => shown(value),
    }
}

/// A value's JSON text, for a value in an unexpected form.
fn shown(value: &Exact) -> String {
    match value {
        Exact::Null => "null".to_string(),
        Exact::Bool(b) => b.to_string(),
        Exact::Int(n) => n.to_string(),
        Exact::UInt(n) => n.to_string(),
        Exact::BigInt(d) => d.to_string(),
        Exact::Float(f) => format!("{f:?}"),
        Exact::Str(s) => format!("{s:?}"),
        Exact::Array(_) => "[...]".to_string(),
        Exact::Object(_) => "{...}".to_string(),
    }
}
