//! JSON objects straight into Arrow columns: each object's text is read once, field by field,
//! into the builders of its resource's columns ([`Col`]), with no `serde_json::Value` tree and
//! no allocation per scalar. Every value is read by the rule of [`crate::exact`] (the one the
//! dicts use): fields absent from the description are only checked by it (a number past `f64`
//! or a lone surrogate anywhere in an item refuses it, as in a dict); a field given twice
//! counts once, the last time (as in a dict); `null` is an absent value.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Decimal128Builder, Float64Builder, Int64Builder, StringViewBuilder, TimestampNanosecondBuilder,
    UInt64Builder,
};
use arrow_array::{ArrayRef, ListArray, RecordBatch, StructArray};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, SchemaRef};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::json::{
    bad, data_type, decimal_of, f64_of, fields, i64_of, rfc3339_ns, u256_f64_of, u256_of, u64_of, unix_reader,
    unix_time_ns_of, Col, Kind, Scalar, DECIMAL_38, RFC3339_TIME, U256_RANGE, U64_RANGE, UNIX_TIME,
};
use crate::exact::{self, Exact, ExactError};
use crate::paging::item::{read_with, Key};
use crate::paging::JsonItem;

/// What holds the JSON text of one object: a page's item, or a parsed value (written out).
pub trait JsonText {
    /// The JSON text.
    fn json_text(&self) -> Cow<'_, str>;
}

impl JsonText for JsonItem {
    fn json_text(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.as_str())
    }
}

impl JsonText for Value {
    fn json_text(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_string())
    }
}

impl JsonText for Exact {
    fn json_text(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_string())
    }
}

/// Objects described by `cols` as a record batch of `schema` (the schema of [`fields`]`(cols)`).
/// Fails (naming the field and value) on a value that cannot be stored without loss, e.g. a
/// decimal with more than 38 digits, or on an item that is not an object.
pub fn objects_to_batch<T: JsonText>(
    cols: &'static [Col],
    schema: SchemaRef,
    items: &[T],
) -> Result<RecordBatch, String> {
    let mut builder = BatchBuilder::new(cols, schema, items.len());
    builder.append(items)?;
    builder.finish()
}

/// Objects of one description appended page after page into the same column builders, and
/// taken out as one record batch when the caller asks: a walk that keeps one `BatchBuilder`
/// allocates its columns once per batch, not once per page.
///
/// After an [`append`](Self::append) fails the builder is spent: its columns may have taken
/// part of the refused object, so [`finish`](Self::finish) refuses to make a batch of them.
pub struct BatchBuilder {
    schema: SchemaRef,
    object: ObjectColumns,
    rows: usize,
    spent: Option<String>,
}

impl BatchBuilder {
    /// An empty builder of the objects `cols` describes, as batches of `schema` (the schema of
    /// [`fields`]`(cols)`), with room for `capacity` rows before its columns grow.
    pub fn new(cols: &'static [Col], schema: SchemaRef, capacity: usize) -> Self {
        BatchBuilder { schema, object: ObjectColumns::new(cols, capacity), rows: 0, spent: None }
    }

    /// Rows appended since the last batch was taken.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Appends `items` (errors name an item by its place in `items`, the field and the value).
    pub fn append<T: JsonText>(&mut self, items: &[T]) -> Result<(), String> {
        if let Some(err) = &self.spent {
            return Err(err.clone());
        }
        for (k, item) in items.iter().enumerate() {
            let text = item.json_text();
            let appended = if text.trim_start().starts_with('{') {
                self.object.append_object(&text, &mut Unnamed::default())
            } else {
                Err(format!("item {k}: {} is not a JSON object", crate::transport::snippet(text.as_bytes())))
            };
            if let Err(err) = appended {
                self.spent = Some(err.clone());
                return Err(err);
            }
            self.rows += 1;
        }
        Ok(())
    }

    /// The rows appended since the last batch, as one batch; the builder is then empty and
    /// ready for more.
    pub fn finish(&mut self) -> Result<RecordBatch, String> {
        if let Some(err) = &self.spent {
            return Err(err.clone());
        }
        let columns = self.object.finish_columns()?;
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), columns).map_err(|e| e.to_string())
    }
}

