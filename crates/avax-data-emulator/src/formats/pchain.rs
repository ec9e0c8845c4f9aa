//! Real-format platformvm inner blocks (FORMATS.md §5) for the emulator's `P/block` index: a pure
//! function of `(seed, height, parent_id, time)` and a small [`PChainConfig`].
//!
//! Schedule ([`kind_at`]): heights below `banff_height` are Apricot blocks (types 0–4), the rest
//! Banff blocks (29–32, with `time`). About one height in six is a proposal block; the next height
//! is then its Commit or Abort option (proposervm wraps those in *option* envelopes). Every
//! `stake_spacing` heights from `first_stake_height` is a stake slot: slot `j` carries event `j`
//! of the world's stakes ([`super::p_rewards`]). A start carries the stake of the Data API world
//! ([`stakes::stakes`]) as AddValidatorTx / AddDelegatorTx in an Apricot proposal
//! block (followed by a Commit), or as AddPermissionlessValidatorTx /
//! AddPermissionlessDelegatorTx in a Banff standard block, with the world's node ID, start, end,
//! weight and reward addresses; an end, the RewardValidatorTx of an ended stake in a proposal
//! block (followed by a Commit). Other blocks carry Import/Export, CreateSubnet, CreateChain,
//! subnet validator, TransferSubnetOwnership, BaseTx, AdvanceTime and RewardValidator txs.

use super::avax_codec::{self as codec, Atomic, BaseTx, Input, Output, OutputOwners, Rng, Signer, Validator, Writer};
use super::avax_codec::{Credential, TransferableInput, TransferableOutput};
use super::fees;
use super::p_rewards;
use super::p_slots::slot;
pub use super::p_slots::{stake_height, stake_slot, PChainConfig};
use super::ptx::{p_tx, PTx};
use super::stakes::{self, Stake, DELEGATION_SHARES};
use crate::world::rewards::avax_asset_id;
use crate::world::{derive, Network, C_CHAIN_FUJI_ID, C_CHAIN_MAINNET_ID, SUBNET_EVM_VM_ID};
use avax_data_core::decode::pchain_txs::PTxBody;
use avax_data_core::index::cb58;

/// A platformvm block type (the codec type ID is [`PKind::type_id`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PKind {
    /// 0: one proposal tx.
    ApricotProposal,
    /// 1: option of a proposal.
    ApricotAbort,
    /// 2: option of a proposal.
    ApricotCommit,
    /// 3: decision txs.
    ApricotStandard,
    /// 4: one atomic tx.
    ApricotAtomic,
    /// 29: decision txs and a proposal tx.
    BanffProposal,
    /// 30: option of a proposal.
    BanffAbort,
    /// 31: option of a proposal.
    BanffCommit,
    /// 32: decision txs.
    BanffStandard,
}

impl PKind {
    /// The codec type ID of the block.
    pub fn type_id(self) -> u32 {
        match self {
            PKind::ApricotProposal => 0,
            PKind::ApricotAbort => 1,
            PKind::ApricotCommit => 2,
            PKind::ApricotStandard => 3,
            PKind::ApricotAtomic => 4,
            PKind::BanffProposal => 29,
            PKind::BanffAbort => 30,
            PKind::BanffCommit => 31,
            PKind::BanffStandard => 32,
        }
    }

    /// A Commit or Abort: wrapped in a proposervm option envelope.
    pub fn is_option(self) -> bool {
        matches!(self, PKind::ApricotAbort | PKind::ApricotCommit | PKind::BanffAbort | PKind::BanffCommit)
    }

    /// A proposal block: the next height is its option.
    pub fn is_proposal(self) -> bool {
        matches!(self, PKind::ApricotProposal | PKind::BanffProposal)
    }

    /// A Banff block (has a `time` field).
    pub fn is_banff(self) -> bool {
        self.type_id() >= 29
    }
}

/// One emulated P-chain inner block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PInnerBlock {
    /// The block bytes (codec version first).
    pub bytes: Vec<u8>,
    /// `sha256(bytes)`.
    pub id: [u8; 32],
    /// The block type.
    pub kind: PKind,
    /// IDs of its txs, in block order.
    pub tx_ids: Vec<[u8; 32]>,
}

