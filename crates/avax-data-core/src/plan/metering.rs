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
/// Metrics API, the public API servers; and Fuji's public API server, a [`METERED_NODE_HOSTS`]
/// host under `avax-test.network`), where an unbounded list walk reads a whole chain's history
/// against the tier's budget. The emulator and any other host are not.
///
/// ```
/// use avax_data_core::plan::metering::is_hosted_service;
/// assert!(is_hosted_service("https://data-api.avax.network"));
/// assert!(is_hosted_service("https://metrics.avax.network/v2"));
/// assert!(is_hosted_service("https://api.avax-test.network"));
/// assert!(!is_hosted_service("http://127.0.0.1:9650"));
/// assert!(!is_hosted_service("https://notavax.network"));
/// ```
pub fn is_hosted_service(url: &str) -> bool {
    host_of(url).is_some_and(|host| {
        let host = host.to_ascii_lowercase();
        host == "avax.network" || host.ends_with(".avax.network") || METERED_NODE_HOSTS.contains(&host.as_str())
    })
}

/// The host of `url`, if it parses.
fn host_of(url: &str) -> Option<String> {
    url::Url::parse(url).ok()?.host_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::openapi::Service;

    /// The table against its sources (docs/guides/plan.md, "Which hosts are metered"): the
    /// documents' servers are hosted services (metered whatever the URL, as every Data and
    /// Metrics call is), the default node URL is a metered node, and the documents' hosts are
    /// no node of the table (they serve no Index RPC).
    #[test]
    fn the_table_agrees_with_the_documents_servers_and_the_default_node() {
        for service in [Service::Data, Service::Metrics] {
            let servers = service.document()["servers"].as_array().expect("the document names its servers");
            for server in servers {
                let url = server["url"].as_str().unwrap();
                assert!(is_hosted_service(url), "{url}");
                assert!(!node_is_metered(url), "{url} serves no Index RPC");
            }
        }
        assert!(node_is_metered(crate::settings::DEFAULT_NODE_URL));
        for host in METERED_NODE_HOSTS {
            assert!(is_hosted_service(&format!("https://{host}")), "{host}");
        }
    }
}
