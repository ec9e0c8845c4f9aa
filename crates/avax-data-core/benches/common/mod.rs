//! What the decode benches share: the process's CPU time, and contenders run in alternated
//! rounds.

/// CPU seconds this process has used (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`: on a shared
/// machine the wall time counts the other processes too).
pub fn cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The median of `v` (the upper one of an even count).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs each of `runs` once a round for `rounds` rounds, the order reversed every other round
/// (so neither end always runs on a warm or a cold cache), and gives each one's median CPU
/// seconds.
pub fn alternate(runs: &[&dyn Fn()], rounds: usize) -> Vec<f64> {
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); runs.len()];
    for r in 0..rounds {
        let order: Vec<usize> = if r % 2 == 0 { (0..runs.len()).collect() } else { (0..runs.len()).rev().collect() };
        for k in order {
            let start = cpu_seconds();
            (runs[k])();
            times[k].push(cpu_seconds() - start);
        }
    }
    times.into_iter().map(median).collect()
}
