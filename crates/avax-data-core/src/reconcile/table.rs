//! The differences as one Arrow batch (a polars DataFrame in Python).

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::compare::Difference;

/// The columns of a reconcile's differences, the same with no rows: `kind`, `chain`, `height`,
/// `id`, `field`, `index_value`, `data_value` (the values nullable: `null` where that side does
/// not hold the block or transaction).
pub fn differences_schema() -> SchemaRef {
    let text = |name: &str, nullable| Field::new(name, DataType::Utf8, nullable);
    Arc::new(Schema::new(vec![
        text("kind", false),
        text("chain", false),
        Field::new("height", DataType::UInt64, false),
        text("id", false),
        text("field", false),
        text("index_value", true),
        text("data_value", true),
    ]))
}

/// `differences` as one batch of [`differences_schema`], in their order.
pub fn differences_batch(differences: &[Difference]) -> RecordBatch {
    let column = |get: fn(&Difference) -> Option<&str>| -> ArrayRef {
        Arc::new(differences.iter().map(get).collect::<StringArray>())
    };
    let columns = vec![
        column(|d| Some(d.kind.as_str())),
        column(|d| Some(d.chain)),
        Arc::new(UInt64Array::from_iter_values(differences.iter().map(|d| d.height))) as ArrayRef,
        column(|d| Some(d.id.as_str())),
        column(|d| Some(d.field)),
        column(|d| d.index_value.as_deref()),
        column(|d| d.data_value.as_deref()),
    ];
    RecordBatch::try_new(differences_schema(), columns).expect("the columns follow the schema")
}
