//! `decode="senders"` on `C/block`: the decoded frame with a `from` field in each transaction
//! of its `transactions` column (after `hash`), the sender recovered from the transaction's
//! secp256k1 signature ([`crate::decode::senders`]), the blocks of a batch spread over the
//! cores. A block that decoded but holds a transaction whose signature is invalid fails the
//! batch with [`Error::ContainerDecode`] naming the container and the transaction: an address
//! is never guessed. Blocks that did not decode keep their row (null `transactions`).

use std::sync::Arc;

use arrow_array::builder::StringViewBuilder;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{Array, ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, FieldRef, Fields, Schema, SchemaRef};

use crate::decode::senders::senders_of_containers_until;
use crate::error::{Error, Result};
use crate::index::IndexPath;
use crate::stop::Stop;

/// The name of the sender field of a transaction.
pub const FROM: &str = "from";

/// The list column that holds the transactions.
const TRANSACTIONS: &str = "transactions";

/// The refusal of `decode="senders"` on `path`, or `None` on `C/block`.
pub fn refuse_on(path: IndexPath) -> Option<Error> {
    (path != IndexPath::CBlock).then(|| {
        Error::invalid(
            "decode",
            "'senders'",
            format!("True, False or 'strict' on {path}: 'senders' (the C-chain transactions' signers) only on C/block"),
        )
    })
}

/// The transaction struct fields with `from` after `hash`.
fn with_from(fields: &Fields) -> Fields {
    let at = fields.iter().position(|f| f.name() == "hash").map_or(fields.len(), |i| i + 1);
    let mut out: Vec<FieldRef> = fields.iter().cloned().collect();
    out.insert(at, Arc::new(Field::new(FROM, DataType::Utf8View, true)));
    Fields::from(out)
}

/// The list type of the transactions with `from`, from the list type without it.
fn list_with_from(data_type: &DataType) -> Result<(FieldRef, Fields)> {
    match data_type {
        DataType::List(item) => match item.data_type() {
            DataType::Struct(fields) => {
                let fields = with_from(fields);
                let item = Arc::new(Field::new(item.name(), DataType::Struct(fields.clone()), item.is_nullable()));
                Ok((item, fields))
            }
            other => Err(Error::Internal(format!("the transactions' items are {other}, not structs"))),
        },
        other => Err(Error::Internal(format!("the transactions column is {other}, not a list"))),
    }
}

/// `schema` (a decoded `C/block` schema) with `from` in each transaction.
pub fn senders_schema(schema: &Schema) -> Result<SchemaRef> {
    let mut fields = Vec::with_capacity(schema.fields().len());
    for f in schema.fields() {
        if f.name() == TRANSACTIONS {
            let (item, _) = list_with_from(f.data_type())?;
            fields.push(Arc::new(Field::new(TRANSACTIONS, DataType::List(item), f.is_nullable())));
        } else {
            fields.push(f.clone());
        }
    }
    Ok(Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone())))
}

/// Adds `from` to the transactions of a decoded `C/block` batch, recovering each block's
/// senders on up to `threads` threads (0: one per core).
pub fn add_senders(batch: RecordBatch, threads: usize) -> Result<RecordBatch> {
    add_senders_until(batch, threads, &Stop::new())
}

/// [`add_senders`] that checks `stop` before each block: [`Error::Interrupted`] once a stop
/// was requested.
pub fn add_senders_until(batch: RecordBatch, threads: usize, stop: &Stop) -> Result<RecordBatch> {
    let schema = batch.schema();
    let column = |name: &str| {
        schema.index_of(name).map_err(|_| Error::Internal(format!("a decoded C/block batch without {name}")))
    };
    let (tx_at, bytes_at) = (column(TRANSACTIONS)?, column("bytes")?);
    let list = batch.column(tx_at).as_list::<i32>();
    let bytes = batch.column(bytes_at).as_binary_view();
    let rows: Vec<usize> = (0..list.len()).filter(|&r| list.is_valid(r)).collect();
    let slices: Vec<&[u8]> = rows.iter().map(|&r| bytes.value(r)).collect();
    let recovered = senders_of_containers_until(&slices, threads, stop).ok_or(Error::Interrupted)?;
    let structs = list.values().as_struct();
    let mut from: Vec<Option<String>> = vec![None; structs.len()];
    let offsets = list.value_offsets();
    let who = |row: usize| {
        let index = batch.column_by_name("index").map(|c| c.as_primitive::<UInt64Type>().value(row));
        let id = batch.column_by_name("id").map(|c| c.as_string_view().value(row).to_string());
        let position = match (&index, &id) {
            (Some(i), Some(id)) => format!("container {i} ({id})"),
            _ => format!("item {row}"),
        };
        (position, index, id)
    };
    for (&row, senders) in rows.iter().zip(recovered) {
        let (first, end) = (offsets[row] as usize, offsets[row + 1] as usize);
        let senders = senders.map_err(|e| {
            let (position, index, id) = who(row);
            Error::ContainerDecode { path: "C/block".into(), position, index, id, offset: e.offset, message: e.message }
        })?;
        if senders.len() != end - first {
            let (position, ..) = who(row);
            return Err(Error::Internal(format!(
                "C/block {position}: {} senders recovered for {} transactions",
                senders.len(),
                end - first
            )));
        }
        for (slot, address) in from[first..end].iter_mut().zip(&senders) {
            *slot = Some(format!("0x{}", hex::encode(address)));
        }
    }
    let mut column = StringViewBuilder::with_capacity(from.len());
    for address in &from {
        column.append_option(address.as_deref());
    }
    let (item, fields) = list_with_from(list.data_type())?;
    let (old_fields, mut arrays, nulls) = structs.clone().into_parts();
    let at = fields.iter().position(|f| f.name() == FROM).expect("with_from inserts from");
    debug_assert_eq!(old_fields.len() + 1, fields.len());
    arrays.insert(at, Arc::new(column.finish()) as ArrayRef);
    let structs = StructArray::try_new(fields, arrays, nulls).map_err(|e| Error::Internal(e.to_string()))?;
    let list = ListArray::try_new(item, list.offsets().clone(), Arc::new(structs), list.nulls().cloned())
        .map_err(|e| Error::Internal(e.to_string()))?;
    let mut columns = batch.columns().to_vec();
    columns[tx_at] = Arc::new(list);
    RecordBatch::try_new(senders_schema(&schema)?, columns).map_err(|e| Error::Internal(e.to_string()))
}
