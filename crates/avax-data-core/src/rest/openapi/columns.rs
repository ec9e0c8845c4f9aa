//! The schema rule: an operation's JSON Schema as a tree of [`Col`]s, the one description the
//! frames (Arrow columns read straight from the page text) and the dicts are typed by.
//!
//! | JSON Schema | column |
//! |---|---|
//! | `string` | `Str` (String) |
//! | `string`, `format: date-time` | `TsText` (Datetime ns UTC) |
//! | `string` of decimal digits (its example is digits, or a known amount name) | `Dec` (Decimal(38, 0)) |
//! | `integer` with `minimum >= 0` / other `integer` | `U64Str` (UInt64) / `Int` (Int64) |
//! | `number` named `timestamp`, `*Timestamp` / `*TimestampMilliseconds` | `TsSec` / `TsMs` (Datetime) |
//! | `number` named `*At` (`createdAt`: no unit given) | `TsUnix` (Datetime; seconds or milliseconds by size) |
//! | other `number` | `Float` (Float64) |
//! | `boolean` | `Bool` |
//! | `enum` | its type (unknown values kept) |
//! | `object` with properties, `allOf` | `Struct` |
//! | `oneOf`/`anyOf` of objects | one `Struct` of every variant's fields (and the discriminator) |
//! | `array` | `List` of its items' column |
//! | anything else (free-form objects, mixed unions, deeper than 8 levels) | `Json` (JSON text) |
//!
//! Columns and struct fields come in the order the document writes the properties in (read
//! from its text by `order.rs`), a later variant's new fields after the earlier ones; a list
//! item ends with `extra` (the fields the document does not name, as JSON text), and a Metrics
//! API series item starts with its `timestamp`.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::{operations, Operation, Service};
use crate::arrow::json::{Col, Kind, EXTRA};

/// Names of decimal-string amounts the documents give no digit example for (the same fields
/// the hand-written tables read as `Decimal(38, 0)`).
pub const DECIMAL_NAMES: &[&str] = &[
    "amount",
    "amountStaked",
    "amountDelegated",
    "totalAmountStaked",
    "messageNonce",
    "receivedMessageNonce",
    "gasUsed",
    "gasSpent",
    "gasLimit",
    "gasCost",
    "gasPrice",
    "feesSpent",
    "baseFee",
    "baseFeePerGas",
    "maxFeePerGas",
    "maxPriorityFeePerGas",
    "value",
    "balance",
    "delegationCapacity",
    // Staking rewards, nAVAX as the staked amounts beside them (issue 34's "delegators'
    // `grossReward` a string" while `amountDelegated` was a decimal).
    "grossReward",
    "netReward",
    "estimatedGrossReward",
    "estimatedNetReward",
    "estimatedReward",
    "validationRewardAmount",
    "delegationRewardAmount",
];

/// How deep the rule follows nested objects before keeping the rest as JSON text.
const MAX_DEPTH: usize = 8;

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn ty(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(t) => Some(t),
        // `["string", "null"]`: the non-null type.
        Value::Array(types) => {
            let mut real = types.iter().filter_map(Value::as_str).filter(|t| *t != "null");
            match (real.next(), real.next()) {
                (Some(t), None) => Some(t),
                _ => None,
            }
        }
        _ => None,
    }
}

