//! Column building blocks the P-Chain and X-Chain frames share: one [`Kind`] per Arrow type
//! (with this repo's conventions: CB58 ids as `Utf8View`, times as `Timestamp(ns, "UTC")`,
//! amounts as `Decimal128(38, 0)`), the `columns!` macro that turns a list of named kinds into
//! a "facts" struct plus its builders, the columns every tx and every block has
//! ([`TxCommonColumns`], [`BlockCommonColumns`]), and [`RowList`], a `List<Struct<...>>` column
//! of any [`RowColumns`].

use std::marker::PhantomData;
use std::sync::Arc;

use arrow_array::builder::{
    Decimal128Builder, ListBuilder, StringViewBuilder, TimestampNanosecondBuilder, UInt32Builder, UInt64Builder,
    UInt8Builder,
};
use arrow_array::{ArrayRef, ListArray, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, FieldRef, Fields, TimeUnit};

use super::RowColumns;
use crate::decode::avax::{AssetAmount, BaseTx, Credential, Id, ShortId};
use crate::decode::pchain::{PBlock, PTx};
use crate::decode::tx::{Tx, UnsignedTx};
use crate::decode::xchain::{XBlock, XTx};
use crate::index::cb58;

/// One Arrow column type: the Rust value a row gives it and the builder that collects it.
pub trait Kind {
    /// The value of one cell.
    type Value;
    /// The builder.
    type Builder;
    /// The Arrow type.
    fn data_type() -> DataType;
    /// A builder for `capacity` rows.
    fn builder(capacity: usize) -> Self::Builder;
    /// Appends one cell (`None` = null).
    fn append(builder: &mut Self::Builder, value: Option<Self::Value>);
    /// The finished array; the builder is left empty.
    fn finish(builder: &mut Self::Builder) -> ArrayRef;
}

/// `Utf8View` text.
pub struct Text;
/// `UInt8`.
pub struct U8;
/// `UInt32`.
pub struct U32;
/// `UInt64`.
pub struct U64;
/// Unix seconds as `Timestamp(Nanosecond, "UTC")`; seconds past the range are null.
pub struct Ts;
/// An unsigned amount as `Decimal128(38, 0)`.
pub struct Dec;
/// `List<Utf8View>`.
pub struct TextList;
/// Per-asset totals as `List<Struct{asset_id: Utf8View, amount: Decimal128(38, 0)}>`.
pub struct Amounts;

/// Implements [`Kind`] for a column of one Arrow builder: `$new(capacity)` makes the builder,
/// `$cell` turns a value into what the builder stores (`None`, a null, for a value past the
/// Arrow type's range).
macro_rules! builder_kind {
    ($kind:ident, $value:ty, $builder:ty, $dt:expr, $new:expr, $cell:expr) => {
        impl Kind for $kind {
            type Value = $value;
            type Builder = $builder;
            fn data_type() -> DataType {
                $dt
            }
            fn builder(capacity: usize) -> Self::Builder {
                $new(capacity)
            }
            fn append(builder: &mut Self::Builder, value: Option<$value>) {
                builder.append_option(value.and_then($cell));
            }
            fn finish(builder: &mut Self::Builder) -> ArrayRef {
                Arc::new(builder.finish())
            }
        }
    };
}

builder_kind!(Text, String, StringViewBuilder, DataType::Utf8View, StringViewBuilder::with_capacity, Some);
builder_kind!(U8, u8, UInt8Builder, DataType::UInt8, UInt8Builder::with_capacity, Some);
builder_kind!(U32, u32, UInt32Builder, DataType::UInt32, UInt32Builder::with_capacity, Some);
builder_kind!(U64, u64, UInt64Builder, DataType::UInt64, UInt64Builder::with_capacity, Some);
builder_kind!(Ts, u64, TimestampNanosecondBuilder, timestamp_type(), timestamp_builder, seconds_to_ns);
builder_kind!(Dec, u128, Decimal128Builder, decimal_type(), decimal_builder, amount_to_decimal);

/// The Arrow type of timestamps.
pub fn timestamp_type() -> DataType {
    DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
}

/// Unix seconds as nanoseconds, or `None` past the `i64` range.
pub fn seconds_to_ns(seconds: u64) -> Option<i64> {
    i64::try_from(seconds).ok()?.checked_mul(1_000_000_000)
}

fn timestamp_builder(capacity: usize) -> TimestampNanosecondBuilder {
    TimestampNanosecondBuilder::with_capacity(capacity).with_timezone("UTC")
}

