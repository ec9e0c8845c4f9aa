//! Parameter checks from the operation table, run before any request: each failure is an
//! [`Error::InvalidArgument`] naming the parameter by its Python name, the value and what is
//! allowed. A checked call is a [`Request`]: the filled path and the query pairs to send.

use serde_json::Value;

use super::{Location, Operation, Param, ParamType};
use crate::data::params::segment;
use crate::error::{Error, Result};
use crate::inputs::{chain_id_shown, near, unix_seconds_shown, ChainIdInput, TimeInput, NETWORKS};

/// A checked call of one operation: what to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The operation.
    pub op: &'static Operation,
    /// The path with its segments checked and percent-encoded.
    pub path: String,
    /// Query pairs in the document's parameter order (`pageToken` never among them: the walk
    /// adds it); an exploded array gives one pair per item.
    pub query: Vec<(&'static str, String)>,
}

impl PartialEq for Operation {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// Longest text accepted for a query value (a comma-separated list of addresses fits easily).
pub const MAX_QUERY_VALUE: usize = 8192;

/// A value as shown in errors: text quoted, anything else as JSON, cut at 80 characters.
fn shown(value: &Value) -> String {
    let text = match value {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    };
    match text.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn type_name(ty: ParamType) -> &'static str {
    match ty {
        ParamType::String | ParamType::Any => "a string",
        ParamType::Integer => "an int",
        ParamType::Number => "a number",
        ParamType::Boolean => "a bool",
    }
}

fn bounds(p: &Param) -> String {
    let fmt = |x: f64| if x.fract() == 0.0 && x.abs() < 1e15 { format!("{}", x as i64) } else { x.to_string() };
    match (p.schema.minimum, p.schema.maximum) {
        (Some(lo), Some(hi)) => format!(" in [{}, {}]", fmt(lo), fmt(hi)),
        (Some(lo), None) => format!(" >= {}", fmt(lo)),
        (None, Some(hi)) => format!(" <= {}", fmt(hi)),
        (None, None) => String::new(),
    }
}

/// What `p` allows, for its error message.
fn allowed(p: &Param) -> String {
    let s = &p.schema;
    let one = if s.enum_values.is_empty() {
        format!("{}{}", type_name(s.ty), bounds(p))
    } else {
        format!("one of {}", s.enum_values.join(", "))
    };
    if s.array || p.comma_list() {
        format!("a list (or comma-separated text) of which each item is {one}")
    } else {
        one
    }
}

/// A JSON value as one of the inputs' enums: an integer, a text, or another type by its name.
fn given<T>(value: &Value, int: fn(i128) -> T, text: fn(String) -> T, other: fn(String) -> T) -> T {
    match (value, value.as_i64().map(i128::from).or_else(|| value.as_u64().map(i128::from))) {
        (_, Some(n)) => int(n),
        (Value::String(t), _) => text(t.clone()),
        (Value::Bool(_), _) => other("bool".into()),
        (Value::Array(_), _) => other("list".into()),
        (Value::Object(_), _) => other("dict".into()),
        _ => other("float".into()),
    }
}

/// A time or chain id parameter's value as the inputs' rules read it (a JSON integer is an int,
/// a string is text; anything else is refused by them), then checked as any other value.
fn input(p: &Param, value: &Value) -> Result<Value> {
    if p.is_time() {
        let time = given(value, TimeInput::UnixSeconds, TimeInput::Text, TimeInput::Other);
        return unix_seconds_shown(&p.py_name, &time, &shown(value)).map(Value::from);
    }
    if p.is_chain_id() {
        let chain = given(value, ChainIdInput::Int, ChainIdInput::Text, ChainIdInput::Other);
        return chain_id_shown(&p.py_name, &chain, &shown(value)).map(Value::from);
    }
    Ok(value.clone())
}

/// One scalar checked against `p` and written as the text to send; an id follows its rule
/// ([`Param::kind`]), an address that of `network`'s addresses.
fn scalar(p: &Param, value: &Value, network: Option<&str>) -> Result<String> {
    let value = &input(p, value)?;
    let bad = || Error::invalid(&p.py_name, shown(value), allowed(p));
    let s = &p.schema;
    let text = match (s.ty, value) {
        (ParamType::Boolean, Value::Bool(b)) => b.to_string(),
        (ParamType::Boolean, Value::String(t)) if t == "true" || t == "false" => t.clone(),
        (ParamType::Boolean, _) => return Err(bad()),
        (_, Value::Bool(_) | Value::Null | Value::Array(_) | Value::Object(_)) => return Err(bad()),
        (ParamType::Integer, Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
        (ParamType::Integer, Value::String(t)) => {
            let t = t.trim();
            t.parse::<i64>().map_err(|_| bad())?;
            t.to_string()
        }
        (ParamType::Integer, _) => return Err(bad()),
        (ParamType::Number, Value::Number(n)) => number_text(n.as_f64().ok_or_else(bad)?, n),
        (ParamType::Number, Value::String(t)) => {
            let x: f64 = t.trim().parse().map_err(|_| bad())?;
            if !x.is_finite() {
                return Err(bad());
            }
            t.trim().to_string()
        }
        (ParamType::String | ParamType::Any, Value::Number(n)) => n.to_string(),
        (ParamType::String | ParamType::Any, Value::String(t)) => t.trim().to_string(),
    };
    if matches!(s.ty, ParamType::Integer | ParamType::Number) {
        let x: f64 = text.parse().map_err(|_| bad())?;
        if s.minimum.is_some_and(|lo| x < lo) || s.maximum.is_some_and(|hi| x > hi) {
            return Err(bad());
        }
    }
    if !s.enum_values.is_empty() && !s.enum_values.contains(&text.as_str()) {
        let allowed = match near(&text, &s.enum_values) {
            Some(word) => format!("{} (did you mean '{word}'?)", allowed(p)),
            None => allowed(p),
        };
        return Err(Error::invalid(&p.py_name, shown(value), allowed));
    }
    if p.location == Location::Query && (text.is_empty() || text.len() > MAX_QUERY_VALUE) {
        return Err(Error::invalid(
            &p.py_name,
            shown(value),
            format!("{} (1 to {MAX_QUERY_VALUE} characters)", allowed(p)),
        ));
    }
    match p.kind {
        Some(kind) => kind.check(&p.py_name, value.as_str().unwrap_or(text.as_str()), network),
        None => Ok(text),
    }
}

fn number_text(x: f64, n: &serde_json::Number) -> String {
    if n.is_f64() && x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        n.to_string()
    }
}

/// A path segment's refusal, adding the words its description names to what is allowed.
fn with_named(e: Error, named: &[&str]) -> Error {
    match e {
        Error::InvalidArgument { param, value, allowed } if !named.is_empty() => {
            Error::InvalidArgument { param, value, allowed: format!("{allowed}, or one of {}", named.join(", ")) }
        }
        other => other,
    }
}

/// The items of an array parameter: a JSON array, or comma-separated text.
fn items(p: &Param, value: &Value) -> Result<Vec<Value>> {
    let items: Vec<Value> = match value {
        Value::Array(items) => items.clone(),
        Value::String(text) => text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(Value::from).collect(),
        other => vec![other.clone()],
    };
    if items.is_empty() {
        return Err(Error::invalid(&p.py_name, shown(value), format!("{} (at least one item)", allowed(p))));
    }
    Ok(items)
}

/// Checks `args` (Python name → value; `null` counts as absent) against `op`'s parameters and
/// returns what to send. Unknown names, missing required parameters, wrong types, values outside
/// an enum or the bounds, and path segments outside their grammar are refused, naming the
/// parameter. A list's `pageToken` is not taken here (the walk sends it).
pub fn check(op: &'static Operation, args: &[(&str, Value)]) -> Result<Request> {
    let walked = |p: &&Param| !(op.is_list() && p.name == "pageToken");
    for (name, _) in args {
        if op.py_param(name).filter(walked).is_none() {
            let names: Vec<&str> = op.params.iter().filter(walked).map(|p| p.py_name.as_str()).collect();
            return Err(Error::invalid(
                name,
                "given",
                format!(
                    "a parameter of {} ({})",
                    op.id,
                    if names.is_empty() { "none".into() } else { names.join(", ") }
                ),
            ));
        }
    }
    // The network the addresses are of (when it is one: a bad one is refused by its own check).
    let network = args
        .iter()
        .rev()
        .find(|(n, _)| *n == "network")
        .and_then(|(_, v)| v.as_str())
        .map(str::trim)
        .filter(|n| NETWORKS.contains(n));
    let scalar = |p: &Param, value: &Value| scalar(p, value, network);
    let mut path_values = Vec::new();
    let mut query = Vec::new();
    for p in op.params.iter().filter(walked) {
        let value = args.iter().rev().find(|(n, _)| *n == p.py_name).map(|(_, v)| v).filter(|v| !v.is_null());
        let Some(value) = value else {
            if p.required {
                return Err(Error::invalid(&p.py_name, "None", format!("required: {}", allowed(p))));
            }
            continue;
        };
        match p.location {
            Location::Path => {
                let text = scalar(p, value)?;
                // An enum value is one of the document's own texts; anything else follows the
                // grammar of its kind of id.
                let named = p.named_values();
                let encoded = if named.contains(&text.as_str()) {
                    // A word the description names (`total`): letters only, nothing to encode.
                    text
                } else if p.kind.is_some() {
                    // Checked by its id rule: base58, bech32, hex or digits, encoded to be sure.
                    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
                } else if p.schema.enum_values.is_empty() {
                    segment(&p.py_name, &text).map_err(|e| with_named(e, &named))?
                } else {
                    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
                };
                path_values.push((p.name, encoded));
            }
            Location::Query if p.schema.array => {
                let texts = items(p, value)?.iter().map(|item| scalar(p, item)).collect::<Result<Vec<_>>>()?;
                if p.schema.explode {
                    query.extend(texts.into_iter().map(|t| (p.name, t)));
                } else {
                    query.push((p.name, texts.join(",")));
                }
            }
            Location::Query if p.comma_list() && (value.is_array() || p.kind.is_some()) => {
                let texts = items(p, value)?.iter().map(|item| scalar(p, item)).collect::<Result<Vec<_>>>()?;
                query.push((p.name, texts.join(",")));
            }
            Location::Query => query.push((p.name, scalar(p, value)?)),
        }
    }
    let path = op
        .fill_path(&path_values)
        .ok_or_else(|| Error::Internal(format!("{}: a path parameter of {} has no value", op.id, op.path)))?;
    Ok(Request { op, path, query })
}

#[cfg(test)]
mod tests {
    use super::super::operation;
    use super::*;
    use serde_json::json;

