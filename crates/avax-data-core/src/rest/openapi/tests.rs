//! The operation table against facts read from the documents by hand.

use super::table::{py_name, snake_case};
use super::*;
use serde_json::Value;

fn op(id: &str) -> &'static Operation {
    operation(id).unwrap_or_else(|| panic!("no operation {id}"))
}

#[test]
fn every_get_operation_of_both_documents_is_in_the_table_once() {
    assert_eq!(service_operations(Service::Data).count(), 70);
    assert_eq!(service_operations(Service::Metrics).count(), 15);
    assert_eq!(operations().len(), 85);
    let mut ids: Vec<_> = operations().iter().map(|o| o.id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 85, "operationIds are unique across both documents");
    for o in operations() {
        assert!(std::ptr::eq(op(o.id), o));
        assert!(!o.tag.is_empty() && !o.summary.is_empty(), "{}", o.id);
        assert!(o.path.starts_with("/v1/") || o.path.starts_with("/v2/"), "{}", o.path);
        for p in &o.params {
            assert!(
                !p.py_name.is_empty()
                    && p.py_name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{}",
                p.py_name
            );
        }
        // Every `{slot}` of the template is a path parameter and every path parameter a slot.
        let slots: Vec<_> = o.path_params().iter().map(|p| p.name).collect();
        let declared: Vec<_> = o.params.iter().filter(|p| p.location == Location::Path).map(|p| p.name).collect();
        assert_eq!(slots.len(), declared.len(), "{}", o.id);
        assert!(declared.iter().all(|d| slots.contains(d)), "{}", o.id);
    }
    assert!(operation("postOperation").is_none() && operation("createWebhook").is_none());
}

#[test]
fn the_evm_blocks_list() {
    let o = op("getLatestBlocks");
    assert_eq!((o.service, o.path, o.tag), (Service::Data, "/v1/chains/{chainId}/blocks", "EVM Blocks"));
    assert_eq!(o.summary, "List latest blocks");
    assert_eq!((o.weight_class, o.weight(), o.status), (Some("small"), 10, 200));
    assert_eq!((o.list_key, o.token_paged, o.needs_api_key), (Some("blocks"), true, false));
    assert_eq!(o.max_page_size(), Some(100));
    let size = o.param("pageSize").unwrap();
    assert_eq!((size.location, size.required, size.schema.ty), (Location::Query, false, ParamType::Integer));
    assert_eq!((size.schema.minimum, size.schema.maximum), (Some(1.0), Some(100.0)));
    assert_eq!(size.schema.default, Some(&Value::from(10)));
    let chain = o.param("chainId").unwrap();
    assert_eq!((chain.py_name.as_str(), chain.location, chain.required), ("chain_id", Location::Path, true));
    assert_eq!((chain.schema.ty, chain.schema.style, chain.schema.explode), (ParamType::String, "simple", false));
    assert_eq!(o.path_params().iter().map(|p| p.name).collect::<Vec<_>>(), vec!["chainId"]);
    let items = o.item_schemas();
    assert_eq!(items.len(), 1);
    let props = items[0]["properties"].as_object().unwrap();
    assert!(props.contains_key("blockNumber") && props.contains_key("blockTimestamp"));
    assert_eq!(o.fill_path(&[("chainId", "43114".into())]).as_deref(), Some("/v1/chains/43114/blocks"));
    assert_eq!(o.fill_path(&[]), None);
}

