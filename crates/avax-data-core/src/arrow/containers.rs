//! The Arrow schema and batch builder of index containers.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{BinaryViewBuilder, StringViewBuilder, TimestampNanosecondBuilder, UInt64Builder};
use arrow_array::{ArrayRef, BinaryViewArray, RecordBatch, StringViewArray, TimestampNanosecondArray, UInt64Array};
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};

use crate::index::columns::{ColumnParts, Span};
use crate::index::{Container, ContainerColumns};

/// `id: Utf8View, bytes: BinaryView, timestamp: Timestamp(ns, UTC), index: UInt64, encoding: Utf8View`.
pub fn container_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            Arc::new(Schema::new(vec![
                Field::new("id", DataType::Utf8View, false),
                Field::new("bytes", DataType::BinaryView, false),
                Field::new("timestamp", DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())), false),
                Field::new("index", DataType::UInt64, false),
                Field::new("encoding", DataType::Utf8View, false),
            ]))
        })
        .clone()
}

/// One record batch of containers, in the given order.
pub fn containers_to_batch(containers: &[Container]) -> RecordBatch {
    let n = containers.len();
    let mut id = StringViewBuilder::with_capacity(n);
    let mut bytes = BinaryViewBuilder::with_capacity(n);
    let mut timestamp = TimestampNanosecondBuilder::with_capacity(n).with_timezone("UTC");
    let mut index = UInt64Builder::with_capacity(n);
    let mut encoding = StringViewBuilder::with_capacity(n);
    for c in containers {
        id.append_value(&c.id);
        bytes.append_value(&c.bytes);
        timestamp.append_value(c.timestamp_ns);
        index.append_value(c.index);
        encoding.append_value(&c.encoding);
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(id.finish()),
        Arc::new(bytes.finish()),
        Arc::new(timestamp.finish()),
        Arc::new(index.finish()),
        Arc::new(encoding.finish()),
    ];
    RecordBatch::try_new(container_schema(), columns).expect("columns match the container schema")
}

/// One record batch of columns of containers, in their order. The buffers of bytes and ids
/// become the arrays' data buffers as they are (no copy): only the views are built.
pub fn columns_to_batch(columns: ContainerColumns) -> RecordBatch {
    let ColumnParts { blocks, spans, ids, id_spans, timestamps_ns, indexes, .. } = columns.into_parts();
    let n = indexes.len();
    let bytes = bytes_view(blocks.into_iter().map(Buffer::from_vec).collect(), &spans);
    let id = id_view(Buffer::from_vec(ids.into_bytes()), &id_spans);
    let mut encoding = StringViewBuilder::with_capacity(n);
    for _ in 0..n {
        encoding.append_value("hex");
    }
    let timestamp = TimestampNanosecondArray::from(timestamps_ns).with_timezone("UTC");
    let columns: Vec<ArrayRef> = vec![
        Arc::new(id),
        Arc::new(bytes),
        Arc::new(timestamp),
        Arc::new(UInt64Array::from(indexes)),
        Arc::new(encoding.finish()),
    ];
    RecordBatch::try_new(container_schema(), columns).expect("columns match the container schema")
}

/// The `bytes` column of an answer's containers: views of `blocks` (no copy) at `spans`.
pub(crate) fn bytes_view(blocks: Vec<Buffer>, spans: &[Span]) -> BinaryViewArray {
    let mut bytes = BinaryViewBuilder::with_capacity(spans.len());
    let blocks: Vec<u32> = blocks.into_iter().map(|b| bytes.append_block(b)).collect();
    for s in spans {
        bytes.try_append_view(blocks[s.block as usize], s.offset, s.len).expect("spans lie in their blocks");
    }
    bytes.finish()
}

