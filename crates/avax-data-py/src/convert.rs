//! Rust values to Python objects: container dicts, JSON objects typed by their resource's
//! schema, UTC datetimes, polars DataFrames. Every result reaches Python through one of the
//! `IntoPyObject` types here.

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString};

use avax_data_core::arrow::json::{
    bad, decimal_digits, decimal_of, f64_of, i64_of, rfc3339_ns, u256_of, u64_of, unix_reader, Col, Kind, Scalar,
    DECIMAL_38, RFC3339_TIME, U256_RANGE, U64_RANGE, UNIX_TIME,
};
use avax_data_core::error::Error;
use avax_data_core::exact::{Exact, Number};
use avax_data_core::index::Container;

static DATETIME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static UTC: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static POLARS_DATAFRAME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A timezone-aware UTC `datetime` from nanoseconds since the epoch (microsecond precision:
/// what `datetime` holds).
pub fn utc_datetime<'py>(py: Python<'py>, ns: i64) -> PyResult<Bound<'py, PyAny>> {
    use chrono::{Datelike, Timelike};
    let datetime = DATETIME.get_or_try_init(py, || py.import("datetime")?.getattr("datetime").map(Bound::unbind))?;
    let utc =
        UTC.get_or_try_init(py, || py.import("datetime")?.getattr("timezone")?.getattr("utc").map(Bound::unbind))?;
    let t = chrono::DateTime::from_timestamp_nanos(ns);
    datetime.bind(py).call1((
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.nanosecond() / 1000,
        utc.bind(py),
    ))
}

/// A container as a dict with the API's field names.
pub fn container_dict<'py>(py: Python<'py>, c: &Container) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "id"), &c.id)?;
    d.set_item(intern!(py, "bytes"), PyBytes::new(py, &c.bytes))?;
    d.set_item(intern!(py, "timestamp"), utc_datetime(py, c.timestamp_ns)?)?;
    d.set_item(intern!(py, "index"), c.index)?;
    d.set_item(intern!(py, "encoding"), &c.encoding)?;
    Ok(d)
}

/// A polars DataFrame from record batches, handed over through the Arrow C stream interface.
pub fn polars_frame<'py>(py: Python<'py>, batches: Vec<RecordBatch>, schema: SchemaRef) -> PyResult<Bound<'py, PyAny>> {
    let table = pyo3_arrow::PyTable::try_new(batches, schema)?;
    let table = Bound::new(py, table)?;
    let constructor =
        POLARS_DATAFRAME.get_or_try_init(py, || py.import("polars")?.getattr("DataFrame").map(Bound::unbind))?;
    constructor.bind(py).call1((table,))
}

/// The rows of a record batch as Python dicts (through polars, so every column type converts
/// as it does in a DataFrame).
pub fn frame_dicts(py: Python<'_>, batch: RecordBatch, schema: SchemaRef) -> PyResult<Vec<Py<PyAny>>> {
    polars_frame(py, vec![batch], schema)?.call_method0(intern!(py, "to_dicts"))?.extract()
}

/// One decoded container (a one-row batch), converted to a dict when it reaches Python.
pub struct DecodedOut(pub RecordBatch, pub SchemaRef);

impl<'py> IntoPyObject<'py> for DecodedOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let rows = frame_dicts(py, self.0, self.1)?;
        match rows.into_iter().next() {
            Some(row) => Ok(row.into_bound(py)),
            None => Err(pyo3::exceptions::PyRuntimeError::new_err("internal error: a decoded container gave no row")),
        }
    }
}

/// A container as Python sees it: a dict (see [`container_dict`]).
pub struct PyContainer(pub Container);

impl<'py> IntoPyObject<'py> for PyContainer {
    type Target = PyDict;
    type Output = Bound<'py, PyDict>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        container_dict(py, &self.0)
    }
}

/// What a frame becomes in Python.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// A `polars.DataFrame`.
    Polars,
    /// A `pyarrow.Table` (needs pyarrow).
    Arrow,
    /// A `pandas.DataFrame` (needs pandas and pyarrow).
    Pandas,
}

impl FrameKind {
    /// The method that makes this kind of frame.
    pub fn method(self) -> &'static str {
        match self {
            FrameKind::Polars => "to_polars",
            FrameKind::Arrow => "to_arrow",
            FrameKind::Pandas => "to_pandas",
        }
    }
}

/// Record batches, converted to one frame of `kind` when they reach Python (zero-copy through the
/// Arrow PyCapsule interface for polars and pyarrow).
pub struct FrameOut(pub Vec<RecordBatch>, pub SchemaRef, pub FrameKind);

