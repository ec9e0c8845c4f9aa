use super::*;
use crate::transport::RateLimitInfo;

fn budget(tier: ServiceTier) -> Budget {
    Budget {
        rate_limit: None,
        compute_units_per_minute: None,
        tier,
        header_units_per_minute: None,
        metered: true,
        hosted: false,
    }
}

#[test]
fn an_index_range_costs_one_medium_call_per_page() {
    let plan = Plan::new(shapes::index_range("X/tx", Some(2_500), 1024), &budget(ServiceTier::Free));
    assert_eq!(plan.walk.requests, Requests::Exact(3));
    assert_eq!(plan.compute_units(), Some(60));
    assert_eq!(plan.seconds_at_tier_budget(), Some(60.0 * 60.0 / 8_000.0));
    assert_eq!(plan.daily_share(), Some(60.0 / 2_000_000.0));
    assert!(plan.over_daily_budget().is_none());
    let to_tip = Plan::new(shapes::index_range("X/tx", None, 100), &budget(ServiceTier::Free));
    assert_eq!((to_tip.walk.requests, to_tip.compute_units()), (Requests::Unknown, None));
    assert!(to_tip.walk.unknown[0].contains("tip"));
}

#[test]
fn a_node_of_your_own_is_unmetered_and_warns_of_no_budget() {
    let config = crate::transport::TransportConfig::default();
    let own = sources::node_budget(&config, "http://127.0.0.1:9650");
    let hosted = sources::node_budget(&config, "https://api.avax.network");
    assert!(!own.metered && hosted.metered);
    // 100,000,000 containers: 1.6x the unauthenticated tier's daily budget at a hosted endpoint.
    let walk = || shapes::index_range("C/block", Some(100_000_000), 1024);
    let (mine, theirs) = (Plan::new(walk(), &own), Plan::new(walk(), &hosted));
    assert_eq!(mine.walk.requests, theirs.walk.requests, "the requests are the same walk");
    assert_eq!((mine.compute_units(), mine.units_per_request(), mine.units_per_1000_items()), (Some(0), 0, 0));
    assert_eq!((mine.daily_share(), mine.seconds_at_tier_budget(), mine.over_daily_budget()), (None, None, None));
    assert!(mine.metering().starts_with("unmetered"), "{}", mine.metering());
    let summary = mine.summary();
    assert!(summary.contains("unmetered") && !summary.contains("daily budget"), "{summary}");
    assert_eq!(theirs.compute_units(), Some(97_657 * 20));
    let warning = theirs.over_daily_budget().expect("a hosted endpoint has a daily budget");
    assert!(warning.contains("1.6x the unauthenticated tier's daily budget"), "{warning}");
    assert!(theirs.summary().contains("metered: compute units of the unauthenticated tier"));
}

#[test]
fn a_data_list_without_a_count_says_what_is_known() {
    let plan = Plan::new(shapes::token_list("/v1/chains/43114/blocks", 100, None, None), &budget(ServiceTier::Base));
    assert_eq!(plan.walk.requests, Requests::Unknown);
    assert_eq!((plan.pages_per_1000_items(), plan.units_per_1000_items()), (10, 100));
    assert!(plan.summary().contains("unknown:"), "{}", plan.summary());
    let limited = shapes::token_list("/v1/chains/43114/blocks", 10, Some(40), None);
    assert_eq!(limited.requests, Requests::AtMost(4));
    let known = shapes::token_list("/v1/networks/mainnet/rewards:listPending", 10, None, Some(25));
    assert_eq!((known.requests, known.units_per_request), (Requests::Exact(3), 100));
}

#[test]
fn client_limits_and_headers() {
    let mut b = budget(ServiceTier::Unauthenticated);
    b.rate_limit = Some(2.0);
    b.compute_units_per_minute = Some(600);
    let plan = Plan::new(shapes::index_range("C/block", Some(100), 10), &b);
    // 10 requests: 5 s at 2/s, but 200 units at 600/min take 20 s.
    assert_eq!(plan.seconds_at_client_limits(), Some(20.0));
    let info = RateLimitInfo { policy: Some("100;w=30".into()), limit: Some(100), remaining: Some(3), reset: None };
    assert_eq!(header_units_per_minute(&info), Some(200));
    b.header_units_per_minute = header_units_per_minute(&info);
    let plan = Plan::new(shapes::index_range("C/block", Some(100), 10), &b);
    assert_eq!((plan.units_per_minute(), plan.per_minute_source()), (200, "ratelimit headers"));
    assert_eq!(plan.seconds_at_tier_budget(), Some(60.0));
}

#[test]
fn a_walk_over_the_daily_budget_is_named() {
    let plan = Plan::new(shapes::index_range("C/block", Some(70_000_000), 1024), &budget(ServiceTier::Unauthenticated));
    let text = plan.over_daily_budget().expect("68,360 calls x 20 > 1,200,000");
    assert!(text.contains("1367200") && text.contains("unauthenticated") && text.contains("1200000"), "{text}");
}

#[test]
fn held_items_are_not_planned_again() {
    let walk = shapes::index_range("X/tx", Some(1_000), 100).less_held(400);
    assert_eq!((walk.requests, walk.held, walk.items), (Requests::Exact(6), 400, Some(600)));
    let shards = shapes::metric_shards("/v2/chains/43114/metrics/txCount", &[10, 10, 5], 4, 23);
    assert_eq!((shards.requests, shards.units_per_request), (Requests::AtMost(3 + 3 + 2 + 1), 10));
}

#[test]
fn cached_items_leave_only_the_requests_still_sent() {
    let plan = Plan::new(shapes::index_range("X/tx", Some(1_000), 100), &budget(ServiceTier::Free));
    let rest = plan.less_cached(650, 4);
    assert_eq!((rest.walk.requests, rest.compute_units(), rest.walk.cached_items), (Requests::Exact(4), Some(80), 650));
    assert_eq!(rest.walk.items, Some(1_000), "cached items are still handed out");
    assert!(rest.summary().contains("from the cache:  650 items"), "{}", rest.summary());
    let all = plan.less_cached(1_000, 0);
    assert_eq!((all.compute_units(), all.daily_share(), all.seconds_at_tier_budget()), (Some(0), Some(0.0), Some(0.0)));
    assert_eq!(rest.less_held(0), rest, "nothing held keeps the cache's count");
    let unknown = Plan::new(shapes::index_range("X/tx", None, 100), &budget(ServiceTier::Free)).less_cached(5, 1);
    assert_eq!(unknown.walk.requests, Requests::Unknown);
}
