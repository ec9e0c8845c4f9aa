//! Decoded frames: the node's `id`, `timestamp`, `index` and `bytes` of each container, the
//! envelope columns (block indexes), the inner block's or transaction's typed columns, and
//! `decode_error`.
//!
//! A container that cannot be decoded keeps its row: its typed columns are null and
//! `decode_error` says why and at which byte — unless the mode is [`DecodeMode::Strict`], where
//! the batch fails with a [`Error::Decode`] naming the container.

use std::sync::Arc;

use arrow_array::builder::{BinaryViewBuilder, StringViewBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field, FieldRef, Schema, SchemaRef};

use super::cchain::{times_fit, CBlockColumns};
use super::cols::{field, seconds_to_ns, timestamp_builder, timestamp_type};
use super::envelope::{EnvelopeColumns, EnvelopeRow, SharedId};
use super::pchain::PBlockColumns;
use super::xchain::{XBlockColumns, XTxColumns};
use super::RowColumns;
use crate::decode::{cchain, pchain, proposervm, xchain, DecodeError};
use crate::error::{Error, Result};
use crate::index::{Container, IndexPath};

/// How decoding failures are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeMode {
    /// The row stays, with null typed columns and a `decode_error` message.
    Lenient,
    /// The batch fails with [`Error::Decode`].
    Strict,
    /// As [`DecodeMode::Lenient`], and each `C/block` transaction gets its sender (`from`),
    /// recovered from its signature ([`super::senders`]).
    Senders,
}

/// The values `decode=` takes, as an error message names them.
pub const DECODE_VALUES: &str = "True, False, 'strict' or 'senders'";

impl DecodeMode {
    /// The mode a `decode=` text names (`strict`, `senders`); an error naming `decode`, the
    /// value and [`DECODE_VALUES`] for any other text.
    pub fn parse(text: &str) -> Result<DecodeMode> {
        match text {
            "strict" => Ok(DecodeMode::Strict),
            "senders" => Ok(DecodeMode::Senders),
            other => Err(Error::invalid("decode", format!("{other:?}"), DECODE_VALUES)),
        }
    }

    /// The name of the mode (`decoded`, `strict`, `senders`).
    pub fn name(self) -> &'static str {
        match self {
            DecodeMode::Lenient => "decoded",
            DecodeMode::Strict => "strict",
            DecodeMode::Senders => "senders",
        }
    }
}

/// Fails, before any request, for a path whose containers have no decoder, or `senders` off
/// `C/block`.
pub fn check_mode(path: IndexPath, mode: DecodeMode) -> Result<()> {
    check_decodable(path)?;
    match (mode, super::senders::refuse_on(path)) {
        (DecodeMode::Senders, Some(e)) => Err(e),
        _ => Ok(()),
    }
}

/// The schema of frames of `path` decoded in `mode` ([`decoded_schema`], with `from` in each
/// transaction for [`DecodeMode::Senders`]).
pub fn decoded_schema_for(path: IndexPath, mode: DecodeMode) -> Result<SchemaRef> {
    check_mode(path, mode)?;
    let schema = decoded_schema(path)?;
    match mode {
        DecodeMode::Senders => super::senders::senders_schema(&schema),
        _ => Ok(schema),
    }
}

/// Fails for indexes whose containers have no decoder.
pub fn check_decodable(path: IndexPath) -> Result<()> {
    match path {
        IndexPath::CBlock | IndexPath::PBlock | IndexPath::XBlock | IndexPath::XTx => Ok(()),
        IndexPath::XVtx => Err(Error::invalid(
            "path",
            "'X/vtx'",
            "an index with a decoder (C/block, P/block, X/block, X/tx): X/vtx vertices have no published layout",
        )),
    }
}

fn base_fields() -> Vec<FieldRef> {
    vec![
        Arc::new(Field::new("id", DataType::Utf8View, false)),
        Arc::new(Field::new("timestamp", timestamp_type(), false)),
        Arc::new(Field::new("index", DataType::UInt64, false)),
    ]
}