/// The `id` column of an answer's containers: views of the ids' text `ids` (no copy) at `id_spans`.
pub(crate) fn id_view(ids: Buffer, id_spans: &[(u32, u32)]) -> StringViewArray {
    let mut id = StringViewBuilder::with_capacity(id_spans.len());
    let ids_block = id.append_block(ids);
    for &(start, len) in id_spans {
        id.try_append_view(ids_block, start, len).expect("id spans lie in the ids, at character boundaries");
    }
    id.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{TimestampNanosecondType, UInt64Type};

    use crate::index::cb58;
    use crate::index::container::{Verify, WireContainer};
    use crate::index::IndexPath;

    #[test]
    fn a_batch_keeps_values_order_and_nanoseconds() {
        let containers: Vec<Container> = (0..3u64)
            .map(|i| Container {
                id: format!("id{i}"),
                bytes: vec![i as u8; i as usize + 1],
                timestamp_ns: 1_635_986_575_016_434_140 + i as i64,
                index: 10 + i,
                encoding: "hex".into(),
            })
            .collect();
        let batch = containers_to_batch(&containers);
        assert_eq!(batch.num_rows(), 3);
        assert_eq!(batch.schema(), container_schema());
        assert_eq!(batch.column(0).as_string_view().value(2), "id2");
        assert_eq!(batch.column(1).as_binary_view().value(1), &[1u8, 1]);
        assert_eq!(batch.column(2).as_primitive::<TimestampNanosecondType>().value(2), 1_635_986_575_016_434_142);
        assert_eq!(batch.column(3).as_primitive::<UInt64Type>().values().to_vec(), vec![10, 11, 12]);
        assert_eq!(containers_to_batch(&[]).num_rows(), 0);
    }

    /// Columns of containers of the given sizes, decoded from their wire form (in two answers
    /// when `split` is given, as a short answer and the call after it would be).
    fn columns(sizes: &[usize], split: Option<usize>) -> (ContainerColumns, Vec<Container>) {
        let owned: Vec<Container> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let bytes: Vec<u8> = (0..n).map(|k| (k * 31 + i) as u8).collect();
                Container {
                    id: cb58::container_id(&bytes),
                    bytes,
                    timestamp_ns: 1_635_986_575_016_434_140 + i as i64,
                    index: 40 + i as u64,
                    encoding: "hex".into(),
                }
            })
            .collect();
        let texts: Vec<String> = owned
            .iter()
            .map(|c| c.to_wire_json(&format!("2021-11-04T00:42:55.{:09}Z", 16_434_140 + c.index - 40)).to_string())
            .collect();
        let wires: Vec<WireContainer> = texts.iter().map(|t| serde_json::from_str(t).unwrap()).collect();
        let at = split.unwrap_or(wires.len());
        let mut out = ContainerColumns::default();
        for part in [&wires[..at], &wires[at..]] {
            let mut answer = ContainerColumns::for_answer(part);
            for w in part {
                answer.push_wire(w, Verify::default(), IndexPath::XTx).unwrap();
            }
            out.append(answer);
        }
        (out, owned)
    }

    #[test]
    fn a_batch_of_columns_holds_the_exact_bytes_ids_and_order_of_the_containers() {
        // inline (<= 12 bytes) and buffered views, an empty container, over two answers
        for split in [None, Some(2)] {
            let (cols, owned) = columns(&[0, 5, 12, 13, 4000, 1], split);
            let batch = columns_to_batch(cols);
            assert_eq!(batch, containers_to_batch(&owned));
            assert_eq!(batch.schema(), container_schema());
            let bytes = batch.column(1).as_binary_view();
            for (k, c) in owned.iter().enumerate() {
                assert_eq!(bytes.value(k), c.bytes.as_slice());
                assert_eq!(batch.column(0).as_string_view().value(k), c.id);
                assert_eq!(batch.column(4).as_string_view().value(k), "hex");
            }
            assert_eq!(batch.column(3).as_primitive::<UInt64Type>().values().to_vec(), (40..46).collect::<Vec<u64>>());
            assert_eq!(batch.column(2).as_primitive::<TimestampNanosecondType>().value(5), 1_635_986_575_016_434_145);
            assert!(batch.columns().iter().all(|c| c.null_count() == 0), "no nulls");
        }
    }

    #[test]
    fn the_bytes_buffer_of_an_answer_becomes_the_array_buffer_without_a_copy() {
        let (cols, _) = columns(&[100, 200, 300], None);
        let first = cols.bytes(0).as_ptr();
        let batch = columns_to_batch(cols);
        let bytes = batch.column(1).as_binary_view();
        assert_eq!(bytes.data_buffers().len(), 1);
        assert_eq!(bytes.value(0).as_ptr(), first);
        assert_eq!(bytes.data_buffers()[0].len(), 600);
    }

    #[test]
    fn empty_columns_make_an_empty_batch() {
        let batch = columns_to_batch(ContainerColumns::default());
        assert_eq!(batch.num_rows(), 0);
        assert_eq!(batch.schema(), container_schema());
        assert_eq!(columns_to_batch(columns(&[], None).0).num_rows(), 0);
    }
}