fn is_digits(v: &Value) -> bool {
    v.as_str().is_some_and(|s| {
        let d = s.strip_prefix('-').unwrap_or(s);
        !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The examples of a schema (`examples` or `example`).
fn examples(schema: &Value) -> Vec<&Value> {
    match (schema.get("examples"), schema.get("example")) {
        (Some(Value::Array(list)), _) => list.iter().collect(),
        (Some(one), _) | (None, Some(one)) => vec![one],
        (None, None) => Vec::new(),
    }
}

fn is_timestamp_name(name: &str) -> bool {
    name == "timestamp" || name.ends_with("Timestamp")
}

/// A moment named as an event's time (`createdAt`, `updatedAt`) whose documents give no unit: a
/// time all the same, read as seconds or milliseconds by its size ([`Kind::TsUnix`]).
fn is_moment_name(name: &str) -> bool {
    name.strip_suffix("At").is_some_and(|stem| !stem.is_empty() && stem.bytes().all(|b| b.is_ascii_alphabetic()))
}

fn string_kind(name: &str, schema: &Value) -> Kind {
    let ex = examples(schema);
    let digits = |or_empty: bool| if ex.is_empty() { or_empty } else { ex.iter().all(|e| is_digits(e)) };
    let id_like = name.ends_with("Id") || name.ends_with("Index") || name.ends_with("Status") || name == "type";
    let open = schema.get("enum").is_none();
    if schema.get("format").and_then(Value::as_str) == Some("date-time") {
        Kind::TsText
    } else if open && U256_NAMES.contains(&name) && digits(true) {
        Kind::U256
    } else if open && SIGNED_NAMES.contains(&name) {
        Kind::Int
    } else if open && integer_name(name) && digits(true) {
        Kind::U64Str
    } else if open && !id_like && digits(DECIMAL_NAMES.contains(&name)) {
        Kind::Dec
    } else {
        Kind::Str
    }
}

/// Fields whose domain is uint256 (token amounts and balances, token ids): their exact decimal
/// text, whatever its size (`U256`). A digit string of these names, of any schema: a native
/// amount named `value` reads the same, so one name has one type.
pub const U256_NAMES: &[&str] = &["value", "balance", "tokenId"];

/// The uint256 amounts, which get a `Float64` companion column (`valueFloat`) right after
/// them for sums, means and sorts; a token id gets none.
pub const U256_AMOUNTS: &[&str] = &["value", "balance"];

/// The name of the float companion of the uint256 amount `name`.
pub fn float_companion(name: &str) -> &'static str {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let names = NAMES.get_or_init(|| U256_AMOUNTS.iter().map(|n| &*format!("{n}Float").leak()).collect());
    U256_AMOUNTS.iter().position(|n| *n == name).map_or("", |i| names[i])
}

/// Integers that may be negative (`Int64`): the P-Chain's own blockchain answers
/// `createBlockNumber: "-1"`, and a validator's balance change is signed.
pub const SIGNED_NAMES: &[&str] = &["createBlockNumber", "createBlockIndex", "balanceChange"];

/// Names of integer concepts the documents type as `number` (or a digit string) without an
/// integer example: block numbers and heights, indexes, counts, decimals, transaction types,
/// sizes, locktimes, thresholds (`UInt64`). A size in bytes ends in `SizeBytes`; a field that
/// holds bytes (`utxoBytes`, their text) is no integer.
pub fn integer_name(name: &str) -> bool {
    const SUFFIXES: &[&str] = &[
        "Block",
        "BlockNumber",
        "blockNumber",
        "Height",
        "height",
        "Index",
        "Count",
        "ecimals",
        "SizeBytes",
        "Requests",
        "ocktime",
        "Code",
        "Validators",
        "AccruedFees",
        "Balance",
    ];
    const NAMES: &[&str] = &[
        "txType",
        "threshold",
        "weight",
        "denomination",
        "groupId",
        "evmChainId",
        "apiCreditsConsumed",
        "apiCreditsUsed",
        "apiCreditsWasted",
        "totalAddresses",
        "totalCount",
        "totalHolders",
        "totalTokens",
        "cumulativeTransactions",
    ];
    NAMES.contains(&name) || SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// Names of `number`s that are fractions, ratios or averages (`Float64`), whatever their
/// examples: percentages, progress, coordinates, rates, durations, money and metric values.
fn float_name(name: &str) -> bool {
    const PARTS: &[&str] = &["Percent", "progress", "latitude", "longitude", "PerSecond", "Performance", "Msecs"];
    name == "value" || PARTS.iter().any(|p| name.contains(p))
}

/// Whether every example of a schema is a JSON integer (and there is one).
fn integer_examples(schema: &Value) -> bool {
    let ex = examples(schema);
    !ex.is_empty() && ex.iter().all(|e| e.is_i64() || e.is_u64())
}

/// A JSON `number`: the documents type integers and fractions alike as `number`, so the name
/// and the examples decide (timestamps, then fractions, then amounts, then integers).
fn number_kind(name: &str, schema: &Value) -> Kind {
    if is_timestamp_name(name) {
        Kind::TsSec
    } else if name.ends_with("TimestampMilliseconds") {
        Kind::TsMs
    } else if is_moment_name(name) {
        Kind::TsUnix
    } else if float_name(name) {
        Kind::Float
    } else if name == "chainId" {
        // The genesis' number; every other `chainId` is the id's text.
        Kind::Str
    } else if SIGNED_NAMES.contains(&name) {
        Kind::Int
    } else if DECIMAL_NAMES.contains(&name) {
        Kind::Dec
    } else if integer_name(name) || integer_examples(schema) {
        Kind::U64Str
    } else {
        Kind::Float
    }
}

/// The kind of one field named `name` of schema `schema` (`$ref`s followed in `service`).
pub fn kind_of(service: Service, name: &str, schema: &'static Value, depth: usize) -> Kind {
    let schema = service.resolve(schema);
    if depth > MAX_DEPTH {
        return Kind::Json;
    }
    if let Some(members) = schema.get("allOf").and_then(Value::as_array) {
        // `allOf` of one member is how the documents attach a description to a `$ref`.
        if members.len() == 1 {
            return kind_of(service, name, &members[0], depth);
        }
        return object_of(service, members.iter().map(|m| service.resolve(m)).collect(), None, depth);
    }
    if let Some(members) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
        let resolved: Vec<&'static Value> = members.iter().map(|m| service.resolve(m)).collect();
        let discriminator = schema.pointer("/discriminator/propertyName").and_then(Value::as_str);
        if resolved.iter().all(|m| ty(m) == Some("object") || m.get("properties").is_some()) {
            return object_of(service, resolved, discriminator, depth);
        }
        // A union of one scalar kind (e.g. string or string enum) keeps that kind.
        let kinds: Vec<Kind> = members.iter().map(|m| kind_of(service, name, m, depth + 1)).collect();
        return match kinds.split_first() {
            Some((first, rest)) if rest.iter().all(|k| same(k, first)) => *first,
            _ => Kind::Json,
        };
    }
    match ty(schema) {
        Some("string") => string_kind(name, schema),
        Some("integer") if schema.get("minimum").and_then(Value::as_f64).is_some_and(|m| m >= 0.0) => Kind::U64Str,
        Some("integer") => Kind::Int,
        Some("number") => number_kind(name, schema),
        Some("boolean") => Kind::Bool,
        Some("array") => match schema.get("items") {
            Some(items) => match kind_of(service, name, items, depth + 1) {
                Kind::Str => Kind::StrList,
                Kind::Struct(cols) => Kind::StructList(cols),
                Kind::Json => Kind::Json,
                other => Kind::List(Box::leak(Box::new(other))),
            },
            None => Kind::Json,
        },
        Some("object") | None if schema.get("properties").is_some() => object_of(service, vec![schema], None, depth),
        _ => Kind::Json,
    }
}

/// Whether two kinds give one Arrow type (for merging variants).
fn same(a: &Kind, b: &Kind) -> bool {
    crate::arrow::json::data_type(*a) == crate::arrow::json::data_type(*b)
}

/// One `Struct` of the fields of every member (a field whose members disagree on its type is
/// JSON text); the discriminator is a `Str` field even when a member does not list it.
fn object_of(
    service: Service,
    members: Vec<&'static Value>,
    discriminator: Option<&'static str>,
    depth: usize,
) -> Kind {
    match merged_cols(service, members, discriminator, depth) {
        Some(cols) => Kind::Struct(cols),
        None => Kind::Json,
    }
}

fn merged_cols(
    service: Service,
    members: Vec<&'static Value>,
    discriminator: Option<&'static str>,
    depth: usize,
) -> Option<&'static [Col]> {
    let mut cols: Vec<Col> = Vec::new();
    for member in members {
        let member = service.resolve(member);
        let props: &'static Map<String, Value> = match member.get("properties").and_then(Value::as_object) {
            Some(p) => p,
            None => match member.get("allOf") {
                // A variant that is itself an `allOf`: its members' fields.
                Some(Value::Array(inner)) => {
                    let Kind::Struct(inner_cols) =
                        object_of(service, inner.iter().map(|m| service.resolve(m)).collect(), None, depth)
                    else {
                        return None;
                    };
                    for c in inner_cols {
                        add(&mut cols, *c);
                    }
                    continue;
                }
                _ => continue,
            },
        };
        for (name, schema) in service.properties_in_order(props) {
            let kind = kind_of(service, name, schema, depth + 1);
            add(&mut cols, Col(name, kind));
            if matches!(kind, Kind::U256) && U256_AMOUNTS.contains(&name) {
                add(&mut cols, Col(float_companion(name), Kind::U256Float));
            }
        }
    }
    if let Some(d) = discriminator {
        if !cols.iter().any(|c| c.0 == d) {
            cols.push(Col(d, Kind::Str));
        }
    }
    (!cols.is_empty()).then(|| settled(cols))
}