/// The typed columns of `path` (envelope, inner, `decode_error`), without the node's columns.
fn typed_fields(path: IndexPath) -> Result<Vec<FieldRef>> {
    check_decodable(path)?;
    let mut fields = if path == IndexPath::XTx { Vec::new() } else { EnvelopeColumns::fields() };
    fields.extend(match path {
        IndexPath::CBlock => CBlockColumns::fields(),
        IndexPath::PBlock => PBlockColumns::fields(),
        IndexPath::XBlock => XBlockColumns::fields(),
        _ => XTxColumns::fields(),
    });
    fields.push(field("decode_error", DataType::Utf8View));
    Ok(fields)
}

/// The schema of decoded frames of `path`: `id`, `timestamp`, `index`, the typed columns,
/// `decode_error` and `bytes`.
pub fn decoded_schema(path: IndexPath) -> Result<SchemaRef> {
    let mut fields = base_fields();
    fields.extend(typed_fields(path)?);
    fields.push(Arc::new(Field::new("bytes", DataType::BinaryView, false)));
    Ok(Arc::new(Schema::new(fields)))
}

/// The schema of [`decode_bytes`]: the typed columns, `decode_error` and `bytes`.
pub fn bytes_schema(path: IndexPath) -> Result<SchemaRef> {
    let mut fields = typed_fields(path)?;
    fields.push(Arc::new(Field::new("bytes", DataType::BinaryView, false)));
    Ok(Arc::new(Schema::new(fields)))
}

/// What decoding one container gave: the envelope alone when the inner block failed, so the
/// row keeps what could be read.
pub struct Decoded<I> {
    /// The envelope (block indexes), when it parsed or the block is pre-fork.
    pub envelope: Option<EnvelopeRow>,
    /// The inner block or transaction, or why it failed.
    pub inner: std::result::Result<I, DecodeError>,
}

/// How one block index's inner blocks decode: the decoder, the inner block's own id, whether
/// its times fit nanosecond timestamps, and whether a raw block may look like an envelope
/// (P-chain Apricot type ids 0–2 collide).
struct InnerBlock<B> {
    decode: fn(&[u8]) -> std::result::Result<B, DecodeError>,
    id: fn(&B) -> [u8; 32],
    times_fit: fn(&B) -> bool,
    may_collide: bool,
}

const P_BLOCKS: InnerBlock<pchain::PBlock> = InnerBlock {
    decode: pchain::decode_block,
    id: |b| b.block_id,
    times_fit: |b| b.time.is_none_or(|t| seconds_to_ns(i128::from(t)).is_some()),
    may_collide: true,
};

const X_BLOCKS: InnerBlock<xchain::XBlock> = InnerBlock {
    decode: xchain::decode_block,
    id: |b| b.block_id,
    times_fit: |b| seconds_to_ns(i128::from(b.time)).is_some(),
    may_collide: false,
};

/// Splits a block container into its envelope (or the pre-fork marker) and its inner block, as
/// the node does: the envelope first, else the raw block. A P-chain Apricot block whose type id
/// collides with an envelope's decodes as the raw block when its inner part does not.
fn decode_block_container<B>(bytes: &[u8], how: &InnerBlock<B>) -> Decoded<B> {
    let decoded = match proposervm::parse(bytes) {
        Ok(env) => match (how.decode)(env.inner) {
            Ok(block) => Decoded { envelope: Some(EnvelopeRow::of(&env, Some((how.id)(&block)))), inner: Ok(block) },
            Err(e) => match (how.decode)(bytes) {
                Ok(raw) if how.may_collide => {
                    Decoded { envelope: Some(EnvelopeRow::pre_fork((how.id)(&raw))), inner: Ok(raw) }
                }
                _ => Decoded { envelope: Some(EnvelopeRow::of(&env, None)), inner: Err(e.shifted(env.inner_offset)) },
            },
        },
        Err(_) => match (how.decode)(bytes) {
            Ok(block) => Decoded { envelope: Some(EnvelopeRow::pre_fork((how.id)(&block))), inner: Ok(block) },
            Err(e) => Decoded { envelope: None, inner: Err(e) },
        },
    };
    let times_fit = decoded.envelope.as_ref().is_none_or(EnvelopeRow::times_fit)
        && decoded.inner.as_ref().map_or(true, how.times_fit);
    if times_fit {
        decoded
    } else {
        Decoded { envelope: None, inner: Err(time_error(0)) }
    }
}

