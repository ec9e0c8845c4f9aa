//! Arrow columns of decoded X-Chain txs ([`XTxColumns`], one row per tx) and StandardBlocks
//! ([`XBlockColumns`], one row per block, its txs as a `txs: List<Struct<tx columns>>`).
//!
//! Tx columns: the ones every tx has (`tx_id`, `tx_type`, `network_id`, `blockchain_id`,
//! `memo_len`, `credential_count`, `consumed`, `produced`; see
//! [`TxCommonColumns`]), then `source_chain` (ImportTx),
//! `destination_chain` (ExportTx), `asset_name`, `asset_symbol`, `denomination` (CreateAssetTx)
//! and `operation_count` (OperationTx), null for the other tx types.
//!
//! Block columns: `block_id`, `block_type`, `parent_id`, `height`, `block_time`, `tx_count`,
//! `tx_ids`, `tx_types`, `txs`.

use super::avax::{columns, id_text, len_u32, BlockColumns, Text, TxColumns, U32, U8};
use crate::decode::avax::Atomic;
use crate::decode::xchain::{XBlock, XTx, XTxBody};

columns! {
    /// The type-specific facts of an X-Chain tx.
    facts XTxFacts;
    /// Builders of the type-specific X-Chain tx columns.
    columns XTxSpecificColumns;
    row XTx => XTxFacts::of;
    {
        /// ImportTx source chain.
        source_chain: Text,
        /// ExportTx destination chain.
        destination_chain: Text,
        /// CreateAssetTx name.
        asset_name: Text,
        /// CreateAssetTx symbol.
        asset_symbol: Text,
        /// CreateAssetTx denomination.
        denomination: U8,
        /// OperationTx operation count.
        operation_count: U32,
    }
}

impl XTxFacts {
    /// The type-specific facts of `tx`.
    pub fn of(tx: &XTx) -> Self {
        let mut f = XTxFacts::default();
        match &tx.body {
            XTxBody::Base => {}
            XTxBody::CreateAsset { name, symbol, denomination, .. } => {
                f.asset_name = Some(name.clone());
                f.asset_symbol = Some(symbol.clone());
                f.denomination = Some(*denomination);
            }
            XTxBody::Operation { operations } => f.operation_count = Some(len_u32(operations.len())),
            XTxBody::Atomic(Atomic::Import { source_chain, .. }) => f.source_chain = Some(id_text(source_chain)),
            XTxBody::Atomic(Atomic::Export { destination_chain, .. }) => {
                f.destination_chain = Some(id_text(destination_chain))
            }
        }
        f
    }
}

/// One row per X-Chain tx: the common tx columns, then the type-specific ones.
pub type XTxColumns = TxColumns<XTxSpecificColumns>;

/// One row per X-Chain block; `txs` holds its txs as [`XTxColumns`] structs.
pub type XBlockColumns = BlockColumns<XBlock, XTxColumns>;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::cast::AsArray;
    use arrow_array::types::{Decimal128Type, TimestampNanosecondType, UInt64Type};
    use arrow_array::{Array, RecordBatch};
    use arrow_schema::Schema;

    use super::*;
    use crate::arrow::decoded::RowColumns;
    use crate::decode::test_bytes::{decoded, vectors};
    use crate::decode::xchain;

    #[test]
    fn tx_frame_has_decimal_amounts_and_type_columns() {
        let txs = decoded("xchain_txs.json", xchain::decode_tx);
        let mut cols = XTxColumns::with_capacity(txs.len() + 1);
        for tx in &txs {
            cols.append(Some(tx));
        }
        cols.append(None);
        let b = RecordBatch::try_new(Arc::new(Schema::new(XTxColumns::fields())), cols.finish()).unwrap();
        assert_eq!(b.num_rows(), 8);
        let tx_type = b.column_by_name("tx_type").unwrap().as_string_view();
        assert_eq!((tx_type.value(0), tx_type.value(1), tx_type.value(6)), ("ExportTx", "BaseTx", "CreateAssetTx"));
        assert!(tx_type.is_null(7));
        let consumed = b.column_by_name("consumed").unwrap().as_list::<i32>();
        let first = consumed.value(0);
        let amounts = first.as_struct().column_by_name("amount").unwrap().as_primitive::<Decimal128Type>();
        assert_eq!(amounts.value(0), 300_000_000_000_000_000);
        let produced = b.column_by_name("produced").unwrap().as_list::<i32>().value(0);
        let produced = produced.as_struct().column(1).as_primitive::<Decimal128Type>().value(0);
        assert_eq!(produced, 299_995_999_998_000_000 + 4_000_001_000_000);
        assert_eq!(
            b.column_by_name("destination_chain").unwrap().as_string_view().value(0),
            "2XFHbWN57HrjHW1JqhP9wzj92eYHpiH7EGLnY9mNfWn9w9CvWR"
        );
        assert!(b.column_by_name("destination_chain").unwrap().is_null(1));
        assert_eq!(b.column_by_name("asset_symbol").unwrap().as_string_view().value(6), "VIX");
        assert_eq!(
            b.column_by_name("tx_id").unwrap().as_string_view().value(1),
            "ZGYTSU8w3zUP6VFseGC798vA2Vnxnfj6fz1QPfA9N93bhjJvo"
        );
    }

    #[test]
    fn block_frame_lists_the_txs() {
        let raw = &vectors("constructed_examples.json")[0];
        let block = xchain::decode_block(raw).unwrap();
        let mut cols = XBlockColumns::with_capacity(1);
        cols.append(Some(&block));
        let b = RecordBatch::try_new(Arc::new(Schema::new(XBlockColumns::fields())), cols.finish()).unwrap();
        assert_eq!(b.column_by_name("height").unwrap().as_primitive::<UInt64Type>().value(0), 7);
        let time = b.column_by_name("block_time").unwrap().as_primitive::<TimestampNanosecondType>();
        assert_eq!(time.value(0), 1_682_434_800_000_000_000);
        let ids = b.column_by_name("tx_ids").unwrap().as_list::<i32>().value(0);
        assert_eq!(ids.as_string_view().value(1), "6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY");
        let txs = b.column_by_name("txs").unwrap().as_list::<i32>().value(0);
        let txs = txs.as_struct();
        assert_eq!(txs.len(), 2);
        assert_eq!(
            txs.column_by_name("network_id").unwrap().as_primitive::<arrow_array::types::UInt32Type>().value(1),
            12345
        );
    }
}