    fn req(id: &str, args: &[(&str, Value)]) -> Result<Request> {
        check(operation(id).unwrap(), args)
    }

    /// The request of the primary-network operation `id` on mainnet's P-Chain with `name=value`.
    fn p_chain(id: &str, name: &str, value: Value) -> Result<Request> {
        req(id, &[("network", json!("mainnet")), ("blockchain_id", json!("p-chain")), (name, value)])
    }

    fn err(id: &str, args: &[(&str, Value)]) -> String {
        req(id, args).unwrap_err().to_string()
    }

    /// A valid mainnet P-/X-Chain address of 20 bytes `byte`.
    fn avax(byte: u8) -> String {
        bech32::encode::<bech32::Bech32>(bech32::Hrp::parse("avax").unwrap(), &[byte; 20]).unwrap()
    }

    #[test]
    fn a_checked_call_fills_the_path_and_the_query_in_document_order() {
        let r = req("getLatestBlocks", &[("page_size", json!(25)), ("chain_id", json!(43114))]).unwrap();
        assert_eq!((r.path.as_str(), r.query.clone()), ("/v1/chains/43114/blocks", vec![("pageSize", "25".into())]));
        let r = req(
            "listValidators",
            &[
                ("network", json!("fuji")),
                ("validation_status", json!("active")),
                ("min_fee_percentage", json!(2.5)),
                ("max_time_remaining", json!(100.0)),
                ("subnet_id", json!("11111111111111111111111111111111LpoYY")),
                ("sort_order", Value::Null),
            ],
        )
        .unwrap();
        assert_eq!(r.path, "/v1/networks/fuji/validators");
        assert_eq!(
            r.query,
            vec![
                ("validationStatus", "active".into()),
                ("maxTimeRemaining", "100".into()),
                ("minFeePercentage", "2.5".into()),
                ("subnetId", "11111111111111111111111111111111LpoYY".into()),
            ]
        );
        let r = req(
            "getUtxosByAddresses",
            &[
                ("network", json!("mainnet")),
                ("blockchain_id", json!("p-chain")),
                ("include_spent", json!(true)),
                ("addresses", json!(format!("{}, P-{}", avax(1), avax(2)))),
            ],
        )
        .unwrap();
        assert_eq!(r.path, "/v1/networks/mainnet/blockchains/p-chain/utxos");
        assert!(r.query.contains(&("includeSpent", "true".into())));
        assert!(r.query.contains(&("addresses", format!("{},P-{}", avax(1), avax(2)))));
    }

