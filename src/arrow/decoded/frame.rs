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
use arrow_schema::{DataType, Field, FieldRef, Schema, SchemaRef};

use super::cchain::{times_fit, CBlockColumns};
use super::cols::{field, timestamp_builder, timestamp_type};
use super::envelope::{EnvelopeColumns, EnvelopeRow};
use super::RowColumns;
use crate::decode::{cchain, proposervm, DecodeError};
use crate::error::{Error, Result};
use crate::index::{Container, IndexPath};

/// How decoding failures are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeMode {
    /// The row stays, with null typed columns and a `decode_error` message.
    Lenient,
    /// The batch fails with [`Error::Decode`].
    Strict,
}

/// Fails for indexes whose containers have no decoder.
pub fn check_decodable(path: IndexPath) -> Result<()> {
    match path {
        IndexPath::CBlock => Ok(()),
        other => Err(Error::invalid(
            "decode",
            format!("True for {other}"),
            "decoding is available for C/block, P/block, X/block and X/tx; X/vtx vertices have no published layout",
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

/// The schema of decoded frames of `path`.
pub fn decoded_schema(path: IndexPath) -> Result<SchemaRef> {
    check_decodable(path)?;
    let mut fields = base_fields();
    fields.extend(EnvelopeColumns::fields());
    fields.extend(CBlockColumns::fields());
    fields.push(field("decode_error", DataType::Utf8View));
    fields.push(Arc::new(Field::new("bytes", DataType::BinaryView, false)));
    Ok(Arc::new(Schema::new(fields)))
}

/// Splits a block container into its envelope (or the pre-fork marker) and its inner C-chain
/// block, as the node does: the envelope first, else the raw block.
pub fn decode_c_container(bytes: &[u8]) -> std::result::Result<(EnvelopeRow, cchain::CBlock), DecodeError> {
    match proposervm::parse(bytes) {
        Ok(env) => {
            let block = cchain::decode_block(env.inner).map_err(|e| e.shifted(env.inner_offset))?;
            Ok((EnvelopeRow::of(&env, block.hash), block))
        }
        Err(_) => {
            let block = cchain::decode_block(bytes)?;
            Ok((EnvelopeRow::pre_fork(block.hash), block))
        }
    }
}

fn checked_c(bytes: &[u8]) -> std::result::Result<(EnvelopeRow, cchain::CBlock), DecodeError> {
    let (envelope, block) = decode_c_container(bytes)?;
    if !envelope.times_fit() || !times_fit(&block) {
        return Err(DecodeError::new(0, "a block time is outside the range of nanosecond timestamps"));
    }
    Ok((envelope, block))
}

/// Decodes containers of `path` into one record batch of [`decoded_schema`].
pub fn decode_containers(path: IndexPath, containers: &[Container], mode: DecodeMode) -> Result<RecordBatch> {
    let schema = decoded_schema(path)?;
    let n = containers.len();
    let mut id = StringViewBuilder::with_capacity(n);
    let mut timestamp = timestamp_builder(n);
    let mut index = UInt64Builder::with_capacity(n);
    let mut envelope = EnvelopeColumns::with_capacity(n);
    let mut inner = CBlockColumns::with_capacity(n);
    let mut errors = StringViewBuilder::with_capacity(n);
    let mut bytes = BinaryViewBuilder::with_capacity(n);
    for c in containers {
        id.append_value(&c.id);
        timestamp.append_value(c.timestamp_ns);
        index.append_value(c.index);
        bytes.append_value(&c.bytes);
        match checked_c(&c.bytes) {
            Ok((env, block)) => {
                envelope.append(Some(&env));
                inner.append(Some(&block));
                errors.append_null();
            }
            Err(e) if mode == DecodeMode::Strict => {
                return Err(Error::Decode {
                    message: format!("{path} container {} ({}): {e}", c.index, c.id),
                    url: String::new(),
                    body: String::new(),
                })
            }
            Err(e) => {
                envelope.append(None);
                inner.append(None);
                errors.append_value(e.to_string());
            }
        }
    }
    let mut columns: Vec<ArrayRef> = vec![Arc::new(id.finish()), Arc::new(timestamp.finish()), Arc::new(index.finish())];
    columns.extend(envelope.finish());
    columns.extend(inner.finish());
    columns.push(Arc::new(errors.finish()));
    columns.push(Arc::new(bytes.finish()));
    Ok(RecordBatch::try_new(schema, columns).expect("columns match the decoded schema"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt64Type;
    use arrow_array::Array;

    fn vector_bytes(name_prefix: &str) -> Vec<u8> {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/decode/cchain_blocks.json"))
            .unwrap();
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        let v = doc["vectors"].as_array().unwrap().iter().find(|v| v["name"].as_str().unwrap().starts_with(name_prefix));
        hex::decode(v.unwrap()["hex"].as_str().unwrap()).unwrap()
    }

    fn container(index: u64, bytes: Vec<u8>) -> Container {
        Container { id: format!("id{index}"), bytes, timestamp_ns: 1_000 + index as i64, index, encoding: "hex".into() }
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
        assert!(matches!(err, Error::Decode { ref message, .. } if message.starts_with("C/block container 8 (id8): ")), "{err}");
        assert!(matches!(decoded_schema(IndexPath::XVtx), Err(Error::InvalidArgument { .. })));
    }
}
