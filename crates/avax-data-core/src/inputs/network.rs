//! The `network` of the Data and Metrics APIs: one of three names, exactly as written.

use crate::error::Result;

/// Networks the hosted services take (`testnet` is Fuji).
pub const NETWORKS: &[&str] = &["mainnet", "fuji", "testnet"];

/// A `network` value, checked: one of [`NETWORKS`] (case-sensitive, as the services are).
///
/// ```
/// use avax_data_core::inputs::network;
/// assert_eq!(network("fuji").unwrap(), "fuji");
/// assert_eq!(network("devnet").unwrap_err().to_string(), "invalid network=\"devnet\": one of mainnet, fuji, testnet");
/// assert_eq!(
///     network("Fuji").unwrap_err().to_string(),
///     "invalid network=\"Fuji\": one of mainnet, fuji, testnet (did you mean 'fuji'?)"
/// );
/// ```
pub fn network(value: &str) -> Result<String> {
    super::choice::one_of("network", value, NETWORKS)
}