/// The columns of one object description, filled object by object.
struct ObjectColumns {
    cols: &'static [Col],
    columns: Vec<Column>,
    /// The column each key of the last object went to, by the key's place in the object:
    /// objects of one page write their keys in one order, so the next object's k-th key is
    /// first tried against that column.
    order: Vec<usize>,
}

/// One column's builder.
enum Column {
    Str(StringViewBuilder),
    Bool(BooleanBuilder),
    Int(Int64Builder),
    Float(Float64Builder),
    U64(UInt64Builder),
    Dec(Decimal128Builder),
    /// uint256 as decimal text.
    U256(StringViewBuilder),
    /// The nearest float of a uint256.
    U256Float(Float64Builder),
    /// Unix times, read by their kind's reading ([`super::json::unix_reader`]).
    Ts(TimestampNanosecondBuilder, fn(&Scalar) -> Option<i64>),
    /// RFC 3339 text times.
    TsText(TimestampNanosecondBuilder),
    /// JSON text as sent.
    Json(StringViewBuilder),
    /// The item's fields of no column, as one JSON object.
    Extra(StringViewBuilder),
    Struct(Box<ObjectColumns>, Vec<bool>),
    /// Lengths, validity, and the items' column.
    List(Vec<usize>, Vec<bool>, Box<Column>),
}

impl ObjectColumns {
    fn new(cols: &'static [Col], capacity: usize) -> Self {
        ObjectColumns { cols, columns: cols.iter().map(|c| Column::new(c.1, capacity)).collect(), order: Vec::new() }
    }

    /// Appends the object whose JSON text is `text`; the fields no column names go to
    /// `unnamed` (at its path), and from there to the `extra` column.
    fn append_object(&mut self, text: &str, unnamed: &mut Unnamed) -> Result<(), String> {
        let (slots, refused, unknown) = read_with(text, Fields { cols: self.cols, order: &mut self.order })
            .map_err(|e| format!("not a JSON object ({e})"))?;
        if let Some(e) = refused {
            return Err(e.to_string());
        }
        for (key, raw) in unknown {
            unnamed.keep(&key, raw);
        }
        for (i, (col, column)) in self.cols.iter().zip(&mut self.columns).enumerate() {
            // A uint256's float companion reads the field of the column before it.
            let slot = match col.1 {
                Kind::U256Float => i.checked_sub(1).and_then(|p| slots[p]),
                _ => slots[i],
            };
            unnamed.path.push(Step::Key(col.0));
            let appended = column.append(col.0, slot, unnamed);
            unnamed.path.pop();
            appended?;
        }
        Ok(())
    }

    fn append_null(&mut self) {
        for (col, column) in self.cols.iter().zip(&mut self.columns) {
            // An absent value never fails.
            let _ = column.append(col.0, None, &mut Unnamed::default());
        }
    }

    fn finish(self) -> Result<Vec<ArrayRef>, String> {
        self.cols.iter().zip(self.columns).map(|(col, column)| column.finish(col.1)).collect()
    }

    /// The columns so far, leaving empty builders in their place (they grow as rows come).
    fn finish_columns(&mut self) -> Result<Vec<ArrayRef>, String> {
        let fresh = self.cols.iter().map(|c| Column::new(c.1, 0)).collect();
        let order = std::mem::take(&mut self.order);
        std::mem::replace(self, ObjectColumns { cols: self.cols, columns: fresh, order }).finish()
    }
}

/// Reads an object's fields of `cols` as raw JSON, one slot per column, and checks every other
/// value (and a value a repeated key replaces) by the rule of [`crate::exact`]; the first value
/// it refuses comes back beside the slots.
struct Fields<'o> {
    cols: &'static [Col],
    order: &'o mut Vec<usize>,
}

/// The fields of one object: a slot per column, the first value refused, and the fields of no
/// column (key and value).
type Read<'de> = (Vec<Option<&'de RawValue>>, Option<ExactError>, Vec<(Cow<'de, str>, &'de RawValue)>);

