//! Parameter checks from the document, with class-validator's messages (the service's 400 body
//! lists every failed constraint): required parameters, enums (path and query; array parameters
//! value by value), `minimum`/`maximum`, integer, number and boolean types. `pageSize` gets the
//! bounds the operation documents.

use serde_json::Value;

use super::spec::{resolve, In, Operation, Param, Service};
use crate::emulator::data_api::params::Params;

/// Checks every parameter of `op` (`path` holds the path parameters' values) and records the
/// problems in `params`; returns the page size (the documented default when absent).
pub(crate) fn check(op: &Operation, path: &[(String, String)], params: &mut Params) -> usize {
    let mut size = 10;
    for param in &op.params {
        let value = match param.location {
            In::Path => path.iter().find(|(k, _)| *k == param.name).map(|(_, v)| v.clone()),
            In::Query => params.get(&param.name).map(str::to_string),
        };
        let Some(value) = value else {
            if param.required {
                params.problem(format!("{} should not be empty", param.name));
            }
            continue;
        };
        if param.name == "pageSize" {
            size = page_size(param, &value, params);
            continue;
        }
        if param.name == "pageToken" {
            continue;
        }
        for problem in problems(op.service, param, &value) {
            params.problem(problem);
        }
    }
    if op.paged && op.param("pageSize").is_some() && params.get("pageSize").is_none() {
        size =
            op.param("pageSize").and_then(|p| p.schema.get("default")).and_then(Value::as_u64).unwrap_or(10) as usize;
    }
    size.max(1)
}

fn bound(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

fn page_size(param: &Param, value: &str, params: &mut Params) -> usize {
    let min = bound(param.schema, "minimum").unwrap_or(1.0) as i64;
    let max = bound(param.schema, "maximum").unwrap_or(100.0) as i64;
    let default = param.schema.get("default").and_then(Value::as_i64).unwrap_or(10);
    match value.trim().parse::<i64>() {
        Ok(n) if n < min => params.problem(format!("pageSize must not be less than {min}")),
        Ok(n) if n > max => params.problem(format!("pageSize must not be greater than {max}")),
        Ok(n) => return if n == 0 { default.max(10) as usize } else { n as usize },
        Err(_) => {
            params.problem(format!("pageSize must not be greater than {max}"));
            params.problem(format!("pageSize must not be less than {min}"));
            params.problem("pageSize must be an integer number".to_string());
        }
    }
    10
}

/// The failed constraints of `value` for `param`.
fn problems(service: Service, param: &Param, value: &str) -> Vec<String> {
    let name = &param.name;
    let schema = param.schema;
    let mut out = Vec::new();
    if let Some(allowed) = enum_values(schema) {
        if !allowed.iter().any(|a| a == value) {
            out.push(format!("{name} must be one of the following values: {}", allowed.join(", ")));
        }
        return out;
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("array") => {
            if let Some(allowed) = schema.get("items").and_then(|i| enum_values(resolve(service, i))) {
                if value.split(',').map(str::trim).any(|v| !allowed.iter().any(|a| a == v)) {
                    out.push(format!(
                        "each value in {name} must be one of the following values: {}",
                        allowed.join(", ")
                    ));
                }
            }
        }
        Some("boolean") if value != "true" && value != "false" => out.push(format!("{name} must be a boolean value")),
        Some(kind @ ("integer" | "number")) => match value.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => {
                if kind == "integer" && x.fract() != 0.0 {
                    out.push(format!("{name} must be an integer number"));
                }
                if let Some(min) = bound(schema, "minimum").filter(|m| x < *m) {
                    out.push(format!("{name} must not be less than {min}"));
                }
                if let Some(max) = bound(schema, "maximum").filter(|m| x > *m) {
                    out.push(format!("{name} must not be greater than {max}"));
                }
            }
            _ => out.push(format!(
                "{name} must be {} conforming to the specified constraints",
                if kind == "integer" { "an integer number" } else { "a number" }
            )),
        },
        _ => {}
    }
    out
}

fn enum_values(schema: &Value) -> Option<Vec<String>> {
    let values = schema.get("enum")?.as_array()?;
    Some(values.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect())
}

#[cfg(test)]
mod tests {
    use super::super::spec::operations;
    use super::*;

    fn run(op_id: &str, path: &[(&str, &str)], query: &str) -> (usize, Vec<String>) {
        let op = operations().iter().find(|o| o.id == op_id).unwrap();
        let path: Vec<(String, String)> = path.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut params = Params::parse(Some(query));
        let size = check(op, &path, &mut params);
        let problems = match params.finish() {
            Ok(()) => Vec::new(),
            Err(_) => vec!["refused".to_string()],
        };
        (size, problems)
    }

    #[test]
    fn documented_bounds_enums_and_types_are_checked() {
        let net = [("network", "mainnet")];
        assert_eq!(run("listValidators", &net, ""), (10, vec![]));
        assert_eq!(run("listValidators", &net, "pageSize=100").0, 100);
        assert_eq!(run("listValidators", &net, "pageSize=101").1, ["refused"]);
        assert_eq!(run("listValidators", &[("network", "moon")], "").1, ["refused"]);
        assert_eq!(run("listValidators", &net, "validationStatus=sleeping").1, ["refused"]);
        assert_eq!(run("listValidators", &net, "minFeePercentage=1").1, ["refused"]);
        assert_eq!(run("listValidators", &net, "minFeePercentage=2&validationStatus=active").1, Vec::<String>::new());
        assert_eq!(run("listBlockchains", &net, "").0, 100, "the documented default page size");
        assert_eq!(run("listErc20Balances", &[("chainId", "1"), ("address", "0x1")], "pageSize=500").0, 500);
        assert_eq!(run("getVertexByHeight", &[("network", "mainnet"), ("blockchainId", "x-chain")], "").1, ["refused"]);
        let path = [("network", "mainnet"), ("blockchainId", "p-chain")];
        assert_eq!(
            run("listLatestPrimaryNetworkTransactions", &path, "txTypes=AddValidatorTx").1,
            Vec::<String>::new()
        );
        assert_eq!(run("listLatestPrimaryNetworkTransactions", &path, "txTypes=AddValidatorTx,Nope").1, ["refused"]);
        let chain = [("chainId", "43114"), ("address", "0x1")];
        assert_eq!(run("listErc20Balances", &chain, "filterSpamTokens=maybe").1, ["refused"]);
    }

    #[test]
    fn messages_name_the_parameter_and_what_is_allowed() {
        let op = operations().iter().find(|o| o.id == "listValidators").unwrap();
        let p = op.param("validationStatus").unwrap();
        assert_eq!(
            problems(Service::Data, p, "x"),
            ["validationStatus must be one of the following values: completed, active, pending, removed"]
        );
        let p = op.param("minFeePercentage").unwrap();
        assert_eq!(problems(Service::Data, p, "101"), ["minFeePercentage must not be greater than 100"]);
        assert_eq!(
            problems(Service::Data, p, "abc"),
            ["minFeePercentage must be a number conforming to the specified constraints"]
        );
    }
}