#[test]
fn enums_arrays_numbers_and_untyped_parameters() {
    let v = op("listValidators");
    let status = v.param("validationStatus").unwrap();
    assert_eq!(status.schema.enum_values, vec!["completed", "active", "pending", "removed"]);
    assert_eq!((status.schema.ty, status.schema.array), (ParamType::String, false));
    let remaining = v.py_param("min_time_remaining").unwrap();
    assert_eq!((remaining.schema.ty, remaining.schema.maximum), (ParamType::Number, Some(2147483647.0)));
    assert_eq!(v.param("subnetId").unwrap().schema.ty, ParamType::Any);
    assert_eq!(v.param("network").unwrap().schema.enum_values, vec!["mainnet", "fuji", "testnet"]);

    let t = op("listLatestPrimaryNetworkTransactions");
    let types = t.param("txTypes").unwrap();
    assert!(types.schema.array && types.schema.ty == ParamType::String);
    assert!(types.schema.enum_values.contains(&"AddValidatorTx"));
    assert_eq!((types.schema.style, types.schema.explode, types.py_name.as_str()), ("form", true, "tx_types"));
    assert_eq!((t.list_key, t.token_paged, t.weight()), (Some("transactions"), true, 100));
    assert_eq!(t.response_variants().len(), 3);
    assert_eq!(t.item_schemas().len(), 3);

    assert_eq!(op("listTransfers").param("startBlock").unwrap().schema.ty, ParamType::Number);
    assert_eq!(op("getUtxosByAddresses").param("includeSpent").unwrap().schema.ty, ParamType::Boolean);
    let subnet = op("getStakingMetrics").param("subnetId").unwrap();
    assert_eq!(subnet.schema.default, Some(&Value::from("11111111111111111111111111111111LpoYY")));
    assert_eq!(op("listIcmMessages").param("from").unwrap().py_name, "from_");
    let icm = op("getICMTimeseries");
    assert_eq!(icm.param("srcBlockchainId").unwrap().py_name, "src_blockchain_id");
}

#[test]
fn objects_pages_without_tokens_and_odd_answers() {
    let tx = op("getTxByHash");
    assert_eq!((tx.list_key, tx.token_paged, tx.weight()), (None, false, 20));
    assert_eq!(tx.response_variants().len(), 5);
    assert!(tx.item_schemas().is_empty());
    // The one operation whose success answer is 201 (and carries no schema).
    let sig = op("getAggregatedSignatures");
    assert_eq!((sig.status, sig.list_key), (201, None));
    // Metrics: `listChains` takes a token but no page size.
    let chains = op("listChains");
    assert_eq!((chains.service, chains.list_key, chains.token_paged), (Service::Metrics, Some("chains"), true));
    assert_eq!(chains.max_page_size(), None);
    // Pages whose operation takes no `pageToken`: a list of one page.
    let l1 = op("getTotalL1ValidatorMetrics");
    assert_eq!((l1.list_key, l1.token_paged, l1.weight_class, l1.weight()), (Some("results"), false, None, 20));
    assert_eq!(op("getStakingMetrics").weight(), 10);
    assert_eq!(op("getAvaxSupply").weight(), 1);
    assert_eq!(op("getApiLogs").weight(), 200);
    // Objects that hold arrays are no lists.
    assert_eq!(op("listAddressChains").list_key, None);
    assert_eq!(op("getApiUsageMetrics").list_key, None);
    assert_eq!(op("getIcmMessage").response_variants().len(), 3);
}

#[test]
fn account_operations_need_a_key() {
    let keyed: Vec<_> = operations().iter().filter(|o| o.needs_api_key).map(|o| o.id).collect();
    for id in ["getApiUsageMetrics", "getApiLogs", "listWebhooks", "getWebhook", "getSharedSecret"] {
        assert!(keyed.contains(&id), "{id}");
    }
    assert_eq!(keyed.len(), 8, "{keyed:?}");
    assert!(!op("getLatestBlocks").needs_api_key && !op("getStakingMetrics").needs_api_key);
}

#[test]
fn every_reference_of_both_documents_resolves() {
    fn walk(service: Service, v: &'static Value, count: &mut usize) {
        match v {
            Value::Object(map) => {
                if let Some(r) = map.get("$ref").and_then(Value::as_str) {
                    assert!(service.lookup(r).is_some(), "{r}");
                    *count += 1;
                }
                map.values().for_each(|x| walk(service, x, count));
            }
            Value::Array(items) => items.iter().for_each(|x| walk(service, x, count)),
            _ => {}
        }
    }
    for service in [Service::Data, Service::Metrics] {
        let mut count = 0;
        walk(service, service.document(), &mut count);
        assert!(count > 50, "{service:?}: {count}");
    }
    let blocks = Service::Data.resolve(op("getLatestBlocks").response);
    assert_eq!(blocks["properties"]["blocks"]["type"], "array");
    assert!(Service::Data.schema("EvmBlock").is_some() && Service::Data.schema("Nope").is_none());
    assert_eq!((Service::Data.weight_units("xxl"), Service::Metrics.weight_units("nope")), (Some(200), None));
}