const P_PROPOSAL: u64 = 0x7072_6f70;
const P_OPTION: u64 = 0x006f_7074;
const P_ATOMIC: u64 = 0x6174_6f6d;

fn reserved(cfg: &PChainConfig, height: u64) -> bool {
    slot(cfg, height).is_some() || height.checked_sub(1).is_some_and(|h| slot(cfg, h).is_some())
}

fn candidate(seed: u64, cfg: &PChainConfig, height: u64) -> bool {
    !reserved(cfg, height)
        && !reserved(cfg, height + 1)
        && derive(seed, cfg.network as u64, height, P_PROPOSAL).is_multiple_of(6)
}

fn is_proposal(seed: u64, cfg: &PChainConfig, height: u64) -> bool {
    if slot(cfg, height).is_some() {
        return height < cfg.banff_height || p_rewards::ends_at(seed, cfg, height);
    }
    candidate(seed, cfg, height) && !height.checked_sub(1).is_some_and(|h| candidate(seed, cfg, h))
}

/// The block type at `height`: a pure function of the seed, the height and the config.
pub fn kind_at(seed: u64, height: u64, cfg: &PChainConfig) -> PKind {
    let banff = height >= cfg.banff_height;
    if is_proposal(seed, cfg, height) {
        return if banff { PKind::BanffProposal } else { PKind::ApricotProposal };
    }
    if let Some(prev) = height.checked_sub(1).filter(|&h| is_proposal(seed, cfg, h)) {
        // Stake proposals commit; the others abort one time in four.
        let abort = slot(cfg, prev).is_none() && derive(seed, cfg.network as u64, height, P_OPTION).is_multiple_of(4);
        return match (banff, abort) {
            (false, false) => PKind::ApricotCommit,
            (false, true) => PKind::ApricotAbort,
            (true, false) => PKind::BanffCommit,
            (true, true) => PKind::BanffAbort,
        };
    }
    if banff {
        PKind::BanffStandard
    } else if slot(cfg, height).is_none() && derive(seed, cfg.network as u64, height, P_ATOMIC).is_multiple_of(3) {
        PKind::ApricotAtomic
    } else {
        PKind::ApricotStandard
    }
}

/// Every stake of the world with the height of the block that carries it.
pub fn stake_heights(seed: u64, cfg: &PChainConfig) -> Vec<(u64, Stake)> {
    let start = |k: usize| p_rewards::start_height(seed, cfg, k);
    stakes::stakes(seed, cfg.network).into_iter().enumerate().map(|(k, s)| (start(k), s)).collect()
}

/// Writes a block: `kind`'s header fields and its txs (block form, no codec versions). For a
/// proposal block the last tx is the proposal tx; a Banff proposal puts the others before
/// `parentID` as its decision txs. Apricot Proposal/Atomic blocks take exactly one tx; options
/// none.
pub fn encode_block(kind: PKind, parent_id: &[u8; 32], height: u64, time_unix_s: u64, txs: &[Vec<u8>]) -> Vec<u8> {
    let mut w = Writer::new();
    w.u16(0).u32(kind.type_id());
    match kind {
        PKind::ApricotProposal | PKind::ApricotAtomic => {
            assert_eq!(txs.len(), 1, "{kind:?} carries one tx");
            w.raw(parent_id).u64(height).raw(&txs[0]);
        }
        PKind::ApricotAbort | PKind::ApricotCommit => {
            w.raw(parent_id).u64(height);
        }
        PKind::ApricotStandard => {
            w.raw(parent_id).u64(height).u32(txs.len() as u32);
            for t in txs {
                w.raw(t);
            }
        }
        PKind::BanffProposal => {
            let (proposal, decisions) = txs.split_last().expect("a proposal tx");
            w.u64(time_unix_s).u32(decisions.len() as u32);
            for t in decisions {
                w.raw(t);
            }
            w.raw(parent_id).u64(height).raw(proposal);
        }
        PKind::BanffAbort | PKind::BanffCommit => {
            w.u64(time_unix_s).raw(parent_id).u64(height);
        }
        PKind::BanffStandard => {
            w.u64(time_unix_s).raw(parent_id).u64(height).u32(txs.len() as u32);
            for t in txs {
                w.raw(t);
            }
        }
    }
    w.into_bytes()
}