    #[test]
    fn required_unknown_and_page_token_arguments() {
        assert_eq!(err("getLatestBlocks", &[]), "invalid chain_id=None: required: a string");
        assert_eq!(err("getLatestBlocks", &[("chain_id", Value::Null)]), "invalid chain_id=None: required: a string");
        let e = err("getLatestBlocks", &[("chain_id", json!("1")), ("pagesize", json!(3))]);
        assert_eq!(e, "invalid pagesize=given: a parameter of getLatestBlocks (page_size, chain_id)");
        assert!(err("getLatestBlocks", &[("chain_id", json!("1")), ("page_token", json!("t"))])
            .starts_with("invalid page_token="));
        assert!(err("getAvaxSupply", &[("x", json!(1))]).ends_with("a parameter of getAvaxSupply (none)"));
        assert_eq!(req("getAvaxSupply", &[]).unwrap().path, "/v1/avax/supply");
    }

    #[test]
    fn enums_name_the_allowed_values() {
        let e = err("listValidators", &[("network", json!("devnet"))]);
        assert_eq!(e, "invalid network=\"devnet\": one of mainnet, fuji, testnet");
        let e = err("listValidators", &[("network", json!("fuji")), ("validation_status", json!("ACTIVE"))]);
        assert_eq!(
            e,
            "invalid validation_status=\"ACTIVE\": one of completed, active, pending, removed (did you mean 'active'?)"
        );
        let e = err("listValidators", &[("network", json!("Mainnet"))]);
        assert_eq!(e, "invalid network=\"Mainnet\": one of mainnet, fuji, testnet (did you mean 'mainnet'?)");
        let e = err("getEvmChainMetrics", &[("chain_id", json!("43114")), ("metric", json!("txcount"))]);
        assert!(
            e.starts_with("invalid metric=\"txcount\": one of activeAddresses")
                && e.ends_with("(did you mean 'txCount'?)")
        );
        let e = p_chain("getUtxosByAddresses", "sort_by", json!("size")).unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
        let e = err(
            "getTxByHash",
            &[("network", json!("mainnet")), ("blockchain_id", json!("q-chain")), ("tx_hash", json!("abc"))],
        );
        assert!(
            e.starts_with("invalid blockchain_id=\"q-chain\": one of 11111111111111111111111111111111LpoYY,"),
            "{e}"
        );
        let e = err("getEvmChainMetrics", &[("chain_id", json!("43114")), ("metric", json!("bogus"))]);
        assert!(e.starts_with("invalid metric=\"bogus\": one of activeAddresses"), "{e}");
    }

