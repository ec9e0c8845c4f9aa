//! Reading one document's GET operations into [`Operation`] rows.

use serde_json::{Map, Value};

use super::route::Template;
use super::Service;
use crate::inputs::IdKind;
use crate::transport::weights::DEFAULT_WEIGHT;

/// Tags whose operations act on the caller's own account (usage metrics and logs, webhooks):
/// the documents mark the API key optional on every operation (`security: [{apiKey: []}, {}]`),
/// but these answer nothing without one, so the client asks for a key before sending.
pub const KEY_TAGS: &[&str] = &["Data API Usage Metrics", "Webhooks"];

/// Where a parameter goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// A `{name}` segment of the path template.
    Path,
    /// The query string.
    Query,
}

/// The JSON type of a parameter's value (of each item, for an array parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamType {
    /// `string`.
    String,
    /// `integer`.
    Integer,
    /// `number` (the documents use it for block numbers and percentages alike).
    Number,
    /// `boolean`.
    Boolean,
    /// No type given (`schema: {}`, or only a default): sent as text.
    Any,
}

/// The checks of one parameter, from its schema (`$ref`s followed).
#[derive(Debug, Clone)]
pub struct ParamSchema {
    /// The type of the value, or of each item when [`ParamSchema::array`].
    pub ty: ParamType,
    /// Whether the value is an array (`type: array`; items of type [`ParamSchema::ty`]).
    pub array: bool,
    /// The allowed values (of each item, for an array), empty when any value goes.
    pub enum_values: Vec<&'static str>,
    /// Inclusive lower bound.
    pub minimum: Option<f64>,
    /// Inclusive upper bound.
    pub maximum: Option<f64>,
    /// A regular expression the value must match.
    pub pattern: Option<&'static str>,
    /// The value the service assumes when the parameter is absent.
    pub default: Option<&'static Value>,
    /// The serialisation style (`form` for the query, `simple` for the path, unless given).
    pub style: &'static str,
    /// Whether an array is sent as one `name=item` pair per item (`true`) or as one
    /// comma-separated value (`false`); the OpenAPI default is `true` for `form`.
    pub explode: bool,
    /// The schema as the document writes it.
    pub raw: &'static Value,
}

/// One parameter of an operation.
#[derive(Debug, Clone)]
pub struct Param {
    /// The name on the wire (`chainId`).
    pub name: &'static str,
    /// The Python name (`chain_id`; `from` is `from_`).
    pub py_name: String,
    /// Path or query.
    pub location: Location,
    /// Whether the request needs it (every path parameter does).
    pub required: bool,
    /// The document's description (may be empty).
    pub description: &'static str,
    /// Its type and checks.
    pub schema: ParamSchema,
    /// The id rule its text follows besides its type ([`crate::inputs::ids`]), if any.
    pub kind: Option<IdKind>,
}

/// One GET operation of a document.
#[derive(Debug)]
pub struct Operation {
    /// The service it belongs to.
    pub service: Service,
    /// `operationId` (`getLatestBlocks`).
    pub id: &'static str,
    /// The path template (`/v1/chains/{chainId}/blocks`).
    pub path: &'static str,
    /// The first tag (`EVM Blocks`): the README groups operations by it.
    pub tag: &'static str,
    /// One-line summary (may be empty).
    pub summary: &'static str,
    /// Longer description (may be empty).
    pub description: &'static str,
    /// Parameters in the document's order (path-level ones first).
    pub params: Vec<Param>,
    /// `x-execution-weight` (`small`, `medium`, ...), when documented.
    pub weight_class: Option<&'static str>,
    /// The status of the success answer (200, or 201 for `getAggregatedSignatures`).
    pub status: u16,
    /// The success answer's JSON schema as written (may hold `$ref`s: see [`Service::resolve`]).
    pub response: &'static Value,
    /// The array property of the answer that holds the items, when the answer is a page
    /// (has `nextPageToken`): the same key in every `oneOf` variant.
    pub list_key: Option<&'static str>,
    /// Whether the list is walked with tokens: the answer is a page and the operation takes
    /// `pageToken`.
    pub token_paged: bool,
    /// Whether the client refuses to send it without an API key (see [`KEY_TAGS`]).
    pub needs_api_key: bool,
    pub(super) template: Template,
}

impl Param {
    /// Whether the value is a comma-separated list written as one string (its description says
    /// so): such a parameter also takes a list, joined with commas.
    pub fn comma_list(&self) -> bool {
        let d = self.description.to_ascii_lowercase();
        !self.schema.array
            && self.schema.ty == ParamType::String
            && (d.contains("comma separated") || d.contains("comma-separated"))
    }

    /// Whether the value is a time in Unix seconds (an integer named `*Timestamp`): it is read by
    /// [`crate::inputs::unix_seconds`], so it also takes a date, an ISO or RFC 3339 text.
    pub fn is_time(&self) -> bool {
        !self.schema.array && self.schema.ty == ParamType::Integer && self.name.ends_with("Timestamp")
    }

