//! The one table of the emulator's defaults. [`crate::EmulatorConfig::default`], the Python
//! `ad.Emulator()`, the CLI's `--emulator` and the pytest plugin all read it (the bindings expose
//! it as `_native.emulator_defaults()`), so an emulator started any of those ways without
//! arguments serves the same world.

/// Seed of the synthetic world.
pub const SEED: u64 = 0;
/// Containers per index path at start.
pub const CONTAINERS: u64 = 10_000;
/// Data API blocks per EVM chain (also the X-chain vertices per network). Equal to
/// [`CONTAINERS`], so the `C/block` index and the Data API's C-Chain hold the same blocks.
pub const DATA_BLOCKS_PER_CHAIN: u64 = 10_000;
/// Containers per second added to every path while running.
pub const TIP_RATE: f64 = 0.0;
/// Seconds added before every response.
pub const LATENCY_S: f64 = 0.0;
/// Seed of the fault decisions.
pub const FAULT_SEED: u64 = 0;

/// The table as `(name, value)` pairs, names as the Python keyword arguments spell them.
pub fn table() -> [(&'static str, f64); 6] {
    [
        ("seed", SEED as f64),
        ("containers", CONTAINERS as f64),
        ("data_blocks_per_chain", DATA_BLOCKS_PER_CHAIN as f64),
        ("tip_rate", TIP_RATE),
        ("latency", LATENCY_S),
        ("fault_seed", FAULT_SEED as f64),
    ]
}
