//! The EVM operations of issue 36 §4 that answer from the world's EVM chains (the blocks and
//! transactions the Index RPC serves on `C/block`) instead of the schema generator, each in a
//! file of its own:
//!
//! - `listTokens`, `getTokenDetails`: the NFT contracts' tokens ([`super::evm_nfts`]);
//! - `listErc721Balances`, `listErc1155Balances`, `listErc1155Transactions`: an address's NFT
//!   holdings ([`super::evm_nft_balances`]);
//! - `getDeploymentTransaction`, `listContractDeployments`, `getContractMetadata`,
//!   `listInternalTransactions`: the world's contracts and deployments
//!   ([`super::evm_contracts`]);
//! - `listTransactionsV2`: an address's transactions with its own transfers
//!   ([`super::evm_tx_v2`]);
//! - `listAddressChains`, `listLatestTransactionsAllChains`: across chains
//!   ([`super::evm_all_chains`]).
//!
//! They are reached through the document's routes (`openapi/`), so the parameters are checked
//! from the document (400 in the service's body) and a `chainId` the world does not have is a 404
//! before they run.

use axum::response::Response;

use super::errors::{self, Answer};
use crate::openapi::Request;
use crate::world::Chain;

/// The operations this module answers.
const OPERATIONS: [&str; 12] = [
    "listTokens",
    "getTokenDetails",
    "listErc721Balances",
    "listErc1155Balances",
    "listErc1155Transactions",
    "getDeploymentTransaction",
    "listContractDeployments",
    "getContractMetadata",
    "listInternalTransactions",
    "listTransactionsV2",
    "listAddressChains",
    "listLatestTransactionsAllChains",
];

/// Whether operation `id` is answered here.
pub(crate) fn serves(id: &str) -> bool {
    OPERATIONS.contains(&id)
}

/// The answer of one of [`OPERATIONS`].
pub(crate) fn answer(request: &Request) -> Answer {
    match request.op.id {
        "listTokens" | "getTokenDetails" => super::evm_nfts::answer(request),
        "listErc721Balances" | "listErc1155Balances" | "listErc1155Transactions" => {
            super::evm_nft_balances::answer(request)
        }
        "listTransactionsV2" => super::evm_tx_v2::answer(request),
        "listAddressChains" | "listLatestTransactionsAllChains" => super::evm_all_chains::answer(request),
        _ => super::evm_contracts::answer(request),
    }
}

/// The request's chain (the EVM routes all name one).
pub(crate) fn chain_of(request: &Request) -> Result<&'static Chain, Response> {
    request.chain.ok_or_else(|| errors::bad_request("chainId is required"))
}

/// Path parameter `name` as a lowercase EVM address, or the service's 400 naming it and the value.
pub(crate) fn address_param(request: &Request, name: &str) -> Result<String, Response> {
    let text = request.path(name);
    if super::collectibles::is_address(text) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(errors::validation_failed(vec![format!(
            "{name} must be an Ethereum address (0x followed by 40 hex digits), got {text:?}"
        )]))
    }
}

/// The optional `contractAddress` filter, lowercase; a 400 naming it when it is no address.
pub(crate) fn contract_filter(request: &Request) -> Result<Option<String>, Response> {
    match request.params.get("contractAddress") {
        None => Ok(None),
        Some(text) if super::collectibles::is_address(text.trim()) => Ok(Some(text.trim().to_ascii_lowercase())),
        Some(text) => Err(errors::validation_failed(vec![format!(
            "contractAddress must be an Ethereum address (0x followed by 40 hex digits), got {text:?}"
        )])),
    }
}
