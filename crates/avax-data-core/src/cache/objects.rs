//! Data API point lookups of objects that cannot change, in the cache: an EVM block by number or
//! hash (`getBlock`), a primary-network transaction (`getTxByHash`), block (`getBlockById`) or
//! X-chain vertex (`getVertexByHash`). An EVM transaction by hash (`getTransaction`) is not
//! cached: its answer carries what changes (the token prices `networkTokenDetails.currentPrice`
//! and `erc20Token.price`, an NFT's `indexStatus`), and an answer with those taken out would
//! differ from the service's.
//!
//! The finality rule: Avalanche's consensus (Snowman, and Avalanche for vertices) makes an object
//! final when it is accepted, and the Data API serves only accepted objects; an answer is stored
//! only when its own timestamp is at least [`FINALITY_MARGIN_SECS`] older than the client's
//! clock, so an object the indexer may still be filling in (the tip, a block just indexed) is
//! always asked for again. An entry is keyed by the service's name ([`super::service`]: the base
//! URL redacted with a digest of it, and the emulator's world) and the request path (the path
//! names the chain or network and the object), and holds the answer as the service sent it.
//! A hit must still name the object asked for (its hash or number); an entry that does not parse
//! or names another object is deleted and fetched again, never returned.

use std::sync::Arc;

use super::containers::blocking;
use super::kind::Kind;
use super::service;
use super::store::Store;
use crate::error::Result;
use crate::exact::{self, Exact};
use crate::rest::RestClient;

/// How old (seconds, by the client's clock) an object's timestamp must be before it is cached.
pub const FINALITY_MARGIN_SECS: i64 = 600;

/// Where an answer of a cacheable lookup names its object and its time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The operation (for logs and tests).
    pub operation: &'static str,
    /// The id in the path (a hash, or a block number).
    pub id: String,
    /// Fields (`a.b` for nested) of which one must equal the id.
    pub id_fields: &'static [&'static str],
    /// Fields holding the object's Unix-seconds timestamp (the first present counts).
    pub time_fields: &'static [&'static str],
}

/// The rule of `path` when it is a lookup of an immutable object (without query parameters);
/// `None` for every other request.
pub fn rule(path: &str, query: &[(&str, String)]) -> Option<Rule> {
    if !query.is_empty() {
        return None;
    }
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (operation, id, id_fields, time_fields): (_, _, &'static [&'static str], &'static [&'static str]) =
        match parts.as_slice() {
            ["v1", "chains", _, "blocks", id] => ("getBlock", *id, &["blockNumber", "blockHash"], &["blockTimestamp"]),
            ["v1", "networks", _, "blockchains", _, "transactions", id] => {
                ("getTxByHash", *id, &["txHash"], &["blockTimestamp", "timestamp"])
            }
            ["v1", "networks", _, "blockchains", _, "blocks", id] => {
                ("getBlockById", *id, &["blockHash", "blockNumber"], &["blockTimestamp"])
            }
            ["v1", "networks", _, "blockchains", _, "vertices", id] => {
                ("getVertexByHash", *id, &["vertexHash"], &["vertexTimestamp"])
            }
            _ => return None,
        };
    if id.is_empty() || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    Some(Rule { operation, id: id.to_string(), id_fields, time_fields })
}

/// The field at `dotted` (`a.b`) of `value`.
fn field<'a>(value: &'a Exact, dotted: &str) -> Option<&'a Exact> {
    dotted.split('.').try_fold(value, |v, name| v.get(name))
}

/// A string or integer field as text.
fn text(value: &Exact) -> Option<String> {
    match value {
        Exact::Str(s) => Some(s.clone()),
        Exact::Int(_) | Exact::UInt(_) | Exact::BigInt(_) => Some(value.to_string()),
        _ => None,
    }
}

impl Rule {
    /// Whether `answer` names the object asked for (hex compared without regard to case).
    pub fn names(&self, answer: &Exact) -> bool {
        let same = |got: &str| {
            got == self.id || (got.starts_with("0x") && self.id.starts_with("0x") && got.eq_ignore_ascii_case(&self.id))
        };
        self.id_fields.iter().filter_map(|f| field(answer, f).and_then(text)).any(|got| same(&got))
    }

    /// The object's timestamp (Unix seconds), when the answer has one.
    pub fn time(&self, answer: &Exact) -> Option<i64> {
        self.time_fields.iter().find_map(|f| match field(answer, f)? {
            Exact::Str(s) => s.trim().parse().ok(),
            other => other.as_i64(),
        })
    }

    /// Whether `answer` is final by the rule of this module at `now` (Unix seconds).
    pub fn is_final(&self, answer: &Exact, now: i64) -> bool {
        self.names(answer) && self.time(answer).is_some_and(|t| t <= now - FINALITY_MARGIN_SECS)
    }
}

/// The cache key of a lookup of `path` at the service named `service` ([`super::service`]).
pub fn key(service: &str, path: &str) -> String {
    format!("data/{service}{path}")
}

