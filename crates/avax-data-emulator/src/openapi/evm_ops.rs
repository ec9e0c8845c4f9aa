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

use crate::data_api::errors::Answer;
use crate::openapi::Request;

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