impl<'de> DeserializeSeed<'de> for Fields<'_> {
    type Value = Read<'de>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Fields<'_> {
    type Value = Read<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (cols, order) = (self.cols, self.order);
        let mut slots = vec![None; cols.len()];
        let mut refused = None;
        let mut unknown = Vec::new();
        let mut place = 0;
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            // `cols.len()` marks a key of no column.
            let guess = order.get(place).copied();
            let found = match guess {
                Some(i) if cols.get(i).is_some_and(|c| c.0 == key) => i,
                // The columns made here (`extra`, a float companion) are no field of the item.
                _ => cols.iter().position(|c| c.0 == key && !made_here(c.1)).unwrap_or(cols.len()),
            };
            if guess != Some(found) {
                order.truncate(place);
                order.push(found);
            }
            place += 1;
            let value = map.next_value::<&'de RawValue>()?;
            let unchecked = match slots.get_mut(found) {
                Some(slot) => slot.replace(value),
                None => {
                    unknown.push((key.clone(), value));
                    Some(value)
                }
            };
            if let (None, Some(raw)) = (&refused, unchecked) {
                refused = exact::check(raw).err().map(|e| e.in_field(&key));
            }
        }
        Ok((slots, refused, unknown))
    }
}

/// Whether a column is made by the builder rather than read from a field of the same name.
fn made_here(kind: Kind) -> bool {
    matches!(kind, Kind::Extra | Kind::U256Float)
}

/// One step of the path to a field: an object's key or a list's place.
#[derive(Debug, Clone, Copy)]
enum Step {
    Key(&'static str),
    Place(usize),
}

/// The fields of one item that no column names, by their JSON Pointer (RFC 6901), with their
/// JSON text as sent; `path` is where the reading is.
#[derive(Debug, Default)]
struct Unnamed {
    path: Vec<Step>,
    fields: Vec<(String, String)>,
}

impl Unnamed {
    /// Keeps the field `key` of the object at the current path (a key given twice: the last),
    /// its value as the compact JSON text of its exact value (the same text whatever the
    /// spacing sent).
    fn keep(&mut self, key: &str, raw: &RawValue) {
        let raw = exact::parse_raw(raw).map_or_else(|_| raw.get().trim().to_string(), |v| v.to_string());
        let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
        let mut pointer = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) => pointer.push_str(&format!("/{}", escape(k))),
                Step::Place(i) => pointer.push_str(&format!("/{i}")),
            }
        }
        pointer.push_str(&format!("/{}", escape(key)));
        match self.fields.iter_mut().find(|(p, _)| *p == pointer) {
            Some(have) => have.1 = raw,
            None => self.fields.push((pointer, raw)),
        }
    }

    /// The JSON object of the fields kept (taken out), or `None` when there are none.
    fn take_json(&mut self) -> Option<String> {
        if self.fields.is_empty() {
            return None;
        }
        let mut out = String::from("{");
        for (k, (pointer, raw)) in self.fields.drain(..).enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push_str(&serde_json::Value::String(pointer).to_string());
            out.push(':');
            out.push_str(&raw);
        }
        out.push('}');
        Some(out)
    }
}

/// A raw value as error messages show it: its text as sent (cut when long).
fn shown(raw: &RawValue) -> String {
    exact::shown(raw.get())
}

impl Column {
    fn new(kind: Kind, n: usize) -> Column {
        match kind {
            Kind::Str => Column::Str(StringViewBuilder::with_capacity(n)),
            Kind::Bool => Column::Bool(BooleanBuilder::with_capacity(n)),
            Kind::Int => Column::Int(Int64Builder::with_capacity(n)),
            Kind::Float => Column::Float(Float64Builder::with_capacity(n)),
            Kind::U64Str => Column::U64(UInt64Builder::with_capacity(n)),
            Kind::Dec => Column::Dec(Decimal128Builder::with_capacity(n)),
            Kind::U256 => Column::U256(StringViewBuilder::with_capacity(n)),
            Kind::U256Float => Column::U256Float(Float64Builder::with_capacity(n)),
            Kind::TsSec | Kind::TsMs | Kind::TsUnix => Column::Ts(
                TimestampNanosecondBuilder::with_capacity(n).with_timezone("UTC"),
                unix_reader(kind).unwrap_or(unix_time_ns_of),
            ),
            Kind::Struct(cols) => Column::Struct(Box::new(ObjectColumns::new(cols, n)), Vec::with_capacity(n)),
            Kind::StrList => {
                Column::List(Vec::with_capacity(n), Vec::with_capacity(n), Box::new(Column::new(Kind::Str, n)))
            }
            Kind::StructList(cols) => {
                Column::List(Vec::with_capacity(n), Vec::with_capacity(n), Box::new(Column::new(Kind::Struct(cols), n)))
            }
            Kind::List(kind) => {
                Column::List(Vec::with_capacity(n), Vec::with_capacity(n), Box::new(Column::new(*kind, n)))
            }
            Kind::TsText => Column::TsText(TimestampNanosecondBuilder::with_capacity(n).with_timezone("UTC")),
            Kind::Json => Column::Json(StringViewBuilder::with_capacity(n)),
            Kind::Extra => Column::Extra(StringViewBuilder::with_capacity(n)),
        }
    }