    #[test]
    fn bounds_and_types() {
        let blocks = |size: Value| req("getLatestBlocks", &[("chain_id", json!("1")), ("page_size", size)]);
        assert_eq!(blocks(json!(101)).unwrap_err().to_string(), "invalid page_size=101: an int in [1, 100]");
        assert_eq!(blocks(json!(0)).unwrap_err().to_string(), "invalid page_size=0: an int in [1, 100]");
        assert_eq!(blocks(json!(2.5)).unwrap_err().to_string(), "invalid page_size=2.5: an int in [1, 100]");
        assert_eq!(blocks(json!(true)).unwrap_err().to_string(), "invalid page_size=true: an int in [1, 100]");
        assert_eq!(blocks(json!("x")).unwrap_err().to_string(), "invalid page_size=\"x\": an int in [1, 100]");
        assert_eq!(blocks(json!(" 7 ")).unwrap().query, vec![("pageSize", "7".into())]);
        let v = |name: &str, x: Value| req("listValidators", &[("network", json!("mainnet")), (name, x)]);
        assert_eq!(
            v("max_fee_percentage", json!(1.5)).unwrap_err().to_string(),
            "invalid max_fee_percentage=1.5: a number in [2, 100]"
        );
        assert!(v("min_uptime_performance", json!("NaN")).is_err());
        assert!(v("min_uptime_performance", json!("inf")).is_err());
        assert_eq!(
            v("min_uptime_performance", json!("99.5")).unwrap().query,
            vec![("minUptimePerformance", "99.5".into())]
        );
        let spent = |x: Value| {
            req(
                "getUtxosByAddresses",
                &[
                    ("network", json!("mainnet")),
                    ("blockchain_id", json!("x-chain")),
                    ("addresses", json!([avax(3)])),
                    ("include_spent", x),
                ],
            )
        };
        assert_eq!(spent(json!(1)).unwrap_err().to_string(), "invalid include_spent=1: a bool");
        assert_eq!(spent(json!("false")).unwrap().query.last().unwrap(), &("includeSpent", "false".to_string()));
        let e = spent(json!({"a": 1})).unwrap_err().to_string();
        assert_eq!(e, "invalid include_spent={\"a\":1}: a bool");
        let e = req("getLatestBlocks", &[("chain_id", json!([1]))]).unwrap_err().to_string();
        assert_eq!(e, format!("invalid chain_id=[1]: {}", crate::inputs::CHAIN_ID_ALLOWED));
        let long = "a".repeat(MAX_QUERY_VALUE + 1);
        let e =
            req("listValidators", &[("network", json!("mainnet")), ("node_ids", json!(long))]).unwrap_err().to_string();
        assert!(e.starts_with("invalid node_ids=\"aaaa") && e.ends_with("a string (1 to 8192 characters)"), "{e}");
    }

