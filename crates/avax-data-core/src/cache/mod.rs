//! An opt-in on-disk cache of what cannot change: accepted index containers (see
//! [`containers`] and [`lookups`]), Data API point lookups of final objects ([`objects`]) and
//! closed buckets of Metrics API series ([`series`]). Entries are checked on every read (their own sha256, then the rules the
//! clients apply to what a server sends); a damaged entry is deleted and fetched again, never
//! returned. Bounded in size with least-recently-used eviction; safe for several processes on
//! one directory.
//!
//! The rule of which directory is used lives here ([`CacheChoice::resolve`]): a directory given
//! explicitly, otherwise `$AVAX_DATA_CACHE` when it is set and not empty, otherwise no cache;
//! an explicit "off" ignores the environment.

pub mod containers;
pub mod entry;
pub mod held;
pub mod hints;
pub mod kind;
pub mod layout;
pub mod lookups;
pub mod lru;
pub mod objects;
pub mod series;
pub mod service;
pub mod store;

use std::path::PathBuf;
use std::sync::Arc;

pub use kind::Kind;
pub use lru::{clear, info, Info, KindInfo};
pub use store::Store;

use crate::error::Result;

/// The environment variable naming the cache directory when a client is not told.
pub const CACHE_ENV: &str = "AVAX_DATA_CACHE";

/// The default size bound: 1 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// What a client was told about its cache.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum CacheChoice {
    /// Nothing said: `$AVAX_DATA_CACHE` if set (and not empty), else no cache.
    #[default]
    FromEnv,
    /// No cache, whatever the environment says.
    Off,
    /// This directory.
    Dir(PathBuf),
}

impl CacheChoice {
    /// The directory in force, if any.
    pub fn dir(&self) -> Option<PathBuf> {
        match self {
            CacheChoice::Off => None,
            CacheChoice::Dir(dir) => Some(dir.clone()),
            CacheChoice::FromEnv => std::env::var_os(CACHE_ENV).filter(|v| !v.is_empty()).map(PathBuf::from),
        }
    }

    /// Opens the cache in force with the bound `max_bytes` (`None`: [`DEFAULT_MAX_BYTES`]);
    /// `None` when there is no cache.
    pub fn resolve(&self, max_bytes: Option<u64>) -> Result<Option<Arc<Store>>> {
        match self.dir() {
            None => Ok(None),
            Some(dir) => Ok(Some(Arc::new(Store::open(&dir, max_bytes.unwrap_or(DEFAULT_MAX_BYTES))?))),
        }
    }
}

#[cfg(test)]
mod held_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod tests;
