//! The proposervm envelope's columns, shared by the three block indexes.

use std::sync::Arc;

use arrow_array::builder::{StringViewBuilder, TimestampNanosecondBuilder, UInt64Builder};
use arrow_array::ArrayRef;
use arrow_schema::{DataType, FieldRef};

use super::cols::{cb58_id, field, node_id_text, seconds_to_ns, timestamp_builder, timestamp_type};
use super::RowColumns;
use crate::decode::proposervm::{Envelope, Epoch};

/// What a block container's envelope says, owned (pre-fork blocks have only a kind and an inner
/// id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvelopeRow {
    /// `pre_fork`, `stateless`, `option` or `granite`.
    pub kind: &'static str,
    /// Proposervm parent id (not for pre-fork blocks).
    pub parent_id: Option<[u8; 32]>,
    /// Block time in the envelope, Unix seconds (stateless and Granite).
    pub time: Option<i64>,
    /// P-chain height (stateless and Granite).
    pub pchain_height: Option<u64>,
    /// Granite epoch.
    pub epoch: Option<Epoch>,
    /// Proposer NodeID bytes (signed blocks).
    pub proposer: Option<[u8; 20]>,
    /// The inner block's own id (`None` when the inner block did not decode).
    pub inner_id: Option<[u8; 32]>,
}

impl EnvelopeRow {
    /// The row of a parsed envelope whose inner block has id `inner_id`.
    pub fn of(env: &Envelope<'_>, inner_id: Option<[u8; 32]>) -> Self {
        EnvelopeRow {
            kind: env.kind.name(),
            parent_id: Some(env.parent_id),
            time: env.timestamp,
            pchain_height: env.pchain_height,
            epoch: env.epoch,
            proposer: env.proposer(),
            inner_id,
        }
    }

    /// The row of a raw pre-fork block.
    pub fn pre_fork(inner_id: [u8; 32]) -> Self {
        EnvelopeRow {
            kind: "pre_fork",
            parent_id: None,
            time: None,
            pchain_height: None,
            epoch: None,
            proposer: None,
            inner_id: Some(inner_id),
        }
    }

    /// Whether its times fit nanosecond timestamps (hostile bytes may say otherwise).
    pub fn times_fit(&self) -> bool {
        let fits = |s: i64| seconds_to_ns(i128::from(s)).is_some();
        self.time.is_none_or(fits) && self.epoch.is_none_or(|e| fits(e.start_time))
    }
}

/// Builders of the envelope columns.
pub struct EnvelopeColumns {
    kind: StringViewBuilder,
    parent_id: StringViewBuilder,
    time: TimestampNanosecondBuilder,
    pchain_height: UInt64Builder,
    epoch_pchain_height: UInt64Builder,
    epoch_number: UInt64Builder,
    epoch_start_time: TimestampNanosecondBuilder,
    proposer: StringViewBuilder,
    inner_id: StringViewBuilder,
}

impl RowColumns for EnvelopeColumns {
    type Row = EnvelopeRow;

    fn fields() -> Vec<FieldRef> {
        vec![
            field("block_kind", DataType::Utf8View),
            field("proposervm_parent_id", DataType::Utf8View),
            field("proposervm_time", timestamp_type()),
            field("pchain_height", DataType::UInt64),
            field("epoch_pchain_height", DataType::UInt64),
            field("epoch_number", DataType::UInt64),
            field("epoch_start_time", timestamp_type()),
            field("proposer", DataType::Utf8View),
            field("inner_id", DataType::Utf8View),
        ]
    }

    fn with_capacity(n: usize) -> Self {
        EnvelopeColumns {
            kind: StringViewBuilder::with_capacity(n),
            parent_id: StringViewBuilder::with_capacity(n),
            time: timestamp_builder(n),
            pchain_height: UInt64Builder::with_capacity(n),
            epoch_pchain_height: UInt64Builder::with_capacity(n),
            epoch_number: UInt64Builder::with_capacity(n),
            epoch_start_time: timestamp_builder(n),
            proposer: StringViewBuilder::with_capacity(n),
            inner_id: StringViewBuilder::with_capacity(n),
        }
    }

    fn append(&mut self, row: Option<&EnvelopeRow>) {
        let ns = |s: i64| seconds_to_ns(i128::from(s));
        self.kind.append_option(row.map(|r| r.kind));
        self.parent_id.append_option(row.and_then(|r| r.parent_id).map(|p| cb58_id(&p)));
        self.time.append_option(row.and_then(|r| r.time).and_then(ns));
        self.pchain_height.append_option(row.and_then(|r| r.pchain_height));
        let epoch = row.and_then(|r| r.epoch);
        self.epoch_pchain_height.append_option(epoch.map(|e| e.pchain_height));
        self.epoch_number.append_option(epoch.map(|e| e.number));
        self.epoch_start_time.append_option(epoch.and_then(|e| ns(e.start_time)));
        self.proposer.append_option(row.and_then(|r| r.proposer).map(|p| node_id_text(&p)));
        self.inner_id.append_option(row.and_then(|r| r.inner_id).map(|id| cb58_id(&id)));
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        vec![
            Arc::new(self.kind.finish()),
            Arc::new(self.parent_id.finish()),
            Arc::new(self.time.finish()),
            Arc::new(self.pchain_height.finish()),
            Arc::new(self.epoch_pchain_height.finish()),
            Arc::new(self.epoch_number.finish()),
            Arc::new(self.epoch_start_time.finish()),
            Arc::new(self.proposer.finish()),
            Arc::new(self.inner_id.finish()),
        ]
    }
}
