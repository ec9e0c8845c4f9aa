//! A chain id as an integer or as text. An EVM chain id given either way becomes the same
//! decimal text (`43114`, `"43114"`, `" 043114 "` are one id); other text (a CB58 blockchain id,
//! `total`, ...) is passed on trimmed, for the service's own grammar to check.

use crate::error::{Error, Result};

/// What a chain id may be, for error messages.
pub const CHAIN_ID_ALLOWED: &str =
    "an EVM chain id as an int in [0, 18446744073709551615] or its decimal digits, or a str id the service names";

/// A chain id as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainIdInput {
    /// An integer (a Python `int`, not a `bool`).
    Int(i128),
    /// Text: decimal digits, or an id of the service (a CB58 blockchain id, `total`, ...).
    Text(String),
    /// A value of another type, by its type name: always refused.
    Other(String),
}

impl std::fmt::Display for ChainIdInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChainIdInput::Int(n) => write!(f, "{n}"),
            ChainIdInput::Text(t) => write!(f, "{t:?}"),
            ChainIdInput::Other(ty) => write!(f, "<{ty}>"),
        }
    }
}

/// The chain id as the text to send: an EVM chain id in canonical decimal (no sign, no leading
/// zeros), other text trimmed. Refused, naming `param`: another type, an empty text, a negative
/// number or one past 2**64 - 1.
///
/// ```
/// use avax_data_core::inputs::{chain_id, ChainIdInput};
/// assert_eq!(chain_id("chain_id", &ChainIdInput::Text(" 043114 ".into())).unwrap(), "43114");
/// assert_eq!(chain_id("chain_id", &ChainIdInput::Text("total".into())).unwrap(), "total");
/// assert!(chain_id("chain_id", &ChainIdInput::Int(-1)).is_err());
/// ```
pub fn chain_id(param: &str, input: &ChainIdInput) -> Result<String> {
    chain_id_shown(param, input, &input.to_string())
}

/// [`chain_id`] with the value shown in an error as `shown` (e.g. a Python `repr`).
pub fn chain_id_shown(param: &str, input: &ChainIdInput, shown: &str) -> Result<String> {
    let bad = || Error::invalid(param, shown, CHAIN_ID_ALLOWED);
    match input {
        ChainIdInput::Int(n) => u64::try_from(*n).map(|n| n.to_string()).map_err(|_| bad()),
        ChainIdInput::Text(text) => {
            let t = text.trim();
            if t.is_empty() {
                return Err(bad());
            }
            if t.bytes().all(|b| b.is_ascii_digit()) {
                return t.parse::<u64>().map(|n| n.to_string()).map_err(|_| bad());
            }
            Ok(t.to_string())
        }
        ChainIdInput::Other(_) => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> ChainIdInput {
        ChainIdInput::Text(t.into())
    }

    #[test]
    fn an_int_and_its_digits_are_one_id() {
        for input in [ChainIdInput::Int(43114), text("43114"), text(" 43114\n"), text("0043114")] {
            assert_eq!(chain_id("chain_id", &input).unwrap(), "43114", "{input:?}");
        }
        assert_eq!(chain_id("chain_id", &ChainIdInput::Int(0)).unwrap(), "0");
        assert_eq!(chain_id("chain_id", &ChainIdInput::Int(u64::MAX.into())).unwrap(), u64::MAX.to_string());
        assert_eq!(chain_id("chain_id", &text("18446744073709551615")).unwrap(), u64::MAX.to_string());
    }

    #[test]
    fn other_text_is_trimmed_for_the_service_grammar() {
        assert_eq!(chain_id("chain_id", &text(" total ")).unwrap(), "total");
        let cb58 = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5";
        assert_eq!(chain_id("chain_id", &text(cb58)).unwrap(), cb58);
    }

    #[test]
    fn refusals_name_the_parameter_value_and_what_is_allowed() {
        let err = |p: &str, i: ChainIdInput| chain_id(p, &i).unwrap_err().to_string();
        assert_eq!(err("chain_id", ChainIdInput::Int(-1)), format!("invalid chain_id=-1: {CHAIN_ID_ALLOWED}"));
        assert_eq!(
            err("chain_id", ChainIdInput::Int(i128::from(u64::MAX) + 1)),
            format!("invalid chain_id=18446744073709551616: {CHAIN_ID_ALLOWED}")
        );
        assert_eq!(
            err("chain_id", text("18446744073709551616")),
            format!("invalid chain_id=\"18446744073709551616\": {CHAIN_ID_ALLOWED}")
        );
        assert_eq!(err("src", text("  ")), format!("invalid src=\"  \": {CHAIN_ID_ALLOWED}"));
        assert_eq!(
            err("chain_id", ChainIdInput::Other("bool".into())),
            format!("invalid chain_id=<bool>: {CHAIN_ID_ALLOWED}")
        );
        let shown = chain_id_shown("chain_id", &ChainIdInput::Other("float".into()), "1.5").unwrap_err();
        assert_eq!(shown.to_string(), format!("invalid chain_id=1.5: {CHAIN_ID_ALLOWED}"));
    }
}
