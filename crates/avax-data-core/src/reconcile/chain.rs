//! The chains a reconcile walks, their index paths and their Data API routes.

use crate::error::{Error, Result};
use crate::index::IndexPath;

/// A chain of the primary network, as `reconcile` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    /// The C-Chain: `C/block` against `/v1/chains/{evmChainId}/blocks`.
    C,
    /// The P-Chain: `P/block` against the primary network's `p-chain` blocks.
    P,
    /// The X-Chain: `X/block` (linear blocks) against the primary network's `x-chain` blocks.
    X,
}

/// What `chain=` allows.
pub const CHAINS: &str = "one of 'C', 'P', 'X'";

impl Chain {
    /// `"C"`, `"P"` or `"X"` (either case; surrounding blanks are not accepted).
    ///
    /// ```
    /// use avax_data_core::reconcile::Chain;
    /// assert_eq!(Chain::parse("c").unwrap(), Chain::C);
    /// assert_eq!(Chain::parse("Y").unwrap_err().to_string(), "invalid chain=\"Y\": one of 'C', 'P', 'X'");
    /// ```
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "C" | "c" => Ok(Chain::C),
            "P" | "p" => Ok(Chain::P),
            "X" | "x" => Ok(Chain::X),
            _ => Err(Error::invalid_text("chain", text, CHAINS)),
        }
    }

    /// The chain's letter, as written in the differences.
    pub fn label(self) -> &'static str {
        match self {
            Chain::C => "C",
            Chain::P => "P",
            Chain::X => "X",
        }
    }

    /// The node's index of the chain's blocks.
    pub fn index_path(self) -> IndexPath {
        match self {
            Chain::C => IndexPath::CBlock,
            Chain::P => IndexPath::PBlock,
            Chain::X => IndexPath::XBlock,
        }
    }

    /// The Data API's path of block `height` of the chain on `network` (checked already).
    pub fn block_path(self, network: &str, height: u64) -> String {
        match self {
            Chain::C => format!("/v1/chains/{}/blocks/{height}", evm_chain_id(network)),
            Chain::P => format!("/v1/networks/{network}/blockchains/p-chain/blocks/{height}"),
            Chain::X => format!("/v1/networks/{network}/blockchains/x-chain/blocks/{height}"),
        }
    }

    /// The Data API's path of the transactions of block `height`, where the block's own answer
    /// does not list them (the C-Chain's); `None` for P and X, whose blocks list their ids.
    pub fn transactions_path(self, network: &str, height: u64) -> Option<String> {
        match self {
            Chain::C => Some(format!("/v1/chains/{}/blocks/{height}/transactions", evm_chain_id(network))),
            Chain::P | Chain::X => None,
        }
    }
}

/// The C-Chain's EVM chain id on `network`: 43114 on mainnet, 43113 on Fuji (`fuji`, `testnet`).
pub fn evm_chain_id(network: &str) -> &'static str {
    if network == "mainnet" {
        "43114"
    } else {
        "43113"
    }
}
