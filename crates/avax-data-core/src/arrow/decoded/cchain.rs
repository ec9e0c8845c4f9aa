//! C-chain block columns, with the block's transactions as a `List<Struct>` column
//! (`transactions`). `avax_data.decode.transactions(df)` turns it into one row per transaction.

use std::sync::Arc;

use arrow_array::builder::{
    BinaryViewBuilder, Decimal128Builder, StringViewBuilder, TimestampNanosecondBuilder, UInt32Builder, UInt64Builder,
    UInt8Builder,
};
use arrow_array::{ArrayRef, ListArray, StructArray};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, FieldRef, Fields};

use super::cols::{
    append_hex0x, dec, decimal_builder, decimal_type, field, seconds_to_ns, timestamp_builder, timestamp_type,
};
use super::RowColumns;
use crate::decode::cchain::{CBlock, CTx};

/// Builders of one transaction struct per row.
struct TxColumns {
    block_number: UInt64Builder,
    position: UInt32Builder,
    hash: StringViewBuilder,
    tx_type: UInt8Builder,
    chain_id: UInt64Builder,
    nonce: UInt64Builder,
    to: StringViewBuilder,
    value: Decimal128Builder,
    gas: UInt64Builder,
    gas_price: Decimal128Builder,
    max_fee_per_gas: Decimal128Builder,
    max_priority_fee_per_gas: Decimal128Builder,
    input_len: UInt32Builder,
    access_list_len: UInt32Builder,
    max_fee_per_blob_gas: Decimal128Builder,
    blob_hash_count: UInt32Builder,
    authorization_count: UInt32Builder,
}

impl TxColumns {
    fn fields() -> Fields {
        Fields::from(vec![
            field("block_number", DataType::UInt64),
            field("position", DataType::UInt32),
            field("hash", DataType::Utf8View),
            field("type", DataType::UInt8),
            field("chain_id", DataType::UInt64),
            field("nonce", DataType::UInt64),
            field("to", DataType::Utf8View),
            field("value", decimal_type()),
            field("gas", DataType::UInt64),
            field("gas_price", decimal_type()),
            field("max_fee_per_gas", decimal_type()),
            field("max_priority_fee_per_gas", decimal_type()),
            field("input_len", DataType::UInt32),
            field("access_list_len", DataType::UInt32),
            field("max_fee_per_blob_gas", decimal_type()),
            field("blob_hash_count", DataType::UInt32),
            field("authorization_count", DataType::UInt32),
        ])
    }

    fn with_capacity(n: usize) -> Self {
        TxColumns {
            block_number: UInt64Builder::with_capacity(n),
            position: UInt32Builder::with_capacity(n),
            hash: StringViewBuilder::with_capacity(n),
            tx_type: UInt8Builder::with_capacity(n),
            chain_id: UInt64Builder::with_capacity(n),
            nonce: UInt64Builder::with_capacity(n),
            to: StringViewBuilder::with_capacity(n),
            value: decimal_builder(n),
            gas: UInt64Builder::with_capacity(n),
            gas_price: decimal_builder(n),
            max_fee_per_gas: decimal_builder(n),
            max_priority_fee_per_gas: decimal_builder(n),
            input_len: UInt32Builder::with_capacity(n),
            access_list_len: UInt32Builder::with_capacity(n),
            max_fee_per_blob_gas: decimal_builder(n),
            blob_hash_count: UInt32Builder::with_capacity(n),
            authorization_count: UInt32Builder::with_capacity(n),
        }
    }

    fn append(&mut self, block_number: u64, position: u32, tx: &CTx) {
        self.block_number.append_value(block_number);
        self.position.append_value(position);
        append_hex0x(&mut self.hash, Some(&tx.hash));
        self.tx_type.append_value(tx.tx_type);
        self.chain_id.append_option(tx.chain_id);
        self.nonce.append_value(tx.nonce);
        append_hex0x(&mut self.to, tx.to.as_ref().map(|t| t.as_slice()));
        self.value.append_value(dec(tx.value));
        self.gas.append_value(tx.gas);
        self.gas_price.append_option(tx.gas_price.map(dec));
        self.max_fee_per_gas.append_option(tx.max_fee_per_gas.map(dec));
        self.max_priority_fee_per_gas.append_option(tx.max_priority_fee_per_gas.map(dec));
        self.input_len.append_value(tx.input_len);
        self.access_list_len.append_option(tx.access_list_len);
        self.max_fee_per_blob_gas.append_option(tx.max_fee_per_blob_gas.map(dec));
        self.blob_hash_count.append_option(tx.blob_hash_count);
        self.authorization_count.append_option(tx.authorization_count);
    }

