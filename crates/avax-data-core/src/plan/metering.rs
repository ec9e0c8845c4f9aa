//! Which services charge compute units. The hosted Data and Metrics APIs always do. A node's
//! Index RPC does only at a hosted endpoint this table knows: Avalanche's public API servers,
//! which count calls against the same tiers. Any other node (your own, one behind your balancer,
//! the emulator) is unmetered: its plan prices no compute units and warns of no budget.

/// The hosts whose Index RPC is metered in compute units (the public API servers of mainnet and
/// Fuji, the package's default node URL among them).
pub const METERED_NODE_HOSTS: [&str; 2] = ["api.avax.network", "api.avax-test.network"];

/// Whether the Index RPC at `url` charges compute units: its host is one of
/// [`METERED_NODE_HOSTS`] (any scheme, port or path; a URL that does not parse is a node of
/// yours).
///
/// ```
/// use avax_data_core::plan::metering::node_is_metered;
/// assert!(node_is_metered("https://api.avax.network"));
/// assert!(node_is_metered("https://API.avax-test.network/ext/index"));
/// assert!(!node_is_metered("http://127.0.0.1:9650"));
/// assert!(!node_is_metered("https://api.avax.network.example.com"));
/// ```
pub fn node_is_metered(url: &str) -> bool {
    host_of(url).is_some_and(|host| METERED_NODE_HOSTS.iter().any(|m| host.eq_ignore_ascii_case(m)))
}

/// Whether `url` is one of the hosted services (a host under `avax.network`: the Data API, the
/// Metrics API, the public API servers), where an unbounded list walk reads a whole chain's
/// history against the tier's budget. The emulator and any other host are not.
///
/// ```
/// use avax_data_core::plan::metering::is_hosted_service;
/// assert!(is_hosted_service("https://data-api.avax.network"));
/// assert!(is_hosted_service("https://metrics.avax.network/v2"));
/// assert!(!is_hosted_service("http://127.0.0.1:9650"));
/// assert!(!is_hosted_service("https://notavax.network"));
/// ```
pub fn is_hosted_service(url: &str) -> bool {
    host_of(url).is_some_and(|host| {
        let host = host.to_ascii_lowercase();
        host == "avax.network" || host.ends_with(".avax.network")
    })
}

/// The host of `url`, if it parses.
fn host_of(url: &str) -> Option<String> {
    url::Url::parse(url).ok()?.host_str().map(str::to_string)
}
