//! Parameter checks from the operation table (`rest::openapi`), with class-validator's messages
//! (the service's 400 body lists every failed constraint): required parameters, enums (path and
//! query; array parameters item by item, sent repeated or comma-separated), `minimum`/`maximum`,
//! integer, number and boolean types. `pageSize` gets the bounds the operation documents.

use crate::data_api::params::Params;
use avax_data_core::rest::openapi::{Location, Operation, Param, ParamType};

/// Checks every parameter of `op` (`path` holds the path parameters' values, `params` the query)
/// and records the problems in `params`; returns the page size (the documented default when
/// absent).
pub(crate) fn check(op: &Operation, path: &[(String, String)], params: &mut Params) -> usize {
    let mut size = op
        .param("pageSize")
        .and_then(|p| p.schema.default)
        .and_then(serde_json::Value::as_u64)
        .filter(|n| *n > 0)
        .unwrap_or(10) as usize;
    for param in &op.params {
        let values: Vec<String> = match param.location {
            Location::Path => path.iter().filter(|(k, _)| k == param.name).map(|(_, v)| v.clone()).collect(),
            Location::Query if param.schema.array => params.list(param.name),
            Location::Query => params.get(param.name).map(str::to_string).into_iter().collect(),
        };
        if values.is_empty() {
            if param.required {
                params.problem(format!("{} should not be empty", param.name));
            }
            continue;
        }
        match param.name {
            "pageToken" => {}
            "pageSize" => size = page_size(param, &values[0], params).unwrap_or(size),
            _ => {
                for problem in problems(param, &values) {
                    params.problem(problem);
                }
            }
        }
    }
    size
}

/// The page size asked for (0, which one operation allows, means its default).
fn page_size(param: &Param, value: &str, params: &mut Params) -> Option<usize> {
    let min = param.schema.minimum.unwrap_or(1.0) as i64;
    let max = param.schema.maximum.unwrap_or(100.0) as i64;
    match value.trim().parse::<i64>() {
        Ok(n) if n < min => params.problem(format!("pageSize must not be less than {min}")),
        Ok(n) if n > max => params.problem(format!("pageSize must not be greater than {max}")),
        Ok(0) => return None,
        Ok(n) => return Some(n as usize),
        Err(_) => {
            params.problem(format!("pageSize must not be greater than {max}"));
            params.problem(format!("pageSize must not be less than {min}"));
            params.problem("pageSize must be an integer number".to_string());
        }
    }
    None
}

/// The failed constraints of `values` (one, or an array's items) for `param`.
fn problems(param: &Param, values: &[String]) -> Vec<String> {
    let name = param.name;
    let schema = &param.schema;
    let each = if schema.array { "each value in " } else { "" };
    let mut out = Vec::new();
    if !schema.enum_values.is_empty() {
        if values.iter().any(|v| !schema.enum_values.contains(&v.as_str())) {
            out.push(format!("{each}{name} must be one of the following values: {}", schema.enum_values.join(", ")));
        }
        return out;
    }
    for value in values {
        match schema.ty {
            ParamType::Boolean if value != "true" && value != "false" => {
                out.push(format!("{each}{name} must be a boolean value"));
            }
            ParamType::Integer | ParamType::Number => match value.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => {
                    if schema.ty == ParamType::Integer && x.fract() != 0.0 {
                        out.push(format!("{each}{name} must be an integer number"));
                    }
                    if let Some(min) = schema.minimum.filter(|m| x < *m) {
                        out.push(format!("{each}{name} must not be less than {min}"));
                    }
                    if let Some(max) = schema.maximum.filter(|m| x > *m) {
                        out.push(format!("{each}{name} must not be greater than {max}"));
                    }
                }
                _ => out.push(format!(
                    "{each}{name} must be {} conforming to the specified constraints",
                    if schema.ty == ParamType::Integer { "an integer number" } else { "a number" }
                )),
            },
            _ => {}
        }
    }
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use avax_data_core::rest::openapi::operation;

    fn run(op_id: &str, path: &[(&str, &str)], query: &str) -> (usize, bool) {
        let op = operation(op_id).unwrap();
        let path: Vec<(String, String)> = path.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut params = Params::parse(Some(query));
        let size = check(op, &path, &mut params);
        (size, params.finish().is_ok())
    }

    #[test]
    fn documented_bounds_enums_and_types_are_checked() {
        let net = [("network", "mainnet")];
        assert_eq!(run("listValidators", &net, ""), (10, true));
        assert_eq!(run("listValidators", &net, "pageSize=100"), (100, true));
        assert!(!run("listValidators", &net, "pageSize=101").1);
        assert!(!run("listValidators", &net, "pageSize=0").1);
        assert!(!run("listValidators", &[("network", "moon")], "").1);
        assert!(!run("listValidators", &net, "validationStatus=sleeping").1);
        assert!(!run("listValidators", &net, "minFeePercentage=1").1);
        assert!(run("listValidators", &net, "minFeePercentage=2&validationStatus=active").1);
        assert_eq!(run("listBlockchains", &net, ""), (100, true), "the documented default page size");
        assert_eq!(run("listErc20Balances", &[("chainId", "1"), ("address", "0x1")], "pageSize=500"), (500, true));
        let block = [("chainId", "43114"), ("blockId", "1")];
        assert_eq!(run("getTransactionsForBlock", &block, "pageSize=0"), (10, true), "0 is allowed: the default");
        assert!(!run("getVertexByHeight", &[("network", "mainnet"), ("blockchainId", "x-chain")], "").1);
        let path = [("network", "mainnet"), ("blockchainId", "p-chain")];
        let txs = "listLatestPrimaryNetworkTransactions";
        assert!(run(txs, &path, "txTypes=AddValidatorTx&txTypes=AddDelegatorTx").1);
        assert!(run(txs, &path, "txTypes=AddValidatorTx,AddDelegatorTx").1);
        assert!(!run(txs, &path, "txTypes=Nope&txTypes=AddValidatorTx").1, "every repeated value is checked");
        assert!(!run(txs, &path, "txTypes=AddValidatorTx,Nope").1);
        let chain = [("chainId", "43114"), ("address", "0x1")];
        assert!(!run("listErc20Balances", &chain, "filterSpamTokens=maybe").1);
    }

    #[test]
    fn messages_name_the_parameter_and_what_is_allowed() {
        let op = operation("listValidators").unwrap();
        let one = |name: &str, value: &str| problems(op.param(name).unwrap(), &[value.to_string()]);
        assert_eq!(
            one("validationStatus", "x"),
            ["validationStatus must be one of the following values: completed, active, pending, removed"]
        );
        assert_eq!(one("minFeePercentage", "101"), ["minFeePercentage must not be greater than 100"]);
        assert_eq!(
            one("minFeePercentage", "abc"),
            ["minFeePercentage must be a number conforming to the specified constraints"]
        );
        let txs = operation("listLatestPrimaryNetworkTransactions").unwrap().param("txTypes").unwrap();
        let message = &problems(txs, &["Nope".to_string()])[0];
        assert!(message.starts_with("each value in txTypes must be one of the following values: "), "{message}");
    }
}
