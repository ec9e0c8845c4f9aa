//! The Data API (`/v1`, the hosted "Glacier" service) over the emulator's deterministic world
//! ([`crate::world`]: chains, blocks, transactions, ICM messages, stakes).
//!
//! One small file per job: `collectibles.rs` (NFTs) and `vertices.rs` (X-chain vertices) each
//! hold their part of the world and its route; `rewards.rs` (pending rewards) and `icm.rs`
//! (interchain messages) serve the world's; `primary_blocks.rs` the P- and X-chain blocks of
//! the index; `by_chain.rs` hands each request of the routes the P-, X- and C-Chain share
//! (transactions, UTXOs, balances) to the answer of the chain it asks (`primary_chain.rs` names
//! the chain a `blockchainId` asks): `primary_txs.rs` the P-chain's transactions and
//! `primary_utxos.rs` its UTXOs and balances; `xchain_*.rs` the X-Chain's transactions, UTXOs,
//! balances, assets, vertices by hash or height, and where addresses appear (with the C-Chain's
//! atomic memory), `catomic_txs.rs` the C-Chain's atomic transactions; the `openapi/pnet_*.rs` files
//! answer the P-Chain and network operations the document router hands them (`openapi/`):
//! active staking txs, historical rewards, network details, subnets and L1 validators, the AVAX
//! supply, ICM messages by id and by address; `chains.rs`,
//! `blocks.rs` and `health.rs` serve the rest; `params.rs` checks query parameters
//! (class-validator style 400s), `paging.rs` issues and resolves UUID page tokens on the emulator
//! clock, `errors.rs` writes the service's bodies, `auth.rs` checks keys and applies rate limits, `budget.rs` a tier's compute units per minute.

// Handlers return `Result<_, Response>` to hand the error answer straight back.
#![allow(clippy::result_large_err)]

pub(crate) mod auth;
pub(crate) mod blockchains;
pub(crate) mod blocks;
pub mod budget;
mod by_chain;
mod catomic_txs;
pub(crate) mod chains;
pub mod collectibles;
pub(crate) mod errors;
mod health;
mod icm;
pub(crate) mod paging;
pub(crate) mod params;
mod primary_blocks;
pub(crate) mod primary_chain;
mod primary_txs;
mod primary_utxos;
pub(crate) mod rewards;
pub mod vertices;
mod xchain_activity;
mod xchain_assets;
pub(crate) mod xchain_params;
mod xchain_txs;
mod xchain_utxos;
mod xchain_vertices;

use std::sync::Arc;
use std::time::Duration;

use axum::routing::{any, get};
use axum::Router;

pub use crate::world::icm::{IcmMessage, IcmStatus};
pub use crate::world::rewards::{PendingReward, RewardType};
pub use crate::world::{
    block_transactions, chain, chains, find_chain, known_owner_addresses, pool_address, Block, Chain, DataWorld,
    Feature, Network, Tx,
};
pub use auth::RateLimit;
pub use budget::BudgetUse;
pub use collectibles::Collectible;
pub use paging::TOKEN_LIFETIME;
pub use vertices::Vertex;

/// The Data API's part of the emulator state.
pub(crate) struct DataApiState {
    pub(crate) world: DataWorld,
    pub(crate) clock: paging::Clock,
    pub(crate) tokens: paging::TokenStore,
    pub(crate) auth: auth::AuthState,
    /// Heights of the Mainnet `[P/block, X/block, X/tx]` timelines (the indexes' initial counts,
    /// at least [`crate::formats::px_clock::MIN_SPAN`]): the primary network's blocks up to now.
    pub(crate) px_spans: [u64; 3],
}

impl DataApiState {
    /// The world of `seed` with `blocks_per_chain` and a C-Chain timeline of `c_span` blocks
    /// ([`DataWorld::with_c_span`]), no token issued yet, the key rules and the rate limit (per
    /// key) given.
    pub(crate) fn new(
        seed: u64,
        (blocks_per_chain, c_span): (u64, u64),
        require_key: bool,
        refused_keys: &[String],
        rate_limit: Option<RateLimit>,
    ) -> DataApiState {
        DataApiState {
            world: {
                let mut world = DataWorld::with_c_span(seed, blocks_per_chain, c_span);
                world.map_pending_rewards(|n, r| crate::formats::pchain::with_p_chain_tx_hashes(seed, n, r));
                world
            },
            clock: paging::Clock::new(),
            tokens: paging::TokenStore::new(seed),
            auth: auth::AuthState::new(require_key, refused_keys, rate_limit),
            px_spans: [crate::formats::px_clock::MIN_SPAN; 3],
        }
    }

    /// This state with the Mainnet P- and X-chain timelines of `[P/block, X/block, X/tx]` heights.
    pub(crate) fn with_px_spans(self, spans: [u64; 3]) -> DataApiState {
        DataApiState { px_spans: spans.map(|n| n.max(crate::formats::px_clock::MIN_SPAN)), ..self }
    }

