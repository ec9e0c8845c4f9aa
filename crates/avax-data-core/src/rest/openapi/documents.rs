//! The two embedded OpenAPI documents, parsed once, and `$ref` resolution inside them.

use std::sync::OnceLock;

use serde_json::Value;

/// Which hosted service (and so which OpenAPI document) an operation belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Service {
    /// The Data API (`spec/openapi/data-api.openapi.json`; paths under `/v1`, and one `/v2`).
    Data,
    /// The Metrics API (`spec/openapi/metrics-api.openapi.json`; paths under `/v2`).
    Metrics,
}

const DATA_TEXT: &str = include_str!("../../../../../spec/openapi/data-api.openapi.json");
const METRICS_TEXT: &str = include_str!("../../../../../spec/openapi/metrics-api.openapi.json");

/// Longest chain of `$ref`s followed before giving up (the documents use at most two).
const MAX_REF_HOPS: usize = 32;

impl Service {
    /// The service's name as the README and errors spell it.
    pub fn name(self) -> &'static str {
        match self {
            Service::Data => "Data API",
            Service::Metrics => "Metrics API",
        }
    }

    /// The document's embedded text.
    pub fn text(self) -> &'static str {
        match self {
            Service::Data => DATA_TEXT,
            Service::Metrics => METRICS_TEXT,
        }
    }

    /// The parsed document (parsed on first use; the embedded text is valid JSON, which a
    /// test checks, so a failed parse is a build defect and panics).
    pub fn document(self) -> &'static Value {
        static DATA: OnceLock<Value> = OnceLock::new();
        static METRICS: OnceLock<Value> = OnceLock::new();
        let (cell, text) = match self {
            Service::Data => (&DATA, DATA_TEXT),
            Service::Metrics => (&METRICS, METRICS_TEXT),
        };
        cell.get_or_init(|| serde_json::from_str(text).expect("the embedded OpenAPI document is JSON"))
    }

    /// The value a local reference (`#/components/schemas/Name`) points at, if any.
    pub fn lookup(self, reference: &str) -> Option<&'static Value> {
        self.document().pointer(reference.strip_prefix('#')?)
    }

    /// `schema` with its `$ref`s followed until a schema without one (a reference that points
    /// nowhere, or a loop, gives the last schema reached; a test checks that every reference of
    /// both documents resolves).
    pub fn resolve(self, schema: &'static Value) -> &'static Value {
        let mut at = schema;
        for _ in 0..MAX_REF_HOPS {
            match at.get("$ref").and_then(Value::as_str).and_then(|r| self.lookup(r)) {
                Some(next) => at = next,
                None => break,
            }
        }
        at
    }

    /// The named schema of `components/schemas`.
    pub fn schema(self, name: &str) -> Option<&'static Value> {
        self.document().get("components")?.get("schemas")?.get(name)
    }

    /// Compute units of a weight class (`x-execution-weight-values` of the document).
    pub fn weight_units(self, class: &str) -> Option<u32> {
        let units = self.document().get("x-execution-weight-values")?.get(class)?.as_u64()?;
        u32::try_from(units).ok()
    }
}