    /// Whether the value is a chain id (`chainId`): read by [`crate::inputs::chain_id`], so an
    /// integer and its digits are one id.
    pub fn is_chain_id(&self) -> bool {
        !self.schema.array && self.name == "chainId"
    }

    /// The literal words a string parameter takes besides its kind of id, as its description
    /// names them: the quoted words after "one of" (`A supported EVM chain ID or one of "total",
    /// "mainnet", or "testnet"` gives `total`, `mainnet`, `testnet`); empty for a parameter with
    /// an enum or whose description names none.
    pub fn named_values(&self) -> Vec<&'static str> {
        if !self.schema.enum_values.is_empty() || self.schema.ty != ParamType::String {
            return Vec::new();
        }
        let Some(at) = self.description.find("one of ") else { return Vec::new() };
        let mut words = Vec::new();
        let mut rest = &self.description[at + "one of ".len()..];
        // `"a", "b", or "c"`: quoted words separated by commas, spaces and `or`.
        while let Some(tail) = rest.strip_prefix('"') {
            let Some(end) = tail.find('"') else { break };
            let word = &tail[..end];
            if word.is_empty() || !word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
                break;
            }
            words.push(word);
            rest = tail[end + 1..].trim_start_matches([',', ' ']);
            rest = rest.strip_prefix("or ").unwrap_or(rest);
        }
        words
    }
}

impl Operation {
    /// Compute units of one request: the documented weight class, else
    /// [`crate::transport::weights::DEFAULT_WEIGHT`].
    pub fn weight(&self) -> u32 {
        self.weight_class.and_then(|c| self.service.weight_units(c)).unwrap_or(DEFAULT_WEIGHT)
    }

    /// The parameter named `name` on the wire.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The parameter whose Python name is `py_name`.
    pub fn py_param(&self, py_name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.py_name == py_name)
    }

    /// The path parameters in the order the template names them.
    pub fn path_params(&self) -> Vec<&Param> {
        self.template.names().filter_map(|n| self.param(n)).collect()
    }

    /// Whether the client walks the answer as a list: a page whose items are objects (token-paged
    /// or not). `getAddressesFromWebhook` pages plain strings: it is called as an object, and
    /// its dict carries `nextPageToken` (its `page_token` parameter fetches the next page).
    pub fn is_list(&self) -> bool {
        self.list_key.is_some() && self.item_columns().is_some()
    }

    /// The largest `pageSize`, when the operation takes one with a maximum.
    pub fn max_page_size(&self) -> Option<u64> {
        self.param("pageSize")?.schema.maximum.map(|m| m as u64)
    }

    /// The answer's variants: the `oneOf`/`anyOf` members (resolved), or the one schema.
    pub fn response_variants(&self) -> Vec<&'static Value> {
        variants(self.service, self.response)
    }

    /// The schema of one item of the list, per variant (resolved); empty for an object.
    pub fn item_schemas(&self) -> Vec<&'static Value> {
        let Some(key) = self.list_key else { return Vec::new() };
        self.response_variants()
            .into_iter()
            .filter_map(|v| v.get("properties")?.get(key)?.get("items"))
            .map(|items| self.service.resolve(items))
            .collect()
    }

    /// The request path with `values` (already checked and percent-encoded, by wire name) in
    /// the template's `{name}` slots; `None` when a slot has no value.
    pub fn fill_path(&self, values: &[(&str, String)]) -> Option<String> {
        self.template.fill(values)
    }
}