/// Splits a C/block container into its envelope (or the pre-fork marker) and its coreth block.
pub fn decode_c_container(bytes: &[u8]) -> Decoded<cchain::CBlock> {
    decode_c_container_with(bytes, cchain::Hashes::ALL)
}

/// [`decode_c_container`] computing only the hashes `hashes` asks for.
pub fn decode_c_container_with(bytes: &[u8], hashes: cchain::Hashes) -> Decoded<cchain::CBlock> {
    let mut block = cchain::CBlock::empty();
    let (envelope, inner) = decode_c_container_into(bytes, hashes, &mut block);
    Decoded { envelope, inner: inner.map(|()| block) }
}

/// [`decode_c_container_with`] into `block` (its buffers reused, as
/// [`cchain::decode_block_into`]): the rules of [`decode_block_container`] for C/block, whose
/// raw blocks never look like an envelope. `block` holds the decoded block when the result is
/// `Ok`.
fn decode_c_container_into(
    bytes: &[u8],
    hashes: cchain::Hashes,
    block: &mut cchain::CBlock,
) -> (Option<EnvelopeRow>, std::result::Result<(), DecodeError>) {
    let (envelope, inner) = match proposervm::parse(bytes) {
        Ok(env) => match cchain::decode_block_into(env.inner, hashes, block) {
            Ok(()) => (Some(EnvelopeRow::of(&env, Some(block.hash))), Ok(())),
            Err(e) => (Some(EnvelopeRow::of(&env, None)), Err(e.shifted(env.inner_offset))),
        },
        Err(_) => match cchain::decode_block_into(bytes, hashes, block) {
            Ok(()) => (Some(EnvelopeRow::pre_fork(block.hash)), Ok(())),
            Err(e) => (None, Err(e)),
        },
    };
    let fits = envelope.as_ref().is_none_or(EnvelopeRow::times_fit) && (inner.is_err() || times_fit(block));
    if fits {
        (envelope, inner)
    } else {
        (None, Err(time_error(0)))
    }
}

/// Splits a P/block container into its envelope (or the pre-fork marker) and its platformvm block.
pub fn decode_p_container(bytes: &[u8]) -> Decoded<pchain::PBlock> {
    decode_block_container(bytes, &P_BLOCKS)
}

/// Splits an X/block container into its envelope and its AVM block.
pub fn decode_x_container(bytes: &[u8]) -> Decoded<xchain::XBlock> {
    decode_block_container(bytes, &X_BLOCKS)
}

fn time_error(offset: usize) -> DecodeError {
    DecodeError::new(offset, "a block time is outside the range of nanosecond timestamps")
}

/// The inner columns of one index.
enum InnerColumns {
    /// The columns, the hashes computed, and the block each container is decoded into.
    C(Box<CBlockColumns>, cchain::Hashes, Box<cchain::CBlock>),
    P(Box<PBlockColumns>),
    XBlock(Box<XBlockColumns>),
    XTx(Box<XTxColumns>),
}

