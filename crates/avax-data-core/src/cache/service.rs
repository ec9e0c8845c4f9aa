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
//! always asked for. A service on a loopback host that names no world is not cached at all
//! ([`of`]).

use crate::rest::RestClient;

/// The service name of `cache_name` in the world `world`.
pub fn service_name(cache_name: &str, world: Option<&str>) -> String {
    match world {
        Some(world) => format!("{cache_name}@world={world}"),
        None => cache_name.to_string(),
    }
}

/// The service name of `client` as of its last answer; `None` for a service on a loopback host
/// that named no world (yet): a local test server (the emulator behind a proxy that strips its
/// world header, say) may serve another world under the same URL at any time, so its answers
/// are neither read from the cache nor stored.
pub fn of(client: &RestClient) -> Option<String> {
    let world = client.emulator_world_id();
    if world.is_none() && on_loopback(client.base_url()) {
        return None;
    }
    Some(service_name(&client.cache_name(), world.as_deref()))
}

/// Whether `url`'s host is a loopback one (`localhost`, `127.0.0.0/8`, `[::1]`).
pub fn on_loopback(url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url) else { return false };
    match parsed.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_told_apart_from_others() {
        for url in ["http://127.0.0.1:9650", "http://localhost:1/x", "http://[::1]:80", "http://127.1.2.3"] {
            assert!(on_loopback(url), "{url}");
        }
        for url in ["https://glacier-api.avax.network", "http://10.0.0.1", "http://localhost.example.com", "x"] {
            assert!(!on_loopback(url), "{url}");
        }
    }

    #[test]
    fn a_world_makes_another_service_and_a_secret_never_shows() {
        let name = crate::transport::redact::keyed_url("https://h/ext/bc/C/rpc/s3cr3t-token");
        assert_eq!(service_name(&name, None), name);
        assert_ne!(service_name(&name, Some("seed1-blocks500")), service_name(&name, Some("seed2-blocks500")));
        assert!(service_name(&name, Some("seed1-blocks500")).ends_with("@world=seed1-blocks500"));
        assert!(!service_name(&name, Some("w")).contains("s3cr3t"));
    }
}
