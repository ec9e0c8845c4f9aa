use std::sync::Arc;

use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};

use super::*;
use crate::arrow::decoded::DecodeMode;
use crate::arrow::Resource;
use crate::index::walk::walk_schema;
use crate::index::IndexPath;

/// Today's digests of each kind of dataset (blocks and vertices changed with the column
/// types of issue 34, metric series with their `extra` column: CHANGELOG.md): a change here makes every existing dataset of that
/// kind "another walk", so it must be a change of its columns, never of a dependency.
const PINNED: [(&str, &str); 7] = [
    ("index raw", "0f2328d8b9438242cb1d30874992b953737677063803823f6964bf67c1ae032e"),
    ("index X/tx decoded", "c726701d138e2a93239bb99eb0216585ade5e104330ece51fbddecba6f7c4e7e"),
    ("index C/block decoded", "7ca8ef86015361d6f933e4f9cbc87d35d4f15ae6e3f87b9133df0b59b1eff237"),
    ("index C/block senders", "ee4f0a5b659f073a247ccff22e26a58b924d09b1f2185c574df11162f800bec1"),
    ("data blocks", "926d3face1b36d2575c135a6baeaf41881340428e9f6169868080abe60d1fbfa"),
    ("data vertices", "00fe32f9e2bdae1254b2e0d402de5f151d88f237520db812cf4c17480ff9dffe"),
    ("metrics", "a43e0d72967039d9b514204a03b1ad24f4213b83750922101b8559d6772a3c31"),
];

fn schemas() -> Vec<(&'static str, arrow_schema::SchemaRef)> {
    vec![
        ("index raw", walk_schema(IndexPath::XTx, None).unwrap()),
        ("index X/tx decoded", walk_schema(IndexPath::XTx, Some(DecodeMode::Lenient)).unwrap()),
        ("index C/block decoded", walk_schema(IndexPath::CBlock, Some(DecodeMode::Lenient)).unwrap()),
        ("index C/block senders", walk_schema(IndexPath::CBlock, Some(DecodeMode::Senders)).unwrap()),
        ("data blocks", Resource::Block.schema()),
        ("data vertices", Resource::Vertex.schema()),
        ("metrics", Resource::MetricValue.schema()),
    ]
}

#[test]
fn every_kind_of_dataset_keeps_its_pinned_schema_digest() {
    let found: Vec<(&str, String)> = schemas().iter().map(|(name, schema)| (*name, digest(schema))).collect();
    let pinned: Vec<(&str, String)> = PINNED.iter().map(|(n, d)| (*n, d.to_string())).collect();
    assert_eq!(found, pinned);
}

#[test]
fn the_raw_index_schema_reads_as_its_columns() {
    let schema = walk_schema(IndexPath::XTx, None).unwrap();
    assert_eq!(
        canonical_text(&schema),
        "id: utf8_view not null, bytes: binary_view not null, timestamp: timestamp[ns, UTC] not null, \
         index: uint64 not null, encoding: utf8_view not null"
    );
}

#[test]
fn nested_types_nullability_and_odd_names_are_spelled_out() {
    let item = Arc::new(Field::new("item", DataType::Int64, true));
    let inner = Fields::from(vec![
        Field::new("a b", DataType::Utf8View, false),
        Field::new("at", DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into())), true),
    ]);
    let schema = Schema::new(vec![
        Field::new("xs", DataType::List(item), false),
        Field::new("s", DataType::Struct(inner), true),
        Field::new("d", DataType::Decimal128(38, 0), true),
    ]);
    assert_eq!(
        canonical_text(&schema),
        "xs: list<item: int64> not null, s: struct<\"a b\": utf8_view not null, at: timestamp[ns, UTC]>, \
         d: decimal128[38, 0]"
    );
    // metadata is not part of it; nullability and names are
    let with_metadata = schema.clone().with_metadata([("k".to_string(), "v".to_string())].into());
    assert_eq!(digest(&with_metadata), digest(&schema));
    let renamed = Schema::new(vec![Field::new("ys", DataType::Int64, false)]);
    let nullable = Schema::new(vec![Field::new("ys", DataType::Int64, true)]);
    assert_ne!(digest(&renamed), digest(&nullable));
    assert_eq!(digest(&renamed).len(), 64);
}