static PYARROW_TABLE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// `module.attr`, or an `ImportError` saying what needs it and how to install it.
fn optional<'py>(py: Python<'py>, module: &str, needed_by: &str) -> PyResult<Bound<'py, PyModule>> {
    py.import(module).map_err(|e| {
        pyo3::exceptions::PyImportError::new_err(format!("{needed_by} needs {module} (pip install {module}): {e}"))
    })
}

/// A `pyarrow.Table` of `batches` (no copy).
pub fn arrow_table<'py>(py: Python<'py>, batches: Vec<RecordBatch>, schema: SchemaRef) -> PyResult<Bound<'py, PyAny>> {
    let table = Bound::new(py, pyo3_arrow::PyTable::try_new(batches, schema)?)?;
    let constructor = PYARROW_TABLE
        .get_or_try_init(py, || optional(py, "pyarrow", "to_arrow()")?.getattr("table").map(Bound::unbind))?;
    constructor.bind(py).call1((table,))
}

/// The Arrow C stream capsule of `reader` (the `__arrow_c_stream__` protocol): the consumer
/// pulls the batches, each moving the walk's position.
pub fn arrow_stream<'py>(
    py: Python<'py>,
    reader: avax_data_core::arrow::WalkReader,
    requested_schema: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let reader = Bound::new(py, pyo3_arrow::PyRecordBatchReader::new(Box::new(reader)))?;
    reader.call_method1(intern!(py, "__arrow_c_stream__"), (requested_schema,))
}

impl<'py> IntoPyObject<'py> for FrameOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let FrameOut(batches, schema, kind) = self;
        match kind {
            FrameKind::Polars => polars_frame(py, batches, schema),
            FrameKind::Arrow => arrow_table(py, batches, schema),
            FrameKind::Pandas => {
                optional(py, "pandas", "to_pandas()")?;
                arrow_table(py, batches, schema)?.call_method0(intern!(py, "to_pandas"))
            }
        }
    }
}

// ---- JSON -> Python, typed by the resource schema ----

fn decode_error(field: &str, shown: impl std::fmt::Display, what: &str) -> PyErr {
    crate::errors::to_py(Error::Decode { message: bad(field, shown, what), url: String::new(), body: String::new() })
}

/// An `int` from decimal text (`-` and digits); an integer past what Python reads from text
/// (`sys.get_int_max_str_digits()`, 4300 digits) is a `DecodeError` naming the field.
fn int_of_digits<'py>(py: Python<'py>, field: &str, digits: &str) -> PyResult<Bound<'py, PyAny>> {
    py.get_type::<PyInt>().call1((digits,)).map_err(|e| {
        decode_error(field, avax_data_core::exact::shown(digits), &format!("an integer Python reads ({e})"))
    })
}

/// The sign and significant digits of an integer the rule of decimal digits accepts
/// ([`decimal_digits`]), as text `int()` reads: for amounts past what a frame column holds.
fn long_digits(v: &Scalar) -> Option<String> {
    let text = match v {
        Scalar::Text(s) => s.as_ref(),
        Scalar::Number(Number::Big(d)) => d.as_ref(),
        _ => return None,
    };
    let (negative, digits) = decimal_digits(text)?;
    Some(format!("{}{}", if negative { "-" } else { "" }, if digits.is_empty() { "0" } else { digits }))
}

