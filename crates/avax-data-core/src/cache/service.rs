//! The name of a Data API or Metrics API service in the cache's keys: its base URL with secrets
//! redacted and a digest of the URL as given ([`crate::transport::redact::keyed_url`]: two URLs
//! that differ only in a key are two services, and the key never reaches the disk), then the
//! emulator's world when an answer of the emulator named it (`x-avax-emulator-world-id`), so an
//! emulator restarted on the same port with another seed sees none of the former world's
//! entries. The real services send no world: they are keyed by their base URL alone.
//!
//! A client learns the world from its first answer: until then it reads and writes entries
//! under the name without a world, which an emulator's entries never have (they are stored
//! under the world their answer named), so an emulator's first lookup through a new client is
//! always asked for.

use crate::rest::RestClient;

/// The service name of `cache_name` in the world `world`.
pub fn service_name(cache_name: &str, world: Option<&str>) -> String {
    match world {
        Some(world) => format!("{cache_name}@world={world}"),
        None => cache_name.to_string(),
    }
}

/// The service name of `client` as of its last answer.
pub fn of(client: &RestClient) -> String {
    service_name(&client.cache_name(), client.emulator_world_id().as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_world_makes_another_service_and_a_secret_never_shows() {
        let name = crate::transport::redact::keyed_url("https://h/ext/bc/C/rpc/s3cr3t-token");
        assert_eq!(service_name(&name, None), name);
        assert_ne!(service_name(&name, Some("seed1-blocks500")), service_name(&name, Some("seed2-blocks500")));
        assert!(service_name(&name, Some("seed1-blocks500")).ends_with("@world=seed1-blocks500"));
        assert!(!service_name(&name, Some("w")).contains("s3cr3t"));
    }
}
