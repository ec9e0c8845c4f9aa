//! The operation table of the two hosted REST services, read from their OpenAPI documents
//! (vendored in `spec/openapi/` and embedded in the binary): every GET operation with its path
//! template, parameters and their checks, weight, paging and response schema.
//!
//! The documents are parsed once, on first use, into `&'static` tables:
//! - [`operations`] lists every GET operation of both documents (Data API first, each sorted by
//!   path template); [`operation`] finds one by `operationId`.
//! - [`route`] matches a request path to its operation and path parameters (the emulator's
//!   router and the compute-unit weights use it).
//! - [`Service::resolve`] follows `$ref`s of a schema inside its document.

mod call;
mod check;
mod columns;
#[cfg(test)]
mod concepts_tests;
mod documents;
mod hand;
mod identities;
mod kinds;
mod order;
mod route;
mod table;

pub use call::{prepare, Credentials};
pub use check::{check, Request, MAX_QUERY_VALUE};
pub use columns::{float_companion, integer_name, kind_of, DECIMAL_NAMES, SIGNED_NAMES, U256_AMOUNTS, U256_NAMES};
pub use documents::Service;
pub use hand::{engine_check, ride};
pub use identities::{list_identity, LIST_IDENTITIES};
pub use route::route;
pub use table::{Location, Operation, Param, ParamSchema, ParamType, DEPRECATED_NAMES, KEY_TAGS};

use std::collections::HashMap;
use std::sync::OnceLock;

struct Tables {
    operations: Vec<Operation>,
    by_id: HashMap<&'static str, usize>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let operations: Vec<Operation> =
            [Service::Data, Service::Metrics].into_iter().flat_map(table::read_operations).collect();
        let by_id = operations.iter().enumerate().map(|(i, op)| (op.id, i)).collect();
        Tables { operations, by_id }
    })
}

/// Every GET operation of both documents: the Data API's, then the Metrics API's, each sorted by
/// path template.
pub fn operations() -> &'static [Operation] {
    &tables().operations
}

/// The GET operation whose `operationId` is `id` (ids are unique across both documents).
pub fn operation(id: &str) -> Option<&'static Operation> {
    let t = tables();
    t.by_id.get(id).map(|&i| &t.operations[i])
}

/// The GET operations of one service.
pub fn service_operations(service: Service) -> impl Iterator<Item = &'static Operation> {
    operations().iter().filter(move |op| op.service == service)
}

#[cfg(test)]
mod tests;
