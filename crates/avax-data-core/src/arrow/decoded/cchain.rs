//! C-chain block columns, with the block's transactions as a `List<Struct>` column
//! (`transactions`). `avax_data.decode.transactions(df)` turns it into one row per transaction.

use std::sync::Arc;

use arrow_array::{ArrayRef, ListArray, StructArray};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, FieldRef, Fields};

use super::cols::{builders, dec, field, seconds_to_ns};
use super::RowColumns;
use crate::decode::cchain::{CBlock, CTx};

builders! {
    /// Builders of one transaction struct per row.
    struct TxColumns {
        block_number: u64,
        position: u32,
        hash: hex32,
        tx_type as "type": u8,
        chain_id: u64,
        nonce: u64,
        to: hex20,
        value: decimal,
        gas: u64,
        gas_price: decimal,
        max_fee_per_gas: decimal,
        max_priority_fee_per_gas: decimal,
        input_len: u32,
        access_list_len: u32,
        max_fee_per_blob_gas: decimal,
        blob_hash_count: u32,
        authorization_count: u32,
    }
}

impl TxColumns {
    fn append(&mut self, block_number: u64, position: u32, tx: &CTx) {
        self.block_number.append_value(block_number);
        self.position.append_value(position);
        self.hash.append_value(&tx.hash);
        self.tx_type.append_value(tx.tx_type);
        self.chain_id.append_option(tx.chain_id);
        self.nonce.append_value(tx.nonce);
        self.to.append_option(tx.to.as_ref());
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
}

/// The `item` field of the `transactions` list: one struct of [`TxColumns`].
fn transaction_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Struct(Fields::from(TxColumns::fields())), true))
}

builders! {
    /// Builders of the C-chain block columns but `transactions`.
    struct BlockBuilders {
        number: u64,
        hash: hex32,
        parent_hash: hex32,
        time: timestamp,
        time_milliseconds: u64,
        gas_limit: u64,
        gas_used: u64,
        base_fee: decimal,
        ext_data_gas_used: decimal,
        block_gas_cost: decimal,
        blob_gas_used: u64,
        excess_blob_gas: u64,
        min_delay_excess: u64,
        miner: hex20,
        state_root: hex32,
        transactions_root: hex32,
        receipts_root: hex32,
        ext_data_hash: hex32,
        parent_beacon_root: hex32,
        extra_data: binary,
        header_fields: u8,
        tx_count: u32,
        uncle_count: u32,
        ext_data_size: u32,
    }
}

/// Builders of the C-chain block columns: the block's own, then `transactions`.
pub struct CBlockColumns {
    block: BlockBuilders,
    txs: TxColumns,
    tx_offsets: Vec<i32>,
    tx_validity: Vec<bool>,
}

/// The fewest bytes a signed transaction takes in a block (nonce, gas price, gas, recipient,
/// value, empty input, `v`, `r`, `s`: 100 or more): sizing the transaction columns from the
/// containers' bytes by it reserves at least what they will hold, once.
const MIN_TX_BYTES: usize = 100;

impl CBlockColumns {
    /// Builders for `n` blocks whose containers take `bytes` bytes in all (0: unknown, room
    /// for 8 transactions a block), the transaction columns sized for as many transactions as
    /// those bytes can hold.
    pub fn for_bytes(n: usize, bytes: usize) -> Self {
        let txs = if bytes == 0 { n * 8 } else { bytes / MIN_TX_BYTES };
        let mut tx_offsets = Vec::with_capacity(n + 1);
        tx_offsets.push(0);
        CBlockColumns {
            block: BlockBuilders::with_capacity(n),
            txs: TxColumns::with_capacity(txs),
            tx_offsets,
            tx_validity: Vec::with_capacity(n),
        }
    }
}

/// Whether a block's times fit nanosecond timestamps (hostile bytes may say otherwise).
pub fn times_fit(block: &CBlock) -> bool {
    seconds_to_ns(i128::from(block.header.time)).is_some()
}

impl RowColumns for CBlockColumns {
    type Row = CBlock;

    fn fields() -> Vec<FieldRef> {
        let mut fields = BlockBuilders::fields();
        fields.push(field("transactions", DataType::List(transaction_item())));
        fields
    }

    fn with_capacity(n: usize) -> Self {
        CBlockColumns::for_bytes(n, 0)
    }

    fn append(&mut self, row: Option<&CBlock>) {
        self.block.number.append_option(row.map(|b| b.header.number));
        self.block.hash.append_option(row.map(|b| &b.hash));
        self.block.parent_hash.append_option(row.map(|b| &b.header.parent_hash));
        self.block.time.append_option(row.and_then(|b| seconds_to_ns(i128::from(b.header.time))));
        self.block.time_milliseconds.append_option(row.and_then(|b| b.header.time_milliseconds));
        self.block.gas_limit.append_option(row.map(|b| b.header.gas_limit));
        self.block.gas_used.append_option(row.map(|b| b.header.gas_used));
        self.block.base_fee.append_option(row.and_then(|b| b.header.base_fee).map(dec));
        self.block.ext_data_gas_used.append_option(row.and_then(|b| b.header.ext_data_gas_used).map(dec));
        self.block.block_gas_cost.append_option(row.and_then(|b| b.header.block_gas_cost).map(dec));
        self.block.blob_gas_used.append_option(row.and_then(|b| b.header.blob_gas_used));
        self.block.excess_blob_gas.append_option(row.and_then(|b| b.header.excess_blob_gas));
        self.block.min_delay_excess.append_option(row.and_then(|b| b.header.min_delay_excess));
        self.block.miner.append_option(row.map(|b| &b.header.coinbase));
        self.block.state_root.append_option(row.map(|b| &b.header.state_root));
        self.block.transactions_root.append_option(row.map(|b| &b.header.transactions_root));
        self.block.receipts_root.append_option(row.map(|b| &b.header.receipts_root));
        self.block.ext_data_hash.append_option(row.map(|b| &b.header.ext_data_hash));
        self.block.parent_beacon_root.append_option(row.and_then(|b| b.header.parent_beacon_root.as_ref()));
        self.block.extra_data.append_option(row.map(|b| b.header.extra.as_slice()));
        self.block.header_fields.append_option(row.map(|b| b.header_fields));
        self.block.tx_count.append_option(row.map(|b| b.transactions.len() as u32));
        self.block.uncle_count.append_option(row.map(|b| b.uncle_count));
        self.block.ext_data_size.append_option(row.and_then(|b| b.ext_data_size));
        if let Some(block) = row {
            for (position, tx) in block.transactions.iter().enumerate() {
                self.txs.append(block.header.number, position as u32, tx);
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
        let txs = StructArray::new(Fields::from(TxColumns::fields()), self.txs.finish(), None);
        let transactions = ListArray::new(transaction_item(), offsets, Arc::new(txs), nulls);
        let mut columns = self.block.finish();
        columns.push(Arc::new(transactions));
        columns
    }
}
