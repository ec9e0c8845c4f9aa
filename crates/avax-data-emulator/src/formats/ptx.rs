//! platformvm unsigned transactions (FORMATS.md §5, §5.2): the tx types the emulator's P-chain
//! blocks carry, each written as `u32 typeID ‖ fields` in the codec's field order.

use super::avax_codec::{BaseTx, Signer, TransferableInput, TransferableOutput, UnsignedTx, Validator, Writer};
use super::avax_codec::{OutputOwners, SignedTx};

/// An unsigned platformvm transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PUnsignedTx {
    /// AddValidatorTx (12), Apricot-era primary-network validator.
    AddValidator {
        base: BaseTx,
        validator: Validator,
        stake: Vec<TransferableOutput>,
        rewards_owner: OutputOwners,
        /// Delegation fee, parts per million.
        shares: u32,
    },
    /// AddSubnetValidatorTx (13).
    AddSubnetValidator { base: BaseTx, validator: Validator, subnet_id: [u8; 32], subnet_auth: Vec<u32> },
    /// AddDelegatorTx (14), Apricot-era delegation.
    AddDelegator { base: BaseTx, validator: Validator, stake: Vec<TransferableOutput>, rewards_owner: OutputOwners },
    /// CreateChainTx (15).
    CreateChain {
        base: BaseTx,
        subnet_id: [u8; 32],
        chain_name: String,
        vm_id: [u8; 32],
        fx_ids: Vec<[u8; 32]>,
        genesis: Vec<u8>,
        subnet_auth: Vec<u32>,
    },
    /// CreateSubnetTx (16).
    CreateSubnet { base: BaseTx, owner: OutputOwners },
    /// ImportTx (17).
    Import { base: BaseTx, source_chain: [u8; 32], imported_inputs: Vec<TransferableInput> },
    /// ExportTx (18).
    Export { base: BaseTx, destination_chain: [u8; 32], exported_outputs: Vec<TransferableOutput> },
    /// AdvanceTimeTx (19): no BaseTx, only the new chain time (unix s).
    AdvanceTime { time: u64 },
    /// RewardValidatorTx (20): no BaseTx, only the staking tx ID.
    RewardValidator { tx_id: [u8; 32] },
    /// RemoveSubnetValidatorTx (23).
    RemoveSubnetValidator { base: BaseTx, node_id: [u8; 20], subnet_id: [u8; 32], subnet_auth: Vec<u32> },
    /// AddPermissionlessValidatorTx (25).
    AddPermissionlessValidator {
        base: BaseTx,
        validator: Validator,
        subnet_id: [u8; 32],
        signer: Signer,
        stake: Vec<TransferableOutput>,
        validator_rewards_owner: OutputOwners,
        delegator_rewards_owner: OutputOwners,
        /// Delegation fee, parts per million.
        shares: u32,
    },
    /// AddPermissionlessDelegatorTx (26).
    AddPermissionlessDelegator {
        base: BaseTx,
        validator: Validator,
        subnet_id: [u8; 32],
        stake: Vec<TransferableOutput>,
        rewards_owner: OutputOwners,
    },
    /// TransferSubnetOwnershipTx (33).
    TransferSubnetOwnership { base: BaseTx, subnet_id: [u8; 32], subnet_auth: Vec<u32>, owner: OutputOwners },
    /// BaseTx (34).
    Base(BaseTx),
}

impl PUnsignedTx {
    /// The codec type ID.
    pub fn type_id(&self) -> u32 {
        match self {
            PUnsignedTx::AddValidator { .. } => 12,
            PUnsignedTx::AddSubnetValidator { .. } => 13,
            PUnsignedTx::AddDelegator { .. } => 14,
            PUnsignedTx::CreateChain { .. } => 15,
            PUnsignedTx::CreateSubnet { .. } => 16,
            PUnsignedTx::Import { .. } => 17,
            PUnsignedTx::Export { .. } => 18,
            PUnsignedTx::AdvanceTime { .. } => 19,
            PUnsignedTx::RewardValidator { .. } => 20,
            PUnsignedTx::RemoveSubnetValidator { .. } => 23,
            PUnsignedTx::AddPermissionlessValidator { .. } => 25,
            PUnsignedTx::AddPermissionlessDelegator { .. } => 26,
            PUnsignedTx::TransferSubnetOwnership { .. } => 33,
            PUnsignedTx::Base(_) => 34,
        }
    }

