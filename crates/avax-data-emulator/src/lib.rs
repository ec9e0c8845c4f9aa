//! An offline, in-process emulator of the services avax-data talks to, served on a loopback port.
//!
//! It serves a node's **Index RPC** (`/ext/index/...`, `index_rpc.rs`): the containers of a
//! deterministic synthetic world ([`world`], encoded by [`formats`]) answered with the node's exact HTTP and JSON-RPC behaviour, edge
//! cases and error messages included. The Data API (`/v1`) and Metrics API (`/v2`) slot into the
//! router (`router()` in this file) next to it, sharing the middleware in `layers.rs` (request
//! counting and log, added latency) and `fault_layer.rs` (seeded fault injection, planned in
//! [`faults`]), and the state in `state.rs`. The emulator listens twice (a second port on the same
//! host serves the same state), so a redirect fault can point to another origin. Every other GET
//! operation of the two services' OpenAPI documents is served by `openapi/` (routes, checks and
//! answers from the documents, world data where the operations overlap the world).
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use avax_data_emulator::{Emulator, EmulatorConfig};
//! let emulator = Emulator::start(EmulatorConfig { seed: 7, ..Default::default() }).await?;
//! println!("node at {}", emulator.url()); // POST {url}/ext/index/C/block
//! emulator.shutdown();
//! # Ok(()) }
//! ```

mod config;
pub mod data_api;
pub mod defaults;
mod fault_bodies;
mod fault_conn;
pub mod fault_layer;
pub mod faults;
pub mod formats;
mod id_index;
mod index_rpc;
mod jsonrpc;
mod layers;
pub mod metrics_api;
mod openapi;
mod raw_json;
mod state;
mod timefmt;
mod wire;
pub mod world;
mod world_summary;

use std::collections::BTreeMap;
use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

use avax_data_core::index::{Container, IndexPath};
use avax_data_core::rest::openapi::Service;

use state::EmulatorState;

pub use config::EmulatorConfig;
pub use data_api::{DataWorld, RateLimit};
pub use faults::{FaultError, FaultKind, FaultOptions, FaultPlan, LoggedRequest};
pub use timefmt::rfc3339_nano;

/// How long [`Emulator::close`] waits for the listeners to close (they close as soon as the
/// server task sees the stop signal; the bound only guards against a runtime that never runs it).
pub const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// The router of all emulated services over one shared state.
fn router(state: Arc<EmulatorState>) -> Router {
    Router::new()
        .merge(index_rpc::routes())
        .merge(data_api::router(state.data.clone(), openapi::add_routes(Router::new(), Service::Data)))
        .merge(metrics_api::router(state.data.clone()))
        .fallback(layers::not_found)
        .layer(axum::middleware::from_fn_with_state(state.clone(), layers::world_span))
        .layer(axum::middleware::from_fn_with_state(state.clone(), fault_layer::inject))
        .layer(axum::middleware::from_fn_with_state(state.clone(), layers::count_and_delay))
        .with_state(state)
}

/// A running emulator. Stops on [`Emulator::shutdown`] or when dropped.
pub struct Emulator {
    state: Arc<EmulatorState>,
    addr: SocketAddr,
    url: String,
    second_url: String,
    stop: Mutex<Option<watch::Sender<bool>>>,
    task: Mutex<Option<JoinHandle<()>>>,
    /// One receiver per listener; each resolves when its listener is dropped.
    listening: Mutex<Vec<oneshot::Receiver<()>>>,
}

impl std::fmt::Debug for Emulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Emulator").field("url", &self.url).field("seed", &self.state.seed).finish()
    }
}

