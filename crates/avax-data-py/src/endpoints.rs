//! The generic calls behind the generated endpoint methods (`python/avax_data/_endpoints.py`):
//! Python arguments become JSON values, the core checks them against the operation table and
//! makes the request; this module only converts types.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDate, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value;

use super::args::shown;
use super::errors::invalid;
use super::inputs::{chain_id_arg, time_arg};
use avax_data_core::error::Error;
use avax_data_core::rest::openapi::{operation, operations, Location, Operation, ParamType, Service, DEPRECATED_NAMES};

/// The operation `id` of `service`, or an `InvalidParameterError` naming it.
pub fn find(service: Service, id: &str) -> PyResult<&'static Operation> {
    operation(id).filter(|op| op.service == service).ok_or_else(|| {
        invalid("operation_id", format!("{id:?}"), format!("a GET operationId of the {}", service.name()))
    })
}

/// One Python argument as JSON: `None`, `bool`, `int`, `float`, `str`, lists and tuples of them;
/// a `date`/`datetime` is Unix seconds (UTC, by the core's time rule).
fn to_json(value: &Bound<'_, PyAny>, param: &str) -> PyResult<Value> {
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = value.extract::<u64>() {
            return Ok(Value::from(u));
        }
        // Too big for 64 bits: its digits, which the checks refuse with the value shown.
        return Ok(Value::String(value.str()?.to_string()));
    }
    if let Ok(f) = value.cast::<PyFloat>() {
        let x = f.value();
        return Ok(serde_json::Number::from_f64(x).map_or_else(|| Value::String(x.to_string()), Value::Number));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_string()));
    }
    if value.is_instance_of::<PyDate>() {
        return Ok(time_arg(Some(value), param)?.map_or(Value::Null, Value::from));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value.try_iter()?.map(|item| to_json(&item?, param)).collect::<PyResult<Vec<_>>>()?;
        return Ok(Value::Array(items));
    }
    Err(invalid(param, shown(value), "a str, int, float, bool, date/datetime, or a list of them"))
}

/// The keyword arguments of a generated method of `op` as `(python name, JSON value)` pairs: a
/// time parameter as Unix seconds and a chain id as its text, by the core's input rules (so they
/// take what every other method takes); the rest as JSON, checked by the core.
pub fn arguments(op: &Operation, args: &Bound<'_, PyDict>) -> PyResult<Vec<(String, Value)>> {
    args.iter()
        .map(|(k, v)| {
            let name: String = k.extract()?;
            let param = op.py_param(&name).filter(|_| !v.is_none());
            let value = match param {
                Some(p) if p.is_time() => time_arg(Some(&v), &name)?.map_or(Value::Null, Value::from),
                Some(p) if p.is_chain_id() => Value::String(chain_id_arg(&v, &name)?),
                _ => to_json(&v, &name)?,
            };
            Ok((name, value))
        })
        .collect()
}

/// Borrowed pairs for [`avax_data_core::rest::openapi::check`].
pub fn pairs(args: &[(String, Value)]) -> Vec<(&str, Value)> {
    args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect()
}

/// A list operation asked for as an object, or the reverse: a programming error of the caller.
pub fn wrong_shape(op: &Operation, wanted_list: bool) -> PyErr {
    let what = if wanted_list { "a list" } else { "one object" };
    crate::errors::to_py(Error::Internal(format!("{} does not answer {what}", op.id)))
}

fn type_name(ty: ParamType) -> &'static str {
    match ty {
        ParamType::String => "string",
        ParamType::Integer => "integer",
        ParamType::Number => "number",
        ParamType::Boolean => "boolean",
        ParamType::Any => "any",
    }
}