    fn finish(&mut self) -> StructArray {
        let arrays: Vec<ArrayRef> = vec![
            Arc::new(self.block_number.finish()),
            Arc::new(self.position.finish()),
            Arc::new(self.hash.finish()),
            Arc::new(self.tx_type.finish()),
            Arc::new(self.chain_id.finish()),
            Arc::new(self.nonce.finish()),
            Arc::new(self.to.finish()),
            Arc::new(self.value.finish()),
            Arc::new(self.gas.finish()),
            Arc::new(self.gas_price.finish()),
            Arc::new(self.max_fee_per_gas.finish()),
            Arc::new(self.max_priority_fee_per_gas.finish()),
            Arc::new(self.input_len.finish()),
            Arc::new(self.access_list_len.finish()),
            Arc::new(self.max_fee_per_blob_gas.finish()),
            Arc::new(self.blob_hash_count.finish()),
            Arc::new(self.authorization_count.finish()),
        ];
        StructArray::new(Self::fields(), arrays, None)
    }
}

fn transactions_type() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Struct(TxColumns::fields()), true)))
}

/// Builders of the C-chain block columns.
pub struct CBlockColumns {
    number: UInt64Builder,
    hash: StringViewBuilder,
    parent_hash: StringViewBuilder,
    time: TimestampNanosecondBuilder,
    time_milliseconds: UInt64Builder,
    gas_limit: UInt64Builder,
    gas_used: UInt64Builder,
    base_fee: Decimal128Builder,
    ext_data_gas_used: Decimal128Builder,
    block_gas_cost: Decimal128Builder,
    blob_gas_used: UInt64Builder,
    excess_blob_gas: UInt64Builder,
    min_delay_excess: UInt64Builder,
    miner: StringViewBuilder,
    state_root: StringViewBuilder,
    transactions_root: StringViewBuilder,
    receipts_root: StringViewBuilder,
    ext_data_hash: StringViewBuilder,
    parent_beacon_root: StringViewBuilder,
    extra_data: BinaryViewBuilder,
    header_fields: UInt8Builder,
    tx_count: UInt32Builder,
    uncle_count: UInt32Builder,
    ext_data_size: UInt32Builder,
    txs: TxColumns,
    tx_offsets: Vec<i32>,
    tx_validity: Vec<bool>,
}

/// Whether a block's times fit nanosecond timestamps (hostile bytes may say otherwise).
pub fn times_fit(block: &CBlock) -> bool {
    seconds_to_ns(i128::from(block.time)).is_some()
}

impl RowColumns for CBlockColumns {
    type Row = CBlock;

    fn fields() -> Vec<FieldRef> {
        vec![
            field("number", DataType::UInt64),
            field("hash", DataType::Utf8View),
            field("parent_hash", DataType::Utf8View),
            field("time", timestamp_type()),
            field("time_milliseconds", DataType::UInt64),
            field("gas_limit", DataType::UInt64),
            field("gas_used", DataType::UInt64),
            field("base_fee", decimal_type()),
            field("ext_data_gas_used", decimal_type()),
            field("block_gas_cost", decimal_type()),
            field("blob_gas_used", DataType::UInt64),
            field("excess_blob_gas", DataType::UInt64),
            field("min_delay_excess", DataType::UInt64),
            field("miner", DataType::Utf8View),
            field("state_root", DataType::Utf8View),
            field("transactions_root", DataType::Utf8View),
            field("receipts_root", DataType::Utf8View),
            field("ext_data_hash", DataType::Utf8View),
            field("parent_beacon_root", DataType::Utf8View),
            field("extra_data", DataType::BinaryView),
            field("header_fields", DataType::UInt8),
            field("tx_count", DataType::UInt32),
            field("uncle_count", DataType::UInt32),
            field("ext_data_size", DataType::UInt32),
            field("transactions", transactions_type()),
        ]
    }

    fn with_capacity(n: usize) -> Self {
        let mut tx_offsets = Vec::with_capacity(n + 1);
        tx_offsets.push(0);
        CBlockColumns {
            number: UInt64Builder::with_capacity(n),
            hash: StringViewBuilder::with_capacity(n),
            parent_hash: StringViewBuilder::with_capacity(n),
            time: timestamp_builder(n),
            time_milliseconds: UInt64Builder::with_capacity(n),
            gas_limit: UInt64Builder::with_capacity(n),
            gas_used: UInt64Builder::with_capacity(n),
            base_fee: decimal_builder(n),
            ext_data_gas_used: decimal_builder(n),
            block_gas_cost: decimal_builder(n),
            blob_gas_used: UInt64Builder::with_capacity(n),
            excess_blob_gas: UInt64Builder::with_capacity(n),
            min_delay_excess: UInt64Builder::with_capacity(n),
            miner: StringViewBuilder::with_capacity(n),
            state_root: StringViewBuilder::with_capacity(n),
            transactions_root: StringViewBuilder::with_capacity(n),
            receipts_root: StringViewBuilder::with_capacity(n),
            ext_data_hash: StringViewBuilder::with_capacity(n),
            parent_beacon_root: StringViewBuilder::with_capacity(n),
            extra_data: BinaryViewBuilder::with_capacity(n),
            header_fields: UInt8Builder::with_capacity(n),
            tx_count: UInt32Builder::with_capacity(n),
            uncle_count: UInt32Builder::with_capacity(n),
            ext_data_size: UInt32Builder::with_capacity(n),
            txs: TxColumns::with_capacity(n * 8),
            tx_offsets,
            tx_validity: Vec::with_capacity(n),
        }
    }