/// The inner P-chain block at `height` in the world of `seed`.
pub fn inner_block(seed: u64, height: u64, parent_id: [u8; 32], time_unix_s: u64, cfg: &PChainConfig) -> PInnerBlock {
    let kind = kind_at(seed, height, cfg);
    let mut g = Gen::new(seed, height, time_unix_s, cfg);
    let stake = p_rewards::started_at(seed, cfg, height);
    let reward = reward_at(seed, cfg, height);
    let txs: Vec<PTx> = match kind {
        PKind::ApricotAbort | PKind::ApricotCommit | PKind::BanffAbort | PKind::BanffCommit => Vec::new(),
        PKind::ApricotProposal => vec![match (&stake, reward) {
            (Some(s), _) => stake_tx(seed, cfg.network, s, false),
            (None, Some(r)) => r,
            (None, None) => g.apricot_proposal(),
        }],
        PKind::BanffProposal => vec![reward.unwrap_or_else(|| g.reward_validator())],
        PKind::ApricotAtomic => vec![g.atomic()],
        PKind::ApricotStandard => (0..g.rng.range(1, 3)).map(|_| g.apricot_decision()).collect(),
        PKind::BanffStandard => {
            let mut txs: Vec<PTx> = (0..g.rng.range(1, 3)).map(|_| g.banff_decision()).collect();
            if let Some(s) = &stake {
                txs.insert(0, stake_tx(seed, cfg.network, s, true));
            }
            if p_rewards::converts_at(seed, cfg, height) {
                txs.extend(super::p_l1::conversion(cfg.network).map(|c| c.tx));
            }
            txs
        }
    };
    let bytes_of: Vec<Vec<u8>> = txs.iter().map(PTx::bytes).collect();
    let tx_ids = bytes_of.iter().map(|t| codec::tx_id(t)).collect();
    let bytes = encode_block(kind, &parent_id, height, time_unix_s, &bytes_of);
    PInnerBlock { id: codec::sha256(&bytes), bytes, kind, tx_ids }
}

/// The id of stake `k`'s staking tx on the chain of `cfg` (Banff form when its block is a
/// Banff block, as [`super::pchain::inner_block`] writes it).
pub fn staker_tx_id(seed: u64, cfg: &PChainConfig, k: usize) -> [u8; 32] {
    let life = p_rewards::lifecycle(seed, cfg.network);
    let banff = p_rewards::start_height(seed, cfg, k) >= cfg.banff_height;
    codec::tx_id(&stake_tx(seed, cfg.network, &life.stakes[k], banff).bytes())
}

/// The RewardValidatorTx of the block at `height`, if it rewards a stake.
pub fn reward_at(seed: u64, cfg: &PChainConfig, height: u64) -> Option<PTx> {
    match p_rewards::event_at(seed, cfg, height)? {
        p_rewards::StakeEvent::End(k) => Some(p_rewards::reward_tx(staker_tx_id(seed, cfg, k))),
        p_rewards::StakeEvent::Start(_) | p_rewards::StakeEvent::ConvertL1 => None,
    }
}

/// The signed staking tx of stake `s` (AddPermissionlessValidator/Delegator when `banff`, else
/// AddValidator/AddDelegator). Its fields besides the stake's come from a generator seeded by
/// the stake alone, so its id does not depend on the block that carries it: the Data API's
/// `txHash` of the stake ([`stake_tx_id`]).
pub fn stake_tx(seed: u64, network: Network, s: &Stake, banff: bool) -> PTx {
    let cfg = PChainConfig { network, ..Default::default() };
    let mut g = Gen::new(seed, 0, s.start, &cfg);
    let node = u64::from_le_bytes(s.node_id[..8].try_into().expect("8 bytes"));
    g.rng = Rng::new("avax-data p stake tx", &[seed, network as u64, s.start, node, s.weight, u64::from(s.delegation)]);
    if banff {
        g.banff_stake(s)
    } else {
        g.apricot_stake(s)
    }
}

/// The id of stake `s`'s tx as the served P-chain carries it (Banff form, [`stake_tx`]).
pub fn stake_tx_id(seed: u64, network: Network, s: &Stake) -> [u8; 32] {
    codec::tx_id(&stake_tx(seed, network, s, true).bytes())
}