/// The Arrow type of amounts.
pub fn decimal_type() -> DataType {
    DataType::Decimal128(38, 0)
}

/// Largest value `Decimal128(38, 0)` holds.
const DECIMAL_MAX: u128 = 10u128.pow(38) - 1;

/// An amount as a decimal, or `None` if it has more than 38 digits.
pub fn amount_to_decimal(amount: u128) -> Option<i128> {
    if amount <= DECIMAL_MAX {
        i128::try_from(amount).ok()
    } else {
        None
    }
}

fn decimal_builder(capacity: usize) -> Decimal128Builder {
    Decimal128Builder::with_capacity(capacity).with_data_type(decimal_type())
}

impl Kind for TextList {
    type Value = Vec<String>;
    type Builder = ListBuilder<StringViewBuilder>;
    fn data_type() -> DataType {
        DataType::List(Arc::new(Field::new("item", DataType::Utf8View, true)))
    }
    fn builder(capacity: usize) -> Self::Builder {
        ListBuilder::with_capacity(StringViewBuilder::new(), capacity)
    }
    fn append(builder: &mut Self::Builder, value: Option<Vec<String>>) {
        match value {
            Some(items) => {
                for item in items {
                    builder.values().append_value(item);
                }
                builder.append(true);
            }
            None => builder.append(false),
        }
    }
    fn finish(builder: &mut Self::Builder) -> ArrayRef {
        Arc::new(builder.finish())
    }
}

/// Builds a `List<Struct{asset_id, amount}>` column.
pub struct AmountsBuilder {
    asset_ids: StringViewBuilder,
    amounts: Decimal128Builder,
    lengths: Vec<usize>,
    valid: Vec<bool>,
}

fn amount_fields() -> Fields {
    Fields::from(vec![Field::new("asset_id", DataType::Utf8View, true), Field::new("amount", decimal_type(), true)])
}

fn list_of(item: DataType) -> FieldRef {
    Arc::new(Field::new("item", item, true))
}

impl Kind for Amounts {
    type Value = Vec<AssetAmount>;
    type Builder = AmountsBuilder;
    fn data_type() -> DataType {
        DataType::List(list_of(DataType::Struct(amount_fields())))
    }
    fn builder(capacity: usize) -> Self::Builder {
        AmountsBuilder {
            asset_ids: StringViewBuilder::with_capacity(capacity),
            amounts: decimal_builder(capacity),
            lengths: Vec::with_capacity(capacity),
            valid: Vec::with_capacity(capacity),
        }
    }
    fn append(b: &mut Self::Builder, value: Option<Vec<AssetAmount>>) {
        let items = value.as_deref().unwrap_or_default();
        for item in items {
            b.asset_ids.append_value(cb58::encode(&item.asset_id));
            b.amounts.append_option(amount_to_decimal(item.amount));
        }
        b.lengths.push(items.len());
        b.valid.push(value.is_some());
    }
    fn finish(b: &mut Self::Builder) -> ArrayRef {
        let children: Vec<ArrayRef> = vec![Arc::new(b.asset_ids.finish()), Arc::new(b.amounts.finish())];
        let values = StructArray::try_new(amount_fields(), children, None).expect("equal-length amount children");
        let lengths = std::mem::take(&mut b.lengths);
        let valid = std::mem::take(&mut b.valid);
        let list = ListArray::try_new(
            list_of(DataType::Struct(amount_fields())),
            OffsetBuffer::from_lengths(lengths),
            Arc::new(values),
            Some(NullBuffer::from(valid)),
        )
        .expect("offsets match the amount values");
        Arc::new(list)
    }
}

