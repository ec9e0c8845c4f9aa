//! Decoded frames straight from an answer's columns ([`ContainerColumns`]): the node's ids and
//! the container bytes become the `id` and `bytes` columns without a copy, and a parent id that
//! is the previous container's id is a view of that container's text, not a new CB58 encoding.

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, TimestampNanosecondArray, UInt64Array};
use arrow_buffer::Buffer;

use super::envelope::SharedId;
use super::frame::{check_mode, decoded_schema, finish_batch, DecodeMode, TypedColumns};
use crate::arrow::containers::{bytes_view, id_view};
use crate::decode::cchain::Hashes;
use crate::error::Result;
use crate::index::columns::ColumnParts;
use crate::index::{ContainerColumns, IndexPath};
use crate::stop::Stop;

/// Decodes the containers of `columns` (of `path`) into one record batch of
/// [`super::decoded_schema_for`] `mode`: the same frame as [`super::decode_containers`] of the
/// same containers.
pub fn decode_columns(path: IndexPath, columns: ContainerColumns, mode: DecodeMode) -> Result<RecordBatch> {
    decode_columns_until(path, columns, mode, &Stop::new())
}

/// [`decode_columns`] that checks `stop` before each container (and, for senders, before each
/// block's recovery): [`crate::error::Error::Interrupted`] once a stop was requested, so a
/// consumer that went away (Ctrl-C) frees the worker within one container's work.
pub fn decode_columns_until(
    path: IndexPath,
    columns: ContainerColumns,
    mode: DecodeMode,
    stop: &Stop,
) -> Result<RecordBatch> {
    decode_columns_with(path, columns, mode, Hashes::ALL, stop)
}

