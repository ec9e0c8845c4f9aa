//! The kinds of cache entries; each kind has its own subdirectory of the cache.

/// What an entry holds; each kind has its own subdirectory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An accepted container of a node's index.
    Index,
    /// A closed bucket of a Metrics API series.
    Metrics,
    /// An immutable object of the Data API.
    Data,
}

impl Kind {
    /// Every kind, in the order reports list them.
    pub const ALL: [Kind; 3] = [Kind::Index, Kind::Metrics, Kind::Data];

    /// The kind's subdirectory name (and its name in reports).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Index => "index",
            Kind::Metrics => "metrics",
            Kind::Data => "data",
        }
    }
}

/// The subdirectory of the plan hints ([`super::hints`]): not an entry kind (`cache info` does
/// not count them); `cache clear` deletes it with the kinds.
pub const HINTS_DIR: &str = "hints";
