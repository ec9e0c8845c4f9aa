//! The Arrow schema and batch builder of index containers.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{BinaryViewBuilder, StringViewBuilder, TimestampNanosecondBuilder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};

use crate::index::Container;

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

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{TimestampNanosecondType, UInt64Type};

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
}
