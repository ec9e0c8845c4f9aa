//! The two generic calls of an operation by its id, `_call_list` and `_call_object`, written
//! once for every client of an OpenAPI service (the Data and Metrics clients): the arguments are
//! checked against the operation table (see [`super::endpoints`]) before any request.

use std::ops::Deref;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::DictOut;
use super::mode::{Call, Mode, PyAnyResult};
use avax_data_core::arrow::Resource;
use avax_data_core::data::{DataClient, ResourcePager};
use avax_data_core::metrics::MetricsClient;
use avax_data_core::rest::block_source::list_pager;
use avax_data_core::rest::openapi::{prepare, Credentials, Operation, Request, Service};
use avax_data_core::rest::RestClient;

/// A client of one OpenAPI service: which document its operations come from and what a call
/// needs to know about its key.
pub trait ServiceClient: Deref<Target = RestClient> + Clone + Send + Sync + 'static {
    /// The service whose operations the client calls.
    const SERVICE: Service;
    /// Whether a key is set, and where one comes from.
    fn credentials(&self) -> Credentials<'static>;
}

impl ServiceClient for DataClient {
    const SERVICE: Service = Service::Data;
    fn credentials(&self) -> Credentials<'static> {
        DataClient::credentials(self)
    }
}

impl ServiceClient for MetricsClient {
    const SERVICE: Service = Service::Metrics;
    fn credentials(&self) -> Credentials<'static> {
        // The Metrics API takes no key.
        Credentials { has_key: false, env: "" }
    }
}

/// The operation `operation_id` of the client's service, which must answer a list (`list`) or
/// one object, and its request with `arguments` (Python parameter names), checked.
fn prepared<C: ServiceClient>(
    client: &C,
    operation_id: &str,
    arguments: &Bound<'_, PyDict>,
    list: bool,
) -> PyResult<(&'static Operation, Request)> {
    let op = super::endpoints::find(C::SERVICE, operation_id)?;
    if op.is_list() != list {
        return Err(super::endpoints::wrong_shape(op, list));
    }
    let args = super::endpoints::arguments(op, arguments)?;
    let request = prepare(op, &super::endpoints::pairs(&args), client.credentials()).map_err(crate::errors::to_py)?;
    Ok((op, request))
}

/// `_call_list`: a pager over the list operation `operation_id`, from `page_token`, handing out
/// at most `limit` items; a block-ranged list is walked in `concurrency` shards side by side
/// (the core's [`list_pager`] decides).
pub fn list<C: ServiceClient>(
    client: &C,
    operation_id: &str,
    arguments: &Bound<'_, PyDict>,
    page_token: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
    concurrency: Option<&Bound<'_, PyAny>>,
) -> PyResult<ResourcePager> {
    let max = avax_data_core::settings::MAX_CONCURRENCY as u64;
    let concurrency = super::args::opt_bounded(concurrency, "concurrency", 1, max)?.map(|c| c as i64);
    let (op, request) = prepared(client, operation_id, arguments, true)?;
    let paged = request.paged().map_err(crate::errors::to_py)?;
    let (page_token, limit) = (super::args::page_token_arg(page_token)?, super::args::limit_arg(limit)?);
    list_pager(client, op.id, paged, Resource::of_operation(op), page_token, limit, concurrency)
        .map_err(crate::errors::to_py)
}

/// `_call_object`: the answer of the object operation `operation_id`, run in mode `M` as a
/// call of `class`.
pub fn object<'py, M: Mode, C: ServiceClient>(
    py: Python<'py>,
    class: &'static str,
    client: &C,
    operation_id: &str,
    arguments: &Bound<'py, PyDict>,
) -> PyAnyResult<'py> {
    let (op, request) = prepared(client, operation_id, arguments, false)?;
    let client = client.clone();
    M::run(py, Call(class, op.id), async move {
        Ok(DictOut(request.object(&client).await.map_err(crate::errors::to_py)?, op.answer_columns()))
    })
}
