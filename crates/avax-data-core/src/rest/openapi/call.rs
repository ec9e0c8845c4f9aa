//! The generic call of any operation: a checked [`Request`] becomes a token-paged list
//! ([`Paged`], walked by the existing pagers and the one-pass page read) or one object. Each
//! request is charged the operation's documented compute-unit weight by the transport (the
//! weights table agrees with the documents: see the tests of this module's parent).

use serde_json::Value;

use super::{check, Operation, Request};
use crate::error::{Error, Result};
use crate::exact::Exact;
use crate::rest::{Paged, RestClient};

/// What a call needs beyond its arguments: whether the client holds an API key, and the
/// environment variable it reads one from (named in the error).
#[derive(Debug, Clone, Copy)]
pub struct Credentials<'a> {
    /// Whether a key is set.
    pub has_key: bool,
    /// Where a key comes from (`AVAX_DATA_API_KEY`).
    pub env: &'a str,
}

/// Checks a call of `op`: an operation that needs a key and has none is an
/// [`Error::Authentication`]; then every argument (see [`check`]).
pub fn prepare(op: &'static Operation, args: &[(&str, Value)], credentials: Credentials) -> Result<Request> {
    if op.needs_api_key && !credentials.has_key {
        return Err(Error::Authentication {
            operation: op.id.to_string(),
            path: op.path.to_string(),
            env: credentials.env.to_string(),
        });
    }
    check(op, args)
}

impl Request {
    /// The walk of a list operation. A `pageSize` not given is the largest the document allows,
    /// so a bulk walk takes the fewest requests and compute units.
    pub fn paged(&self) -> Result<Paged> {
        let Some(items_field) = self.op.list_key.filter(|_| self.op.is_list()) else {
            return Err(Error::Internal(format!("{} answers one object, not a list", self.op.id)));
        };
        let mut query = self.query.clone();
        if let (Some(max), false) = (self.op.max_page_size(), query.iter().any(|(k, _)| *k == "pageSize")) {
            query.push(("pageSize", max.to_string()));
        }
        Ok(Paged { path: self.path.clone(), query, items_field })
    }

