//! The hand-written endpoints (`blocks`, `pending_rewards`, `metric`, ...) ride on the engine:
//! after their own checks (which keep what they do better: bech32 addresses, X-chain ids, the
//! metric's intervals), their arguments go through the same operation table as every generated
//! endpoint ([`check`]), so one change to the engine's checks reaches every endpoint, and a list
//! walks the request the engine builds. (`MetricsClient::metric` checks its chain and metric by
//! the table first, so a bad one gets the generated methods' message.)

use serde_json::Value;

use super::{check, operation, Request};
use crate::error::{Error, Result};
use crate::rest::Paged;

/// The table's checks of `args` (Python names) for the operation `op_id`.
pub fn engine_check(op_id: &str, args: &[(&str, Value)]) -> Result<Request> {
    let op =
        operation(op_id).ok_or_else(|| Error::Internal(format!("{op_id} is not an operation of the documents")))?;
    check(op, args)
}

fn sorted(query: &[(&'static str, String)]) -> Vec<(&'static str, String)> {
    let mut q = query.to_vec();
    q.sort();
    q
}

/// The walk of a hand-written list method: `args` checked by the table of `op_id`, and the
/// engine's request, which must be the one the method built (`hand`; the query's order aside),
/// else an internal error naming both (a defect of one or the other, never silently sent).
pub fn ride(op_id: &str, hand: Paged, args: &[(&str, Value)]) -> Result<Paged> {
    let engine = engine_check(op_id, args)?.paged()?;
    if engine.path != hand.path
        || engine.items_field != hand.items_field
        || sorted(&engine.query) != sorted(&hand.query)
    {
        return Err(Error::Internal(format!(
            "{op_id}: the engine's request {engine:?} differs from the hand-written {hand:?}"
        )));
    }
    Ok(engine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_hand_written_list_walks_the_engines_request() {
        let hand = Paged {
            path: "/v1/chains/43114/blocks".into(),
            query: vec![("pageSize", "100".into())],
            items_field: "blocks",
        };
        let paged = ride("getLatestBlocks", hand.clone(), &[("chain_id", json!("43114"))]).unwrap();
        assert_eq!((paged.path.as_str(), paged.query.as_slice()), ("/v1/chains/43114/blocks", hand.query.as_slice()));
    }

    #[test]
    fn the_engines_checks_reach_hand_written_arguments() {
        let hand = Paged { path: "/v1/blocks".into(), query: vec![("pageSize", "100".into())], items_field: "blocks" };
        let err = ride("listLatestBlocksAllChains", hand, &[("network", json!("devnet"))]).unwrap_err();
        assert_eq!(err.to_string(), "invalid network=\"devnet\": one of mainnet, fuji, testnet");
        let err = engine_check(
            "getEvmChainMetrics",
            &[("chain_id", json!("43114")), ("metric", json!("txCount")), ("page_size", json!(5000))],
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("invalid page_size=5000: "), "{err}");
    }

    #[test]
    fn a_request_the_engine_would_not_send_is_an_internal_error() {
        let hand = Paged { path: "/v1/chains/1/blocks".into(), query: vec![], items_field: "blocks" };
        let err = ride("getLatestBlocks", hand, &[("chain_id", json!("43114"))]).unwrap_err();
        assert!(matches!(err, Error::Internal(_)), "{err}");
        assert!(err.to_string().contains("differs from the hand-written"), "{err}");
        assert!(engine_check("noSuchOperation", &[]).is_err());
    }
}