/// The merged columns, with a float companion kept only right after a uint256 column (a
/// variant that gave its field another type made that column JSON text: no companion then).
fn settled(cols: Vec<Col>) -> &'static [Col] {
    let keep: Vec<Col> = cols
        .iter()
        .enumerate()
        .filter(|(i, c)| !matches!(c.1, Kind::U256Float) || (*i > 0 && matches!(cols[i - 1].1, Kind::U256)))
        .map(|(_, c)| *c)
        .collect();
    leak(keep)
}

fn add(cols: &mut Vec<Col>, col: Col) {
    match cols.iter_mut().find(|c| c.0 == col.0) {
        None => cols.push(col),
        Some(have) if same(&have.1, &col.1) => {}
        Some(have) => match (have.1, col.1) {
            // Two object shapes of one field: their fields merged.
            (Kind::Struct(a), Kind::Struct(b)) => {
                let mut both = a.to_vec();
                b.iter().for_each(|c| add(&mut both, *c));
                have.1 = Kind::Struct(settled(both));
            }
            (Kind::StructList(a), Kind::StructList(b)) => {
                let mut both = a.to_vec();
                b.iter().for_each(|c| add(&mut both, *c));
                have.1 = Kind::StructList(settled(both));
            }
            _ => have.1 = Kind::Json,
        },
    }
}

