//! Two records of one height into differences: every fact on which the index and the Data API
//! disagree, each once.

use std::collections::HashMap;

use super::chain::Chain;
use super::record::{field_of, BlockRecord, Field, TxRecord};

/// How the two sides disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// In the index, not in the Data API.
    Missing,
    /// In the Data API, not in the index.
    Extra,
    /// On both sides, with a field that differs.
    Different,
}

impl Kind {
    /// `"missing"`, `"extra"` or `"different"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Missing => "missing",
            Kind::Extra => "extra",
            Kind::Different => "different",
        }
    }
}

/// The field name of a block or transaction missing on one side.
pub const BLOCK: &str = "block";
/// See [`BLOCK`].
pub const TRANSACTION: &str = "transaction";

/// One fact on which the sides disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// How they disagree.
    pub kind: Kind,
    /// `"C"`, `"P"` or `"X"`.
    pub chain: &'static str,
    /// The block's height.
    pub height: u64,
    /// The block's hash or id (index side first), or the transaction's for a transaction.
    pub id: String,
    /// The field that differs, or `"block"` / `"transaction"` for one missing on one side.
    pub field: &'static str,
    /// The index's value (`None`: the index does not hold it).
    pub index_value: Option<String>,
    /// The Data API's value (`None`: the Data API does not hold it).
    pub data_value: Option<String>,
}

/// The differences at `height` between the index's block and the Data API's (either may be
/// absent): a block on one side only is one row; on both, one row per differing field (a field
/// the index does not state is not compared), then the transactions: those only in the index
/// (block order), those only in the Data API (its order; a transaction it lists twice is extra
/// the second time), and the differing fields of the others.
pub fn compare(chain: Chain, height: u64, index: Option<&BlockRecord>, data: Option<&BlockRecord>) -> Vec<Difference> {
    let row = |kind, id: &str, field, index_value, data_value| Difference {
        kind,
        chain: chain.label(),
        height,
        id: id.to_string(),
        field,
        index_value,
        data_value,
    };
    let (index, data) = match (index, data) {
        (None, None) => return Vec::new(),
        (Some(i), None) => return vec![row(Kind::Missing, &i.id, BLOCK, Some(i.id.clone()), None)],
        (None, Some(d)) => return vec![row(Kind::Extra, &d.id, BLOCK, None, Some(d.id.clone()))],
        (Some(i), Some(d)) => (i, d),
    };
    let mut out: Vec<Difference> =
        fields(&index.fields, &data.fields).map(|(field, i, d)| row(Kind::Different, &index.id, field, i, d)).collect();
    let mut listed: HashMap<&str, Vec<&TxRecord>> = HashMap::new();
    for tx in &data.txs {
        listed.entry(tx.id.as_str()).or_default().push(tx);
    }
    // How many listings of each id the index's transactions took, first listings first.
    let mut taken: HashMap<&str, usize> = HashMap::new();
    let mut pairs = Vec::new();
    for tx in &index.txs {
        let took = taken.entry(tx.id.as_str()).or_default();
        match listed.get(tx.id.as_str()).and_then(|txs| txs.get(*took)) {
            Some(other) => {
                *took += 1;
                pairs.push((tx, *other));
            }
            None => out.push(row(Kind::Missing, &tx.id, TRANSACTION, Some(tx.id.clone()), None)),
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for tx in &data.txs {
        let n = seen.entry(tx.id.as_str()).or_default();
        if *n >= taken.get(tx.id.as_str()).copied().unwrap_or(0) {
            out.push(row(Kind::Extra, &tx.id, TRANSACTION, None, Some(tx.id.clone())));
        }
        *n += 1;
    }
    for (i, d) in pairs {
        out.extend(fields(&i.fields, &d.fields).map(|(field, iv, dv)| row(Kind::Different, &i.id, field, iv, dv)));
    }
    out
}

/// The fields the index states whose Data API value differs: `(name, index, data)`.
fn fields<'a>(
    index: &'a [Field],
    data: &'a [Field],
) -> impl Iterator<Item = (&'static str, Option<String>, Option<String>)> + 'a {
    index.iter().filter_map(move |(name, value)| {
        let value = value.as_deref()?;
        let other = field_of(data, name);
        (other != Some(value)).then(|| (*name, Some(value.to_string()), other.map(str::to_string)))
    })
}