impl InnerColumns {
    /// Builders for `n` rows of `bytes` container bytes in all.
    fn new(path: IndexPath, n: usize, bytes: usize) -> Self {
        match path {
            IndexPath::CBlock => InnerColumns::C(
                Box::new(CBlockColumns::for_bytes(n, bytes)),
                cchain::Hashes::ALL,
                Box::new(cchain::CBlock::empty()),
            ),
            IndexPath::PBlock => InnerColumns::P(Box::new(PBlockColumns::with_capacity(n))),
            IndexPath::XBlock => InnerColumns::XBlock(Box::new(XBlockColumns::with_capacity(n))),
            _ => InnerColumns::XTx(Box::new(XTxColumns::with_capacity(n))),
        }
    }

    /// Decodes one container and appends its inner row (or nulls); returns the envelope and
    /// the error, if any.
    fn append(&mut self, bytes: &[u8]) -> (Option<EnvelopeRow>, Option<DecodeError>) {
        fn put<C: RowColumns>(cols: &mut C, d: Decoded<C::Row>) -> (Option<EnvelopeRow>, Option<DecodeError>) {
            match d.inner {
                Ok(row) => {
                    cols.append(Some(&row));
                    (d.envelope, None)
                }
                Err(e) => {
                    cols.append(None);
                    (d.envelope, Some(e))
                }
            }
        }
        match self {
            InnerColumns::C(c, hashes, block) => {
                let (envelope, inner) = decode_c_container_into(bytes, *hashes, block);
                c.append(inner.is_ok().then_some(&**block));
                (envelope, inner.err())
            }
            InnerColumns::P(c) => put(c.as_mut(), decode_p_container(bytes)),
            InnerColumns::XBlock(c) => put(c.as_mut(), decode_x_container(bytes)),
            InnerColumns::XTx(c) => put(c.as_mut(), Decoded { envelope: None, inner: xchain::decode_tx(bytes) }),
        }
    }

    fn finish(&mut self) -> Vec<ArrayRef> {
        match self {
            InnerColumns::C(c, ..) => c.finish(),
            InnerColumns::P(c) => c.finish(),
            InnerColumns::XBlock(c) => c.finish(),
            InnerColumns::XTx(c) => c.finish(),
        }
    }
}

/// Builders of the typed columns and `decode_error` of one index (the caller adds `bytes`).
pub(super) struct TypedColumns {
    path: IndexPath,
    mode: DecodeMode,
    envelope: Option<EnvelopeColumns>,
    inner: InnerColumns,
    errors: StringViewBuilder,
}

impl TypedColumns {
    /// Builders for `n` containers of `bytes` bytes in all.
    pub(super) fn new(path: IndexPath, mode: DecodeMode, n: usize, bytes: usize) -> Self {
        TypedColumns {
            path,
            mode,
            envelope: (path != IndexPath::XTx).then(|| EnvelopeColumns::with_capacity(n)),
            inner: InnerColumns::new(path, n, bytes),
            errors: StringViewBuilder::with_capacity(n),
        }
    }

    /// Computes only the hashes `hashes` asks for (C/block; other indexes have none to skip).
    pub(super) fn with_hashes(mut self, hashes: cchain::Hashes) -> Self {
        if let InnerColumns::C(_, h, _) = &mut self.inner {
            *h = hashes;
        }
        self
    }

    /// Lets the envelope's `proposervm_parent_id` refer to the node's id texts in `ids`
    /// ([`TypedColumns::append_after`]).
    pub(super) fn share_ids(&mut self, ids: Buffer) {
        if let Some(envelope) = self.envelope.as_mut() {
            envelope.share_ids(ids);
        }
    }

    /// Decodes and appends one container; `who` gives its position text, index and id for a
    /// strict-mode error.
    pub(super) fn append(
        &mut self,
        bytes: &[u8],
        who: impl FnOnce() -> (String, Option<u64>, Option<String>),
    ) -> Result<()> {
        self.append_after(bytes, None, who)
    }

