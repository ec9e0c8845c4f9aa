//! One dispatch by chain for the primary-network routes the P-, X- and C-Chain share
//! (`/v1/networks/{network}/blockchains/{blockchainId}/...`): the path's `(network,
//! blockchainId)` is parsed once ([`Asked::parse`]) and the chain's own answer is called:
//! - `transactions` and `transactions/{txHash}`: the P-Chain's from its blocks
//!   ([`super::primary_txs`]), the X-Chain's from the X world ([`super::xchain_txs`]), the
//!   C-Chain's atomic transactions ([`super::catomic_txs`]);
//! - `utxos` and `balances`: the P-Chain's ([`super::primary_utxos`]), the X world's outputs held
//!   on the X- or C-Chain ([`super::xchain_utxos`]).
//!
//! A request naming no chain (an invalid network, or an id of none of the network's chains) is
//! answered by the P-Chain's checks of its query (the only chain the routes served before the X-
//! and C-Chain had their own): one 400 listing the network's or the chain's problem with every
//! other problem of the query.

use std::sync::Arc;

use axum::extract::{Path, State};

use super::errors::Answer;
use super::params::{path_network, Params};
use super::primary_chain::{resolve, PrimaryChain};
use super::{catomic_txs, primary_txs, primary_utxos, xchain_txs, xchain_utxos, DataApiState};
use crate::world::Network;

/// The chain a primary-network route's path asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asked {
    P(Network),
    X(Network),
    C(Network),
    /// No chain: the network when it is valid (the problem is recorded in the query's params).
    Nothing(Option<Network>),
}

impl Asked {
    /// `(network, blockchainId)` of a path, the problems recorded in `params`.
    pub(crate) fn parse(params: &mut Params, network: &str, blockchain_id: &str) -> Asked {
        let net = path_network(params, network);
        match (net, resolve(params, net, blockchain_id)) {
            (Some(n), Some(PrimaryChain::P)) => Asked::P(n),
            (Some(n), Some(PrimaryChain::X)) => Asked::X(n),
            (Some(n), Some(PrimaryChain::C)) => Asked::C(n),
            (net, _) => Asked::Nothing(net),
        }
    }
}

/// The answer of the chain `asked` names, given the query: `p`'s for the P-Chain (and for a path
/// naming no chain, with the network when valid), `x`'s for the X-Chain, `c`'s for the C-Chain.
fn answer(
    asked: Asked,
    params: Params,
    p: impl FnOnce(Option<Network>, Params) -> Answer,
    x: impl FnOnce(Network, Params) -> Answer,
    c: impl FnOnce(Network, Params) -> Answer,
) -> Answer {
    match asked {
        Asked::P(net) => p(Some(net), params),
        Asked::X(net) => x(net, params),
        Asked::C(net) => c(net, params),
        Asked::Nothing(net) => p(net, params),
    }
}

/// `listLatestPrimaryNetworkTransactions`.
pub(crate) async fn transactions(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let asked = Asked::parse(&mut params, &network, &blockchain_id);
    answer(
        asked,
        params,
        |n, q| primary_txs::list(&data, n, q),
        |n, q| xchain_txs::list(&data, n, q),
        catomic_txs::list,
    )
}

/// `getTxByHash`.
pub(crate) async fn transaction(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id, tx_hash)): Path<(String, String, String)>,
    mut params: Params,
) -> Answer {
    let asked = Asked::parse(&mut params, &network, &blockchain_id);
    let p = |n, q| primary_txs::get_one(&data, n, &tx_hash, q);
    answer(
        asked,
        params,
        p,
        |n, q| xchain_txs::get_one(&data, n, &tx_hash, q),
        |_, q| catomic_txs::get_one(&tx_hash, q),
    )
}

/// `getUtxosByAddresses`.
pub(crate) async fn utxos(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let asked = Asked::parse(&mut params, &network, &blockchain_id);
    let data = &data;
    let held_on = |chain| move |n, q| xchain_utxos::utxos(data, (n, chain), q);
    answer(asked, params, |n, q| primary_utxos::utxos(data, n, q), held_on(PrimaryChain::X), held_on(PrimaryChain::C))
}

/// `getBalancesByAddresses`.
pub(crate) async fn balances(
    State(data): State<Arc<DataApiState>>,
    Path((network, blockchain_id)): Path<(String, String)>,
    mut params: Params,
) -> Answer {
    let asked = Asked::parse(&mut params, &network, &blockchain_id);
    let data = &data;
    let held_on = |chain| move |n, q| xchain_utxos::balances(data, (n, chain), q);
    answer(
        asked,
        params,
        |n, q| primary_utxos::balances(data, n, q),
        held_on(PrimaryChain::X),
        held_on(PrimaryChain::C),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{C_CHAIN_FUJI_ID, PRIMARY_NETWORK_SUBNET_ID, X_CHAIN_MAINNET_ID};

    fn parse(network: &str, id: &str) -> (Asked, bool) {
        let mut params = Params::parse(None);
        let asked = Asked::parse(&mut params, network, id);
        (asked, params.finish().is_ok())
    }

    #[test]
    fn the_path_names_one_chain_or_records_why_not() {
        let (m, f) = (Network::Mainnet, Network::Fuji);
        assert_eq!(parse("mainnet", "p-chain"), (Asked::P(m), true));
        assert_eq!(parse("mainnet", PRIMARY_NETWORK_SUBNET_ID), (Asked::P(m), true));
        assert_eq!(parse("mainnet", X_CHAIN_MAINNET_ID), (Asked::X(m), true));
        assert_eq!(parse("testnet", "c-chain"), (Asked::C(f), true));
        assert_eq!(parse("fuji", C_CHAIN_FUJI_ID), (Asked::C(f), true));
        assert_eq!(parse("fuji", X_CHAIN_MAINNET_ID), (Asked::Nothing(Some(f)), false), "another network's X-Chain");
        assert_eq!(parse("mainnet", "q-chain"), (Asked::Nothing(Some(m)), false));
        assert_eq!(parse("devnet", "x-chain"), (Asked::Nothing(None), false));
    }
}