/// Declares a "facts" struct (one `Option` per column, filled from a decoded value) and the
/// builders of its columns. Column names are the field names; `fields`, `with_capacity`,
/// `append` and `finish` follow [`RowColumns`]. With `row R => of;` the builders also are the
/// [`RowColumns`] of `R`, whose facts `of(&R)` gives.
macro_rules! columns {
    (
        $(#[$facts_meta:meta])* facts $facts:ident;
        $(#[$cols_meta:meta])* columns $cols:ident;
        row $row:ty => $of:path;
        { $( $(#[$meta:meta])* $name:ident : $kind:ty ),* $(,)? }
    ) => {
        $crate::arrow::decoded::avax::columns! {
            $(#[$facts_meta])* facts $facts;
            $(#[$cols_meta])* columns $cols;
            { $( $(#[$meta])* $name : $kind ),* }
        }

        impl $crate::arrow::decoded::RowColumns for $cols {
            type Row = $row;
            fn fields() -> Vec<arrow_schema::FieldRef> {
                $cols::fields()
            }
            fn with_capacity(capacity: usize) -> Self {
                $cols::with_capacity(capacity)
            }
            fn append(&mut self, row: Option<&$row>) {
                $cols::append(self, row.map($of))
            }
            fn finish(&mut self) -> Vec<arrow_array::ArrayRef> {
                $cols::finish(self)
            }
        }
    };
    (
        $(#[$facts_meta:meta])* facts $facts:ident;
        $(#[$cols_meta:meta])* columns $cols:ident;
        { $( $(#[$meta:meta])* $name:ident : $kind:ty ),* $(,)? }
    ) => {
        $(#[$facts_meta])*
        #[derive(Debug, Default, Clone, PartialEq, Eq)]
        pub struct $facts {
            $( $(#[$meta])* pub $name: Option<<$kind as $crate::arrow::decoded::avax::Kind>::Value>, )*
        }

        $(#[$cols_meta])*
        pub struct $cols {
            $( $name: <$kind as $crate::arrow::decoded::avax::Kind>::Builder, )*
        }

        impl $cols {
            /// The fields, in column order; every one nullable.
            pub fn fields() -> Vec<arrow_schema::FieldRef> {
                vec![$( std::sync::Arc::new(arrow_schema::Field::new(
                    stringify!($name),
                    <$kind as $crate::arrow::decoded::avax::Kind>::data_type(),
                    true,
                )), )*]
            }

            /// Builders for `capacity` rows.
            pub fn with_capacity(capacity: usize) -> Self {
                $cols { $( $name: <$kind as $crate::arrow::decoded::avax::Kind>::builder(capacity), )* }
            }

            /// Appends one row of facts, or nulls everywhere.
            pub fn append(&mut self, facts: Option<$facts>) {
                let facts = facts.unwrap_or_default();
                $( <$kind as $crate::arrow::decoded::avax::Kind>::append(&mut self.$name, facts.$name); )*
            }

            /// The finished columns; the builders are left empty.
            pub fn finish(&mut self) -> Vec<arrow_array::ArrayRef> {
                vec![$( <$kind as $crate::arrow::decoded::avax::Kind>::finish(&mut self.$name), )*]
            }
        }
    };
}
pub(crate) use columns;

/// CB58 text of an ID.
pub fn id_text(id: &[u8]) -> String {
    cb58::encode(id)
}

/// `NodeID-<cb58>` of a 20-byte node ID; other lengths as `0x` hex.
pub fn node_id_text(node_id: &[u8]) -> String {
    if node_id.len() == 20 {
        format!("NodeID-{}", cb58::encode(node_id))
    } else {
        hex_text(node_id)
    }
}

/// `0x` + hex.
pub fn hex_text(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

/// Addresses as `0x` + hex of their 20 bytes.
pub fn address_texts(addresses: &[ShortId]) -> Vec<String> {
    addresses.iter().map(|a| hex_text(a)).collect()
}

/// A length as `u32` (saturating; container lengths always fit).
pub fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

columns! {
    /// The facts every P-Chain and X-Chain tx has.
    facts TxCommonFacts;
    /// The columns every tx frame starts with.
    columns TxCommonColumns;
    {
        /// CB58 tx ID.
        tx_id: Text,
        /// Tx type name.
        tx_type: Text,
        /// Network ID (null for txs without a BaseTx).
        network_id: U32,
        /// CB58 blockchain ID (null for txs without a BaseTx).
        blockchain_id: Text,
        /// Memo length in bytes (null for txs without a BaseTx).
        memo_len: U32,
        /// Number of credentials (null for unsigned txs).
        credential_count: U32,
        /// Per-asset amounts spent.
        consumed: Amounts,
        /// Per-asset amounts created.
        produced: Amounts,
    }
}

/// The `BaseTx` of a decoded tx: P-Chain txs hold an `Option` (some types have none), X-Chain
/// txs always have one.
pub trait MaybeBase {
    /// The `BaseTx`, if the tx has one.
    fn base_tx(&self) -> Option<&BaseTx>;
}

impl MaybeBase for BaseTx {
    fn base_tx(&self) -> Option<&BaseTx> {
        Some(self)
    }
}

impl MaybeBase for Option<BaseTx> {
    fn base_tx(&self) -> Option<&BaseTx> {
        self.as_ref()
    }
}

impl TxCommonFacts {
    /// The common facts of a decoded P- or X-Chain tx.
    pub fn of<U: UnsignedTx>(tx: &Tx<U>) -> Self
    where
        U::Base: MaybeBase,
    {
        let base = tx.base.base_tx();
        Self::new(&tx.tx_id, tx.type_name, base, tx.credentials.as_ref(), &tx.consumed, &tx.produced)
    }

    /// The common facts of a tx.
    pub fn new(
        tx_id: &[u8; 32],
        type_name: &str,
        base: Option<&BaseTx>,
        credentials: Option<&Vec<Credential>>,
        consumed: &[AssetAmount],
        produced: &[AssetAmount],
    ) -> Self {
        TxCommonFacts {
            tx_id: Some(id_text(tx_id)),
            tx_type: Some(type_name.to_owned()),
            network_id: base.map(|b| b.network_id),
            blockchain_id: base.map(|b| id_text(&b.blockchain_id)),
            memo_len: base.map(|b| len_u32(b.memo.len())),
            credential_count: credentials.map(|c| len_u32(c.len())),
            consumed: Some(consumed.to_vec()),
            produced: Some(produced.to_vec()),
        }
    }
}

columns! {
    /// The facts every P-Chain and X-Chain block has.
    facts BlockCommonFacts;
    /// The columns every block frame starts with.
    columns BlockCommonColumns;
    {
        /// CB58 block ID (sha256 of the inner block bytes).
        block_id: Text,
        /// Block type name.
        block_type: Text,
        /// CB58 parent ID.
        parent_id: Text,
        /// Height.
        height: U64,
        /// Block time (null for P-Chain Apricot blocks).
        block_time: Ts,
        /// Number of txs.
        tx_count: U32,
        /// CB58 tx IDs in block order.
        tx_ids: TextList,
        /// Tx type names in block order.
        tx_types: TextList,
    }
}

impl BlockCommonFacts {
    /// The common facts of a P- or X-Chain block: its IDs, type, height, time (`None` for a
    /// P-Chain Apricot block) and its txs' IDs and types in block order.
    pub fn of<U: UnsignedTx>(
        block_id: &Id,
        type_name: &str,
        parent_id: &Id,
        height: u64,
        time: Option<u64>,
        txs: &[Tx<U>],
    ) -> Self {
        BlockCommonFacts {
            block_id: Some(id_text(block_id)),
            block_type: Some(type_name.to_owned()),
            parent_id: Some(id_text(parent_id)),
            height: Some(height),
            block_time: time,
            tx_count: Some(len_u32(txs.len())),
            tx_ids: Some(txs.iter().map(|tx| id_text(&tx.tx_id)).collect()),
            tx_types: Some(txs.iter().map(|tx| tx.type_name.to_owned()).collect()),
        }
    }
}

/// One row per P- or X-Chain tx: the common tx columns, then the chain's type-specific ones
/// (`S`, built from the same txs).
pub struct TxColumns<S> {
    common: TxCommonColumns,
    specific: S,
}

impl<U, S> RowColumns for TxColumns<S>
where
    U: UnsignedTx,
    U::Base: MaybeBase,
    S: RowColumns<Row = Tx<U>>,
{
    type Row = Tx<U>;

    fn fields() -> Vec<FieldRef> {
        let mut fields = TxCommonColumns::fields();
        fields.extend(S::fields());
        fields
    }

    fn with_capacity(capacity: usize) -> Self {
        TxColumns { common: TxCommonColumns::with_capacity(capacity), specific: S::with_capacity(capacity) }
    }

    fn append(&mut self, row: Option<&Tx<U>>) {
        self.common.append(row.map(TxCommonFacts::of));
        self.specific.append(row);
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        let mut out = self.common.finish();
        out.extend(self.specific.finish());
        out
    }
}

/// A decoded P- or X-Chain block, as [`BlockColumns`] reads it.
pub trait PxBlock {
    /// Its txs.
    type Tx;
    /// The common block facts and the txs.
    fn parts(&self) -> (BlockCommonFacts, &[Self::Tx]);
}

impl PxBlock for PBlock {
    type Tx = PTx;
    fn parts(&self) -> (BlockCommonFacts, &[PTx]) {
        let facts =
            BlockCommonFacts::of(&self.block_id, self.type_name, &self.parent_id, self.height, self.time, &self.txs);
        (facts, &self.txs)
    }
}

impl PxBlock for XBlock {
    type Tx = XTx;
    fn parts(&self) -> (BlockCommonFacts, &[XTx]) {
        let time = Some(self.time);
        let facts = BlockCommonFacts::of(&self.block_id, self.type_name, &self.parent_id, self.height, time, &self.txs);
        (facts, &self.txs)
    }
}

/// A `List<Struct<C's columns>>` column: one list of rows per appended value.
pub struct RowList<C: RowColumns> {
    inner: C,
    lengths: Vec<usize>,
    valid: Vec<bool>,
}

impl<C: RowColumns> RowList<C> {
    /// The list's Arrow type.
    pub fn data_type() -> DataType {
        DataType::List(list_of(DataType::Struct(Fields::from(C::fields()))))
    }

    /// A builder for `capacity` lists.
    pub fn with_capacity(capacity: usize) -> Self {
        RowList {
            inner: C::with_capacity(capacity),
            lengths: Vec::with_capacity(capacity),
            valid: Vec::with_capacity(capacity),
        }
    }

    /// Appends one list (`None` = null).
    pub fn append(&mut self, rows: Option<&[C::Row]>) {
        let items = rows.unwrap_or_default();
        for row in items {
            self.inner.append(Some(row));
        }
        self.lengths.push(items.len());
        self.valid.push(rows.is_some());
    }

    /// The finished list array; the builder is left empty.
    pub fn finish(&mut self) -> ArrayRef {
        let values = StructArray::try_new(Fields::from(C::fields()), self.inner.finish(), None)
            .expect("RowColumns::finish returns one array per field, all of the same length");
        let list = ListArray::try_new(
            list_of(DataType::Struct(Fields::from(C::fields()))),
            OffsetBuffer::from_lengths(std::mem::take(&mut self.lengths)),
            Arc::new(values),
            Some(NullBuffer::from(std::mem::take(&mut self.valid))),
        )
        .expect("offsets match the row values");
        Arc::new(list)
    }
}

/// One row per block of type `B`: the common block columns, then `txs` as a list of `C` rows.
pub struct BlockColumns<B, C: RowColumns> {
    common: BlockCommonColumns,
    txs: RowList<C>,
    block: PhantomData<fn(&B)>,
}

impl<B: PxBlock, C: RowColumns<Row = B::Tx>> RowColumns for BlockColumns<B, C> {
    type Row = B;

    fn fields() -> Vec<FieldRef> {
        let mut fields = BlockCommonColumns::fields();
        fields.push(Arc::new(Field::new("txs", RowList::<C>::data_type(), true)));
        fields
    }

    fn with_capacity(capacity: usize) -> Self {
        BlockColumns {
            common: BlockCommonColumns::with_capacity(capacity),
            txs: RowList::with_capacity(capacity),
            block: PhantomData,
        }
    }

    fn append(&mut self, row: Option<&B>) {
        let (facts, txs) = row.map(PxBlock::parts).unzip();
        self.common.append(facts);
        self.txs.append(txs);
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        let mut out = self.common.finish();
        out.push(self.txs.finish());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Array, Decimal128Array, TimestampNanosecondArray};

    #[test]
    fn amounts_and_timestamps_follow_the_conventions() {
        let mut b = Amounts::builder(2);
        Amounts::append(&mut b, Some(vec![AssetAmount { asset_id: [0; 32], amount: 2 * u128::from(u64::MAX) }]));
        Amounts::append(&mut b, None);
        let list = Amounts::finish(&mut b);
        assert_eq!(list.data_type(), &Amounts::data_type());
        let list = list.as_any().downcast_ref::<ListArray>().unwrap();
        assert!(list.is_null(1));
        let first = list.value(0);
        let s = first.as_any().downcast_ref::<StructArray>().unwrap();
        let amounts = s.column(1).as_any().downcast_ref::<Decimal128Array>().unwrap();
        assert_eq!(amounts.value(0), 2 * i128::from(u64::MAX));

        let mut t = Ts::builder(2);
        Ts::append(&mut t, Some(2));
        Ts::append(&mut t, Some(u64::MAX));
        let t = Ts::finish(&mut t);
        assert_eq!(t.data_type(), &timestamp_type());
        let t = t.as_any().downcast_ref::<TimestampNanosecondArray>().unwrap();
        assert_eq!(t.value(0), 2_000_000_000);
        assert!(t.is_null(1));
        assert_eq!(amount_to_decimal(DECIMAL_MAX + 1), None);
    }
}