impl Emulator {
    /// Binds `config.host:config.port`, spawns the server on the current tokio runtime and
    /// returns once it is listening.
    pub async fn start(config: EmulatorConfig) -> std::io::Result<Emulator> {
        let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port)).await?;
        let addr = listener.local_addr()?;
        // The second origin: the same host, another free port.
        let second = tokio::net::TcpListener::bind((addr.ip(), 0)).await?;
        let url = base_url(addr);
        let second_url = base_url(second.local_addr()?);
        let state = Arc::new(EmulatorState::new(&config));
        let _ = state.faults.origins.set([url.clone(), second_url.clone()]);
        let app = router(state.clone()).into_make_service_with_connect_info::<fault_conn::Conn>();
        let (stop_tx, stop_rx) = watch::channel(false);
        let serve = |listener, rx: watch::Receiver<bool>| {
            let shutdown = async move {
                let mut rx = rx;
                let _ = rx.wait_for(|stop| *stop).await;
            };
            axum::serve(listener, app.clone()).with_graceful_shutdown(shutdown)
        };
        let (first_open, first_gone) = oneshot::channel();
        let (other_open, other_gone) = oneshot::channel();
        let first = serve(fault_conn::KillableListener::new(listener, 0, first_open), stop_rx.clone());
        let other = serve(fault_conn::KillableListener::new(second, 1, other_open), stop_rx);
        let task = tokio::spawn(async move {
            let (a, b) = tokio::join!(first.into_future(), other.into_future());
            if let Err(e) = a.and(b) {
                eprintln!("avax-data emulator on {addr} stopped: {e}");
            }
        });
        Ok(Emulator {
            state,
            addr,
            url,
            second_url,
            stop: Mutex::new(Some(stop_tx)),
            task: Mutex::new(Some(task)),
            listening: Mutex::new(vec![first_gone, other_gone]),
        })
    }

    /// Base URL, e.g. `http://127.0.0.1:PORT` (no trailing slash).
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// What the Data and Metrics API world spans, Unix ms: from the earliest first block of any
    /// chain to the world's fixed "now", 2026-01-01T00:00:00Z. Windows outside hold no data.
    pub fn world_span_ms(&self) -> (i64, i64) {
        self.state.data.world.span_ms()
    }

    /// What the world holds, as one JSON object: its now and span, each index path's containers
    /// (now) with the times of the first and last, each EVM chain's launch, blocks and block
    /// times, and named addresses, tokens, validators, P-addresses and subnets to use in
    /// examples and tests.
    pub fn world_summary(&self) -> serde_json::Value {
        let counts: Vec<(IndexPath, u64)> = IndexPath::ALL.iter().map(|&p| (p, self.container_count(p))).collect();
        world_summary::summary(self.state.source(), &self.state.data.world, &counts)
    }

    /// Base URL of the second listener (same host, another port): the other origin that
    /// `redirect_cross_origin` faults point to. It serves the same services and state.
    pub fn second_url(&self) -> String {
        self.second_url.clone()
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Containers accepted so far on `path`: initial + advanced + floor(tip_rate * seconds running).
    pub fn container_count(&self, path: IndexPath) -> u64 {
        self.state.container_count(path)
    }

    /// Accepts `n` more containers on `path` now; returns the new count.
    pub fn advance(&self, path: IndexPath, n: u64) -> u64 {
        self.state.advance(path, n)
    }

    /// Switches the index API on or off (off: every `/ext/index/*` path answers 404).
    pub fn set_index_enabled(&self, enabled: bool) {
        self.state.set_index_enabled(enabled);
    }

    /// Sets the latency added before every response.
    pub fn set_latency(&self, latency: Duration) {
        self.state.set_latency(latency);
    }

    /// The container the emulator serves at `index` of `path` and its timestamp text exactly as
    /// served; `None` past the tip.
    pub fn expected_container(&self, path: IndexPath, index: u64) -> Option<(Container, String)> {
        (index < self.container_count(path))
            .then(|| formats::container_in(self.state.source(), path, index, self.state.utc_offset_minutes))
    }

    /// Moves the emulator clock forward by `by` (the clock page tokens expire on: 24 h after issue).
    pub fn advance_clock(&self, by: Duration) {
        self.state.data.advance_clock(by);
    }

    /// The Data API's world (chains, blocks, transactions, NFTs, rewards, vertices, ICM messages)
    /// exactly as served.
    pub fn data_world(&self) -> &DataWorld {
        &self.state.data.world
    }

    /// Replaces the Data API rate-limit policy (per API key) and restarts every key's window;
    /// `None` lifts the limit.
    pub fn set_rate_limit(&self, policy: Option<RateLimit>) {
        self.state.data.set_rate_limit(policy);
    }

    /// Enforces a tier's compute-unit budget on the Data API (`units_per_minute`, e.g. 20,000 for
    /// the pro tier, 6,000 unauthenticated: [`avax_data_core::plan::ServiceTier`]), each request
    /// charged its operation's weight per API key ([`data_api::budget`]); `None` lifts it. Restarts
    /// the counts of [`Emulator::compute_budget_use`].
    pub fn set_compute_budget(&self, units_per_minute: Option<u32>) {
        self.state.data.set_compute_budget(units_per_minute);
    }

    /// The compute-unit budget in force, the units spent under it and the requests it refused.
    pub fn compute_budget_use(&self) -> data_api::BudgetUse {
        self.state.data.compute_budget_use()
    }

    /// Whether Data API requests without a key get 401.
    pub fn set_data_api_require_key(&self, require: bool) {
        self.state.data.set_require_key(require);
    }

    /// Replaces the Data API keys answered with 403.
    pub fn set_data_api_refused_keys(&self, keys: &[String]) {
        self.state.data.set_refused_keys(keys);
    }

    /// Requests received so far (every path, every outcome).
    pub fn request_count(&self) -> u64 {
        self.state.request_count()
    }

    /// Replaces the fault plan; the per-request decisions restart from request 0 of its seed.
    /// Counters and the request log are kept.
    pub fn set_faults(&self, plan: FaultPlan) {
        self.state.faults.set_plan(plan);
    }

    /// The fault plan in force.
    pub fn faults(&self) -> FaultPlan {
        self.state.faults.plan()
    }

    /// Faults injected so far, by kind (kinds never injected are absent).
    pub fn fault_counts(&self) -> BTreeMap<FaultKind, u64> {
        let mut totals = BTreeMap::new();
        for ((kind, _), n) in self.state.faults.counts_by_path() {
            *totals.entry(kind).or_insert(0) += n;
        }
        totals
    }

    /// Faults injected so far, by kind and URL path.
    pub fn fault_counts_by_path(&self) -> BTreeMap<(FaultKind, String), u64> {
        self.state.faults.counts_by_path()
    }

    /// Every request received (at most the last [`faults::REQUEST_LOG_CAPACITY`]), oldest first:
    /// seconds since start, method, path, status answered.
    pub fn request_log(&self) -> Vec<LoggedRequest> {
        self.state.faults.request_log()
    }

    /// Stops accepting connections and lets in-flight requests finish. Idempotent; also done on
    /// drop. Returns at once: use [`Emulator::stop`] to wait until the server is gone.
    pub fn shutdown(&self) {
        if let Some(stop) = self.stop.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = stop.send(true);
        }
    }

    /// [`Emulator::shutdown`], then waits (at most [`CLOSE_WAIT`]) until both listeners are
    /// closed: from then on a request to either URL fails to connect, while requests already
    /// in flight still finish. Idempotent.
    pub async fn close(&self) {
        self.shutdown();
        let listeners = std::mem::take(&mut *self.listening.lock().unwrap_or_else(|e| e.into_inner()));
        let gone = futures::future::join_all(listeners);
        let _ = tokio::time::timeout(CLOSE_WAIT, gone).await;
    }

    /// [`Emulator::shutdown`], then waits until the server task has ended.
    pub async fn stop(&self) {
        self.shutdown();
        let task = self.task.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

/// `http://host:port` of a bound address (an unspecified address is reached on `127.0.0.1`).
fn base_url(addr: SocketAddr) -> String {
    let host = if addr.ip().is_unspecified() {
        "127.0.0.1".to_string()
    } else if addr.is_ipv6() {
        format!("[{}]", addr.ip())
    } else {
        addr.ip().to_string()
    };
    format!("http://{host}:{}", addr.port())
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.shutdown();
    }
}