#[test]
fn routes_find_the_operation_and_its_path_parameters() {
    let (o, params) = route(Service::Data, "/v1/chains/43114/blocks?pageSize=2").unwrap();
    assert_eq!((o.id, params), ("getLatestBlocks", vec![("chainId", "43114".to_string())]));
    let (o, params) = route(Service::Data, "/v1/chains/43114/addresses/0xAb/balances:listErc20").unwrap();
    assert_eq!((o.id, params.len()), ("listErc20Balances", 2));
    assert_eq!(route(Service::Data, "/v1/webhooks:getSharedSecret").unwrap().0.id, "getSharedSecret");
    assert_eq!(route(Service::Data, "/v1/webhooks/w1").unwrap().0.id, "getWebhook");
    let staking = "/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking";
    assert_eq!(route(Service::Data, staking).unwrap().0.id, "listActivePrimaryNetworkStakingTransactions");
    assert_eq!(route(Service::Data, "/v2/chains/1/addresses/0xab/transactions").unwrap().0.id, "listTransactionsV2");
    assert_eq!(
        route(Service::Metrics, "/v2/chains/43114/btcb/bridged:getAddresses").unwrap().0.id,
        "getAddressesByBtcbBridged"
    );
    let (o, params) = route(Service::Metrics, "/v2/chains/43114/metrics/txCount").unwrap();
    assert_eq!((o.id, params[1].clone()), ("getEvmChainMetrics", ("metric", "txCount".to_string())));
    let (_, params) = route(Service::Data, "/v1/chains/a%20b%2Fc").unwrap();
    assert_eq!(params, vec![("chainId", "a b/c".to_string())]);
    for miss in ["/v1/nope", "/v1/chains//blocks", "/v1/chains/%zz", "/v1/chains/%ff", "/v2/health-check/x", ""] {
        assert!(route(Service::Data, miss).is_none(), "{miss}");
    }
    assert!(route(Service::Metrics, "/v1/chains/1/blocks").is_none());
}

#[test]
fn every_template_routes_back_to_its_own_operation_with_the_documented_weight() {
    for o in operations() {
        let values: Vec<_> = o.path_params().iter().map(|p| (p.name, format!("v{}", p.name.len()))).collect();
        let path = o.fill_path(&values).unwrap();
        let (found, params) = route(o.service, &path).unwrap();
        assert_eq!(found.id, o.id, "{path}");
        assert_eq!(params.iter().map(|(n, v)| (*n, v.clone())).collect::<Vec<_>>(), values);
        assert_eq!(crate::transport::weights::weight("GET", &path), o.weight(), "{}", o.id);
    }
}

#[test]
fn python_names() {
    for (wire, py) in [
        ("chainId", "chain_id"),
        ("l1ValidationId", "l1_validation_id"),
        ("from", "from_"),
        ("pageSize", "page_size"),
        ("includeInactiveL1Validators", "include_inactive_l1_validators"),
        ("rlBypassApiToken", "rl_bypass_api_token"),
        ("id", "id"),
    ] {
        assert_eq!(snake_case(wire), py);
        assert_eq!(py_name(wire), py);
    }
    // A time window is `start`/`end` on every method, as on the hand-written ones.
    assert_eq!((py_name("startTimestamp"), py_name("endTimestamp")), ("start".into(), "end".into()));
    assert_eq!(py_name("blockTimestamp"), "block_timestamp");
    let windows: Vec<&str> = super::operations()
        .iter()
        .filter(|op| op.params.iter().any(|p| p.name == "startTimestamp"))
        .map(|op| op.id)
        .collect();
    assert_eq!(windows.len(), 17, "{windows:?}");
    for id in windows {
        let op = super::operation(id).unwrap();
        assert!(op.py_param("start").is_some_and(|p| p.is_time()), "{id}");
        assert!(op.py_param("start_timestamp").is_none(), "{id}");
    }
}