    /// [`TypedColumns::append`] of a container that follows the one with id `previous` (its
    /// bytes and its text in the shared ids): a parent id equal to it takes that text.
    pub(super) fn append_after(
        &mut self,
        bytes: &[u8],
        previous: Option<SharedId<'_>>,
        who: impl FnOnce() -> (String, Option<u64>, Option<String>),
    ) -> Result<()> {
        let (envelope, error) = self.inner.append(bytes);
        if let (Some(e), DecodeMode::Strict) = (&error, self.mode) {
            let (position, index, id) = who();
            return Err(Error::ContainerDecode {
                path: self.path.to_string(),
                position,
                index,
                id,
                offset: e.offset,
                message: e.message.clone(),
            });
        }
        if let Some(columns) = self.envelope.as_mut() {
            columns.append_after(envelope.as_ref(), previous);
        }
        self.errors.append_option(error.map(|e| e.to_string()));
        Ok(())
    }

    /// Appends the finished columns to `columns`, in schema order (`bytes` is the caller's).
    pub(super) fn finish(mut self, columns: &mut Vec<ArrayRef>) {
        if let Some(mut envelope) = self.envelope.take() {
            columns.extend(envelope.finish());
        }
        columns.extend(self.inner.finish());
        columns.push(Arc::new(self.errors.finish()));
    }
}

/// Decodes containers of `path` into one record batch of [`decoded_schema_for`] `mode`.
pub fn decode_containers(path: IndexPath, containers: &[Container], mode: DecodeMode) -> Result<RecordBatch> {
    decode_containers_with(path, containers, mode, cchain::Hashes::ALL)
}

/// [`decode_containers`] computing only the C-chain hashes `hashes` asks for (as
/// [`super::decode_columns_with`]).
pub fn decode_containers_with(
    path: IndexPath,
    containers: &[Container],
    mode: DecodeMode,
    hashes: cchain::Hashes,
) -> Result<RecordBatch> {
    check_mode(path, mode)?;
    let schema = decoded_schema(path)?;
    let n = containers.len();
    let mut id = StringViewBuilder::with_capacity(n);
    let mut timestamp = timestamp_builder(n);
    let mut index = UInt64Builder::with_capacity(n);
    let mut bytes = BinaryViewBuilder::with_capacity(n);
    let total = containers.iter().map(|c| c.bytes.len()).sum();
    let mut typed = TypedColumns::new(path, mode, n, total).with_hashes(hashes);
    for c in containers {
        id.append_value(&c.id);
        timestamp.append_value(c.timestamp_ns);
        index.append_value(c.index);
        typed.append(&c.bytes, || (format!("container {} ({})", c.index, c.id), Some(c.index), Some(c.id.clone())))?;
        bytes.append_value(&c.bytes);
    }
    let mut columns: Vec<ArrayRef> =
        vec![Arc::new(id.finish()), Arc::new(timestamp.finish()), Arc::new(index.finish())];
    typed.finish(&mut columns);
    columns.push(Arc::new(bytes.finish()));
    finish_batch(schema, columns, mode, &crate::stop::Stop::new())
}

/// The batch of `columns` (which match `schema`), with the senders when `mode` asks for them
/// (their recovery checks `stop` before each block).
pub(super) fn finish_batch(
    schema: SchemaRef,
    columns: Vec<ArrayRef>,
    mode: DecodeMode,
    stop: &crate::stop::Stop,
) -> Result<RecordBatch> {
    let batch = RecordBatch::try_new(schema, columns).expect("columns match the decoded schema");
    match mode {
        DecodeMode::Senders => super::senders::add_senders_until(batch, 0, stop),
        _ => Ok(batch),
    }
}

/// Decodes container bytes a caller already has (without the index API's checksum) into one
/// record batch of [`bytes_schema`], one row per item, in order.
pub fn decode_bytes<'a>(
    path: IndexPath,
    items: impl ExactSizeIterator<Item = &'a [u8]>,
    mode: DecodeMode,
) -> Result<RecordBatch> {
    decode_bytes_until(path, items, mode, &crate::stop::Stop::new())
}