/// The current Unix time in seconds.
pub fn now_secs() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// A lookup through the cache: a held answer naming the object is returned without a request;
/// otherwise the service is asked and a final answer stored.
pub async fn cached_get(client: &RestClient, store: &Arc<Store>, rule: Rule, path: &str) -> Result<(Exact, String)> {
    if let Some(name) = service::of(client) {
        let url = format!("{}{}", client.base_url().trim_end_matches('/'), path);
        let (store, key, rule) = (store.clone(), key(&name, path), rule.clone());
        if let Some(answer) = blocking(move || Ok(read(&store, &key, &rule))).await? {
            return Ok((answer, url));
        }
    }
    let (answer, url) = client.fetch_object(path, &[]).await?;
    // Keyed by the world this answer came from (the emulator names it in the answer).
    let name = service::of(client);
    if let Some(name) = name.filter(|_| rule.is_final(&answer, now_secs())) {
        let key = super::objects::key(&name, path);
        let (store, payload) = (store.clone(), answer.to_string().into_bytes());
        blocking(move || {
            if let Err(e) = store.put(Kind::Data, &key, &payload) {
                log::warn!("cache {}: cannot store {key}: {e}", store.dir().display());
            }
            Ok(())
        })
        .await?;
    }
    Ok((answer, url))
}

/// The held answer of `key`, checked: a JSON object naming the object of `rule`. Anything else
/// is dropped.
fn read(store: &Store, key: &str, rule: &Rule) -> Option<Exact> {
    let payload = store.get(Kind::Data, key)?;
    let parsed = std::str::from_utf8(&payload).ok().and_then(|text| exact::parse(text).ok());
    match parsed {
        Some(answer) if answer.is_object() && rule.names(&answer) => Some(answer),
        Some(_) => {
            store.drop_damaged(Kind::Data, key, &format!("it does not hold {} {}", rule.operation, rule.id));
            None
        }
        None => {
            store.drop_damaged(Kind::Data, key, "its payload is not a JSON object");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lookups_of_immutable_objects_have_a_rule() {
        let block = rule("/v1/chains/43114/blocks/12", &[]).unwrap();
        assert_eq!((block.operation, block.id.as_str()), ("getBlock", "12"));
        assert_eq!(rule("/v1/networks/mainnet/blockchains/x/vertices/abc", &[]).unwrap().operation, "getVertexByHash");
        assert_eq!(rule("/v1/networks/fuji/blockchains/p/transactions/t", &[]).unwrap().operation, "getTxByHash");
        assert_eq!(rule("/v1/networks/fuji/blockchains/p/blocks/b", &[]).unwrap().operation, "getBlockById");
        for other in [
            "/v1/chains/43114/blocks",
            "/v1/chains/43114",
            "/v1/chains/43114/blocks/12/transactions",
            "/v1/health-check",
            // getTransaction: its answer carries token prices and an NFT's indexStatus.
            "/v1/chains/43114/transactions/0xab",
        ] {
            assert_eq!(rule(other, &[]), None, "{other}");
        }
        assert_eq!(rule("/v1/chains/43114/blocks/12", &[("pageSize", "1".into())]), None);
    }

    #[test]
    fn an_answer_is_final_when_it_names_the_object_and_is_old_enough() {
        let by_hash = rule("/v1/chains/1/blocks/0xABcd", &[]).unwrap();
        let block = exact::parse(r#"{"blockNumber":"7","blockHash":"0xabcd","blockTimestamp":1000}"#).unwrap();
        assert!(by_hash.names(&block), "hex is compared without regard to case");
        assert!(by_hash.is_final(&block, 1000 + FINALITY_MARGIN_SECS));
        assert!(!by_hash.is_final(&block, 1000 + FINALITY_MARGIN_SECS - 1), "too recent");
        let by_number = rule("/v1/chains/1/blocks/7", &[]).unwrap();
        assert!(by_number.is_final(&block, 1_000_000));
        assert!(!rule("/v1/chains/1/blocks/8", &[]).unwrap().names(&block), "another block");
        let no_time = exact::parse(r#"{"blockNumber":"7"}"#).unwrap();
        assert!(!by_number.is_final(&no_time, 1_000_000), "no timestamp: not known to be final");
        let tx = rule("/v1/networks/fuji/blockchains/p/transactions/t1", &[]).unwrap();
        let answer = exact::parse(r#"{"txHash":"t1","blockTimestamp":"5"}"#).unwrap();
        assert_eq!(tx.time(&answer), Some(5));
        assert!(tx.is_final(&answer, 10_000));
        let cb58 = rule("/v1/networks/mainnet/blockchains/x/vertices/AbC", &[]).unwrap();
        let other_case = exact::parse(r#"{"vertexHash":"abc","vertexTimestamp":1}"#).unwrap();
        assert!(!cb58.names(&other_case), "CB58 is compared exactly");
    }
}