/// A Metrics API series item (it has a `timestamp`) puts it first, as every series frame does.
fn timestamp_first(cols: &mut [Col]) {
    if let Some(at) = cols.iter().position(|c| c.0 == "timestamp") {
        cols[..=at].rotate_right(1);
    }
}

struct Shapes {
    items: Vec<Option<&'static [Col]>>,
    answers: Vec<Option<&'static [Col]>>,
}

fn shapes() -> &'static Shapes {
    static SHAPES: OnceLock<Shapes> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let ops = operations();
        // Every variant's item (itself an object, or a union of objects) in one struct.
        let items = ops
            .iter()
            .map(|op| {
                let mut cols = Vec::new();
                for item in op.item_schemas() {
                    if let Kind::Struct(found) = kind_of(op.service, "", item, 0) {
                        found.iter().for_each(|c| add(&mut cols, *c));
                    }
                }
                if op.service == Service::Metrics {
                    timestamp_first(&mut cols);
                }
                // The fields the document does not name, last.
                (!cols.is_empty()).then(|| settled(cols.into_iter().chain([EXTRA]).collect()))
            })
            .collect();
        let answers = ops
            .iter()
            .map(|op| match kind_of(op.service, "", op.response, 0) {
                Kind::Struct(cols) => Some(cols),
                _ => None,
            })
            .collect();
        Shapes { items, answers }
    })
}

fn index(op: &Operation) -> usize {
    operations().iter().position(|o| std::ptr::eq(o, op)).expect("an operation of the table")
}

impl Operation {
    /// The columns of one list item (every variant's fields; `None` for an object answer).
    pub fn item_columns(&self) -> Option<&'static [Col]> {
        shapes().items[index(self)]
    }

    /// The columns of the whole answer (types the dict of an object answer).
    pub fn answer_columns(&self) -> Option<&'static [Col]> {
        shapes().answers[index(self)]
    }

    /// The operation's place in [`operations`].
    pub fn index(&self) -> usize {
        index(self)
    }
}

#[cfg(test)]
mod tests {
    use super::super::operation;
    use super::*;
    use crate::arrow::json::data_type;
    use arrow_schema::{DataType, TimeUnit};

    fn col(cols: &[Col], name: &str) -> DataType {
        data_type(cols.iter().find(|c| c.0 == name).unwrap_or_else(|| panic!("no column {name}")).1)
    }

