//! A walk's column selection (`columns=`, as hypersync's field selection): the frame's columns
//! handed out, in the order given. A list-of-structs column (C/block's `transactions`) is
//! named whole, or narrowed to some of its fields as `transactions.<field>`. The C-chain hashes
//! a selection does not hand out are not computed ([`Selection::hashes`]): a walk that asks for
//! no transaction hash computes none.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_schema::{DataType, Field, FieldRef, Fields, Schema, SchemaRef};

use crate::decode::cchain::Hashes;
use crate::error::{Error, Result};
use crate::inputs::one_of_allowed;

/// The parameter a refusal names.
const PARAM: &str = "columns";

/// One column handed out: its place in the full frame and, for a narrowed list of structs, the
/// places of its fields kept (in the order given).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pick {
    column: usize,
    fields: Option<Vec<usize>>,
}

/// The columns of a frame a walk hands out, checked against the frame's full schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    names: Vec<String>,
    picks: Vec<Pick>,
    schema: SchemaRef,
}

/// The struct fields of a `List<Struct>` field, if it is one.
fn struct_fields(field: &Field) -> Option<&Fields> {
    match field.data_type() {
        DataType::List(item) => match item.data_type() {
            DataType::Struct(fields) => Some(fields),
            _ => None,
        },
        _ => None,
    }
}

fn quoted(name: &str) -> String {
    format!("{name:?}")
}

impl Selection {
    /// The selection of `names` from frames of `full`: each a column of `full`, or
    /// `list.field` for a field of a list-of-structs column. Refused (naming the column and
    /// listing the allowed ones, with the one most likely meant): an empty list, an unknown
    /// name, a column named twice (whole, or the same field twice, or whole and by field).
    pub fn new(full: &Schema, names: &[String]) -> Result<Self> {
        let top: Vec<&str> = full.fields().iter().map(|f| f.name().as_str()).collect();
        if names.is_empty() {
            return Err(Error::invalid(PARAM, "[]", format!("a list of at least one of {}", top.join(", "))));
        }
        let mut picks: Vec<Pick> = Vec::new();
        for name in names {
            let (column, field) = match full.index_of(name) {
                Ok(column) => (column, None),
                Err(_) => match name.split_once('.') {
                    Some((list, field))
                        if full.index_of(list).is_ok_and(|i| struct_fields(full.field(i)).is_some()) =>
                    {
                        (full.index_of(list).expect("checked"), Some(field))
                    }
                    _ => return Err(Error::invalid(PARAM, quoted(name), one_of_allowed(name, &top))),
                },
            };
            let twice = || Error::invalid(PARAM, quoted(name), "each column once (a list's fields, or the list whole)");
            let at = picks.iter().position(|p| p.column == column);
            let Some(field) = field else {
                if at.is_some() {
                    return Err(twice());
                }
                picks.push(Pick { column, fields: None });
                continue;
            };
            let fields = struct_fields(full.field(column)).expect("a list of structs");
            let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
            let Some(k) = names.iter().position(|n| *n == field) else {
                let allowed = format!("a field of {}: {}", top[column], one_of_allowed(field, &names));
                return Err(Error::invalid(PARAM, quoted(name), allowed));
            };
            match at {
                None => picks.push(Pick { column, fields: Some(vec![k]) }),
                Some(at) => match &mut picks[at].fields {
                    Some(kept) if !kept.contains(&k) => kept.push(k),
                    _ => return Err(twice()),
                },
            }
        }
        let schema = Arc::new(Schema::new_with_metadata(
            picks.iter().map(|p| picked_field(full.field(p.column), p.fields.as_deref())).collect::<Vec<_>>(),
            full.metadata().clone(),
        ));
        Ok(Selection { names: names.to_vec(), picks, schema })
    }

    /// The names as given.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The schema of the frames handed out.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The C-chain hashes the selected columns need: the block hash for `hash` or `inner_id`
    /// (a C-chain block's own id is its hash), each transaction's for `transactions` whole or
    /// `transactions.hash`.
    pub fn hashes(&self) -> Hashes {
        let full_names: Vec<&str> = self.schema.fields().iter().map(|f| f.name().as_str()).collect();
        let block = full_names.iter().any(|n| *n == "hash" || *n == "inner_id");
        let transactions = self.schema.fields().iter().any(|f| {
            f.name() == "transactions" && struct_fields(f).is_some_and(|fields| fields.find("hash").is_some())
        });
        Hashes { block, transactions }
    }

    /// The selected columns of `batch` (a frame of the full schema), in the selection's order.
    pub fn project(&self, batch: &RecordBatch) -> Result<RecordBatch> {
        let mut columns: Vec<ArrayRef> = Vec::with_capacity(self.picks.len());
        for (pick, field) in self.picks.iter().zip(self.schema.fields()) {
            let column = batch.column(pick.column).clone();
            columns.push(match &pick.fields {
                None => column,
                Some(kept) => narrow_list(&column, field, kept)?,
            });
        }
        RecordBatch::try_new(self.schema.clone(), columns).map_err(|e| Error::Internal(e.to_string()))
    }
}

/// The field of a column handed out: the full field, or a list of structs with `kept` fields.
fn picked_field(field: &Field, kept: Option<&[usize]>) -> FieldRef {
    let (Some(kept), DataType::List(item)) = (kept, field.data_type()) else {
        return Arc::new(field.clone());
    };
    let fields = struct_fields(field).expect("a list of structs");
    let narrowed: Fields = kept.iter().map(|&k| fields[k].clone()).collect();
    let item = Field::new(item.name(), DataType::Struct(narrowed), item.is_nullable());
    Arc::new(Field::new(field.name(), DataType::List(Arc::new(item)), field.is_nullable()))
}

/// A list-of-structs column with only the struct fields at `kept` (offsets and nulls kept).
fn narrow_list(column: &ArrayRef, field: &Field, kept: &[usize]) -> Result<ArrayRef> {
    let list = column.as_list::<i32>();
    let structs = list.values().as_struct();
    let DataType::List(item) = field.data_type() else {
        return Err(Error::Internal(format!("{} is not a list", field.name())));
    };
    let DataType::Struct(fields) = item.data_type() else {
        return Err(Error::Internal(format!("{} is not a list of structs", field.name())));
    };
    let arrays: Vec<ArrayRef> = kept.iter().map(|&k| structs.column(k).clone()).collect();
    let structs = StructArray::try_new(fields.clone(), arrays, structs.nulls().cloned())
        .map_err(|e| Error::Internal(e.to_string()))?;
    let list = ListArray::try_new(item.clone(), list.offsets().clone(), Arc::new(structs), list.nulls().cloned())
        .map_err(|e| Error::Internal(e.to_string()))?;
    Ok(Arc::new(list))
}