/// `rewards` of `network` (the world of `seed`) with each `txHash` the id of its stake's tx on
/// the emulated P-chain ([`stake_tx_id`]), so the pending rewards, validators and
/// delegators name the tx the P-chain index and the Data API's P-chain transactions hold.
pub fn with_p_chain_tx_hashes(
    seed: u64,
    network: Network,
    mut rewards: Vec<crate::world::rewards::PendingReward>,
) -> Vec<crate::world::rewards::PendingReward> {
    let ids: std::collections::HashMap<String, String> = stakes::stakes_cached(seed, network)
        .iter()
        .map(|s| (s.data_api_tx_hash.clone(), cb58::encode(&stake_tx_id(seed, network, s))))
        .collect();
    for r in &mut rewards {
        if let Some(id) = ids.get(&r.tx_hash) {
            r.tx_hash = id.clone();
        }
    }
    rewards
}

fn id_of(text: &str) -> [u8; 32] {
    cb58::decode_id(text).expect("constant ids are cb58")
}

/// Field values for the txs of one block.
struct Gen {
    rng: Rng,
    network_id: u32,
    avax: [u8; 32],
    x_chain: [u8; 32],
    c_chain: [u8; 32],
    time: u64,
}

impl Gen {
    fn new(seed: u64, height: u64, time: u64, cfg: &PChainConfig) -> Gen {
        let network = cfg.network;
        let c = match network {
            Network::Mainnet => C_CHAIN_MAINNET_ID,
            Network::Fuji => C_CHAIN_FUJI_ID,
        };
        Gen {
            rng: Rng::new("avax-data p block", &[seed, network as u64, height]),
            network_id: if network == Network::Mainnet { 1 } else { 5 },
            avax: id_of(avax_asset_id(network)),
            x_chain: id_of(network.x_chain_id()),
            c_chain: id_of(c),
            time,
        }
    }

    fn owners(&mut self) -> OutputOwners {
        let n = if self.rng.chance(1, 5) { 2 } else { 1 };
        let mut addresses: Vec<[u8; 20]> = (0..n).map(|_| self.rng.array()).collect();
        addresses.sort();
        OutputOwners { locktime: 0, threshold: 1, addresses }
    }

    fn avax_out(&mut self, amount: u64) -> TransferableOutput {
        TransferableOutput { asset_id: self.avax, output: Output::Transfer { amount, owners: self.owners() } }
    }

    fn avax_in(&mut self, amount: u64) -> TransferableInput {
        let transfer = Input::Transfer { amount, sig_indices: vec![0] };
        let input = if self.rng.chance(1, 12) {
            Input::StakeableLock { locktime: self.time + self.rng.range(86_400, 31_536_000), input: Box::new(transfer) }
        } else {
            transfer
        };
        TransferableInput {
            tx_id: self.rng.array(),
            output_index: self.rng.range(0, 3) as u32,
            asset_id: self.avax,
            input,
        }
    }

    /// The fee of a tx of `type_id` with `n_in` inputs and `n_out` outputs at this block's time
    /// ([`fees::p_fee`]; the gas price is drawn in both eras, so the draws do not shift at Etna).
    fn fee(&mut self, type_id: u32, n_in: u64, n_out: u64) -> u64 {
        let gas_price = self.rng.range(1, fees::P_MAX_GAS_PRICE);
        fees::p_fee(type_id, self.time, n_in, n_out, gas_price)
    }

    /// `n` inputs of random amounts, the first raised by `covering`; with their sum.
    fn avax_inputs(&mut self, n: u64, covering: u64) -> (Vec<TransferableInput>, u64) {
        let (mut inputs, mut total) = (Vec::new(), 0);
        for k in 0..n {
            let amount = self.rng.range(1_000_000, 5_000_000_000_000) + if k == 0 { covering } else { 0 };
            total += amount;
            inputs.push(self.avax_in(amount));
        }
        (inputs, total)
    }