/// Items [`decode_bytes_until`] decodes between two checks of its stop.
pub const ITEMS_PER_STOP_CHECK: usize = 64;

/// [`decode_bytes`] that `stop` ends early, at its next check (every
/// [`ITEMS_PER_STOP_CHECK`] items, and between the chunks of the senders' recovery), with
/// [`crate::Error::Interrupted`].
pub fn decode_bytes_until<'a>(
    path: IndexPath,
    items: impl ExactSizeIterator<Item = &'a [u8]>,
    mode: DecodeMode,
    stop: &crate::stop::Stop,
) -> Result<RecordBatch> {
    check_mode(path, mode)?;
    let schema = bytes_schema(path)?;
    let mut typed = TypedColumns::new(path, mode, items.len(), 0);
    let mut column = BinaryViewBuilder::with_capacity(items.len());
    for (position, bytes) in items.enumerate() {
        if position % ITEMS_PER_STOP_CHECK == 0 {
            stop.check()?;
        }
        typed.append(bytes, || (format!("item {position}"), None, None))?;
        column.append_value(bytes);
    }
    let mut columns = Vec::new();
    typed.finish(&mut columns);
    columns.push(Arc::new(column.finish()));
    finish_batch(schema, columns, mode, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt64Type;
    use arrow_array::Array;

    fn vector_bytes(name_prefix: &str) -> Vec<u8> {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/decode/cchain_blocks.json"))
                .unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let v =
            doc["vectors"].as_array().unwrap().iter().find(|v| v["name"].as_str().unwrap().starts_with(name_prefix));
        hex::decode(v.unwrap()["hex"].as_str().unwrap()).unwrap()
    }

    fn container(index: u64, bytes: Vec<u8>) -> Container {
        Container { id: format!("id{index}"), bytes, timestamp_ns: 1_000 + index as i64, index, encoding: "hex".into() }
    }

    #[test]
    fn a_requested_stop_ends_a_decode_of_given_bytes_with_an_interruption() {
        let stop = crate::stop::Stop::new();
        stop.request();
        let block = vector_bytes("");
        let items = vec![block.as_slice(); 3];
        let err = decode_bytes_until(IndexPath::CBlock, items.into_iter(), DecodeMode::Lenient, &stop).unwrap_err();
        assert!(matches!(err, crate::Error::Interrupted), "{err:?}");
        let items = vec![block.as_slice(); 3];
        let batch =
            decode_bytes_until(IndexPath::CBlock, items.into_iter(), DecodeMode::Lenient, &crate::stop::Stop::new());
        assert_eq!(batch.unwrap().num_rows(), 3);
    }

    #[test]
    fn a_bad_container_keeps_its_row_or_fails_the_batch_in_strict_mode() {
        let good = vector_bytes("synchronoustest block 20");
        let containers = vec![container(7, good.clone()), container(8, vec![0xde, 0xad]), container(9, good)];
        let batch = decode_containers(IndexPath::CBlock, &containers, DecodeMode::Lenient).unwrap();
        assert_eq!(batch.num_rows(), 3);
        let col = |name: &str| batch.column_by_name(name).unwrap().clone();
        assert_eq!(col("index").as_primitive::<UInt64Type>().values().to_vec(), vec![7, 8, 9]);
        let number = col("number");
        let number = number.as_primitive::<UInt64Type>();
        assert_eq!((number.value(0), number.is_null(1), number.value(2)), (20, true, 20));
        let errors = col("decode_error");
        let errors = errors.as_string_view();
        assert!(errors.is_null(0) && errors.is_null(2));
        assert!(errors.value(1).contains("at byte 0"), "{}", errors.value(1));
        assert_eq!(col("block_kind").as_string_view().value(0), "pre_fork");
        assert_eq!(
            col("hash").as_string_view().value(0),
            "0xc98cd60bf35027f870befad10d29a2bfe89729dcf73d24cc928167039d75403b"
        );
        assert_eq!(col("bytes").as_binary_view().value(1), &[0xde, 0xad]);
        let txs = col("transactions");
        assert_eq!(txs.as_list::<i32>().value(0).len(), 1);
        assert!(txs.is_null(1));
        let err = decode_containers(IndexPath::CBlock, &containers, DecodeMode::Strict).unwrap_err();
        assert!(matches!(err, Error::ContainerDecode { index: Some(8), .. }), "{err:?}");
        assert!(err.to_string().starts_with("could not decode C/block container 8 (id8): "), "{err}");
        assert!(matches!(decoded_schema(IndexPath::XVtx), Err(Error::InvalidArgument { .. })));
        let raw =
            decode_bytes(IndexPath::CBlock, [containers[0].bytes.as_slice(), &[1, 2]].into_iter(), DecodeMode::Lenient)
                .unwrap();
        assert_eq!(raw.num_rows(), 2);
        assert_eq!(raw.schema().field(0).name(), "block_kind");
        let err = decode_bytes(IndexPath::CBlock, [&[1u8, 2][..]].into_iter(), DecodeMode::Strict).unwrap_err();
        assert!(err.to_string().starts_with("could not decode C/block item 0: "), "{err}");
    }

    fn vectors(file: &str) -> Vec<serde_json::Value> {
        let path = format!("{}/../../tests/data/decode/{file}", env!("CARGO_MANIFEST_DIR"));
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        doc["vectors"].as_array().unwrap().clone()
    }

    #[test]
    fn p_and_x_frames_keep_envelope_and_inner_columns_apart() {
        let blocks: Vec<Vec<u8>> =
            vectors("pchain_blocks.json").iter().map(|v| hex::decode(v["hex"].as_str().unwrap()).unwrap()).collect();
        let batch = decode_bytes(IndexPath::PBlock, blocks.iter().map(Vec::as_slice), DecodeMode::Strict).unwrap();
        assert_eq!(batch.num_rows(), blocks.len());
        let kinds = batch.column_by_name("block_kind").unwrap().clone();
        assert!((0..blocks.len()).all(|i| kinds.as_string_view().value(i) == "pre_fork"));
        assert!(batch.column_by_name("proposervm_parent_id").is_some() && batch.column_by_name("parent_id").is_some());
        // The real Mainnet block at height 1000001 decodes with its height.
        let heights = batch.column_by_name("height").unwrap().clone();
        assert!(heights.as_primitive::<UInt64Type>().values().contains(&1_000_001));

        let txs: Vec<Vec<u8>> = vectors("xchain_txs.json")
            .iter()
            .filter(|v| v.get("api_hex").is_some())
            .map(|v| hex::decode(v["hex"].as_str().unwrap()).unwrap())
            .collect();
        let batch = decode_bytes(IndexPath::XTx, txs.iter().map(Vec::as_slice), DecodeMode::Strict).unwrap();
        assert!(batch.column_by_name("block_kind").is_none(), "X/tx has no envelope");
        let ids = batch.column_by_name("tx_id").unwrap().clone();
        assert_eq!(ids.as_string_view().value(0), "6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY");

        let x_block = vectors("constructed_examples.json").into_iter().find(|v| v["expected"]["typeID"] == 20).unwrap();
        let bytes = hex::decode(x_block["hex"].as_str().unwrap()).unwrap();
        let batch =
            decode_bytes(IndexPath::XBlock, [bytes.as_slice(), &[0, 0, 0, 0, 0, 20]].into_iter(), DecodeMode::Lenient)
                .unwrap();
        let heights = batch.column_by_name("height").unwrap().clone();
        assert_eq!(heights.as_primitive::<UInt64Type>().value(0), 7);
        let errors = batch.column_by_name("decode_error").unwrap().clone();
        assert!(errors.is_null(0) && !errors.is_null(1));
    }
}
