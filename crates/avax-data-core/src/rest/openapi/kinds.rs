//! Which id rule of [`crate::inputs::ids`] each parameter of the documents follows, from its
//! name, its operation's path and its description (the documents give these parameters the
//! plain type `string`): the one place that maps a parameter to a rule, so the generated and
//! the hand-written methods refuse a bad id with the same message.

use crate::inputs::IdKind;

/// The rule of the parameter `name` of the operation at `path` (`None`: the type's checks
/// only). `path` tells a primary network operation (`{network}` in it: CB58 transaction and
/// block ids) from an EVM chain's (0x hashes); `description` tells where the document also takes
/// 0x addresses among P-/X-Chain ones, and where node ids are matched as substrings (any text).
pub(super) fn id_kind(path: &str, name: &str, description: &str, has_enum: bool) -> Option<IdKind> {
    let primary = path.contains("{network}");
    Some(match name {
        _ if has_enum => return None,
        "addresses" | "rewardAddresses" => {
            IdKind::PxAddress { evm_too: description.contains("EVM formatted addresses") }
        }
        "address" | "contractAddress" | "contractAddresses" | "from" | "to" => IdKind::EvmAddress,
        "blockchainId" if primary => IdKind::Cb58 { noun: "blockchain id" },
        "blockchainId" | "sourceBlockchainId" | "destinationBlockchainId" | "srcBlockchainId" | "destBlockchainId" => {
            IdKind::IcmChain
        }
        "assetId" => IdKind::Cb58 { noun: "asset id" },
        "subnetId" => IdKind::Cb58 { noun: "subnet id" },
        "l1ValidationId" => IdKind::Cb58 { noun: "validation id" },
        "vertexHash" => IdKind::Cb58 { noun: "vertex hash" },
        "txHash" if primary => IdKind::Cb58 { noun: "transaction hash" },
        "txHash" => IdKind::EvmHash { noun: "transaction hash" },
        "blockId" => IdKind::BlockId { primary },
        "nodeId" => IdKind::NodeId,
        "nodeIds" if !description.contains("substring") => IdKind::NodeId,
        _ => return None,
    })
}
