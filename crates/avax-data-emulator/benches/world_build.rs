//! What the default world costs: building it (the Data API's world of the default size, as an
//! emulator does at start), and a year of daily points of every metric of every chain, in
//! process (no HTTP). Each figure is the median of `--runs` runs (a fresh seed each, so no cache
//! of an earlier run helps).
//!
//! ```sh
//! cargo bench -p avax-data-emulator --bench world_build -- --runs 5
//! ```
//! Prints one JSON line.

use std::time::Instant;

use avax_data_emulator::defaults;
use avax_data_emulator::metrics_api::{metric_series_in, ChainSelector, Interval, Metric};
use avax_data_emulator::world::WORLD_NOW_MS;
use avax_data_emulator::DataWorld;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map_or(default, |v| v.parse().expect("a number"))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runs = arg("--runs", 5).max(1);
    let now = WORLD_NOW_MS / 1000;
    let (mut build, mut history, mut points) = (Vec::new(), Vec::new(), 0usize);
    for run in 0..runs {
        let t = Instant::now();
        let world = DataWorld::new(1_000 + run, defaults::DATA_BLOCKS_PER_CHAIN);
        build.push(t.elapsed().as_secs_f64());
        // The history only: every metric of every chain over the year before the blocks.
        let before = (Some(now - 367 * 86_400), Some(now - 2 * 86_400));
        let t = Instant::now();
        points = 0;
        for c in world.chains() {
            for m in Metric::ALL {
                let s = metric_series_in(&world, ChainSelector::Chain(c.evm_chain_id), m, Interval::Day, before)
                    .expect("a day series");
                points += s.len();
            }
        }
        history.push(t.elapsed().as_secs_f64());
    }
    println!(
        "{{\"build_default_world_s\": {:.4}, \"year_of_daily_points_every_metric_every_chain_s\": {:.4}, \"points\": {points}, \"runs\": {runs}}}",
        median(build),
        median(history)
    );
}