    #[test]
    fn evm_blocks_follow_the_rule() {
        let cols = operation("getLatestBlocks").unwrap().item_columns().unwrap();
        let ts = DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()));
        assert_eq!(col(cols, "blockTimestamp"), ts);
        assert_eq!(col(cols, "blockTimestampMilliseconds"), ts);
        assert_eq!(col(cols, "blockNumber"), DataType::UInt64);
        assert_eq!(col(cols, "gasUsed"), DataType::Decimal128(38, 0));
        assert_eq!(col(cols, "chainId"), DataType::Utf8View);
        assert_eq!(col(cols, "blockHash"), DataType::Utf8View);
        assert_eq!(col(cols, "txCount"), DataType::UInt64);
        assert_eq!(cols.last().map(|c| c.0), Some("extra"));
    }

    #[test]
    fn a_webhook_created_at_is_a_time_like_every_timestamp() {
        let ts = DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()));
        for id in ["listWebhooks", "getWebhook"] {
            let op = operation(id).unwrap();
            let cols = op.item_columns().or_else(|| op.answer_columns()).unwrap();
            assert_eq!(col(cols, "createdAt"), ts, "{id}");
            assert!(matches!(cols.iter().find(|c| c.0 == "createdAt").unwrap().1, Kind::TsUnix), "{id}");
        }
    }

    #[test]
    fn unions_merge_their_variants_and_enums_stay_strings() {
        // Three list variants (P-, X-, C-chain transactions) in one item struct.
        let cols = operation("listLatestPrimaryNetworkTransactions").unwrap().item_columns().unwrap();
        for name in ["txHash", "txType", "blockTimestamp", "consumedUtxos", "emittedUtxos"] {
            assert!(cols.iter().any(|c| c.0 == name), "{name}");
        }
        // A discriminated object answer: every variant's fields plus the discriminator.
        let contract = operation("getContractMetadata").unwrap().answer_columns().unwrap();
        assert_eq!(col(contract, "ercType"), DataType::Utf8View);
        assert!(contract.iter().any(|c| c.0 == "pricingProviders") || contract.iter().any(|c| c.0 == "symbol"));
        let validators = operation("listValidators").unwrap().item_columns().unwrap();
        assert_eq!(col(validators, "validationStatus"), DataType::Utf8View);
    }

    #[test]
    fn a_utxo_s_bytes_are_text_and_a_block_s_size_a_count() {
        // `utxoBytes` is the document's string of the UTXO's bytes: a hex text must not fail a walk.
        let utxos = operation("getUtxosByAddresses").unwrap().item_columns().unwrap();
        assert_eq!(col(utxos, "utxoBytes"), DataType::Utf8View);
        let txs = operation("listLatestPrimaryNetworkTransactions").unwrap().item_columns().unwrap();
        let DataType::List(item) = col(txs, "emittedUtxos") else { panic!("emittedUtxos is no list") };
        let DataType::Struct(fields) = item.data_type() else { panic!("an output is no struct") };
        let bytes = fields.iter().find(|f| f.name() == "utxoBytes").expect("a utxoBytes field");
        assert_eq!(bytes.data_type(), &DataType::Utf8View);
        let blocks = operation("listLatestPrimaryNetworkBlocks").unwrap().item_columns().unwrap();
        assert_eq!(col(blocks, "blockSizeBytes"), DataType::UInt64);
    }

    #[test]
    fn every_list_operation_has_item_columns_and_every_type_is_an_arrow_type() {
        for op in operations() {
            if op.is_list() {
                let cols = op.item_columns().unwrap_or_else(|| panic!("{} has no item columns", op.id));
                let schema = arrow_schema::Schema::new(crate::arrow::json::fields(cols));
                assert!(!schema.fields().is_empty(), "{}", op.id);
            }
        }
    }

    #[test]
    fn the_rule_on_small_schemas() {
        let s = |v: Value| -> &'static Value { Box::leak(Box::new(v)) };
        use serde_json::json;
        let k = |name: &str, v: Value| data_type(kind_of(Service::Data, name, s(v), 0));
        assert_eq!(k("n", json!({"type": "integer", "minimum": 0})), DataType::UInt64);
        assert_eq!(k("n", json!({"type": "integer"})), DataType::Int64);
        assert_eq!(
            k("at", json!({"type": "string", "format": "date-time"})),
            DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
        );
        assert_eq!(k("x", json!({"type": "string", "examples": ["12"]})), DataType::Decimal128(38, 0));
        assert_eq!(k("x", json!({"type": "string", "examples": ["0x12"]})), DataType::Utf8View);
        assert_eq!(k("chainId", json!({"type": "string", "examples": ["43114"]})), DataType::Utf8View);
        assert_eq!(k("x", json!({"type": ["string", "null"]})), DataType::Utf8View);
        assert_eq!(k("x", json!({"type": "object"})), DataType::Utf8View, "a free-form object is JSON text");
        assert_eq!(k("x", json!({"oneOf": [{"type": "string"}, {"type": "number"}]})), DataType::Utf8View);
        assert!(matches!(kind_of(Service::Data, "x", s(json!({"type": "object"})), 0), Kind::Json));
        assert!(matches!(
            kind_of(Service::Data, "x", s(json!({"type": "array", "items": {"type": "number"}})), 0),
            Kind::List(Kind::Float)
        ));
        assert!(matches!(
            kind_of(Service::Data, "x", s(json!({"type": "array", "items": {"type": "string"}})), 0),
            Kind::StrList
        ));
        // `number`: integers by name or example, fractions by name, timestamps by name.
        for (name, schema, want) in [
            ("logIndex", json!({"type": "number"}), DataType::UInt64),
            ("decimals", json!({"type": "number", "examples": [18]}), DataType::UInt64),
            ("targetGas", json!({"type": "number", "example": 60000000}), DataType::UInt64),
            ("ratio", json!({"type": "number", "example": 0.5}), DataType::Float64),
            ("stakePercentage", json!({"type": "number", "example": 50}), DataType::Float64),
            ("balanceChange", json!({"type": "number"}), DataType::Int64),
            ("createBlockNumber", json!({"type": "string"}), DataType::Int64),
            ("blockNumber", json!({"type": "string", "examples": ["339"]}), DataType::UInt64),
            ("outputIndex", json!({"type": "string", "examples": ["38"]}), DataType::UInt64),
            ("value", json!({"type": "string", "examples": ["10000000000000000000"]}), DataType::Utf8View),
            ("tokenId", json!({"type": "string"}), DataType::Utf8View),
            ("amount", json!({"type": "string"}), DataType::Decimal128(38, 0)),
            ("grossReward", json!({"type": "string"}), DataType::Decimal128(38, 0)),
            ("validationRewardAmount", json!({"type": "string"}), DataType::Decimal128(38, 0)),
            ("blockSizeBytes", json!({"type": "number"}), DataType::UInt64),
            ("utxoBytes", json!({"type": "string"}), DataType::Utf8View),
            ("value", json!({"type": "number", "example": "42.42"}), DataType::Float64),
        ] {
            assert_eq!(k(name, schema), want, "{name}");
        }
        assert!(matches!(kind_of(Service::Data, "value", s(json!({"type": "string"})), 0), Kind::U256));
    }

    #[test]
    fn uint256_amounts_get_a_float_companion_that_a_disagreeing_variant_drops() {
        use serde_json::json;
        let s = |v: Value| -> &'static Value { Box::leak(Box::new(v)) };
        let one = s(json!({"properties": {"value": {"type": "string"}, "tokenId": {"type": "string"}}}));
        let Kind::Struct(cols) = kind_of(Service::Data, "", one, 0) else { panic!("a struct") };
        let names: Vec<&str> = cols.iter().map(|c| c.0).collect();
        // (a schema outside the documents has no written order: its keys sorted)
        assert_eq!(names, ["tokenId", "value", "valueFloat"]);
        assert!(matches!(cols[2].1, Kind::U256Float));
        let two = s(json!({"oneOf": [
            {"type": "object", "properties": {"value": {"type": "string"}, "a": {"type": "string"}}},
            {"type": "object", "properties": {"value": {"type": "array", "items": {"type": "string"}}}}]}));
        let Kind::Struct(cols) = kind_of(Service::Data, "", two, 0) else { panic!("a struct") };
        let names: Vec<&str> = cols.iter().map(|c| c.0).collect();
        assert_eq!(names, ["a", "value"], "the companion of a column that became JSON text is dropped");
        assert!(matches!(cols[1].1, Kind::Json));
    }
}