    /// The answer of an object operation (read by the exact rule; secrets redacted from errors).
    pub async fn object(&self, client: &RestClient) -> Result<Exact> {
        let (value, _url) = client.redacted(client.get(&self.path, &self.query).await)?;
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::super::operation;
    use super::*;
    use crate::arrow::Resource;
    use crate::rest::testing::{no_retries, serve};
    use crate::rest::ResourcePager;
    use arrow_array::cast::AsArray;
    use arrow_array::Array;
    use arrow_schema::{DataType, TimeUnit};
    use axum::extract::{Query, Request as HttpRequest};
    use axum::routing::get;
    use serde_json::json;
    use std::collections::HashMap;

    const NO_KEY: Credentials = Credentials { has_key: false, env: "AVAX_DATA_API_KEY" };

    #[test]
    fn account_operations_refuse_to_send_without_a_key() {
        let op = operation("listWebhooks").unwrap();
        let err = prepare(op, &[], NO_KEY).unwrap_err();
        assert_eq!(
            err.to_string(),
            "listWebhooks (GET /v1/webhooks) needs an API key and none is set: pass api_key= or set AVAX_DATA_API_KEY"
        );
        assert!(prepare(op, &[], Credentials { has_key: true, env: "" }).is_ok());
        assert!(prepare(operation("getLatestBlocks").unwrap(), &[("chain_id", json!("1"))], NO_KEY).is_ok());
    }

    #[test]
    fn a_list_takes_the_largest_page_unless_told() {
        let op = operation("listErc20Transactions").unwrap();
        let owner = json!("0x000000000000000000000000000000000000dEaD");
        let r = prepare(op, &[("chain_id", json!("43114")), ("address", owner.clone())], NO_KEY).unwrap();
        let paged = r.paged().unwrap();
        assert_eq!(
            paged.path,
            "/v1/chains/43114/addresses/0x000000000000000000000000000000000000dEaD/transactions:listErc20"
        );
        assert_eq!((paged.query, paged.items_field), (vec![("pageSize", "100".to_string())], "transactions"));
        let r = prepare(op, &[("chain_id", json!("43114")), ("address", owner), ("page_size", json!(7))], NO_KEY);
        assert_eq!(r.unwrap().paged().unwrap().query, vec![("pageSize", "7".to_string())]);
        let obj = prepare(operation("getAvaxSupply").unwrap(), &[], NO_KEY).unwrap();
        assert!(obj.paged().unwrap_err().to_string().contains("getAvaxSupply answers one object"));
    }

    /// Schema-valid pages of a new list operation (optional fields absent, nulls, unknown enum
    /// values, extra fields) give frames of the documented columns and types, through the
    /// one-pass page read; an object operation answers its dict.
    #[tokio::test]
    async fn a_new_list_operation_walks_its_pages_into_typed_frames() {
        let app = axum::Router::new()
            .route(
                "/v1/chains/{chain}/tokens/{address}/transfers",
                get(|Query(q): Query<HashMap<String, String>>, req: HttpRequest| async move {
                    assert_eq!(q.get("pageSize").map(String::as_str), Some("100"));
                    assert!(req.uri().path().ends_with("/transfers"));
                    let page = match q.get("pageToken").map(String::as_str) {
                        None => json!({"transfers": [
                            {"blockNumber": "339", "blockTimestamp": 1648672486, "blockHash": "0xabc", "txHash": "0x1",
                             "from": {"address": "0xf"}, "to": {"address": "0xt"}, "logIndex": 3, "value": "10000000000000000000000",
                             "erc20Token": {"address": "0xe", "name": "Wrapped", "symbol": "W", "decimals": 18, "ercType": "ERC-99", "price": null},
                             "someNewField": [1, 2]},
                            {"blockNumber": "340", "txHash": "0x2", "value": null}
                        ], "nextPageToken": "t1"}),
                        Some("t1") => json!({"transfers": [{"blockNumber": "341", "blockTimestamp": 1648672490}]}),
                        Some(other) => panic!("token {other}"),
                    };
                    axum::Json(page)
                }),
            )
            .route("/v1/avax/supply", get(|| async { axum::Json(json!({"circulatingSupply": "1.5", "totalSupply": "2"})) }));
        let url = serve(app).await;
        let client = RestClient::new(&url, no_retries()).unwrap();
        let op = operation("listTransfers").unwrap();
        let token = json!("0x000000000000000000000000000000000000dEaD");
        let request = prepare(op, &[("chain_id", json!(43114)), ("address", token)], NO_KEY).unwrap();
        let pager =
            ResourcePager::tokens(&client, request.paged().unwrap(), Resource::of_operation(op), None, None).unwrap();
        let batches = pager.to_batches(None, |_| ()).await.unwrap();
        // Pages of 2 and 1 items, in one batch.
        assert_eq!(batches.iter().map(|b| b.num_rows()).collect::<Vec<_>>(), vec![3]);
        let schema = Resource::of_operation(op).schema();
        assert_eq!(batches[0].schema(), schema);
        let at = |name: &str| schema.index_of(name).unwrap();
        assert_eq!(schema.field(at("value")).data_type(), &DataType::Utf8View);
        assert_eq!(schema.field(at("valueFloat")).data_type(), &DataType::Float64);
        assert_eq!(
            schema.field(at("blockTimestamp")).data_type(),
            &DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
        );
        assert!(schema.index_of("someNewField").is_err(), "extra fields are not columns");
        let b = &batches[0];
        let extra = b.column(at("extra")).as_string_view();
        assert!(extra.iter().flatten().any(|e| e.contains("/someNewField")), "but kept in `extra`");
        let value = b.column(at("value")).as_string_view();
        assert_eq!((value.value(0), value.is_null(1)), ("10000000000000000000000", true));
        let token = b.column(at("erc20Token")).as_struct();
        let erc = token.column_by_name("ercType").unwrap().as_string_view();
        assert_eq!(erc.value(0), "ERC-99", "an unknown enum value is kept");
        assert!(token.is_null(1), "an absent object is null");
        let ts = b.column(at("blockTimestamp")).as_primitive::<arrow_array::types::TimestampNanosecondType>();
        assert_eq!((ts.value(0), ts.is_null(1)), (1_648_672_486_000_000_000, true));

        let supply = prepare(operation("getAvaxSupply").unwrap(), &[], NO_KEY).unwrap();
        assert_eq!(supply.object(&client).await.unwrap()["totalSupply"], "2");
    }
}
