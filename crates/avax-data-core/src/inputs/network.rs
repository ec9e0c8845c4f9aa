//! The `network` of the Data and Metrics APIs: one of three names, exactly as written.

use crate::error::{Error, Result};

/// Networks the hosted services take (`testnet` is Fuji).
pub const NETWORKS: &[&str] = &["mainnet", "fuji", "testnet"];

/// A `network` value, checked: one of [`NETWORKS`] (case-sensitive, as the services are).
///
/// ```
/// use avax_data_core::inputs::network;
/// assert_eq!(network("fuji").unwrap(), "fuji");
/// assert_eq!(network("Fuji").unwrap_err().to_string(), "invalid network=\"Fuji\": one of mainnet, fuji, testnet");
/// ```
pub fn network(value: &str) -> Result<String> {
    if NETWORKS.contains(&value) {
        Ok(value.to_string())
    } else {
        Err(Error::invalid_text("network", value, format!("one of {}", NETWORKS.join(", "))))
    }
}
