//! The C-Chain's atomic transactions on the primary-network routes
//! (`/v1/networks/{network}/blockchains/{c-chain}/transactions`): the world's coreth blocks carry
//! no atomic txs (its C-Chain never imports the X-Chain's exports), so the list is empty, after
//! the same checks of its query as the X-Chain's list ([`super::xchain_txs::list_query`]), and a
//! tx hash is a 404.

use super::errors::{self, Answer};
use super::params::Params;
use super::primary_chain::PrimaryChain;
use super::xchain_params::empty_list;
use super::xchain_txs::list_query;
use crate::world::Network;

/// `listLatestPrimaryNetworkTransactions` on the C-Chain of `network`.
pub(crate) fn list(network: Network, mut params: Params) -> Answer {
    list_query(&mut params, Some(network));
    params.finish()?;
    Ok(errors::ok(empty_list("transactions", network, PrimaryChain::C)))
}

/// `getTxByHash` on the C-Chain.
pub(crate) fn get_one(tx_hash: &str, mut params: Params) -> Answer {
    params.finish()?;
    Err(errors::not_found(format!("Transaction {tx_hash} not found on {}", PrimaryChain::C.name())))
}
