//! The path and query parameters the EVM operations of `evm_ops.rs` share: the chain, an
//! address (400 naming the parameter and the value when malformed), the `contractAddress` filter.

use axum::response::Response;

use crate::data_api::errors;
use crate::openapi::Request;
use crate::world::Chain;

/// The request's chain (the EVM routes all name one).
pub(crate) fn chain_of(request: &Request) -> Result<&'static Chain, Response> {
    request.chain.ok_or_else(|| errors::bad_request("chainId is required"))
}

/// Path parameter `name` as a lowercase EVM address, or the service's 400 naming it and the value.
pub(crate) fn address_param(request: &Request, name: &str) -> Result<String, Response> {
    let text = request.path(name);
    if crate::data_api::collectibles::is_address(text) {
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
        Some(text) if crate::data_api::collectibles::is_address(text.trim()) => {
            Ok(Some(text.trim().to_ascii_lowercase()))
        }
        Some(text) => Err(errors::validation_failed(vec![format!(
            "contractAddress must be an Ethereum address (0x followed by 40 hex digits), got {text:?}"
        )])),
    }
}