fn variants(service: Service, schema: &'static Value) -> Vec<&'static Value> {
    let resolved = service.resolve(schema);
    match resolved.get("oneOf").or_else(|| resolved.get("anyOf")).and_then(Value::as_array) {
        Some(members) => members.iter().map(|m| service.resolve(m)).collect(),
        None => vec![resolved],
    }
}

fn text(v: &'static Value, key: &str) -> &'static str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The Python name of a parameter: a time window's ends (`startTimestamp`, `endTimestamp`) are
/// `start` and `end`, as on every hand-written method (they take any time the core's rule
/// reads); any other name in snake case ([`snake_case`]).
pub(super) fn py_name(name: &str) -> String {
    match name {
        "startTimestamp" => "start".into(),
        "endTimestamp" => "end".into(),
        other => snake_case(other),
    }
}

/// The Python names the time window's ends had before they were `start` and `end`, by their
/// new name: deprecated aliases for one release.
pub const DEPRECATED_NAMES: &[(&str, &str)] = &[("start_timestamp", "start"), ("end_timestamp", "end")];

/// `chainId` → `chain_id`, `l1ValidationId` → `l1_validation_id`, `from` → `from_`.
pub(super) fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    const KEYWORDS: &[&str] = &["from", "in", "is", "for", "class", "def", "global", "lambda", "type"];
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

fn param_type(schema: &Value) -> ParamType {
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => ParamType::String,
        Some("integer") => ParamType::Integer,
        Some("number") => ParamType::Number,
        Some("boolean") => ParamType::Boolean,
        _ => ParamType::Any,
    }
}

fn enum_values(schema: &'static Value) -> Vec<&'static str> {
    schema.get("enum").and_then(Value::as_array).map_or_else(Vec::new, |v| v.iter().filter_map(Value::as_str).collect())
}

fn read_schema(service: Service, param: &'static Value, location: Location) -> ParamSchema {
    static EMPTY: Value = Value::Null;
    let raw = param.get("schema").unwrap_or(&EMPTY);
    let schema = service.resolve(raw);
    let array = schema.get("type").and_then(Value::as_str) == Some("array");
    let item = if array { schema.get("items").map_or(&EMPTY, |i| service.resolve(i)) } else { schema };
    let style = param.get("style").and_then(Value::as_str).unwrap_or(match location {
        Location::Path => "simple",
        Location::Query => "form",
    });
    ParamSchema {
        ty: param_type(item),
        array,
        enum_values: enum_values(item),
        minimum: schema.get("minimum").and_then(Value::as_f64),
        maximum: schema.get("maximum").and_then(Value::as_f64),
        pattern: item.get("pattern").and_then(Value::as_str),
        default: schema.get("default").or_else(|| raw.get("default")),
        style,
        explode: param.get("explode").and_then(Value::as_bool).unwrap_or(style == "form"),
        raw,
    }
}

fn read_param(service: Service, param: &'static Value) -> Option<Param> {
    let param = service.resolve(param);
    let location = match param.get("in")?.as_str()? {
        "path" => Location::Path,
        "query" => Location::Query,
        _ => return None,
    };
    let name = param.get("name")?.as_str()?;
    Some(Param {
        name,
        py_name: py_name(name),
        location,
        required: location == Location::Path || param.get("required").and_then(Value::as_bool) == Some(true),
        description: text(param, "description"),
        schema: read_schema(service, param, location),
        kind: None,
    })
}

/// The success status and its JSON schema: 200, else the first 2xx the document lists.
fn success(op: &'static Value) -> (u16, &'static Value) {
    static ANY: Value = Value::Null;
    let Some(responses) = op.get("responses").and_then(Value::as_object) else { return (200, &ANY) };
    let mut codes: Vec<(u16, &'static Value)> =
        responses.iter().filter_map(|(code, r)| Some((code.parse::<u16>().ok()?, r))).collect();
    codes.sort_by_key(|(code, _)| *code);
    codes
        .into_iter()
        .find(|(code, _)| (200..300).contains(code))
        .map(|(code, r)| (code, r.pointer("/content/application~1json/schema").unwrap_or(&ANY)))
        .unwrap_or((200, &ANY))
}

/// The one array property (besides `nextPageToken`) shared by every variant of a page answer.
fn list_key(service: Service, response: &'static Value) -> Option<&'static str> {
    let mut key = None;
    for variant in variants(service, response) {
        let props: &'static Map<String, Value> = variant.get("properties")?.as_object()?;
        props.get("nextPageToken")?;
        let mut arrays = props
            .iter()
            .filter(|(_, s)| service.resolve(s).get("type").and_then(Value::as_str) == Some("array"))
            .map(|(k, _)| k.as_str());
        let (Some(this), None) = (arrays.next(), arrays.next()) else { return None };
        if key.is_some_and(|k| k != this) {
            return None;
        }
        key = Some(this);
    }
    key
}

/// Whether the security requirements (the operation's, else the document's) leave no
/// alternative without credentials.
fn security_requires_key(doc: &'static Value, op: &'static Value) -> bool {
    let Some(reqs) = op.get("security").or_else(|| doc.get("security")).and_then(Value::as_array) else {
        return false;
    };
    !reqs.is_empty() && !reqs.iter().any(|r| r.as_object().is_some_and(Map::is_empty))
}

/// Every GET operation of `service`'s document, sorted by path template.
pub(super) fn read_operations(service: Service) -> Vec<Operation> {
    let doc = service.document();
    let Some(paths) = doc.get("paths").and_then(Value::as_object) else { return Vec::new() };
    paths
        .iter()
        .filter_map(|(path, item)| {
            let op = item.get("get")?;
            let tag = op.get("tags").and_then(|t| t.get(0)).and_then(Value::as_str).unwrap_or("");
            let (status, response) = success(op);
            let mut params: Vec<Param> = item
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .chain(op.get("parameters").and_then(Value::as_array))
                .flatten()
                .filter_map(|p| read_param(service, p))
                .collect();
            for p in &mut params {
                p.kind = super::kinds::id_kind(path, p.name, p.description, !p.schema.enum_values.is_empty());
            }
            let list_key = list_key(service, response);
            let token_paged = list_key.is_some() && params.iter().any(|p| p.name == "pageToken");
            Some(Operation {
                service,
                id: op.get("operationId")?.as_str()?,
                path: path.as_str(),
                tag,
                summary: text(op, "summary"),
                description: text(op, "description"),
                weight_class: op.get("x-execution-weight").and_then(Value::as_str),
                status,
                response,
                list_key,
                token_paged,
                needs_api_key: security_requires_key(doc, op) || KEY_TAGS.contains(&tag),
                template: Template::parse(path),
                params,
            })
        })
        .collect()
}
