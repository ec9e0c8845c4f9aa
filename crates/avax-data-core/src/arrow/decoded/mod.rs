//! Decoded containers -> Arrow columns.
//!
//! Each decoder returns plain Rust values (`crate::decode`); a [`RowColumns`] appends those
//! values to Arrow builders. Decoding is fallible and appending is not, so a row that fails to
//! decode never leaves half-written columns: it is appended as all-null and the frame's
//! `decode_error` column says why.

use arrow_array::ArrayRef;
use arrow_schema::FieldRef;

/// The typed columns of one decoded value (an envelope, a C-chain block, a P-chain block, ...).
pub trait RowColumns {
    /// What one row is built from.
    type Row;

    /// The fields these columns add to a frame, in order. Every field is nullable.
    fn fields() -> Vec<FieldRef>;

    /// Builders sized for `capacity` rows.
    fn with_capacity(capacity: usize) -> Self;

    /// Appends one row, or nulls in every column when `row` is `None`.
    fn append(&mut self, row: Option<&Self::Row>);

    /// The finished columns, in the order of [`RowColumns::fields`]. The builders are left empty.
    fn finish(&mut self) -> Vec<ArrayRef>;
}

pub mod avax;
pub mod cchain;
pub mod cols;
pub mod envelope;
pub mod frame;
pub mod from_columns;
pub mod hex_column;
pub mod pchain;
pub mod select;
#[cfg(test)]
mod select_tests;
pub mod senders;
#[cfg(test)]
mod senders_tests;
pub mod xchain;

pub use frame::{
    bytes_schema, check_decodable, check_mode, decode_bytes, decode_bytes_until, decode_containers,
    decode_containers_with, decoded_schema, decoded_schema_for, DecodeMode,
};
pub use from_columns::{decode_columns, decode_columns_until, decode_columns_with};
pub use select::Selection;