/// Every GET operation of both documents as dicts: what the generator of the endpoint methods
/// and their stubs reads (`tools/gen_endpoints.py`), and the coverage test.
///
/// Returns:
///     list[dict]: ``service`` (``"data"`` or ``"metrics"``), ``operation_id``, ``path``,
///     ``tag``, ``summary``, ``description``, ``list_key`` (None for an object answer),
///     ``is_list`` (walked as a pager: a page of objects), ``identity`` (the fields naming
///     one item of a list, ``(id, key or None)``, from the core's table; None without one),
///     ``token_paged``, ``weight`` (compute units), ``needs_api_key``, ``columns`` (the
///     ``(name, type)`` of each column of its frame, or of its dict's typed fields for an object
///     answer; None when the answer has no fields) and ``params`` (dicts of
///     ``name``, ``py_name``, ``location``, ``required``, ``type``, ``array``, ``enum``,
///     ``minimum``, ``maximum``, ``default``, ``description``, ``time`` / ``chain_id``: read by
///     the shared rule of times / chain ids, and ``rule``: the core's id rule of the parameter
///     (``px_address``, ``px_or_evm_address``, ``evm_address``, ``cb58``, ``node_id``, ``evm_hash``, ``block_id``,
///     ``icm_chain``) or None, and ``deprecated_name``: the name it had before, still taken
///     with a ``DeprecationWarning`` for one release, or None).
///
/// Example:
///     >>> ops = ad._native.openapi_operations()
///     >>> len(ops), sorted({o["service"] for o in ops})
///     (85, ['data', 'metrics'])
#[pyfunction]
pub fn openapi_operations(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for op in operations() {
        let d = PyDict::new(py);
        d.set_item("service", if op.service == Service::Data { "data" } else { "metrics" })?;
        d.set_item("operation_id", op.id)?;
        d.set_item("path", op.path)?;
        d.set_item("tag", op.tag)?;
        d.set_item("summary", op.summary)?;
        d.set_item("description", op.description)?;
        d.set_item("list_key", op.list_key)?;
        d.set_item("is_list", op.is_list())?;
        d.set_item("token_paged", op.token_paged)?;
        d.set_item("block_ranged", avax_data_core::rest::block_source::BLOCK_RANGED.contains(&op.id))?;
        d.set_item("time_windowed", avax_data_core::rest::block_source::TIME_WINDOWED.contains(&op.id))?;
        d.set_item("identity", avax_data_core::rest::openapi::list_identity(op.id).map(|i| (i.id, i.key)))?;
        d.set_item("weight", op.weight())?;
        d.set_item("needs_api_key", op.needs_api_key)?;
        let columns: Option<Vec<(&str, String)>> = avax_data_core::arrow::Resource::operation_columns(op)
            .map(|cols| cols.iter().map(|c| (c.0, avax_data_core::arrow::labels::label(c.1))).collect());
        d.set_item("columns", columns)?;
        let params = PyList::empty(py);
        for p in &op.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name)?;
            pd.set_item("py_name", &p.py_name)?;
            pd.set_item("location", if p.location == Location::Path { "path" } else { "query" })?;
            pd.set_item("required", p.required)?;
            pd.set_item("type", type_name(p.schema.ty))?;
            pd.set_item("array", p.schema.array || p.comma_list())?;
            pd.set_item("enum", p.schema.enum_values.clone())?;
            pd.set_item("minimum", p.schema.minimum)?;
            pd.set_item("maximum", p.schema.maximum)?;
            pd.set_item("default", p.schema.default.map(Value::to_string))?;
            pd.set_item("description", p.description)?;
            pd.set_item("time", p.is_time())?;
            pd.set_item("chain_id", p.is_chain_id())?;
            pd.set_item("rule", p.kind.map(|k| k.name()))?;
            let old = DEPRECATED_NAMES.iter().find(|(_, new)| *new == p.py_name).map(|(old, _)| *old);
            pd.set_item("deprecated_name", old)?;
            params.append(pd)?;
        }
        d.set_item("params", params)?;
        out.append(d)?;
    }
    Ok(out)
}
