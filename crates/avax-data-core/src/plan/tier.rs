//! The Data API's subscription tiers and their published compute-unit limits (Avalanche builder
//! docs, "Data API: Rate Limits": <https://build.avax.network/docs/api-reference/data-api/rate-limits>).

use crate::error::{Error, Result};
use crate::named_enum;

/// The environment variable read when no `tier=` is given.
pub const TIER_ENV: &str = "AVAX_DATA_TIER";

/// The tier names as accepted (case-insensitive) and shown.
pub const TIER_NAMES: &str = "one of unauthenticated, free, base, growth, pro";

named_enum! {
    /// A subscription tier of the hosted Data and Metrics APIs.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum ServiceTier {
        /// No API key.
        Unauthenticated => "unauthenticated",
        /// The free plan (the default with an API key).
        Free => "free",
        /// The Base plan.
        Base => "base",
        /// The Growth plan.
        Growth => "growth",
        /// The Pro plan.
        Pro => "pro",
    }
    /// Every tier, cheapest first.
    ALL;
    /// The tier's name, lower case.
    fn name;
}

impl ServiceTier {
    /// Compute units allowed per minute (published figure).
    pub const fn units_per_minute(self) -> u64 {
        match self {
            ServiceTier::Unauthenticated => 6_000,
            ServiceTier::Free => 8_000,
            ServiceTier::Base => 10_000,
            ServiceTier::Growth => 14_000,
            ServiceTier::Pro => 20_000,
        }
    }

    /// Compute units allowed per day (published figure).
    pub const fn units_per_day(self) -> u64 {
        match self {
            ServiceTier::Unauthenticated => 1_200_000,
            ServiceTier::Free => 2_000_000,
            ServiceTier::Base => 3_750_000,
            ServiceTier::Growth => 11_200_000,
            ServiceTier::Pro => 25_000_000,
        }
    }

    /// Parses a tier name (case-insensitive, surrounding blanks ignored); `parameter` names the
    /// option in the error.
    pub fn parse(text: &str, parameter: &str) -> Result<Self> {
        let wanted = text.trim();
        ServiceTier::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| Error::invalid_text(parameter, text, TIER_NAMES))
    }

    /// The tier given, else `$AVAX_DATA_TIER` when set and not blank (`None` otherwise: the
    /// default depends on the API key, [`ServiceTier::resolve`]).
    pub fn given_or_env(given: Option<&str>) -> Result<Option<Self>> {
        match given {
            Some(text) => ServiceTier::parse(text, "tier").map(Some),
            None => match std::env::var(TIER_ENV) {
                Ok(text) if !text.trim().is_empty() => ServiceTier::parse(&text, TIER_ENV).map(Some),
                _ => Ok(None),
            },
        }
    }

    /// The tier in force: the one chosen, else `free` with an API key and `unauthenticated`
    /// without.
    pub fn resolve(chosen: Option<ServiceTier>, has_api_key: bool) -> ServiceTier {
        chosen.unwrap_or(if has_api_key { ServiceTier::Free } else { ServiceTier::Unauthenticated })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_limits() {
        let figures: Vec<_> =
            ServiceTier::ALL.iter().map(|t| (t.name(), t.units_per_minute(), t.units_per_day())).collect();
        assert_eq!(
            figures,
            [
                ("unauthenticated", 6_000, 1_200_000),
                ("free", 8_000, 2_000_000),
                ("base", 10_000, 3_750_000),
                ("growth", 14_000, 11_200_000),
                ("pro", 20_000, 25_000_000),
            ]
        );
    }

    #[test]
    fn parsing_is_case_insensitive_and_names_the_allowed_values() {
        assert_eq!(ServiceTier::parse(" GrOwTh ", "tier").unwrap(), ServiceTier::Growth);
        let err = ServiceTier::parse("enterprise", "tier").unwrap_err().to_string();
        assert!(err.contains("tier") && err.contains("enterprise") && err.contains(TIER_NAMES), "{err}");
        assert!(ServiceTier::parse("", "tier").is_err());
    }

    #[test]
    fn default_depends_on_the_key() {
        assert_eq!(ServiceTier::resolve(None, false), ServiceTier::Unauthenticated);
        assert_eq!(ServiceTier::resolve(None, true), ServiceTier::Free);
        assert_eq!(ServiceTier::resolve(Some(ServiceTier::Pro), false), ServiceTier::Pro);
    }
}
