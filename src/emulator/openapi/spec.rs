//! The two vendored OpenAPI documents (`spec/openapi/`), embedded and parsed once: every GET
//! operation with what the emulator needs to route, check and answer it (path template,
//! parameters, success status and schema, token paging, API key).

use std::sync::OnceLock;

use serde_json::Value;

/// Which service (and document) an operation belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Service {
    Data,
    Metrics,
}

/// Where a parameter goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum In {
    Path,
    Query,
}

/// One parameter of an operation; `schema` has its `$ref`s resolved at the top level.
#[derive(Debug)]
pub(crate) struct Param {
    pub(crate) name: String,
    pub(crate) location: In,
    pub(crate) required: bool,
    pub(crate) schema: &'static Value,
}

/// One GET operation.
#[derive(Debug)]
pub(crate) struct Operation {
    pub(crate) service: Service,
    pub(crate) id: String,
    /// The path template, e.g. `/v1/chains/{chainId}/blocks`.
    pub(crate) path: String,
    pub(crate) params: Vec<Param>,
    /// The success status the document gives (200, or 201 for one operation).
    pub(crate) status: u16,
    /// The success answer's JSON schema.
    pub(crate) schema: &'static Value,
    /// Token paged: `pageToken`/`pageSize` in, `nextPageToken` out.
    pub(crate) paged: bool,
    /// Acts for an account (tags `Webhooks`, `Data API Usage Metrics`): the service answers it
    /// only with an API key.
    pub(crate) keyed: bool,
}

impl Operation {
    /// The parameter `name`, if the operation has it.
    pub(crate) fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }
}

/// The tags whose operations need an API key.
const KEYED_TAGS: &[&str] = &["Webhooks", "Data API Usage Metrics"];

fn document(service: Service) -> &'static Value {
    static DATA: OnceLock<Value> = OnceLock::new();
    static METRICS: OnceLock<Value> = OnceLock::new();
    let (cell, text) = match service {
        Service::Data => (&DATA, include_str!("../../../spec/openapi/data-api.openapi.json")),
        Service::Metrics => (&METRICS, include_str!("../../../spec/openapi/metrics-api.openapi.json")),
    };
    cell.get_or_init(|| serde_json::from_str(text).expect("the vendored OpenAPI document is valid JSON"))
}

/// `schema` with its `$ref` chain followed within the document of `service` (a dangling
/// reference resolves to `null`).
pub(crate) fn resolve(service: Service, schema: &'static Value) -> &'static Value {
    let mut schema = schema;
    for _ in 0..32 {
        let Some(reference) = schema.get("$ref").and_then(Value::as_str) else { return schema };
        schema =
            reference.strip_prefix('#').and_then(|pointer| document(service).pointer(pointer)).unwrap_or(&Value::Null);
    }
    schema
}

/// The component schema `name` of the document of `service` (`null` when it has none).
pub(crate) fn component(service: Service, name: &str) -> &'static Value {
    resolve(service, document(service).pointer(&format!("/components/schemas/{name}")).unwrap_or(&Value::Null))
}

fn parse(service: Service) -> Vec<Operation> {
    let doc = document(service);
    let mut out = Vec::new();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else { return out };
    for (path, item) in paths {
        let Some(op) = item.get("get") else { continue };
        let params: Vec<Param> = op
            .get("parameters")
            .and_then(Value::as_array)
            .map(|ps| {
                ps.iter()
                    .filter_map(|p| {
                        let p = resolve(service, p);
                        let location = match p.get("in").and_then(Value::as_str)? {
                            "path" => In::Path,
                            "query" => In::Query,
                            _ => return None,
                        };
                        Some(Param {
                            name: p.get("name")?.as_str()?.to_string(),
                            location,
                            required: p.get("required").and_then(Value::as_bool).unwrap_or(false),
                            schema: resolve(service, p.get("schema").unwrap_or(&Value::Null)),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let responses = &op["responses"];
        let (status, response) = ["200", "201"]
            .iter()
            .find_map(|s| responses.get(*s).map(|r| (s.parse().unwrap_or(200), r)))
            .unwrap_or((200, &Value::Null));
        let schema = resolve(service, &response["content"]["application/json"]["schema"]);
        let tags: Vec<&str> = op
            .get("tags")
            .and_then(Value::as_array)
            .map(|t| t.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        out.push(Operation {
            service,
            id: op.get("operationId").and_then(Value::as_str).unwrap_or(path).to_string(),
            path: path.clone(),
            paged: params.iter().any(|p| p.name == "pageToken"),
            keyed: tags.iter().any(|t| KEYED_TAGS.contains(t)),
            params,
            status,
            schema,
        });
    }
    out
}

/// Every GET operation of both documents (Data API first, in document order).
pub(crate) fn operations() -> &'static [Operation] {
    static OPS: OnceLock<Vec<Operation>> = OnceLock::new();
    OPS.get_or_init(|| {
        let mut ops = parse(Service::Data);
        ops.extend(parse(Service::Metrics));
        ops
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_documents_give_every_get_operation() {
        let ops = operations();
        assert_eq!(ops.iter().filter(|o| o.service == Service::Data).count(), 70);
        assert_eq!(ops.iter().filter(|o| o.service == Service::Metrics).count(), 15);
        let find = |id: &str| ops.iter().find(|o| o.id == id).unwrap();
        let blocks = find("getLatestBlocks");
        assert_eq!(blocks.path, "/v1/chains/{chainId}/blocks");
        assert!(blocks.paged && !blocks.keyed);
        let size = blocks.param("pageSize").unwrap();
        assert_eq!((size.location, size.schema["maximum"].as_u64()), (In::Query, Some(100)));
        assert_eq!(blocks.schema["required"][0], "blocks");
        assert!(find("listWebhooks").keyed && find("getApiUsageMetrics").keyed);
        assert_eq!(find("getAggregatedSignatures").status, 201);
        let network = find("listValidators").param("network").unwrap();
        assert_eq!(network.schema["enum"][0], "mainnet", "a $ref parameter schema is resolved");
        assert_eq!(component(Service::Data, "NativeTransaction")["required"][0], "blockNumber");
        assert!(component(Service::Metrics, "NoSuchSchema").is_null());
    }
}