    /// `n` outputs to random owners whose amounts (each at least 1) sum to `total` (`>= n`).
    fn change(&mut self, total: u64, n: u64) -> Vec<TransferableOutput> {
        let mut left = total;
        (0..n)
            .map(|k| {
                let amount = if k + 1 == n { left } else { self.rng.range(1, left - (n - 1 - k)) };
                left -= amount;
                self.avax_out(amount)
            })
            .collect()
    }

    /// A BaseTx with `inputs` and `outputs`, a memo one time in ten.
    fn base_of(&mut self, inputs: Vec<TransferableInput>, outputs: Vec<TransferableOutput>) -> BaseTx {
        let memo = if self.rng.chance(1, 10) { b"avax-data".to_vec() } else { Vec::new() };
        BaseTx { network_id: self.network_id, blockchain_id: [0; 32], outputs, inputs, memo }
    }

    /// The BaseTx of a tx of `type_id`: `n_in` inputs that pay its fee and `kept` (what its body
    /// stakes or exports, in `kept_outputs` outputs) and return the rest as `n_out` change
    /// outputs; the credentials to match.
    fn base(
        &mut self,
        type_id: u32,
        (n_in, n_out): (u64, u64),
        (kept, kept_outputs): (u64, u64),
    ) -> (BaseTx, Vec<Credential>) {
        let fee = self.fee(type_id, n_in, n_out + kept_outputs);
        let (inputs, total) = self.avax_inputs(n_in, fee + kept);
        let outputs = self.change(total - fee - kept, n_out);
        let credentials = (0..n_in).map(|_| self.rng.credential(1)).collect();
        (self.base_of(inputs, outputs), credentials)
    }

    fn with_auth(&mut self, mut credentials: Vec<Credential>) -> Vec<Credential> {
        credentials.push(self.rng.credential(1));
        credentials
    }

    fn stake_parts(
        &mut self,
        type_id: u32,
        s: &Stake,
    ) -> (BaseTx, Vec<Credential>, Validator, Vec<TransferableOutput>, OutputOwners) {
        let (base, credentials) = self.base(type_id, (1, 1), (s.weight, 1));
        let owners = OutputOwners { locktime: 0, threshold: 1, addresses: s.reward_addresses.clone() };
        let stake = vec![TransferableOutput {
            asset_id: self.avax,
            output: Output::Transfer { amount: s.weight, owners: owners.clone() },
        }];
        let validator = Validator { node_id: s.node_id, start: s.start, end: s.end, weight: s.weight };
        (base, credentials, validator, stake, owners)
    }

    fn apricot_stake(&mut self, s: &Stake) -> PTx {
        let (base, credentials, validator, stake, rewards_owner) =
            self.stake_parts(if s.delegation { 14 } else { 12 }, s);
        let (type_id, body) = if s.delegation {
            (14, PTxBody::AddDelegator { validator, stake, rewards_owner })
        } else {
            (12, PTxBody::AddValidator { validator, stake, rewards_owner, shares: DELEGATION_SHARES })
        };
        p_tx(type_id, Some(base), body, credentials)
    }

    fn banff_stake(&mut self, s: &Stake) -> PTx {
        let (base, credentials, validator, stake, owners) = self.stake_parts(if s.delegation { 26 } else { 25 }, s);
        let (type_id, body) = if s.delegation {
            (26, PTxBody::AddPermissionlessDelegator { validator, subnet_id: [0; 32], stake, rewards_owner: owners })
        } else {
            let signer = Signer::ProofOfPossession { public_key: self.rng.array(), signature: self.rng.array() };
            let body = PTxBody::AddPermissionlessValidator {
                validator,
                subnet_id: [0; 32],
                signer,
                stake,
                validator_rewards_owner: owners.clone(),
                delegator_rewards_owner: owners,
                shares: DELEGATION_SHARES,
            };
            (25, body)
        };
        p_tx(type_id, Some(base), body, credentials)
    }

    fn reward_validator(&mut self) -> PTx {
        p_tx(20, None, PTxBody::RewardValidator { staker_tx_id: self.rng.array() }, Vec::new())
    }

    fn subnet_validator(&mut self) -> PTx {
        let (base, credentials) = self.base(13, (1, 1), (0, 0));
        let start = self.time + self.rng.range(60, 86_400);
        let validator = Validator {
            node_id: self.rng.array(),
            start,
            end: start + self.rng.range(86_400, 31_536_000),
            weight: self.rng.range(1, 100),
        };
        let body = PTxBody::AddSubnetValidator { validator, subnet_id: self.rng.array(), subnet_auth: vec![0] };
        p_tx(13, Some(base), body, self.with_auth(credentials))
    }

