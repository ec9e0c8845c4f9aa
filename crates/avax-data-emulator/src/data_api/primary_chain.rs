//! Which primary-network chain a `blockchainId` path value names (its alias or the network's
//! id of the chain), the `chainInfo` of an answer about it, and what the primary-network routes
//! share: the world's P-Chain of a network, Unix-seconds parameters.

use serde_json::{json, Value};

use super::params::Params;
use super::DataApiState;
use crate::formats::px_blocks::{PxChain, PxKind};
use crate::world::{Network, C_CHAIN_FUJI_ID, C_CHAIN_MAINNET_ID, PRIMARY_NETWORK_SUBNET_ID};

/// One of the primary network's three chains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PrimaryChain {
    P,
    X,
    C,
}

/// The values of the document's `BlockchainId` enum, in its order.
const ALLOWED: &str = "11111111111111111111111111111111LpoYY, 2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM, \
2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm, 2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5, \
yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp, p-chain, x-chain, c-chain";

impl PrimaryChain {
    /// The alias (`PrimaryNetworkChainName`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            PrimaryChain::P => "p-chain",
            PrimaryChain::X => "x-chain",
            PrimaryChain::C => "c-chain",
        }
    }

    /// The chain `id` names on `network`: an alias, or that network's id of the chain (another
    /// network's id names nothing there).
    pub(crate) fn parse(network: Network, id: &str) -> Option<PrimaryChain> {
        let c_id = match network {
            Network::Mainnet => C_CHAIN_MAINNET_ID,
            Network::Fuji => C_CHAIN_FUJI_ID,
        };
        match id {
            "p-chain" | PRIMARY_NETWORK_SUBNET_ID => Some(PrimaryChain::P),
            "x-chain" => Some(PrimaryChain::X),
            "c-chain" => Some(PrimaryChain::C),
            _ if id == network.x_chain_id() => Some(PrimaryChain::X),
            _ if id == c_id => Some(PrimaryChain::C),
            _ => None,
        }
    }
}

/// The chain a `blockchainId` path value names on `network` (`None` when the network is
/// invalid, already recorded); a problem (the service's enum message) when it names none.
pub(crate) fn resolve(params: &mut Params, network: Option<Network>, id: &str) -> Option<PrimaryChain> {
    let network = network?;
    let chain = PrimaryChain::parse(network, id);
    if chain.is_none() {
        params.problem(format!("blockchainId must be one of the following values: {ALLOWED}"));
    }
    chain
}

/// `chainInfo`: the chain asked and its network.
pub(crate) fn chain_info(network: Network, chain: PrimaryChain) -> Value {
    json!({"chainName": chain.name(), "network": network.as_str()})
}

/// The world's P-Chain of `network`.
pub(crate) fn p_chain(state: &DataApiState, network: Network) -> PxChain {
    PxChain::of(state.world.seed(), network, PxKind::P, state.px_span(network, PxKind::P)).expect("both networks")
}

/// An optional Unix-seconds query parameter (a problem when not a whole number >= 0).
pub(crate) fn seconds(params: &mut Params, name: &str) -> Option<i64> {
    let text = params.get(name)?.to_string();
    match text.trim().parse::<i64>() {
        Ok(v) if v >= 0 => Some(v),
        _ => {
            params.problem(format!("{name} must be a number conforming to the specified constraints"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{X_CHAIN_FUJI_ID, X_CHAIN_MAINNET_ID};

    #[test]
    fn aliases_and_each_networks_ids_name_their_chain() {
        let m = Network::Mainnet;
        assert_eq!(PrimaryChain::parse(m, "p-chain"), Some(PrimaryChain::P));
        assert_eq!(PrimaryChain::parse(m, PRIMARY_NETWORK_SUBNET_ID), Some(PrimaryChain::P));
        assert_eq!(PrimaryChain::parse(m, X_CHAIN_MAINNET_ID), Some(PrimaryChain::X));
        assert_eq!(PrimaryChain::parse(m, X_CHAIN_FUJI_ID), None, "the Fuji X-Chain is not on mainnet");
        assert_eq!(PrimaryChain::parse(Network::Fuji, X_CHAIN_FUJI_ID), Some(PrimaryChain::X));
        assert_eq!(PrimaryChain::parse(m, C_CHAIN_MAINNET_ID), Some(PrimaryChain::C));
        assert_eq!(PrimaryChain::parse(m, "q-chain"), None);
        assert_eq!(chain_info(m, PrimaryChain::X), json!({"chainName": "x-chain", "network": "mainnet"}));
        let mut params = Params::parse(None);
        assert_eq!(resolve(&mut params, Some(m), "nope"), None);
        assert!(params.finish().is_err());
    }
}
