//! An index container (`C/block`, `P/block`, `X/block`) as a [`BlockRecord`]: its envelope
//! opened and its inner block decoded by the core's decoders (`decode/`), as the node reads it.

use super::chain::Chain;
use super::record::{hex0x, BlockRecord, TxRecord};
use crate::arrow::decoded::frame::{decode_c_container, decode_p_container, decode_x_container};
use crate::decode::cchain::{CBlock, CTx};
use crate::decode::DecodeError;
use crate::error::Error;
use crate::index::cb58;
use crate::index::Container;

/// The record of `container` of `chain`'s block index; a container that does not decode is an
/// [`Error::ContainerDecode`] naming it (a reconcile cannot state what such a block holds).
pub fn index_record(chain: Chain, container: &Container) -> Result<BlockRecord, Error> {
    let failed = |e: DecodeError| Error::ContainerDecode {
        path: chain.index_path().as_str().to_string(),
        position: format!("container {} ({})", container.index, container.id),
        index: Some(container.index),
        id: Some(container.id.clone()),
        offset: e.offset,
        message: e.message,
    };
    match chain {
        Chain::C => decode_c_container(&container.bytes).inner.map(|b| c_record(&b)).map_err(failed),
        Chain::P => {
            let block = decode_p_container(&container.bytes).inner.map_err(failed)?;
            let txs = block.txs.iter().map(|t| avax_tx(&t.tx_id)).collect();
            Ok(avax_record(container, block.height, block.time, txs))
        }
        Chain::X => {
            let block = decode_x_container(&container.bytes).inner.map_err(failed)?;
            let txs = block.txs.iter().map(|t| avax_tx(&t.tx_id)).collect();
            Ok(avax_record(container, block.height, Some(block.time), txs))
        }
    }
}

/// A coreth block: its hash, parent, transaction count, gas used, base fee (from ApricotPhase3;
/// not stated before) and time, and each transaction's hash and effective gas price.
pub fn c_record(block: &CBlock) -> BlockRecord {
    let h = &block.header;
    let txs = block
        .transactions
        .iter()
        .map(|tx| TxRecord {
            id: hex0x(&tx.hash),
            fields: vec![("gasPrice", effective_gas_price(tx, h.base_fee).map(|p| p.to_string()))],
        })
        .collect();
    BlockRecord {
        height: h.number,
        id: hex0x(&block.hash),
        fields: vec![
            ("blockHash", Some(hex0x(&block.hash))),
            ("parentHash", Some(hex0x(&h.parent_hash))),
            ("txCount", Some(block.transactions.len().to_string())),
            ("gasUsed", Some(h.gas_used.to_string())),
            ("baseFee", h.base_fee.map(|f| f.to_string())),
            ("blockTimestamp", Some(h.time.to_string())),
        ],
        txs,
    }
}

/// The price per gas a transaction paid: its gas price (legacy, access-list), or
/// `min(maxFeePerGas, baseFee + maxPriorityFeePerGas)` (EIP-1559 and later, as coreth charges
/// it); `None` when the block states no base fee for a dynamic-fee transaction.
pub fn effective_gas_price(tx: &CTx, base_fee: Option<u128>) -> Option<u128> {
    if let Some(price) = tx.gas_price {
        return Some(price);
    }
    let (max_fee, tip) = (tx.max_fee_per_gas?, tx.max_priority_fee_per_gas?);
    Some(max_fee.min(base_fee?.saturating_add(tip)))
}

fn avax_tx(id: &[u8; 32]) -> TxRecord {
    TxRecord { id: cb58::encode(id), fields: Vec::new() }
}

/// A P- or X-Chain block: its container id, transaction count and time (a P-Chain Apricot block
/// states no time: not compared then).
fn avax_record(container: &Container, height: u64, time: Option<u64>, txs: Vec<TxRecord>) -> BlockRecord {
    BlockRecord {
        height,
        id: container.id.clone(),
        fields: vec![
            ("blockHash", Some(container.id.clone())),
            ("txCount", Some(txs.len().to_string())),
            ("blockTimestamp", time.map(|t| t.to_string())),
        ],
        txs,
    }
}
