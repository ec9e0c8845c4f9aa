//! The kinds of cache entries; each kind has its own subdirectory of the cache.

crate::named_enum! {
    /// What an entry holds; each kind has its own subdirectory.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Kind {
        /// An accepted container of a node's index.
        Index => "index",
        /// A closed bucket of a Metrics API series.
        Metrics => "metrics",
        /// An immutable object of the Data API.
        Data => "data",
    }
    /// Every kind, in the order reports list them.
    ALL;
    /// The kind's subdirectory name (and its name in reports).
    fn name;
}

/// The subdirectory of the plan hints ([`super::hints`]): not an entry kind (`cache info` does
/// not count them); `cache clear` deletes it with the kinds.
pub const HINTS_DIR: &str = "hints";