    fn append(&mut self, row: Option<&CBlock>) {
        self.number.append_option(row.map(|b| b.number));
        append_hex0x(&mut self.hash, row.map(|b| b.hash.as_slice()));
        append_hex0x(&mut self.parent_hash, row.map(|b| b.parent_hash.as_slice()));
        self.time.append_option(row.and_then(|b| seconds_to_ns(i128::from(b.time))));
        self.time_milliseconds.append_option(row.and_then(|b| b.time_milliseconds));
        self.gas_limit.append_option(row.map(|b| b.gas_limit));
        self.gas_used.append_option(row.map(|b| b.gas_used));
        self.base_fee.append_option(row.and_then(|b| b.base_fee).map(dec));
        self.ext_data_gas_used.append_option(row.and_then(|b| b.ext_data_gas_used).map(dec));
        self.block_gas_cost.append_option(row.and_then(|b| b.block_gas_cost).map(dec));
        self.blob_gas_used.append_option(row.and_then(|b| b.blob_gas_used));
        self.excess_blob_gas.append_option(row.and_then(|b| b.excess_blob_gas));
        self.min_delay_excess.append_option(row.and_then(|b| b.min_delay_excess));
        append_hex0x(&mut self.miner, row.map(|b| b.coinbase.as_slice()));
        append_hex0x(&mut self.state_root, row.map(|b| b.state_root.as_slice()));
        append_hex0x(&mut self.transactions_root, row.map(|b| b.transactions_root.as_slice()));
        append_hex0x(&mut self.receipts_root, row.map(|b| b.receipts_root.as_slice()));
        append_hex0x(&mut self.ext_data_hash, row.map(|b| b.ext_data_hash.as_slice()));
        append_hex0x(
            &mut self.parent_beacon_root,
            row.and_then(|b| b.parent_beacon_root.as_ref()).map(|r| r.as_slice()),
        );
        self.extra_data.append_option(row.map(|b| b.extra.as_slice()));
        self.header_fields.append_option(row.map(|b| b.header_fields));
        self.tx_count.append_option(row.map(|b| b.transactions.len() as u32));
        self.uncle_count.append_option(row.map(|b| b.uncle_count));
        self.ext_data_size.append_option(row.and_then(|b| b.ext_data_size));
        if let Some(block) = row {
            for (position, tx) in block.transactions.iter().enumerate() {
                self.txs.append(block.number, position as u32, tx);
            }
        }
        let last = *self.tx_offsets.last().expect("starts with 0");
        let added = row.map_or(0, |b| b.transactions.len()) as i32;
        self.tx_offsets.push(last + added);
        self.tx_validity.push(row.is_some());
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        let offsets = OffsetBuffer::new(std::mem::replace(&mut self.tx_offsets, vec![0]).into());
        let validity = std::mem::take(&mut self.tx_validity);
        let nulls = validity.iter().any(|v| !v).then(|| validity.into());
        let item = Arc::new(Field::new("item", DataType::Struct(TxColumns::fields()), true));
        let transactions = ListArray::new(item, offsets, Arc::new(self.txs.finish()), nulls);
        vec![
            Arc::new(self.number.finish()),
            Arc::new(self.hash.finish()),
            Arc::new(self.parent_hash.finish()),
            Arc::new(self.time.finish()),
            Arc::new(self.time_milliseconds.finish()),
            Arc::new(self.gas_limit.finish()),
            Arc::new(self.gas_used.finish()),
            Arc::new(self.base_fee.finish()),
            Arc::new(self.ext_data_gas_used.finish()),
            Arc::new(self.block_gas_cost.finish()),
            Arc::new(self.blob_gas_used.finish()),
            Arc::new(self.excess_blob_gas.finish()),
            Arc::new(self.min_delay_excess.finish()),
            Arc::new(self.miner.finish()),
            Arc::new(self.state_root.finish()),
            Arc::new(self.transactions_root.finish()),
            Arc::new(self.receipts_root.finish()),
            Arc::new(self.ext_data_hash.finish()),
            Arc::new(self.parent_beacon_root.finish()),
            Arc::new(self.extra_data.finish()),
            Arc::new(self.header_fields.finish()),
            Arc::new(self.tx_count.finish()),
            Arc::new(self.uncle_count.finish()),
            Arc::new(self.ext_data_size.finish()),
            Arc::new(transactions),
        ]
    }
}
