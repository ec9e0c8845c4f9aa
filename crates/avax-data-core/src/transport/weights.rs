//! Compute-unit weights of the Data API and Metrics API operations, from the `x-execution-weight`
//! of each operation in the services' OpenAPI documents (`x-execution-weight-values`: free 1,
//! small 10, medium 20, large 50, xl 100, xxl 200). Operations the documents give no weight, paths
//! that match no operation, and every Index RPC request cost [`DEFAULT_WEIGHT`].

/// A weight class of the OpenAPI documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// 1 compute unit.
    Free,
    /// 10 compute units.
    Small,
    /// 20 compute units.
    Medium,
    /// 50 compute units.
    Large,
    /// 100 compute units.
    Xl,
    /// 200 compute units.
    Xxl,
}

impl Tier {
    /// Compute units of one request of this class.
    pub const fn units(self) -> u32 {
        match self {
            Tier::Free => 1,
            Tier::Small => 10,
            Tier::Medium => 20,
            Tier::Large => 50,
            Tier::Xl => 100,
            Tier::Xxl => 200,
        }
    }
}

/// Compute units charged for a request whose operation has no documented weight: 20, the weight
/// of most list and detail operations (`medium`).
pub const DEFAULT_WEIGHT: u32 = Tier::Medium.units();

/// The heaviest documented weight (`xxl`).
pub const MAX_WEIGHT: u32 = Tier::Xxl.units();

