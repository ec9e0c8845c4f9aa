//! A block as one side (the index or the Data API) sees it: the facts both sides can state, as
//! text in one canonical form, so comparing two sides is comparing strings.
//!
//! Canonical forms: integers in decimal without leading zeros, EVM hashes as lowercase
//! `0x`-hex, Avalanche ids in CB58, times in Unix seconds. A value the Data API sends in a form
//! none of these reads (a float, a word) is kept as its JSON text, so it shows as a difference
//! instead of being dropped.

/// A field's name and its value on one side (`None`: that side does not state it).
pub type Field = (&'static str, Option<String>);

/// One block of one side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRecord {
    /// The block's height.
    pub height: u64,
    /// The block's hash (C: `0x`-hex) or id (P, X: CB58), the row id of its differences.
    pub id: String,
    /// The compared fields, in the order differences are reported.
    pub fields: Vec<Field>,
    /// The block's transactions, in block order.
    pub txs: Vec<TxRecord>,
}

/// One transaction of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxRecord {
    /// The transaction's hash (C) or id (P, X).
    pub id: String,
    /// The compared fields (C: the effective `gasPrice`; none for P and X).
    pub fields: Vec<Field>,
}

impl BlockRecord {
    /// The value of field `name` (`None` when absent or not stated).
    pub fn field(&self, name: &str) -> Option<&str> {
        field_of(&self.fields, name)
    }
}

/// The value of field `name` among `fields`.
pub fn field_of<'a>(fields: &'a [Field], name: &str) -> Option<&'a str> {
    fields.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.as_deref())
}

/// `0x` and the lowercase hex of `bytes`.
pub fn hex0x(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}