    /// Heights of the primary-network chain `kind` of `network` (Fuji's: the shortest span).
    pub(crate) fn px_span(&self, network: Network, kind: crate::formats::px_blocks::PxKind) -> u64 {
        use crate::formats::px_blocks::PxKind;
        match (network, kind) {
            (Network::Mainnet, PxKind::P) => self.px_spans[0],
            (Network::Mainnet, PxKind::X) => self.px_spans[1],
            (Network::Fuji, _) => crate::formats::px_clock::MIN_SPAN,
        }
    }

    /// The world's X-chain of `network` (the Mainnet one: `X/tx`, then `X/block`; Fuji's is not
    /// emulated).
    pub(crate) fn x_world(&self, network: Network) -> Option<crate::formats::x_txs::XWorld> {
        let seed = self.world.seed();
        (network == Network::Mainnet)
            .then(|| crate::formats::x_txs::XWorld::new(seed, [self.px_spans[1], self.px_spans[2]]))
    }

    /// Moves the emulator clock (page-token expiry) forward.
    pub(crate) fn advance_clock(&self, by: Duration) {
        self.clock.advance(by);
    }

    pub(crate) fn set_rate_limit(&self, policy: Option<RateLimit>) {
        self.auth.set_rate_limit(policy);
    }

    pub(crate) fn set_compute_budget(&self, units_per_minute: Option<u32>) {
        self.auth.budget.set(units_per_minute);
    }

    pub(crate) fn compute_budget_use(&self) -> BudgetUse {
        self.auth.budget.usage()
    }

    pub(crate) fn set_require_key(&self, require: bool) {
        self.auth.set_require_key(require);
    }

    pub(crate) fn set_refused_keys(&self, keys: &[String]) {
        self.auth.set_refused_keys(keys);
    }
}

/// The `/v1` routes over `state`, with `more` (every other Data API operation of the document,
/// served by `openapi/`), behind the key and rate-limit checks. Another method on a known
/// path, or any unknown `/v1` path, gets Express's JSON 404 `Cannot {METHOD} {path}`.
pub(crate) fn router<S: Clone + Send + Sync + 'static>(
    state: Arc<DataApiState>,
    more: Router<Arc<DataApiState>>,
) -> Router<S> {
    let by_hand = Router::new()
        .route("/v1/chains", get(chains::list).fallback(errors::cannot))
        .route("/v1/chains/{chain_id}", get(chains::get_one).fallback(errors::cannot))
        .route("/v1/chains/{chain_id}/blocks", get(blocks::list).fallback(errors::cannot))
        .route("/v1/chains/{chain_id}/blocks/{block_id}", get(blocks::get_one).fallback(errors::cannot))
        .route("/v1/blocks", get(blocks::list_all_chains).fallback(errors::cannot))
        .route(
            "/v1/chains/{chain_id}/addresses/{address}/balances:listCollectibles",
            get(collectibles::list).fallback(errors::cannot),
        )
        .route("/v1/networks/{network}/rewards:listPending", get(rewards::list_pending).fallback(errors::cannot))
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/vertices",
            get(vertices::list).fallback(errors::cannot),
        )
        .route("/v1/icm/messages", get(icm::list).fallback(errors::cannot))
        .route("/v1/networks/{network}/blockchains", get(blockchains::list).fallback(errors::cannot))
        .route("/v1/networks/{network}/blockchains/{blockchain_id}", get(blockchains::get_one).fallback(errors::cannot))
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/blocks",
            get(primary_blocks::list).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/blocks/{block_id}",
            get(primary_blocks::get_one).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/nodes/{node_id}/blocks",
            get(primary_blocks::by_node).fallback(errors::cannot),
        )
        // The P-, X- and C-Chain's answers, by the chain the path asks (by_chain.rs).
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/transactions",
            get(by_chain::transactions).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/transactions/{tx_hash}",
            get(by_chain::transaction).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/utxos",
            get(by_chain::utxos).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/balances",
            get(by_chain::balances).fallback(errors::cannot),
        )
        // The X-Chain from the X world (xchain_*.rs).
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/assets/{asset_id}",
            get(xchain_assets::details).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/assets/{asset_id}/transactions",
            get(xchain_assets::transactions).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/vertices/{vertex_hash}",
            get(xchain_vertices::by_hash).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/vertices:listByHeight",
            get(xchain_vertices::by_height).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/blockchains/{blockchain_id}/lastActivityTimestampByAddresses",
            get(xchain_activity::last_activity).fallback(errors::cannot),
        )
        .route(
            "/v1/networks/{network}/addresses:listChainIds",
            get(xchain_activity::chain_ids).fallback(errors::cannot),
        )
        .route("/v1/health-check", get(health::check).fallback(errors::cannot));
    by_hand
        .merge(more)
        .route("/v1/{*rest}", any(errors::cannot))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), auth::guard))
        .with_state(state)
}
