//! The proposervm envelope's columns, shared by the three block indexes.

use arrow_array::ArrayRef;
use arrow_buffer::Buffer;
use arrow_schema::FieldRef;

use super::cols::{append_cb58, builders, node_id_text, seconds_to_ns};
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

builders! {
    /// Builders of the envelope columns.
    struct EnvelopeBuilders {
        block_kind: text,
        proposervm_parent_id: text,
        proposervm_time: timestamp,
        pchain_height: u64,
        epoch_pchain_height: u64,
        epoch_number: u64,
        epoch_start_time: timestamp,
        proposer: text,
        inner_id: text,
    }
}

/// A container's id as bytes, and where its CB58 text lies in the ids shared with
/// [`EnvelopeColumns::share_ids`] (start and length).
#[derive(Debug, Clone, Copy)]
pub struct SharedId<'a> {
    /// The id's bytes.
    pub raw: &'a [u8; 32],
    /// Where its text starts in the shared ids.
    pub start: u32,
    /// The text's length.
    pub len: u32,
}

/// Builders of the envelope columns, and the last proposer's text.
pub struct EnvelopeColumns {
    columns: EnvelopeBuilders,
    /// The last proposer and its `NodeID-` text: a validator proposes many blocks in a row.
    last_proposer: Option<([u8; 20], String)>,
    /// The block of `proposervm_parent_id` that holds the node's id texts, once shared.
    ids_block: Option<u32>,
}

impl EnvelopeColumns {
    /// Shares the node's id texts of the containers (one buffer, CB58 ids back to back) with
    /// `proposervm_parent_id`: a parent id that is the previous container's is a view of its
    /// text there instead of a new CB58 encoding. Call before appending rows.
    pub fn share_ids(&mut self, ids: Buffer) {
        self.ids_block = Some(self.columns.proposervm_parent_id.append_block(ids));
    }

    /// Appends one row (as [`RowColumns::append`]) of the container after the one with id
    /// `previous`: when the envelope's parent is that container, its text is taken from the
    /// shared ids (a container's CB58 text is the only text of its bytes).
    pub fn append_after(&mut self, row: Option<&EnvelopeRow>, previous: Option<SharedId<'_>>) {
        let parent = row.and_then(|r| r.parent_id.as_ref());
        let shared = match (parent, previous, self.ids_block) {
            (Some(parent), Some(previous), Some(block)) if parent == previous.raw => Some((block, previous)),
            _ => None,
        };
        let c = &mut self.columns;
        match shared {
            Some((block, previous)) => c
                .proposervm_parent_id
                .try_append_view(block, previous.start, previous.len)
                .expect("a shared id's span lies in the ids, at character boundaries"),
            None => append_cb58(&mut c.proposervm_parent_id, parent.map(|p| p.as_slice())),
        }
        self.append_rest(row);
    }

    /// Appends every column of `row` but `proposervm_parent_id`.
    fn append_rest(&mut self, row: Option<&EnvelopeRow>) {
        let c = &mut self.columns;
        let ns = |s: i64| seconds_to_ns(i128::from(s));
        c.block_kind.append_option(row.map(|r| r.kind));
        c.proposervm_time.append_option(row.and_then(|r| r.time).and_then(ns));
        c.pchain_height.append_option(row.and_then(|r| r.pchain_height));
        let epoch = row.and_then(|r| r.epoch);
        c.epoch_pchain_height.append_option(epoch.map(|e| e.pchain_height));
        c.epoch_number.append_option(epoch.map(|e| e.number));
        c.epoch_start_time.append_option(epoch.and_then(|e| ns(e.start_time)));
        match row.and_then(|r| r.proposer) {
            Some(proposer) => {
                let last = match self.last_proposer.take() {
                    Some((bytes, text)) if bytes == proposer => (bytes, text),
                    _ => (proposer, node_id_text(&proposer)),
                };
                c.proposer.append_value(&last.1);
                self.last_proposer = Some(last);
            }
            None => c.proposer.append_null(),
        }
        append_cb58(&mut c.inner_id, row.and_then(|r| r.inner_id.as_ref()).map(|id| id.as_slice()));
    }
}

impl RowColumns for EnvelopeColumns {
    type Row = EnvelopeRow;

    fn fields() -> Vec<FieldRef> {
        EnvelopeBuilders::fields()
    }

    fn with_capacity(n: usize) -> Self {
        EnvelopeColumns { columns: EnvelopeBuilders::with_capacity(n), last_proposer: None, ids_block: None }
    }

    fn append(&mut self, row: Option<&EnvelopeRow>) {
        self.append_after(row, None);
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        self.columns.finish()
    }
}
