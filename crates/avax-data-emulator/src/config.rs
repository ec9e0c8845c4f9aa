//! How an emulator starts: [`EmulatorConfig`].

use std::collections::HashMap;
use std::time::Duration;

use avax_data_core::index::IndexPath;

use super::data_api::RateLimit;
use super::defaults;
use super::faults::FaultPlan;

/// How an [`Emulator`] starts. `Default` takes the table in [`crate::defaults`] (seed 0, 10,000
/// containers per path, 10,000 Data API blocks per chain, a static tip, no added latency) with the
/// index enabled, `127.0.0.1` on any free port, timestamps in UTC, keys optional, no refused key, no
/// rate limit and no faults.
#[derive(Debug, Clone)]
pub struct EmulatorConfig {
    /// Seed of the synthetic world: same seed, same containers.
    pub seed: u64,
    /// Initial number of containers per path; a path not listed gets `default_count`.
    pub containers: HashMap<IndexPath, u64>,
    /// Initial number of containers of the paths not in `containers`.
    pub default_count: u64,
    /// Containers per second added to every path while running (0 = static tip).
    pub tip_rate: f64,
    /// `false`: every `/ext/index/*` path answers HTTP 404, as a node started without
    /// `--index-enabled`.
    pub index_enabled: bool,
    /// Added before every response.
    pub latency: Duration,
    /// Interface to bind.
    pub host: String,
    /// Port to bind; 0 picks a free one.
    pub port: u16,
    /// Offset (minutes east of UTC) the node formats timestamps in; 0 writes `Z`.
    pub utc_offset_minutes: i32,
    /// Data API: blocks per EVM chain (numbers `0..data_blocks_per_chain`; also the number of
    /// X-chain vertices per network). At least 1.
    pub data_blocks_per_chain: u64,
    /// Data API: answer 401 to requests without an API key (`x-glacier-api-key` or
    /// `x-data-api-key`).
    pub data_api_require_key: bool,
    /// Data API: keys answered with 403.
    pub data_api_refused_keys: Vec<String>,
    /// Data API: requests per window allowed per API key (unkeyed requests are not limited);
    /// `None` = no limit and no `ratelimit-*` headers.
    pub rate_limit: Option<RateLimit>,
    /// Faults to inject: a rate per kind, the seed of the decisions, sizes and timings.
    pub faults: FaultPlan,
}

impl Default for EmulatorConfig {
    fn default() -> Self {
        EmulatorConfig {
            seed: defaults::SEED,
            containers: HashMap::new(),
            default_count: defaults::CONTAINERS,
            tip_rate: defaults::TIP_RATE,
            index_enabled: true,
            latency: Duration::from_secs_f64(defaults::LATENCY_S),
            host: "127.0.0.1".to_string(),
            port: 0,
            utc_offset_minutes: 0,
            data_blocks_per_chain: defaults::DATA_BLOCKS_PER_CHAIN,
            data_api_require_key: false,
            data_api_refused_keys: Vec::new(),
            rate_limit: None,
            faults: FaultPlan::default(),
        }
    }
}