    #[test]
    fn arrays_are_exploded_and_each_item_checked() {
        let tx = |types: Value| p_chain("listLatestPrimaryNetworkTransactions", "tx_types", types);
        let r = tx(json!(["AddValidatorTx", "AddDelegatorTx"])).unwrap();
        assert_eq!(r.query, vec![("txTypes", "AddValidatorTx".into()), ("txTypes", "AddDelegatorTx".into())]);
        assert_eq!(tx(json!("AddValidatorTx, AddDelegatorTx")).unwrap().query.len(), 2);
        assert_eq!(tx(json!("AddValidatorTx")).unwrap().query, vec![("txTypes", "AddValidatorTx".into())]);
        let e = tx(json!(["AddValidatorTx", "Nope"])).unwrap_err().to_string();
        assert!(e.starts_with("invalid tx_types=\"Nope\": a list (or comma-separated text) of which each item is one of AddValidatorTx,"), "{e}");
        assert!(tx(json!([])).unwrap_err().to_string().contains("(at least one item)"));
        assert!(tx(json!(",")).is_err());
    }

    #[test]
    fn path_segments_follow_the_grammar_of_their_kind_and_are_encoded() {
        let e = err("getLatestBlocks", &[("chain_id", json!("../x"))]);
        assert!(e.starts_with("invalid chain_id=\"../x\": an EVM chain id"), "{e}");
        let e = err("listErc20Balances", &[("chain_id", json!("43114")), ("address", json!("0xabc"))]);
        assert_eq!(e, "invalid address=\"0xabc\": a 0x address (40 hex digits)");
        let e = err("getWebhook", &[("id", json!("a/b"))]);
        assert!(e.starts_with("invalid id=\"a/b\": letters, digits"), "{e}");
        let r = req(
            "getSingleValidatorDetails",
            &[("network", json!("mainnet")), ("node_id", json!("NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"))],
        )
        .unwrap();
        assert_eq!(r.path, "/v1/networks/mainnet/validators/NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg");
        // The address of a path is checked, and so is a second address filter in the query.
        let balances = |contract: &str| {
            req(
                "listErc721Balances",
                &[
                    ("chain_id", json!("43114")),
                    ("address", json!("0x000000000000000000000000000000000000dEaD")),
                    ("contract_address", json!(contract)),
                ],
            )
        };
        let contract = "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E";
        assert_eq!(balances(contract).unwrap().query, vec![("contractAddress", contract.into())]);
        let e = balances("0x1").unwrap_err().to_string();
        assert_eq!(e, "invalid contract_address=\"0x1\": a 0x address (40 hex digits)");
    }