    /// The BaseTx, if the type has one.
    pub fn base(&self) -> Option<&BaseTx> {
        match self {
            PUnsignedTx::AddValidator { base, .. }
            | PUnsignedTx::AddSubnetValidator { base, .. }
            | PUnsignedTx::AddDelegator { base, .. }
            | PUnsignedTx::CreateChain { base, .. }
            | PUnsignedTx::CreateSubnet { base, .. }
            | PUnsignedTx::Import { base, .. }
            | PUnsignedTx::Export { base, .. }
            | PUnsignedTx::RemoveSubnetValidator { base, .. }
            | PUnsignedTx::AddPermissionlessValidator { base, .. }
            | PUnsignedTx::AddPermissionlessDelegator { base, .. }
            | PUnsignedTx::TransferSubnetOwnership { base, .. }
            | PUnsignedTx::Base(base) => Some(base),
            PUnsignedTx::AdvanceTime { .. } | PUnsignedTx::RewardValidator { .. } => None,
        }
    }
}

impl UnsignedTx for PUnsignedTx {
    fn write(&self, w: &mut Writer) {
        w.u32(self.type_id());
        match self {
            PUnsignedTx::AddValidator { base, validator, stake, rewards_owner, shares } => {
                w.base_tx(base).validator(validator).outputs(stake).owner(rewards_owner).u32(*shares);
            }
            PUnsignedTx::AddSubnetValidator { base, validator, subnet_id, subnet_auth } => {
                w.base_tx(base).validator(validator).raw(subnet_id).subnet_auth(subnet_auth);
            }
            PUnsignedTx::AddDelegator { base, validator, stake, rewards_owner } => {
                w.base_tx(base).validator(validator).outputs(stake).owner(rewards_owner);
            }
            PUnsignedTx::CreateChain { base, subnet_id, chain_name, vm_id, fx_ids, genesis, subnet_auth } => {
                w.base_tx(base).raw(subnet_id).str16(chain_name).raw(vm_id).ids(fx_ids).bytes(genesis);
                w.subnet_auth(subnet_auth);
            }
            PUnsignedTx::CreateSubnet { base, owner } => {
                w.base_tx(base).owner(owner);
            }
            PUnsignedTx::Import { base, source_chain, imported_inputs } => {
                w.base_tx(base).raw(source_chain).inputs(imported_inputs);
            }
            PUnsignedTx::Export { base, destination_chain, exported_outputs } => {
                w.base_tx(base).raw(destination_chain).outputs(exported_outputs);
            }
            PUnsignedTx::AdvanceTime { time } => {
                w.u64(*time);
            }
            PUnsignedTx::RewardValidator { tx_id } => {
                w.raw(tx_id);
            }
            PUnsignedTx::RemoveSubnetValidator { base, node_id, subnet_id, subnet_auth } => {
                w.base_tx(base).raw(node_id).raw(subnet_id).subnet_auth(subnet_auth);
            }
            PUnsignedTx::AddPermissionlessValidator {
                base,
                validator,
                subnet_id,
                signer,
                stake,
                validator_rewards_owner,
                delegator_rewards_owner,
                shares,
            } => {
                w.base_tx(base).validator(validator).raw(subnet_id).signer(signer).outputs(stake);
                w.owner(validator_rewards_owner).owner(delegator_rewards_owner).u32(*shares);
            }
            PUnsignedTx::AddPermissionlessDelegator { base, validator, subnet_id, stake, rewards_owner } => {
                w.base_tx(base).validator(validator).raw(subnet_id).outputs(stake).owner(rewards_owner);
            }
            PUnsignedTx::TransferSubnetOwnership { base, subnet_id, subnet_auth, owner } => {
                w.base_tx(base).raw(subnet_id).subnet_auth(subnet_auth).owner(owner);
            }
            PUnsignedTx::Base(base) => {
                w.base_tx(base);
            }
        }
    }
}

/// A signed platformvm tx.
pub type PTx = SignedTx<PUnsignedTx>;