    /// Appends one value of field `name` (`None` or `null`: absent); fields of no column met
    /// inside it go to `unnamed`.
    fn append(&mut self, name: &str, raw: Option<&RawValue>, unnamed: &mut Unnamed) -> Result<(), String> {
        let raw = raw.filter(|r| r.get() != "null");
        match self {
            Column::Str(b) => match raw {
                None => b.append_null(),
                // A string's content; any other value as the JSON text of its exact value.
                Some(r) if r.get().starts_with('"') => {
                    b.append_value(exact::string(r.get()).map_err(|e| format!("field {name:?}: {e}"))?)
                }
                Some(r) => b.append_value(exact::parse_raw(r).map_err(|e| e.in_field(name).to_string())?.to_string()),
            },
            Column::Bool(b) => match raw {
                None => b.append_null(),
                Some(r) if r.get() == "true" => b.append_value(true),
                Some(r) if r.get() == "false" => b.append_value(false),
                Some(r) => return Err(bad(name, shown(r), "a boolean")),
            },
            Column::Int(b) => b.append_option(typed(name, raw, i64_of, "an integer")?),
            Column::Float(b) => b.append_option(typed(name, raw, f64_of, "a number")?),
            Column::U64(b) => b.append_option(typed(name, raw, u64_of, U64_RANGE)?),
            Column::Dec(b) => b.append_option(typed(name, raw, decimal_of, DECIMAL_38)?),
            Column::U256(b) => match raw {
                None => b.append_null(),
                Some(r) => {
                    let scalar = Scalar::of_raw(r).map_err(|e| format!("field {name:?}: {e}"))?;
                    b.append_value(u256_of(&scalar).ok_or_else(|| bad(name, shown(r), U256_RANGE))?)
                }
            },
            // Its `U256` column has refused what no float can read.
            Column::U256Float(b) => b.append_option(typed(name, raw, u256_f64_of, U256_RANGE)?),
            Column::Ts(b, read) => {
                let read = *read;
                b.append_option(typed(name, raw, read, UNIX_TIME)?)
            }
            Column::TsText(b) => b.append_option(typed(name, raw, rfc3339_ns, RFC3339_TIME)?),
            Column::Json(b) => b.append_option(raw.map(RawValue::get)),
            // The last column: every other field of the item has been read.
            Column::Extra(b) => b.append_option(unnamed.take_json()),
            Column::Struct(object, valid) => match raw {
                None => {
                    object.append_null();
                    valid.push(false);
                }
                Some(r) if r.get().starts_with('{') => {
                    object.append_object(r.get(), unnamed)?;
                    valid.push(true);
                }
                Some(r) => return Err(bad(name, shown(r), "an object")),
            },
            Column::List(lengths, valid, items) => match raw {
                None => {
                    lengths.push(0);
                    valid.push(false);
                }
                Some(r) if r.get().starts_with('[') => {
                    let elements: Vec<&RawValue> =
                        serde_json::from_str(r.get()).map_err(|_| bad(name, shown(r), "a list"))?;
                    for (i, element) in elements.iter().enumerate() {
                        unnamed.path.push(Step::Place(i));
                        let appended = items.append(name, Some(element), unnamed);
                        unnamed.path.pop();
                        appended?;
                    }
                    lengths.push(elements.len());
                    valid.push(true);
                }
                Some(r) => return Err(bad(name, shown(r), "a list")),
            },
        }
        Ok(())
    }

