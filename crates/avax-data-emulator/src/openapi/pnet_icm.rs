//! The world's ICM messages by id and by address: the same messages `GET /v1/icm/messages`
//! lists ([`crate::world::icm`], `icm.rs`), so an answer here is an item of that list.
//!
//! - `getIcmMessage` (`GET /v1/icm/messages/{messageId}`): the message of that id (hex, any
//!   case, `0x` optional); 404 `ICM message {id} not found` for an id the world never sent.
//! - `listIcmMessagesByAddress` (`GET /v1/icm/addresses/{address}/messages`): the messages the
//!   EVM address sent (`from`) or is sent to (`to`), any case, newest first as the list,
//!   `network` filters; an address that is no `0x` + 40 hex digits is a 400 naming it.

use super::Request;
use crate::data_api::errors::{self, Answer};
use crate::data_api::paging;
use crate::world::icm::IcmMessage;
use crate::world::Network;

/// The message id as the world writes it: lower-case hex without `0x`.
fn canonical_id(id: &str) -> String {
    let bare = id.strip_prefix("0x").or_else(|| id.strip_prefix("0X")).unwrap_or(id);
    bare.to_ascii_lowercase()
}

/// An EVM address in lower case, or `None` when it is not `0x` + 40 hex digits.
fn evm_address(text: &str) -> Option<String> {
    let hex = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))?;
    (hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| format!("0x{}", hex.to_ascii_lowercase()))
}

/// `getIcmMessage`.
pub(crate) fn by_id(request: &Request) -> Answer {
    let asked = request.path("messageId");
    let id = canonical_id(asked);
    let found = request.state.world.icm_messages().iter().find(|m| m.message_id == id);
    match found {
        Some(m) => Ok(errors::ok(m.to_json())),
        None => Err(errors::not_found(format!("ICM message {asked} not found"))),
    }
}

/// `listIcmMessagesByAddress`.
pub(crate) fn by_address(request: &Request) -> Answer {
    let asked = request.path("address");
    let Some(address) = evm_address(asked) else {
        return Err(errors::bad_request(format!(
            "Invalid address {asked:?}: expected an EVM address (0x followed by 40 hex digits)"
        )));
    };
    let network = request.params.get("network").and_then(Network::parse);
    let items: Vec<&IcmMessage> = request
        .state
        .world
        .icm_messages()
        .iter()
        .filter(|m| network.is_none_or(|n| m.network == n))
        .filter(|m| m.from.eq_ignore_ascii_case(&address) || m.to.eq_ignore_ascii_case(&address))
        .collect();
    let (start, fingerprint) = (request.start()?, request.fingerprint());
    paging::list_page(request.state, "messages", &items, (start, request.size), &fingerprint, |m| m.to_json())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_addresses_are_read_in_any_case() {
        assert_eq!(canonical_id("0xABcd"), "abcd");
        assert_eq!(canonical_id("abcd"), "abcd");
        let a = format!("0x{}", "Ab".repeat(20));
        assert_eq!(evm_address(&a), Some(format!("0x{}", "ab".repeat(20))));
        assert_eq!(evm_address("0x1234"), None);
        assert_eq!(evm_address(&"ab".repeat(21)), None, "no 0x");
        assert_eq!(evm_address(&format!("0x{}", "zz".repeat(20))), None);
    }
}