/// `(method, path template, weight class)` of every operation that documents a weight, both
/// services (Data API paths under `/v1`, and its one `/v2/chains/{chainId}/addresses/...`
/// operation; Metrics API paths under `/v2`). `{name}` stands for one path segment, or for the
/// part of a segment before a literal `:suffix`.
pub const OPERATION_WEIGHTS: &[(&str, &str, Tier)] = &[
    ("POST", "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex", Tier::Small),
    ("GET", "/v1/chains/{chainId}/nfts/collections/{address}/tokens", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}", Tier::Medium),
    ("GET", "/v1/operations/{operationId}", Tier::Small),
    ("POST", "/v1/operations/transactions:export", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/transactions", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking", Tier::Xl),
    ("GET", "/v1/networks/{network}/rewards:listPending", Tier::Xl),
    ("GET", "/v1/networks/{network}/rewards", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/utxos", Tier::Xl),
    ("POST", "/v1/networks/{network}/blockchains/{blockchainId}/utxos", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses", Tier::Xl),
    ("POST", "/v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/balances", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/blocks", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/vertices", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions", Tier::Xl),
    ("GET", "/v1/networks/{network}/addresses:listChainIds", Tier::Xl),
    ("GET", "/v1/networks/{network}", Tier::Xl),
    ("GET", "/v1/networks/{network}/blockchains", Tier::Medium),
    ("GET", "/v1/networks/{network}/blockchains/{blockchainId}", Tier::Medium),
    ("GET", "/v1/networks/{network}/subnets", Tier::Medium),
    ("GET", "/v1/networks/{network}/subnets/{subnetId}", Tier::Medium),
    ("GET", "/v1/networks/{network}/validators", Tier::Medium),
    ("GET", "/v1/networks/{network}/validators/{nodeId}", Tier::Medium),
    ("GET", "/v1/networks/{network}/delegators", Tier::Medium),
    ("GET", "/v1/networks/{network}/l1Validators", Tier::Medium),
    ("GET", "/v1/icm/messages/{messageId}", Tier::Medium),
    ("GET", "/v1/icm/messages", Tier::Medium),
    ("GET", "/v1/icm/addresses/{address}/messages", Tier::Medium),
    ("GET", "/v1/apiUsageMetrics", Tier::Xxl),
    ("GET", "/v1/apiLogs", Tier::Xxl),
    ("GET", "/v1/subnetRpcUsageMetrics", Tier::Xxl),
    ("GET", "/v1/primaryNetworkRpcUsageMetrics", Tier::Xxl),
    ("POST", "/v1/webhooks", Tier::Medium),
    ("GET", "/v1/webhooks", Tier::Small),
    ("GET", "/v1/webhooks/{id}", Tier::Small),
    ("DELETE", "/v1/webhooks/{id}", Tier::Medium),
    ("PATCH", "/v1/webhooks/{id}", Tier::Medium),
    ("POST", "/v1/webhooks:generateOrRotateSharedSecret", Tier::Medium),
    ("GET", "/v1/webhooks:getSharedSecret", Tier::Small),
    ("PATCH", "/v1/webhooks/{id}/addresses", Tier::Medium),
    ("DELETE", "/v1/webhooks/{id}/addresses", Tier::Medium),
    ("GET", "/v1/webhooks/{id}/addresses", Tier::Medium),
    ("GET", "/v1/avax/supply", Tier::Free),
    ("POST", "/v1/signatureAggregator/{network}/aggregateSignatures", Tier::Medium),
    ("GET", "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/balances:getNative", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/balances:listErc20", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/balances:listErc721", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/balances:listErc1155", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/balances:listCollectibles", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/blocks", Tier::Small),
    ("GET", "/v1/chains/{chainId}/blocks/{blockId}", Tier::Small),
    ("GET", "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/contracts/{address}/deployments", Tier::Medium),
    ("GET", "/v1/chains", Tier::Free),
    ("GET", "/v1/chains/{chainId}", Tier::Free),
    ("GET", "/v1/chains/{chainId}/tokens/{address}/transfers", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/transactions", Tier::Medium),
    ("GET", "/v2/chains/{chainId}/addresses/{address}/transactions", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/transactions:listNative", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/transactions:listErc20", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/transactions:listErc721", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/transactions:listErc1155", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/addresses/{address}/transactions:listInternals", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/transactions/{txHash}", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/blocks/{blockId}/transactions", Tier::Medium),
    ("GET", "/v1/chains/{chainId}/transactions", Tier::Medium),
    ("GET", "/v2/health-check", Tier::Free),
    ("GET", "/v2/live-check", Tier::Free),
    ("GET", "/v2/chains", Tier::Free),
    ("GET", "/v2/chains/{chainId}", Tier::Free),
    ("GET", "/v2/chains/{chainId}/metrics/{metric}", Tier::Small),
    ("GET", "/v2/chains/{chainId}/rollingWindowMetrics/{metric}", Tier::Small),
    ("GET", "/v2/icm/timeseries", Tier::Small),
    ("GET", "/v2/icm/summary", Tier::Small),
    ("GET", "/v2/networks/{network}/metrics/{metric}", Tier::Small),
    ("GET", "/v2/chains/43114/btcb/bridged:getAddresses", Tier::Large),
    ("GET", "/v2/subnets/{subnetId}/validators:getAddresses", Tier::Large),
    ("POST", "/v2/lookingGlass/compositeQuery", Tier::Xxl),
];

/// How well `template` matches `path` (segments, no query): `None` when it does not, else the
/// number of literal characters matched (the more specific template wins).
fn matches(template: &str, path: &str) -> Option<usize> {
    let mut want = template.trim_start_matches('/').split('/');
    let mut have = path.trim_start_matches('/').split('/');
    let mut score = 0;
    loop {
        match (want.next(), have.next()) {
            (None, None) => return Some(score),
            (Some(w), Some(h)) => score += segment(w, h)?,
            _ => return None,
        }
    }
}

/// Matches one segment: a literal, or `prefix{name}suffix` with a non-empty middle.
fn segment(want: &str, have: &str) -> Option<usize> {
    let (Some(open), Some(close)) = (want.find('{'), want.find('}')) else {
        return (want == have).then_some(want.len());
    };
    let (prefix, suffix) = (&want[..open], &want[close + 1..]);
    let fits = have.len() > prefix.len() + suffix.len() && have.starts_with(prefix) && have.ends_with(suffix);
    fits.then_some(prefix.len() + suffix.len())
}

/// The compute units of `method path` (path relative to the service root, query ignored): the
/// documented weight of the most specific operation that matches, else [`DEFAULT_WEIGHT`].
pub fn weight(method: &str, path: &str) -> u32 {
    let path = path.split(['?', '#']).next().unwrap_or(path);
    OPERATION_WEIGHTS
        .iter()
        .filter(|(m, _, _)| m.eq_ignore_ascii_case(method))
        .filter_map(|(_, template, tier)| matches(template, path).map(|score| (score, tier.units())))
        .max_by_key(|(score, _)| *score)
        .map_or(DEFAULT_WEIGHT, |(_, units)| units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_weights_of_the_operations_this_package_calls() {
        assert_eq!(weight("GET", "/v1/chains"), 1);
        assert_eq!(weight("GET", "/v1/chains/43114"), 1);
        assert_eq!(weight("GET", "/v1/chains/43114/blocks"), 10);
        assert_eq!(weight("GET", "/v1/chains/43114/blocks/0xabc"), 10);
        assert_eq!(weight("GET", "/v1/chains/43114/addresses/0xab/balances:listCollectibles"), 20);
        assert_eq!(weight("GET", "/v1/networks/mainnet/rewards:listPending"), 100);
        assert_eq!(weight("GET", "/v1/networks/mainnet/rewards"), 100);
        assert_eq!(weight("GET", "/v1/networks/mainnet/blockchains/x-chain/vertices"), 20);
        assert_eq!(weight("GET", "/v1/icm/messages"), 20);
        assert_eq!(weight("GET", "/v1/apiLogs"), 200);
        assert_eq!(weight("GET", "/v2/chains/43114/metrics/txCount"), 10);
        assert_eq!(weight("GET", "/v2/chains"), 1);
        assert_eq!(weight("GET", "/v2/subnets/abc/validators:getAddresses"), 50);
        assert_eq!(weight("POST", "/v2/lookingGlass/compositeQuery"), 200);
    }

    #[test]
    fn the_most_specific_template_wins() {
        // `transactions:listStaking` (xl) vs the plain `transactions` list (xl): same class, but
        // the literal suffix must not be taken for a `{txHash}` (medium).
        let base = "/v1/networks/mainnet/blockchains/p-chain/transactions";
        assert_eq!(weight("GET", &format!("{base}/0xdead")), 20);
        assert_eq!(weight("GET", &format!("{base}:listStaking")), 100);
        // A fixed chain id in the Metrics API beats `{chainId}`.
        assert_eq!(weight("GET", "/v2/chains/43114/btcb/bridged:getAddresses"), 50);
        assert_eq!(weight("POST", "/v1/chains/1/nfts/collections/0xa/tokens/7:reindex"), 10);
        assert_eq!(weight("GET", "/v1/chains/1/nfts/collections/0xa/tokens/7"), 20);
    }

    #[test]
    fn unknown_operations_cost_the_default() {
        assert_eq!(weight("GET", "/v1/health-check"), DEFAULT_WEIGHT);
        assert_eq!(weight("POST", "/ext/index/X/tx"), DEFAULT_WEIGHT);
        assert_eq!(weight("DELETE", "/v1/chains"), DEFAULT_WEIGHT);
        assert_eq!(weight("GET", "/v1/chains/43114/blocks/a/b/c"), DEFAULT_WEIGHT);
        assert_eq!(weight("GET", "/v1/chains//blocks"), DEFAULT_WEIGHT);
    }

    #[test]
    fn no_path_matches_two_templates_of_equal_specificity_with_different_weights() {
        // Instantiate every template with a placeholder value and check that it resolves to its
        // own weight (an ambiguity would make one of them lose).
        for (method, template, tier) in OPERATION_WEIGHTS {
            let path: String = template
                .split('/')
                .map(|seg| match (seg.find('{'), seg.find('}')) {
                    (Some(open), Some(close)) => format!("{}zz{}", &seg[..open], &seg[close + 1..]),
                    _ => seg.to_string(),
                })
                .collect::<Vec<_>>()
                .join("/");
            assert_eq!(weight(method, &path), tier.units(), "{method} {template}");
        }
        assert!(OPERATION_WEIGHTS.iter().all(|(_, _, t)| t.units() <= MAX_WEIGHT));
    }
}
