//! Query-string parsing and class-validator style checks. Every failed check of a request is
//! collected, then answered at once as a 400 with the array form of `message`.

use std::collections::BTreeMap;
use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::Response;

use super::errors;
use crate::world::{Feature, Network};

/// The query parameters of one request: every value of a repeated name, in the order sent (a
/// list parameter reads them all, [`Params::list`]; a single-valued one the last,
/// [`Params::get`]).
pub(crate) struct Params {
    values: BTreeMap<String, Vec<String>>,
    problems: Vec<String>,
}

/// A handler takes its query as `mut params: Params` (parsed from the request's raw query).
impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Params, Infallible> {
        Ok(Params::parse(parts.uri.query()))
    }
}

impl Params {
    pub(crate) fn parse(raw: Option<&str>) -> Params {
        let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, value) in url::form_urlencoded::parse(raw.unwrap_or("").as_bytes()).into_owned() {
            values.entry(name).or_default().push(value);
        }
        Params { values, problems: Vec::new() }
    }

    /// The value of `name` (its last when repeated), `None` when absent or empty.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).and_then(|v| v.last()).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// A list parameter, sent as repeated keys (`txTypes=a&txTypes=b`, the form the OpenAPI
    /// documents' arrays default to), as comma-separated text (`addresses=a,b`) or both: the
    /// items of every value in the order sent, trimmed, empty ones dropped (none when absent).
    pub(crate) fn list(&self, name: &str) -> Vec<String> {
        self.values.get(name).map_or_else(Vec::new, |values| {
            values
                .iter()
                .flat_map(|v| v.split(','))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
    }

    /// Records a failed check.
    pub(crate) fn problem(&mut self, message: String) {
        self.problems.push(message);
    }

    /// `pageSize`: an integer in `1..=max`, default 10.
    pub(crate) fn page_size(&mut self, max: u32) -> usize {
        let Some(text) = self.get("pageSize").map(str::to_string) else { return 10 };
        match text.trim().parse::<i64>() {
            Ok(n) if n < 1 => {
                self.problem("pageSize must not be less than 1".to_string());
                10
            }
            Ok(n) if n > i64::from(max) => {
                self.problem(format!("pageSize must not be greater than {max}"));
                10
            }
            Ok(n) => n as usize,
            Err(_) => {
                self.problem(format!("pageSize must not be greater than {max}"));
                self.problem("pageSize must not be less than 1".to_string());
                self.problem("pageSize must be an integer number".to_string());
                10
            }
        }
    }

    /// An optional enum parameter: `None` when absent; a problem when not one of `allowed`.
    pub(crate) fn one_of(&mut self, name: &str, allowed: &[&str]) -> Option<String> {
        let value = self.get(name)?.to_string();
        if allowed.contains(&value.as_str()) {
            Some(value)
        } else {
            self.problem(format!("{name} must be one of the following values: {}", allowed.join(", ")));
            None
        }
    }

    /// The optional `network` query parameter.
    pub(crate) fn network(&mut self) -> Option<Network> {
        self.one_of("network", NETWORKS).and_then(|n| Network::parse(&n))
    }

    /// The optional `feature` query parameter.
    pub(crate) fn feature(&mut self) -> Option<Feature> {
        self.one_of("feature", FEATURES).and_then(|f| Feature::parse(&f))
    }

    /// The collected problems as a 400, if any.
    pub(crate) fn finish(&mut self) -> Result<(), Response> {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(errors::validation_failed(std::mem::take(&mut self.problems)))
        }
    }

    /// The query's filters in canonical text (everything but `pageToken` and `pageSize`): what a
    /// page token is tied to, together with the route and its path parameters.
    pub(crate) fn fingerprint(&self, route: &str) -> String {
        let mut out = route.to_string();
        for (k, values) in &self.values {
            for v in values.iter().filter(|v| !v.is_empty()) {
                if k != "pageToken" && k != "pageSize" {
                    out.push_str(&format!("&{k}={v}"));
                }
            }
        }
        out
    }
}

pub(crate) const NETWORKS: &[&str] = &["mainnet", "fuji", "testnet"];
pub(crate) const FEATURES: &[&str] = &["nftIndexing", "webhooks", "teleporter"];

/// A path `network` parameter: a problem when invalid.
pub(crate) fn path_network(params: &mut Params, network: &str) -> Option<Network> {
    let parsed = Network::parse(network);
    if parsed.is_none() {
        params.problem(format!("network must be one of the following values: {}", NETWORKS.join(", ")));
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_parameter_is_its_trimmed_non_empty_items() {
        let params = Params::parse(Some("addresses=%20a%20,,b,&txTypes=&one=x"));
        assert_eq!(params.list("addresses"), ["a", "b"]);
        assert!(params.list("txTypes").is_empty(), "an empty value is no item");
        assert!(params.list("absent").is_empty());
        assert_eq!(params.list("one"), ["x"]);
    }

    #[test]
    fn a_repeated_list_parameter_keeps_every_value_in_order() {
        let params = Params::parse(Some("txTypes=ImportTx&pageSize=5&txTypes=ExportTx,%20BaseTx&txTypes=&pageSize=7"));
        assert_eq!(params.list("txTypes"), ["ImportTx", "ExportTx", "BaseTx"]);
        assert_eq!(params.get("txTypes"), None, "a single value is the last sent (here empty)");
        assert_eq!(params.get("pageSize"), Some("7"));
        let reordered = Params::parse(Some("txTypes=ExportTx&txTypes=ImportTx"));
        let (a, b) = (params.fingerprint("r"), reordered.fingerprint("r"));
        assert_eq!(a, "r&txTypes=ImportTx&txTypes=ExportTx, BaseTx");
        assert_ne!(a, b, "a page token is tied to every value asked");
        assert_eq!(Params::parse(Some("txTypes=ImportTx")).fingerprint("r"), "r&txTypes=ImportTx");
    }
}
