//! The shapes the Data API promises for its single objects (the `required` fields of its OpenAPI
//! document, with their JSON types), checked before an answer is handed out: a wrong shape is an
//! [`crate::Error::Decode`] naming the field and the value. (List items are checked to be objects by
//! [`crate::rest::check_items`], for both services.)

use crate::error::Result;
use crate::exact::Exact;
use crate::rest::json::{answer_error, shown};

/// A JSON type as the OpenAPI document names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    /// `"string"`.
    String,
    /// `"number"` (integer or not).
    Number,
    /// `true` / `false`.
    Boolean,
    /// `{...}`.
    Object,
}

impl JsonType {
    fn holds(self, value: &Exact) -> bool {
        match self {
            JsonType::String => matches!(value, Exact::Str(_)),
            JsonType::Number => value.is_number(),
            JsonType::Boolean => matches!(value, Exact::Bool(_)),
            JsonType::Object => value.is_object(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            JsonType::String => "a string",
            JsonType::Number => "a number",
            JsonType::Boolean => "true or false",
            JsonType::Object => "an object",
        }
    }
}

use JsonType::{Boolean, Number, Object, String as Str};

/// `GET /v1/chains/{chainId}` (`GetChainResponse`).
pub const CHAIN: &[(&str, JsonType)] = &[
    ("chainId", Str),
    ("status", Str),
    ("chainName", Str),
    ("description", Str),
    ("vmName", Str),
    ("rpcUrl", Str),
    ("isTestnet", Boolean),
    ("networkToken", Object),
];

/// `GET /v1/chains/{chainId}/blocks/{blockId}` (`GetEvmBlockResponse`).
pub const BLOCK: &[(&str, JsonType)] = &[
    ("chainId", Str),
    ("blockNumber", Str),
    ("blockTimestamp", Number),
    ("blockHash", Str),
    ("txCount", Number),
    ("baseFee", Str),
    ("gasUsed", Str),
    ("gasLimit", Str),
    ("gasCost", Str),
    ("parentHash", Str),
    ("feesSpent", Str),
    ("cumulativeTransactions", Str),
];

/// `GET /v1/health-check` (`HealthCheckResultDto`).
pub const HEALTH: &[(&str, JsonType)] = &[("status", Str)];

/// Checks that `value` (the answer for `resource`) has every required field with its type.
pub fn check_object(value: &Exact, resource: &str, required: &[(&str, JsonType)], url: &str) -> Result<()> {
    for (field, kind) in required {
        match value.get(field) {
            Some(v) if kind.holds(v) => {}
            found => {
                let found = found.map_or_else(|| "nothing (the field is missing)".to_string(), shown);
                let message = format!("{resource}: field {field:?} must be {}, found {found}", kind.name());
                return Err(answer_error(message, url, value));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::from_json as x;
    use serde_json::json;

    #[test]
    fn required_fields_and_types_are_named_with_the_value() {
        let ok = x(json!({"status": "ok", "details": {}}));
        assert!(check_object(&ok, "health", HEALTH, "u").is_ok());
        let err = check_object(&x(json!({"status": 5})), "health", HEALTH, "u").unwrap_err().to_string();
        assert!(err.contains(r#"field "status" must be a string, found 5"#), "{err}");
        let err = check_object(&x(json!({})), "chain", CHAIN, "u").unwrap_err().to_string();
        assert!(err.contains(r#"field "chainId" must be a string, found nothing"#), "{err}");
    }
}