/// One value of the exact tree as a Python object: integers as exact `int`s, floats as `float`,
/// and the typed fields of `kind` by the same scalar rules as their frame column.
fn json_to_py<'py>(py: Python<'py>, field: &str, value: &Exact, kind: Option<Kind>) -> PyResult<Bound<'py, PyAny>> {
    match (kind, value) {
        (_, Exact::Null) => Ok(py.None().into_bound(py)),
        // Integer amounts by the core's one rule of decimal digits, with the frame's refusal.
        // A dict's `int` has no 38-digit bound: a valid amount of any size (a uint256 token
        // value) is kept exactly; text the rule refuses is refused as in the frame.
        (Some(Kind::Dec), v) => match decimal_of(&Scalar::of_exact(v)) {
            Some(n) => Ok(n.into_pyobject(py)?.into_any()),
            None => match long_digits(&Scalar::of_exact(v)) {
                Some(text) => int_of_digits(py, field, &text),
                None => Err(decode_error(field, avax_data_core::exact::shown(&v.to_string()), DECIMAL_38)),
            },
        },
        // A uint256 is an exact `int` of any size in [0, 2^256), refused as in its frame column.
        (Some(Kind::U256), v) => match u256_of(&Scalar::of_exact(v)) {
            Some(digits) => int_of_digits(py, field, &digits),
            None => Err(decode_error(field, avax_data_core::exact::shown(&v.to_string()), U256_RANGE)),
        },
        (Some(Kind::U64Str), v) => match u64_of(&Scalar::of_exact(v)) {
            Some(n) => Ok(n.into_pyobject(py)?.into_any()),
            None => Err(decode_error(field, avax_data_core::exact::shown(&v.to_string()), U64_RANGE)),
        },
        // A signed integer sent as text (`createBlockNumber: "-1"`) is an `int`, as in its column.
        (Some(Kind::Int), Exact::Str(s)) => match i64_of(&Scalar::Text(s.as_str().into())) {
            Some(n) => Ok(n.into_pyobject(py)?.into_any()),
            None => Err(decode_error(field, avax_data_core::exact::shown(&value.to_string()), "an integer")),
        },
        (Some(k @ (Kind::TsSec | Kind::TsMs | Kind::TsUnix)), v) => {
            match unix_reader(k).and_then(|read| read(&Scalar::of_exact(v))) {
                Some(ns) => utc_datetime(py, ns),
                None => Err(decode_error(field, avax_data_core::exact::shown(&v.to_string()), UNIX_TIME)),
            }
        }
        // A typed float field is a `float` when the float holds the integer exactly (as its
        // column); an integer no float holds stays the exact `int` (its frame refuses it).
        (Some(Kind::Float | Kind::U256Float), Exact::Int(_) | Exact::UInt(_) | Exact::BigInt(_)) => {
            match f64_of(&Scalar::of_exact(value)) {
                Some(f) => Ok(f.into_pyobject(py)?.into_any()),
                None => json_to_py(py, field, value, None),
            }
        }
        (Some(Kind::Float | Kind::U256Float), Exact::Str(s)) => match f64_of(&Scalar::Text(s.as_str().into())) {
            Some(f) => Ok(f.into_pyobject(py)?.into_any()),
            None => Ok(PyString::new(py, s).into_any()),
        },
        (Some(Kind::TsText), v) => match rfc3339_ns(&Scalar::of_exact(v)) {
            Some(ns) => utc_datetime(py, ns),
            None => Err(decode_error(field, avax_data_core::exact::shown(&v.to_string()), RFC3339_TIME)),
        },
        (Some(Kind::List(kind)), Exact::Array(items)) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, field, item, Some(*kind))?)?;
            }
            Ok(list.into_any())
        }
        (Some(Kind::Struct(cols)), Exact::Object(_)) => object_to_py(py, value, Some(cols)),
        (Some(Kind::StructList(cols)), Exact::Array(items)) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, field, item, Some(Kind::Struct(cols)))?)?;
            }
            Ok(list.into_any())
        }
        (_, Exact::Bool(b)) => Ok(PyBool::new(py, *b).to_owned().into_any()),
        (_, Exact::Int(i)) => Ok(i.into_pyobject(py)?.into_any()),
        (_, Exact::UInt(u)) => Ok(u.into_pyobject(py)?.into_any()),
        (_, Exact::BigInt(digits)) => int_of_digits(py, field, digits),
        (_, Exact::Float(f)) => Ok(f.into_pyobject(py)?.into_any()),
        (_, Exact::Str(s)) => Ok(PyString::new(py, s).into_any()),
        (_, Exact::Array(items)) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, field, item, None)?)?;
            }
            Ok(list.into_any())
        }
        (_, Exact::Object(_)) => object_to_py(py, value, None),
    }
}

/// An object as a dict with the API's keys (each once, in the order they first came, with the
/// last value given: as `json.loads`); fields of `cols` typed, others as plain JSON. A
/// timestamp field that no `datetime` can hold is a `DecodeError` naming the field and value.
pub fn object_to_py<'py>(py: Python<'py>, value: &Exact, cols: Option<&[Col]>) -> PyResult<Bound<'py, PyAny>> {
    let dict = PyDict::new(py);
    if let Exact::Object(entries) = value {
        for (key, v) in entries {
            let kind = cols.and_then(|cols| cols.iter().find(|c| c.0 == key)).map(|c| c.1);
            dict.set_item(key, json_to_py(py, key, v, kind)?)?;
        }
    }
    Ok(dict.into_any())
}

/// A JSON object converted to a dict (typed by `cols`) when it reaches Python.
pub struct DictOut(pub Exact, pub Option<&'static [Col]>);

impl<'py> IntoPyObject<'py> for DictOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        object_to_py(py, &self.0, self.1)
    }
}

/// JSON objects converted to a list of dicts (typed by `cols`) when they reach Python.
pub struct DictsOut(pub Vec<Exact>, pub Option<&'static [Col]>);

impl<'py> IntoPyObject<'py> for DictsOut {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        let list = PyList::empty(py);
        for item in &self.0 {
            list.append(object_to_py(py, item, self.1)?)?;
        }
        Ok(list.into_any())
    }
}