    fn finish(self, kind: Kind) -> Result<ArrayRef, String> {
        Ok(match self {
            Column::Str(mut b) | Column::U256(mut b) => Arc::new(b.finish()),
            Column::Bool(mut b) => Arc::new(b.finish()),
            Column::Int(mut b) => Arc::new(b.finish()),
            Column::Float(mut b) | Column::U256Float(mut b) => Arc::new(b.finish()),
            Column::U64(mut b) => Arc::new(b.finish()),
            Column::Dec(mut b) => Arc::new(b.finish().with_precision_and_scale(38, 0).map_err(|e| e.to_string())?),
            Column::Ts(mut b, _) | Column::TsText(mut b) => Arc::new(b.finish()),
            Column::Json(mut b) | Column::Extra(mut b) => Arc::new(b.finish()),
            Column::Struct(object, valid) => {
                let Kind::Struct(cols) = kind else { return Err(format!("{kind:?} is not an object column")) };
                let columns = object.finish()?;
                Arc::new(
                    StructArray::try_new(fields(cols), columns, Some(NullBuffer::from(valid)))
                        .map_err(|e| e.to_string())?,
                )
            }
            Column::List(lengths, valid, items) => {
                let (item_kind, DataType::List(field)) = (
                    match kind {
                        Kind::StructList(cols) => Kind::Struct(cols),
                        Kind::List(kind) => *kind,
                        _ => Kind::Str,
                    },
                    data_type(kind),
                ) else {
                    return Err(format!("{kind:?} is not a list column"));
                };
                let items = items.finish(item_kind)?;
                Arc::new(
                    ListArray::try_new(
                        field,
                        OffsetBuffer::from_lengths(lengths),
                        items,
                        Some(NullBuffer::from(valid)),
                    )
                    .map_err(|e| e.to_string())?,
                )
            }
        })
    }
}