    #[test]
    fn words_a_description_names_pass_where_the_document_allows_them_and_nowhere_else() {
        // Every parameter of both documents whose description names words besides its kind of id.
        let mut named: Vec<(&str, &str, Vec<&str>)> = Vec::new();
        for op in super::super::operations() {
            for p in &op.params {
                if !p.named_values().is_empty() {
                    named.push((op.id, p.name, p.named_values()));
                }
            }
        }
        let aggregates = vec!["total", "mainnet", "testnet"];
        assert_eq!(
            named,
            vec![
                ("getEvmChainMetrics", "chainId", aggregates.clone()),
                ("getEvmChainRollingWindowMetrics", "chainId", aggregates.clone()),
            ]
        );
        for word in aggregates {
            let r = req("getEvmChainMetrics", &[("chain_id", json!(word)), ("metric", json!("txCount"))]).unwrap();
            assert_eq!(r.path, format!("/v2/chains/{word}/metrics/txCount"));
            let r = req(
                "getEvmChainRollingWindowMetrics",
                &[("chain_id", json!(format!(" {word} "))), ("metric", json!("txCount"))],
            )
            .unwrap();
            assert_eq!(r.path, format!("/v2/chains/{word}/rollingWindowMetrics/txCount"));
        }
        // One chain's operation takes no aggregate, and the words are exact.
        let e = err("getChain", &[("chain_id", json!("total"))]);
        assert_eq!(e, "invalid chain_id=\"total\": an EVM chain id (decimal, e.g. \"43114\") or a CB58 blockchain id");
        for bad in ["Total", "totals", "all", "../total"] {
            let e = err("getEvmChainMetrics", &[("chain_id", json!(bad)), ("metric", json!("txCount"))]);
            assert_eq!(
                e,
                format!(
                    "invalid chain_id={bad:?}: an EVM chain id (decimal, e.g. \"43114\") or a CB58 blockchain id, \
                     or one of total, mainnet, testnet"
                )
            );
        }
    }

    #[test]
    fn comma_separated_text_parameters_take_a_list() {
        let rewards = |addresses: Value| {
            req("listPendingPrimaryNetworkRewards", &[("network", json!("mainnet")), ("addresses", addresses)])
        };
        let (a, b) = (avax(1), avax(2));
        let joined = vec![("addresses", format!("{a},{b}"))];
        assert_eq!(rewards(json!([a, format!(" {b} ")])).unwrap().query, joined);
        assert_eq!(rewards(json!(format!("{a},{b}"))).unwrap().query, joined);
        let e = rewards(json!([a, true])).unwrap_err().to_string();
        assert_eq!(e, "invalid addresses=true: a list (or comma-separated text) of which each item is a string");
        assert!(rewards(json!([])).is_err());
        // A plain string parameter takes no list.
        let e = err("listValidators", &[("network", json!("mainnet")), ("subnet_id", json!(["a"]))]);
        assert_eq!(e, "invalid subnet_id=[\"a\"]: a string");
    }

    #[test]
    fn no_parameter_of_either_document_has_a_pattern() {
        // Pattern checks would need a regex engine; none of the documents' GET parameters has
        // one today. A newer document that adds one fails here, so the check gets written.
        for op in super::super::operations() {
            for p in &op.params {
                assert!(p.schema.pattern.is_none(), "{}.{} has a pattern: check it", op.id, p.name);
            }
        }
    }

    #[test]
    fn times_and_chain_ids_follow_the_inputs_rules() {
        let blocks = |start: Value| p_chain("listLatestPrimaryNetworkBlocks", "start", start);
        let sent = |start: Value| blocks(start).unwrap().query;
        let at = vec![("startTimestamp", "1704067200".to_string())];
        for start in
            [json!(1_704_067_200), json!("1704067200"), json!("2024-01-01"), json!("2024-01-01T01:00:00+01:00")]
        {
            assert_eq!(sent(start.clone()), at, "{start}");
        }
        let e = blocks(json!("2024-01-01T00:00:00")).unwrap_err().to_string();
        assert!(e.starts_with("invalid start=\"2024-01-01T00:00:00\": an RFC 3339 time with its offset"), "{e}");
        for bad in [json!(-1), json!(1.5), json!(true), json!("soon")] {
            let e = blocks(bad.clone()).unwrap_err().to_string();
            assert!(e.ends_with(crate::inputs::TIME_ALLOWED) && e.starts_with("invalid start="), "{bad}: {e}");
        }
        let path = |chain: Value| req("getLatestBlocks", &[("chain_id", chain)]).map(|r| r.path);
        for chain in [json!(43114), json!("43114"), json!(" 043114")] {
            assert_eq!(path(chain).unwrap(), "/v1/chains/43114/blocks");
        }
        let e = path(json!(-5)).unwrap_err().to_string();
        assert_eq!(e, format!("invalid chain_id=-5: {}", crate::inputs::CHAIN_ID_ALLOWED));
    }
}