/// [`decode_columns_until`] computing only the C-chain hashes `hashes` asks for: a hash not
/// computed leaves its column (`hash`, `inner_id`, the transactions' `hash`) meaningless, for
/// a [`super::Selection`] without them to drop.
pub fn decode_columns_with(
    path: IndexPath,
    columns: ContainerColumns,
    mode: DecodeMode,
    hashes: Hashes,
    stop: &Stop,
) -> Result<RecordBatch> {
    check_mode(path, mode)?;
    let schema = decoded_schema(path)?;
    let ColumnParts { blocks, spans, ids, id_spans, raw_ids, timestamps_ns, indexes } = columns.into_parts();
    let n = indexes.len();
    let blocks: Vec<Buffer> = blocks.into_iter().map(Buffer::from_vec).collect();
    let ids = Buffer::from_vec(ids.into_bytes());
    let total = spans.iter().map(|s| s.len as usize).sum();
    let mut typed = TypedColumns::new(path, mode, n, total).with_hashes(hashes);
    typed.share_ids(ids.clone());
    let id_text = |k: usize| {
        let (start, len) = id_spans[k];
        String::from_utf8_lossy(&ids[start as usize..(start + len) as usize]).into_owned()
    };
    for (k, span) in spans.iter().enumerate() {
        stop.check()?;
        let start = span.offset as usize;
        let bytes = &blocks[span.block as usize][start..start + span.len as usize];
        let previous = k.checked_sub(1).map(|p| {
            let (start, len) = id_spans[p];
            SharedId { raw: &raw_ids[p], start, len }
        });
        typed.append_after(bytes, previous, || {
            let id = id_text(k);
            (format!("container {} ({id})", indexes[k]), Some(indexes[k]), Some(id))
        })?;
    }
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(id_view(ids, &id_spans)),
        Arc::new(TimestampNanosecondArray::from(timestamps_ns).with_timezone("UTC")),
        Arc::new(UInt64Array::from(indexes)),
    ];
    typed.finish(&mut columns);
    columns.push(Arc::new(bytes_view(blocks, &spans)));
    finish_batch(schema, columns, mode, stop)
}

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::Array;

    use super::*;
    use crate::arrow::decoded::decode_containers;
    use crate::decode::proposervm::unsigned_envelope as envelope;
    use crate::error::Error;
    use crate::index::container::WireContainer;
    use crate::index::{cb58, Container, Verify};

    /// The inner block of the "synchronoustest block 20" vector (a coreth block).
    fn inner_block() -> Vec<u8> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/decode/cchain_blocks.json");
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let v = doc["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"].as_str().unwrap().starts_with("synchronoustest block 20"))
            .unwrap();
        hex::decode(v["hex"].as_str().unwrap()).unwrap()
    }

    /// Columns of containers given as (id bytes, container bytes), indexes from 100; ids are
    /// not checked against the bytes (the envelopes are made up), only decoded.
    fn columns(items: &[([u8; 32], Vec<u8>)]) -> ContainerColumns {
        let texts: Vec<String> = items
            .iter()
            .enumerate()
            .map(|(k, (id, bytes))| {
                let c = Container {
                    id: cb58::encode(id),
                    bytes: bytes.clone(),
                    timestamp_ns: 0,
                    index: 100 + k as u64,
                    encoding: "hex".into(),
                };
                c.to_wire_json(&format!("2024-01-01T00:00:0{k}Z")).to_string()
            })
            .collect();
        let wires: Vec<WireContainer> = texts.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
        let mut cols = ContainerColumns::for_answer(&wires);
        for w in &wires {
            cols.push_wire(w, Verify { ids: false }, IndexPath::CBlock).unwrap();
        }
        cols
    }

    #[test]
    fn a_frame_from_columns_equals_the_frame_of_the_same_containers() {
        let inner = inner_block();
        // Ids with leading zero bytes have leading `1`s in CB58: the shared text must still be
        // the parent's own.
        let mut zero_led = [7u8; 32];
        zero_led[..3].fill(0);
        let ids = [[1u8; 32], [2; 32], zero_led, [4; 32], [5; 32], [6; 32]];
        let items = vec![
            (ids[0], envelope([9; 32], &inner)), // parent outside the piece
            (ids[1], envelope(ids[0], &inner)),  // chained
            (ids[2], envelope(ids[1], &inner)),  // chained
            (ids[3], envelope(ids[2], &inner)),  // chained to an id with leading zero bytes
            (ids[4], vec![0xde, 0xad]),          // does not decode
            (ids[5], envelope(ids[0], &inner)),  // parent is not the previous container
        ];
        let cols = columns(&items);
        let containers: Vec<Container> = (0..cols.len()).map(|k| cols.container(k)).collect();
        for mode in [DecodeMode::Lenient, DecodeMode::Senders] {
            let expected = decode_containers(IndexPath::CBlock, &containers, mode).unwrap();
            let batch = decode_columns(IndexPath::CBlock, columns(&items), mode).unwrap();
            assert_eq!(batch.schema(), expected.schema());
            for (name, (got, want)) in
                expected.schema().fields().iter().map(|f| f.name()).zip(batch.columns().iter().zip(expected.columns()))
            {
                assert_eq!(got.as_ref(), want.as_ref(), "column {name} ({mode:?})");
            }
        }
        let batch = decode_columns(IndexPath::CBlock, cols, DecodeMode::Lenient).unwrap();
        let parents = batch.column_by_name("proposervm_parent_id").unwrap().as_string_view().clone();
        let texts: Vec<Option<&str>> =
            (0..parents.len()).map(|k| parents.is_valid(k).then(|| parents.value(k))).collect();
        let cb58 = |id: &[u8; 32]| cb58::encode(id);
        assert_eq!(
            texts,
            vec![
                Some(cb58(&[9; 32]).as_str()),
                Some(cb58(&ids[0]).as_str()),
                Some(cb58(&ids[1]).as_str()),
                Some(cb58(&zero_led).as_str()),
                None,
                Some(cb58(&ids[0]).as_str()),
            ]
        );
        assert!(texts[3].unwrap().starts_with("111"), "three zero bytes, three leading 1s: {:?}", texts[3]);
        let node_ids = batch.column_by_name("id").unwrap().as_string_view().clone();
        assert_eq!(node_ids.value(1), parents.value(2), "the parent's text is the node's id of the row before");
        let bytes = batch.column_by_name("bytes").unwrap().as_binary_view().clone();
        assert_eq!(bytes.value(4), &[0xde, 0xad]);
        assert_eq!(bytes.value(5), items[5].1.as_slice());
    }

    #[test]
    fn a_requested_stop_ends_the_decoding_with_interrupted() {
        let inner = inner_block();
        let items = vec![([1u8; 32], envelope([9; 32], &inner)), ([2u8; 32], envelope([1; 32], &inner))];
        let stop = Stop::new();
        for mode in [DecodeMode::Lenient, DecodeMode::Senders] {
            assert_eq!(decode_columns_until(IndexPath::CBlock, columns(&items), mode, &stop).unwrap().num_rows(), 2);
        }
        stop.request();
        for mode in [DecodeMode::Lenient, DecodeMode::Strict, DecodeMode::Senders] {
            let err = decode_columns_until(IndexPath::CBlock, columns(&items), mode, &stop).unwrap_err();
            assert!(matches!(err, Error::Interrupted), "{mode:?}: {err:?}");
        }
    }

    #[test]
    fn strict_mode_names_the_container_that_failed() {
        let inner = inner_block();
        let items = vec![([1u8; 32], envelope([9; 32], &inner)), ([2u8; 32], vec![0xde, 0xad])];
        let err = decode_columns(IndexPath::CBlock, columns(&items), DecodeMode::Strict).unwrap_err();
        assert!(matches!(err, Error::ContainerDecode { index: Some(101), .. }), "{err:?}");
        let id = cb58::encode(&[2u8; 32]);
        assert!(err.to_string().starts_with(&format!("could not decode C/block container 101 ({id}): ")), "{err}");
        let err = decode_columns(IndexPath::XVtx, columns(&items[..1]), DecodeMode::Lenient).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument { .. }), "{err:?}");
    }
}