    fn apricot_proposal(&mut self) -> PTx {
        match self.rng.range(0, 2) {
            0 => p_tx(19, None, PTxBody::AdvanceTime { time: self.time }, Vec::new()),
            1 => self.reward_validator(),
            _ => self.subnet_validator(),
        }
    }

    fn atomic(&mut self) -> PTx {
        let from = if self.rng.chance(1, 2) { self.x_chain } else { self.c_chain };
        if self.rng.chance(1, 2) {
            // The imported inputs pay the fee; the rest is the BaseTx's one output.
            let n = self.rng.range(1, 2);
            let fee = self.fee(17, n, 1);
            let (inputs, total) = self.avax_inputs(n, fee);
            let outputs = self.change(total - fee, 1);
            let base = self.base_of(Vec::new(), outputs);
            let credentials = (0..n).map(|_| self.rng.credential(1)).collect();
            p_tx(17, Some(base), PTxBody::Atomic(Atomic::Import { source_chain: from, inputs }), credentials)
        } else {
            let amount = self.rng.range(1_000_000, 9_000_000_000_000);
            let (base, credentials) = self.base(18, (1, 1), (amount, 1));
            let outputs = vec![self.avax_out(amount)];
            p_tx(18, Some(base), PTxBody::Atomic(Atomic::Export { destination_chain: from, outputs }), credentials)
        }
    }

    fn create_subnet(&mut self) -> PTx {
        let (base, credentials) = self.base(16, (1, 1), (0, 0));
        let owner = self.owners();
        p_tx(16, Some(base), PTxBody::CreateSubnet { owner }, credentials)
    }

    fn create_chain(&mut self) -> PTx {
        let (base, credentials) = self.base(15, (1, 1), (0, 0));
        let names = ["dexalot", "beam", "dfk", "gunzilla", "shrapnel", "lamina1", "coqnet", "numbers"];
        let chain_name = names[self.rng.range(0, names.len() as u64 - 1) as usize].to_string();
        let genesis = format!(
            r#"{{"config":{{"chainId":{},"feeConfig":{{"gasLimit":15000000}}}},"alloc":{{}},"gasLimit":"0xe4e1c0"}}"#,
            self.rng.range(10_000, 999_999)
        );
        let body = PTxBody::CreateChain {
            subnet_id: self.rng.array(),
            chain_name,
            vm_id: id_of(SUBNET_EVM_VM_ID),
            fx_ids: Vec::new(),
            genesis: genesis.into_bytes(),
            subnet_auth: vec![0],
        };
        p_tx(15, Some(base), body, self.with_auth(credentials))
    }

    fn apricot_decision(&mut self) -> PTx {
        match self.rng.range(0, 5) {
            0 => self.create_subnet(),
            1 => self.create_chain(),
            _ => self.atomic(),
        }
    }

    fn banff_decision(&mut self) -> PTx {
        match self.rng.range(0, 7) {
            0 => self.create_subnet(),
            1 => self.create_chain(),
            2 => self.subnet_validator(),
            3 => {
                let (base, credentials) = self.base(23, (1, 1), (0, 0));
                let body = PTxBody::RemoveSubnetValidator {
                    node_id: self.rng.array(),
                    subnet_id: self.rng.array(),
                    subnet_auth: vec![0],
                };
                p_tx(23, Some(base), body, self.with_auth(credentials))
            }
            4 => {
                let (base, credentials) = self.base(33, (1, 1), (0, 0));
                let owner = self.owners();
                let body =
                    PTxBody::TransferSubnetOwnership { subnet_id: self.rng.array(), subnet_auth: vec![0], owner };
                p_tx(33, Some(base), body, self.with_auth(credentials))
            }
            5 => {
                let n_in = self.rng.range(1, 2);
                let (base, credentials) = self.base(34, (n_in, 2), (0, 0));
                p_tx(34, Some(base), PTxBody::Base, credentials)
            }
            _ => self.atomic(),
        }
    }
}
