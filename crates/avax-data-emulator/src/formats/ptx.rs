//! platformvm unsigned transactions (FORMATS.md §5, §5.2), written as `u32 typeID ‖ fields` in the
//! codec's field order. The values are the core decoder's [`UnsignedPTx`]: the emulator writes
//! exactly what the decoder reads back (the round trip is tested in `pchain_tests`).

use super::avax_codec::{BaseTx, Credential, SignedTx, UnsignedTx, Writer};
use avax_data_core::decode::pchain_txs::{L1Owner, PTxBody, TransformSubnet, UnsignedPTx};

/// A signed platformvm tx.
pub type PTx = SignedTx<UnsignedPTx>;

/// The signed tx of type `type_id` (`base` is `None` only for the types without a BaseTx).
pub fn p_tx(type_id: u32, base: Option<BaseTx>, body: PTxBody, credentials: Vec<Credential>) -> PTx {
    PTx { unsigned: UnsignedPTx { type_id, base, body }, credentials }
}

impl UnsignedTx for UnsignedPTx {
    fn write(&self, w: &mut Writer) {
        w.u32(self.type_id);
        if let Some(base) = &self.base {
            w.base_tx(base);
        }
        write_body(w, &self.body);
    }
}

fn l1_owner(w: &mut Writer, owner: &L1Owner) {
    w.u32(owner.threshold).u32(owner.addresses.len() as u32);
    for a in &owner.addresses {
        w.raw(a);
    }
}

fn transform_subnet(w: &mut Writer, t: &TransformSubnet) {
    w.raw(&t.subnet_id).raw(&t.asset_id).u64(t.initial_supply).u64(t.maximum_supply);
    w.u64(t.min_consumption_rate).u64(t.max_consumption_rate).u64(t.min_validator_stake).u64(t.max_validator_stake);
    w.u32(t.min_stake_duration).u32(t.max_stake_duration).u32(t.min_delegation_fee).u64(t.min_delegator_stake);
    w.u8(t.max_validator_weight_factor).u32(t.uptime_requirement).subnet_auth(&t.subnet_auth);
}

/// The fields a tx type adds after its BaseTx.
fn write_body(w: &mut Writer, body: &PTxBody) {
    match body {
        PTxBody::AddValidator { validator, stake, rewards_owner, shares } => {
            w.validator(validator).outputs(stake).owner(rewards_owner).u32(*shares);
        }
        PTxBody::AddSubnetValidator { validator, subnet_id, subnet_auth } => {
            w.validator(validator).raw(subnet_id).subnet_auth(subnet_auth);
        }
        PTxBody::AddDelegator { validator, stake, rewards_owner } => {
            w.validator(validator).outputs(stake).owner(rewards_owner);
        }
        PTxBody::CreateChain { subnet_id, chain_name, vm_id, fx_ids, genesis, subnet_auth } => {
            w.raw(subnet_id).str16(chain_name).raw(vm_id).ids(fx_ids).bytes(genesis).subnet_auth(subnet_auth);
        }
        PTxBody::CreateSubnet { owner } => {
            w.owner(owner);
        }
        PTxBody::Atomic(atomic) => {
            w.atomic(atomic);
        }
        PTxBody::AdvanceTime { time } => {
            w.u64(*time);
        }
        PTxBody::RewardValidator { staker_tx_id } => {
            w.raw(staker_tx_id);
        }
        PTxBody::RemoveSubnetValidator { node_id, subnet_id, subnet_auth } => {
            w.raw(node_id).raw(subnet_id).subnet_auth(subnet_auth);
        }
        PTxBody::TransformSubnet(t) => transform_subnet(w, t),
        PTxBody::AddPermissionlessValidator {
            validator,
            subnet_id,
            signer,
            stake,
            validator_rewards_owner,
            delegator_rewards_owner,
            shares,
        } => {
            w.validator(validator).raw(subnet_id).signer(signer).outputs(stake);
            w.owner(validator_rewards_owner).owner(delegator_rewards_owner).u32(*shares);
        }
        PTxBody::AddPermissionlessDelegator { validator, subnet_id, stake, rewards_owner } => {
            w.validator(validator).raw(subnet_id).outputs(stake).owner(rewards_owner);
        }
        PTxBody::TransferSubnetOwnership { subnet_id, subnet_auth, owner } => {
            w.raw(subnet_id).subnet_auth(subnet_auth).owner(owner);
        }
        PTxBody::Base => {}
        PTxBody::ConvertSubnetToL1 { subnet_id, chain_id, address, validators, subnet_auth } => {
            w.raw(subnet_id).raw(chain_id).bytes(address).u32(validators.len() as u32);
            for v in validators {
                w.bytes(&v.node_id).u64(v.weight).u64(v.balance).raw(&v.public_key).raw(&v.proof_of_possession);
                l1_owner(w, &v.remaining_balance_owner);
                l1_owner(w, &v.deactivation_owner);
            }
            w.subnet_auth(subnet_auth);
        }
        PTxBody::RegisterL1Validator { balance, proof_of_possession, message } => {
            w.u64(*balance).raw(proof_of_possession).bytes(message);
        }
        PTxBody::SetL1ValidatorWeight { message } => {
            w.bytes(message);
        }
        PTxBody::IncreaseL1ValidatorBalance { validation_id, balance } => {
            w.raw(validation_id).u64(*balance);
        }
        PTxBody::DisableL1Validator { validation_id, disable_auth } => {
            w.raw(validation_id).subnet_auth(disable_auth);
        }
        PTxBody::AddAutoRenewedValidator(v) => {
            w.bytes(&v.node_id).signer(&v.signer).outputs(&v.stake).owner(&v.validator_rewards_owner);
            w.owner(&v.delegator_rewards_owner).owner(&v.validator_authority);
            w.u32(v.delegation_shares).u32(v.auto_compound_reward_shares).u64(v.period);
        }
        PTxBody::SetAutoRenewedValidatorConfig { staker_tx_id, auth, auto_compound_reward_shares, period } => {
            w.raw(staker_tx_id).subnet_auth(auth).u32(*auto_compound_reward_shares).u64(*period);
        }
        PTxBody::RewardAutoRenewedValidator { staker_tx_id, timestamp } => {
            w.raw(staker_tx_id).u64(*timestamp);
        }
    }
}