/// A present value read by `read`, or an error naming the field, the value and `what`.
fn typed<T>(
    name: &str,
    raw: Option<&RawValue>,
    read: impl Fn(&Scalar) -> Option<T>,
    what: &str,
) -> Result<Option<T>, String> {
    match raw {
        None => Ok(None),
        Some(r) => {
            let scalar = Scalar::of_raw(r).map_err(|e| format!("field {name:?}: {e}"))?;
            read(&scalar).map(Some).ok_or_else(|| bad(name, shown(r), what))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrow::json::Kind::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Decimal128Type, Float64Type, Int64Type, TimestampNanosecondType};
    use arrow_array::Array;
    use arrow_schema::Schema;

    const INNER: &[Col] = &[Col("code", Str), Col("n", Int)];
    const COLS: &[Col] = &[
        Col("name", Str),
        Col("amount", Dec),
        Col("at", TsSec),
        Col("ok", Bool),
        Col("tags", StrList),
        Col("inner", Struct(INNER)),
        Col("rows", StructList(INNER)),
    ];

    fn batch(texts: &[&str]) -> Result<RecordBatch, String> {
        let items: Vec<JsonItem> =
            texts.iter().map(|t| JsonItem::from(&serde_json::from_str::<Value>(t).unwrap())).collect();
        let raw: Vec<RawText> = texts.iter().map(|t| RawText(t.to_string())).collect();
        let from_raw = objects_to_batch(COLS, Arc::new(Schema::new(fields(COLS))), &raw);
        let from_items = objects_to_batch(COLS, Arc::new(Schema::new(fields(COLS))), &items);
        // The same batch, or both refused (a message shows the value as it was written).
        assert_eq!(from_raw.as_ref().ok(), from_items.as_ref().ok(), "the text as sent and of its parsed value");
        assert_eq!(from_raw.is_ok(), from_items.is_ok(), "{from_raw:?} / {from_items:?}");
        from_raw
    }

    struct RawText(String);
    impl JsonText for RawText {
        fn json_text(&self) -> Cow<'_, str> {
            Cow::Borrowed(&self.0)
        }
    }

    #[test]
    fn objects_fill_every_column_in_any_field_order() {
        let b = batch(&[
            r#"{"name": "a\"b\u00e9", "amount": "123456789012345678901234567890", "at": 1700000000, "ok": true,
                "tags": ["x", null, 5], "inner": {"n": 7, "code": "c", "skip": {"deep": [1, {"x": 2}]}},
                "rows": [{"code": "r1"}, null, {"n": "3"}], "unknown": [1, 2]}"#,
            r#"{"rows": null, "inner": null, "tags": null, "ok": null, "at": "1700000001", "amount": -5, "name": 12.50}"#,
            r#"{}"#,
        ])
        .unwrap();
        assert_eq!(b.num_rows(), 3);
        let name = b.column(0).as_string_view();
        assert_eq!((name.value(0), name.value(1), name.is_null(2)), ("a\"bé", "12.5", true));
        let amount = b.column(1).as_primitive::<Decimal128Type>();
        assert_eq!((amount.value(0), amount.value(1), amount.is_null(2)), (123456789012345678901234567890, -5, true));
        let at = b.column(2).as_primitive::<TimestampNanosecondType>();
        assert_eq!((at.value(0), at.value(1)), (1_700_000_000_000_000_000, 1_700_000_001_000_000_000));
        let ok = b.column(3).as_boolean();
        assert!(ok.value(0) && ok.is_null(1) && ok.is_null(2));
        let tags = b.column(4).as_list::<i32>();
        let first = tags.value(0);
        let first = first.as_string_view();
        assert_eq!((first.len(), first.value(0), first.is_null(1), first.value(2)), (3, "x", true, "5"));
        assert!(tags.is_null(1) && tags.is_null(2));
        let inner = b.column(5).as_struct();
        assert!(inner.is_valid(0) && inner.is_null(1) && inner.is_null(2));
        assert_eq!(inner.column(0).as_string_view().value(0), "c");
        assert_eq!(inner.column(1).as_primitive::<Int64Type>().value(0), 7);
        let rows = b.column(6).as_list::<i32>();
        assert_eq!(rows.value_length(0), 3);
        assert!(rows.is_null(1));
        let items = rows.value(0);
        let items = items.as_struct();
        assert!(items.is_valid(0) && items.is_null(1) && items.is_valid(2));
        assert_eq!(items.column(1).as_primitive::<Int64Type>().value(2), 3);
    }

    #[test]
    fn the_exact_rule_holds_in_frames_for_every_value_of_an_item() {
        let raw = |texts: &[&str]| {
            let raw: Vec<RawText> = texts.iter().map(|t| RawText(t.to_string())).collect();
            objects_to_batch(COLS, Arc::new(Schema::new(fields(COLS))), &raw)
        };
        // Integer literals past 64 bits: exact in a Decimal column up to 38 digits, refused past.
        let b = raw(&[
            r#"{"amount": 123456789012345678901234567890}"#,
            r#"{"amount": -99999999999999999999999999999999999999}"#,
        ])
        .unwrap();
        let amount = b.column(1).as_primitive::<Decimal128Type>();
        assert_eq!((amount.value(0), amount.value(1)), (123456789012345678901234567890, -(10_i128.pow(38) - 1)));
        let nines = "9".repeat(39);
        let err = raw(&[&format!(r#"{{"amount": {nines}}}"#)]).unwrap_err();
        assert_eq!(err, format!(r#"field "amount": {nines} is not an integer of at most 38 digits"#));
        let err = raw(&[r#"{"inner": {"n": 99999999999999999999999}}"#]).unwrap_err();
        assert_eq!(err, r#"field "n": 99999999999999999999999 is not an integer"#);
        // A number past f64 or a lone surrogate anywhere refuses the item, also outside the schema
        // and in a value a repeated key replaces; valid escapes and pairs read.
        for (text, message) in [
            (r#"{"extra": 1e400}"#, r#"field "extra": 1e400 is past the range of a 64-bit float"#),
            (r#"{"x": {"y": [0, -1e999]}}"#, r#"field "x.y[1]": -1e999 is past the range of a 64-bit float"#),
            (r#"{"name": "\ud800"}"#, r#"field "name": "\ud800" is not valid text (lone surrogate escape \ud800)"#),
            (r#"{"extra": "a\udc00"}"#, r#"field "extra": "a\udc00" is not valid text ("#),
            (r#"{"name": "\ud800", "name": "ok"}"#, r#"field "name": "\ud800" is not valid text"#),
            (r#"{"inner": {"skip": 1e400}}"#, r#"field "skip": 1e400 is past the range"#),
            (r#"{"tags": ["\udfff"]}"#, r#"field "tags": "\udfff" is not valid text"#),
        ] {
            let err = raw(&[r#"{"name": "fine"}"#, text]).unwrap_err();
            assert!(err.starts_with(message), "{text}: {err}");
        }
        let b = raw(&[r#"{"name": "\ud83d\ude00", "extra": [1e308, "\u00e9", 18446744073709551616]}"#]).unwrap();
        assert_eq!(b.column(0).as_string_view().value(0), "😀");
        // A non-string in a text column is the text of its exact value.
        let b = raw(&[r#"{"name": 123456789012345678901234567890}"#, r#"{"name": {"a": 1E2, "a": [1.50]}}"#]).unwrap();
        let name = b.column(0).as_string_view();
        assert_eq!((name.value(0), name.value(1)), ("123456789012345678901234567890", r#"{"a":[1.5]}"#));
    }

    #[test]
    fn a_builder_kept_across_pages_gives_the_batch_of_all_its_items_and_starts_again_empty() {
        let pages: [&[&str]; 3] = [
            &[r#"{"name": "a", "amount": "1", "tags": ["x"], "inner": {"n": 1}, "rows": [{"code": "r"}]}"#],
            &[r#"{"ok": true, "at": 5}"#, r#"{"rows": null, "inner": null, "name": "b"}"#],
            &[r#"{"tags": [], "rows": [null, {"n": 2}], "amount": "-7"}"#],
        ];
        let schema = Arc::new(Schema::new(fields(COLS)));
        let raw = |texts: &[&str]| texts.iter().map(|t| RawText(t.to_string())).collect::<Vec<_>>();
        let mut builder = BatchBuilder::new(COLS, schema.clone(), 1);
        for page in &pages[..2] {
            builder.append(&raw(page)).unwrap();
        }
        assert_eq!(builder.rows(), 3);
        let first = builder.finish().unwrap();
        assert_eq!(first, batch(&[pages[0], pages[1]].concat()).unwrap());
        assert_eq!(builder.rows(), 0);
        // The emptied builder takes the next page from its first row (struct and list columns too).
        builder.append(&raw(pages[2])).unwrap();
        let second = builder.finish().unwrap();
        assert_eq!(second, batch(pages[2]).unwrap());
        assert_eq!(second.column(6).as_list::<i32>().value_length(0), 2);
        assert_eq!(builder.finish().unwrap().num_rows(), 0);
    }

    #[test]
    fn a_builder_that_refused_an_item_makes_no_batch_of_what_it_took() {
        let schema = Arc::new(Schema::new(fields(COLS)));
        let mut builder = BatchBuilder::new(COLS, schema, 4);
        builder.append(&[RawText(r#"{"name": "kept"}"#.into())]).unwrap();
        // The refused item's first fields reached their columns before "amount" failed.
        let page = [RawText(r#"{"name": "x"}"#.into()), RawText(r#"{"name": "y", "amount": "1.5"}"#.into())];
        let err = builder.append(&page).unwrap_err();
        assert_eq!(err, r#"field "amount": "1.5" is not an integer of at most 38 digits"#);
        assert_eq!(builder.finish().unwrap_err(), err);
        assert_eq!(builder.append(&[RawText("{}".into())]).unwrap_err(), err);
        let mut builder = BatchBuilder::new(COLS, Arc::new(Schema::new(fields(COLS))), 4);
        let err = builder.append(&[RawText("{}".into()), RawText("7".into())]).unwrap_err();
        assert_eq!(err, "item 1: 7 is not a JSON object");
        assert_eq!(builder.finish().unwrap_err(), err);
    }

    #[test]
    fn a_field_given_twice_counts_once_the_last_time() {
        let b = batch(&[r#"{"name": "first", "amount": "1", "name": "last", "inner": {"n": 1, "n": 2}}"#]).unwrap();
        assert_eq!(b.column(0).as_string_view().value(0), "last");
        assert_eq!(b.column(5).as_struct().column(1).as_primitive::<Int64Type>().value(0), 2);
    }

    #[test]
    fn fields_of_no_column_reach_the_extra_column_by_their_pointer_at_any_depth() {
        use crate::arrow::json::EXTRA;
        const WITH_EXTRA: &[Col] =
            &[Col("name", Str), Col("inner", Struct(INNER)), Col("rows", StructList(INNER)), EXTRA];
        let schema = Arc::new(Schema::new(fields(WITH_EXTRA)));
        let items = [
            RawText(r#"{"name": "a", "new": [1, {"x": null}], "inner": {"code": "c", "a/b~": 2}, "rows": [{"n": 1}, {"n": 2, "late": "z"}]}"#.into()),
            RawText(r#"{"name": "b"}"#.into()),
            RawText(r#"{"extra": 5, "valueFloat": 1, "new": 1, "new": 2}"#.into()),
        ];
        let batch = objects_to_batch(WITH_EXTRA, schema, &items).unwrap();
        let extra = batch.column(3).as_string_view();
        let parsed = |i: usize| serde_json::from_str::<Value>(extra.value(i)).unwrap();
        assert_eq!(parsed(0), serde_json::json!({"/new": [1, {"x": null}], "/inner/a~1b~0": 2, "/rows/1/late": "z"}));
        assert!(extra.is_null(1), "an item with no other field has a null extra");
        // a field named like a made column is a field of the item; a key given twice, the last
        assert_eq!(parsed(2), serde_json::json!({"/extra": 5, "/valueFloat": 1, "/new": 2}));
    }

    #[test]
    fn a_uint256_column_holds_every_size_exactly_beside_its_nearest_float() {
        const AMOUNT: &[Col] = &[Col("value", U256), Col("valueFloat", U256Float)];
        let max = super::super::json::U256_MAX;
        let texts = [
            format!(r#"{{"value": "{max}"}}"#),
            format!(r#"{{"value": "1{}"}}"#, "0".repeat(38)),
            format!(r#"{{"value": "{}"}}"#, "9".repeat(38)),
            r#"{"value": "0"}"#.into(),
            r#"{"value": 12}"#.into(),
            r#"{"value": "0007"}"#.into(),
            r#"{"value": null}"#.into(),
        ];
        let raw: Vec<RawText> = texts.iter().map(|t| RawText(t.clone())).collect();
        let batch = objects_to_batch(AMOUNT, Arc::new(Schema::new(fields(AMOUNT))), &raw).unwrap();
        let (text, float) = (batch.column(0).as_string_view(), batch.column(1).as_primitive::<Float64Type>());
        let want =
            [max.to_string(), format!("1{}", "0".repeat(38)), "9".repeat(38), "0".into(), "12".into(), "7".into()];
        for (i, w) in want.iter().enumerate() {
            assert_eq!(text.value(i), w);
            assert_eq!(float.value(i), w.parse::<f64>().unwrap());
        }
        assert!(text.is_null(6) && float.is_null(6));
        let past = "9".repeat(78);
        for bad in [past.as_str(), "-1", "1.5", "0x10", "1e3"] {
            let item = RawText(format!(r#"{{"value": "{bad}"}}"#));
            let err = objects_to_batch(AMOUNT, Arc::new(Schema::new(fields(AMOUNT))), &[item]).unwrap_err();
            assert!(err.starts_with(r#"field "value": "#) && err.ends_with("is not an integer in [0, 2^256)"), "{err}");
        }
    }

    #[test]
    fn values_that_do_not_fit_name_the_field_and_value() {
        let cases = [
            (r#"{"amount": "1.5"}"#, r#"field "amount": "1.5" is not an integer of at most 38 digits"#),
            (r#"{"amount": 1.0}"#, r#"field "amount": 1.0 is not an integer of at most 38 digits"#),
            (r#"{"at": 1e20}"#, r#"field "at": 1e20 is not a Unix time"#),
            (r#"{"ok": "yes"}"#, r#"field "ok": "yes" is not a boolean"#),
            (r#"{"tags": "x"}"#, r#"field "tags": "x" is not a list"#),
            (r#"{"inner": [1]}"#, r#"field "inner": [1] is not an object"#),
            (r#"{"rows": [1]}"#, r#"field "rows": 1 is not an object"#),
            (r#"{"inner": {"n": "seven"}}"#, r#"field "n": "seven" is not an integer"#),
        ];
        for (text, message) in cases {
            let err = batch(&[r#"{"name": "fine"}"#, text]).unwrap_err();
            assert!(err.starts_with(message), "{text}: {err}");
        }
        let err = objects_to_batch(COLS, Arc::new(Schema::new(fields(COLS))), &[RawText("[1]".into())]).unwrap_err();
        assert_eq!(err, "item 0: [1] is not a JSON object");
        // An item nested past the parser's recursion limit is an error naming it, not a crash.
        let deep = RawText(format!(r#"{{"inner": {{"code": {}1{}}}}}"#, "[".repeat(50_000), "]".repeat(50_000)));
        let err = objects_to_batch(COLS, Arc::new(Schema::new(fields(COLS))), &[deep]).unwrap_err();
        assert!(err.starts_with(r#"field "code[0][0]"#), "{err}");
        assert!(err.ends_with("nested deeper than 128 arrays and objects"), "{err}");
    }
}
