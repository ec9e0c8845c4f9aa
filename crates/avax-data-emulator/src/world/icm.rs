//! The world's interchain (ICM / Teleporter) messages, newest first (served by
//! `data_api/icm.rs` as `GET /v1/icm/messages`).
//!
//! 300 messages per network between its `teleporter` chains ([`generate`]). Message `m` is sent by
//! a real transaction of the world: transaction `k` of a source block (its hash, sender and gas are
//! the `sourceTransaction` and `from`), so its timestamp is that block's timestamp. It is delivered
//! on the first destination block at least 3–40 s later; when no such block exists yet (past the
//! destination chain's tip), or for one in twelve, it is still `pending`; one in fifteen delivered
//! messages is `delivered_source_not_indexed` (no `sourceTransaction`). Nonces count up per source
//! chain in time order. `rewardDetails.value` is wei of the source chain's wrapped token (0 for
//! three in ten; most others above 2^64); `price.value` is a number.
//!

use serde_json::{json, Value};

use super::{
    block_transactions, chains, derive, digest, hex0x, pool_address, range, Chain, DataWorld, Feature, Network,
};

/// The Teleporter messenger contract (the same address on every chain).
pub const ICM_CONTRACT_ADDRESS: &str = "0x253b2784c75e510dd0ff1da844684a1ac0aa5fcf";

/// Messages generated per network.
pub const MESSAGES_PER_NETWORK: u64 = 300;

/// `status` of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IcmStatus {
    Pending,
    Delivered,
    DeliveredSourceNotIndexed,
}

impl IcmStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            IcmStatus::Pending => "pending",
            IcmStatus::Delivered => "delivered",
            IcmStatus::DeliveredSourceNotIndexed => "delivered_source_not_indexed",
        }
    }
}

/// The delivering transaction on the destination chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IcmDelivery {
    pub block: u64,
    pub tx_hash: String,
    /// Unix seconds (the destination block's timestamp).
    pub timestamp: i64,
    pub gas_spent: u64,
    pub reward_redeemer: String,
    pub deliverer: String,
}

/// One ICM message.
#[derive(Debug, Clone, PartialEq)]
pub struct IcmMessage {
    /// 64 hex digits, no `0x`.
    pub message_id: String,
    pub network: Network,
    pub source_evm_chain_id: u64,
    pub destination_evm_chain_id: u64,
    pub nonce: u64,
    pub from: String,
    pub to: String,
    /// `0x` hex payload.
    pub data: String,
    /// The source block and transaction index of the sending transaction.
    pub source_block: u64,
    pub source_tx_index: u32,
    pub source_tx_hash: String,
    /// Unix milliseconds of the source block (`sourceTransaction.timestamp` is this / 1000).
    pub source_timestamp_ms: i64,
    pub source_gas_spent: u64,
    pub status: IcmStatus,
    /// (receivedMessageNonce, relayerRewardAddress).
    pub receipts: Vec<(u64, String)>,
    pub receipt_delivered: bool,
    pub reward_token_address: String,
    pub reward_token_name: String,
    pub reward_token_symbol: String,
    /// USD price of the reward token.
    pub reward_price_usd: f64,
    /// Reward, wei of the reward token.
    pub reward_value: u128,
    pub delivery: Option<IcmDelivery>,
}

impl IcmMessage {
    /// Unix seconds of the source transaction.
    pub fn timestamp(&self) -> i64 {
        self.source_timestamp_ms.div_euclid(1000)
    }

    fn chain_ids(&self) -> (&'static Chain, &'static Chain) {
        (super::chain(self.source_evm_chain_id).unwrap(), super::chain(self.destination_evm_chain_id).unwrap())
    }

    /// As `PendingIcmMessage` / `DeliveredIcmMessage` / `DeliveredSourceNotIndexedIcmMessage` JSON.
    pub fn to_json(&self) -> Value {
        let (src, dst) = self.chain_ids();
        let mut v = json!({
            "messageId": self.message_id,
            "icmContractAddress": ICM_CONTRACT_ADDRESS,
            "sourceBlockchainId": src.blockchain_id,
            "destinationBlockchainId": dst.blockchain_id,
            "sourceEvmChainId": src.evm_chain_id.to_string(),
            "destinationEvmChainId": dst.evm_chain_id.to_string(),
            "messageNonce": self.nonce.to_string(),
            "from": self.from,
            "to": self.to,
            "data": self.data,
            "messageExecuted": self.status != IcmStatus::Pending,
            "receipts": self.receipts.iter().map(|(n, a)| json!({"receivedMessageNonce": n.to_string(), "relayerRewardAddress": a})).collect::<Vec<_>>(),
            "receiptDelivered": self.receipt_delivered,
            "rewardDetails": {
                "address": self.reward_token_address,
                "name": self.reward_token_name,
                "symbol": self.reward_token_symbol,
                "decimals": 18,
                "logoUri": format!("https://images.emulator.invalid/tokens/{}.png", self.reward_token_symbol.to_lowercase()),
                "ercType": "ERC-20",
                "price": {"currencyCode": "usd", "value": self.reward_price_usd},
                "value": self.reward_value.to_string(),
            },
            "status": self.status.as_str(),
        });
        if self.status != IcmStatus::DeliveredSourceNotIndexed {
            v["sourceTransaction"] = json!({
                "txHash": self.source_tx_hash,
                "timestamp": self.timestamp(),
                "gasSpent": self.source_gas_spent.to_string(),
            });
        }
        if let Some(d) = &self.delivery {
            v["destinationTransaction"] = json!({
                "txHash": d.tx_hash,
                "timestamp": d.timestamp,
                "gasSpent": d.gas_spent.to_string(),
                "rewardRedeemer": d.reward_redeemer,
                "delivererAddress": d.deliverer,
            });
        }
        v
    }
}

const P_ICM: u64 = 0x0069_636d;

/// Every ICM message of `world`, newest first (source timestamp, then message id, descending).
pub fn generate(world: &DataWorld) -> Vec<IcmMessage> {
    let seed = world.seed();
    let mut out = Vec::new();
    for network in Network::ALL {
        let tele: Vec<&Chain> =
            chains().iter().filter(|c| c.network == network && c.has(Feature::Teleporter)).collect();
        if tele.len() < 2 {
            continue;
        }
        for m in 0..MESSAGES_PER_NETWORK {
            let d = |p: u64| derive(seed, network.tag(), m, P_ICM + p);
            let s = (d(1) % tele.len() as u64) as usize;
            let t = (s + 1 + (d(2) % (tele.len() as u64 - 1)) as usize) % tele.len();
            let (src, dst) = (tele[s], tele[t]);
            // The first block at or after a random one that has a transaction.
            let mut block = d(3) % world.blocks_per_chain();
            // A message leaves from a transaction that succeeded.
            let succeeded = |block: u64| -> Vec<_> {
                block_transactions(seed, src.evm_chain_id, block).into_iter().filter(|t| !t.failed).collect()
            };
            let mut txs = succeeded(block);
            let mut tries = 0;
            while txs.is_empty() && tries < world.blocks_per_chain() {
                block = (block + 1) % world.blocks_per_chain();
                txs = succeeded(block);
                tries += 1;
            }
            let Some(tx) = txs.get((d(4) % txs.len().max(1) as u64) as usize).cloned() else { continue };
            let ts_ms = world.block_timestamp_ms(src, block);
            let arrival = ts_ms + range(d(5), 3_000, 40_000) as i64;
            let delivered_block = world.first_block_at_or_after(dst, arrival).filter(|_| d(6) % 12 != 0);
            let status = match delivered_block {
                None => IcmStatus::Pending,
                Some(_) if d(7) % 15 == 0 => IcmStatus::DeliveredSourceNotIndexed,
                Some(_) => IcmStatus::Delivered,
            };
            let delivery = delivered_block.map(|b| IcmDelivery {
                block: b,
                tx_hash: hex0x(&digest("avax-data icm delivery", &[seed, network.tag(), m])),
                timestamp: world.block_timestamp_ms(dst, b).div_euclid(1000),
                gas_spent: range(d(8), 150_000, 450_000),
                reward_redeemer: pool_address(range(d(9), 0, 19)),
                deliverer: pool_address(range(d(10), 0, 9)),
            });
            let payload_len = range(d(11), 1, 5) as usize;
            let data: Vec<u8> = (0..payload_len)
                .flat_map(|k| digest("avax-data icm data", &[seed, network.tag(), m, k as u64]))
                .collect();
            let reward_value = if d(12) % 10 < 3 {
                0
            } else {
                range(d(13), 1, 500) as u128 * 1_000_000_000_000_000_000 + (d(14) % 1_000_000_000_000_000_000) as u128
            };
            out.push(IcmMessage {
                message_id: hex::encode(digest("avax-data icm message", &[seed, network.tag(), m])),
                network,
                source_evm_chain_id: src.evm_chain_id,
                destination_evm_chain_id: dst.evm_chain_id,
                nonce: 0,
                from: tx.from.clone(),
                to: pool_address(range(d(15), 0, dst.address_pool - 1)),
                data: hex0x(&data),
                source_block: block,
                source_tx_index: tx.index,
                source_tx_hash: tx.hash.clone(),
                source_timestamp_ms: ts_ms,
                source_gas_spent: tx.gas_used,
                status,
                receipts: Vec::new(),
                receipt_delivered: status != IcmStatus::Pending && d(16) % 2 == 0,
                reward_token_address: hex0x(&digest("avax-data wrapped token", &[src.evm_chain_id])[..20]),
                reward_token_name: format!("Wrapped {}", src.token_name),
                reward_token_symbol: format!("W{}", src.token_symbol),
                reward_price_usd: ((derive(0, src.evm_chain_id, 0, P_ICM) % 5_000) as f64 + 1.0) / 100.0,
                reward_value,
                delivery,
            });
        }
    }
    // Nonces per source chain in time order; receipts name earlier nonces of the reverse route.
    out.sort_by(|a, b| {
        (a.source_evm_chain_id, a.source_timestamp_ms, &a.message_id).cmp(&(
            b.source_evm_chain_id,
            b.source_timestamp_ms,
            &b.message_id,
        ))
    });
    let mut last = (0u64, 0u64);
    for msg in out.iter_mut() {
        if last.0 != msg.source_evm_chain_id {
            last = (msg.source_evm_chain_id, 0);
        }
        last.1 += 1;
        msg.nonce = last.1;
        if msg.status != IcmStatus::Pending {
            let d = derive(seed, msg.source_evm_chain_id, msg.nonce, P_ICM + 99);
            msg.receipts = (0..d % 3)
                .filter(|k| msg.nonce > k + 1)
                .map(|k| (msg.nonce - k - 1, pool_address(range(derive(seed, msg.nonce, k, P_ICM + 98), 0, 9))))
                .collect();
        }
    }
    out.sort_by(|a, b| (b.source_timestamp_ms, &b.message_id).cmp(&(a.source_timestamp_ms, &a.message_id)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_come_from_real_transactions_in_all_states() {
        let w = DataWorld::new(6, 3_000);
        let all = w.icm_messages();
        assert!(all.len() >= 2 * MESSAGES_PER_NETWORK as usize - 5);
        for s in [IcmStatus::Pending, IcmStatus::Delivered, IcmStatus::DeliveredSourceNotIndexed] {
            assert!(all.iter().any(|m| m.status == s), "{s:?}");
        }
        assert!(all.windows(2).all(|p| p[0].source_timestamp_ms >= p[1].source_timestamp_ms));
        assert!(all.iter().any(|m| m.reward_value > u64::MAX as u128));
        for m in all.iter().take(50) {
            let src = super::super::chain(m.source_evm_chain_id).unwrap();
            let tx = &block_transactions(6, m.source_evm_chain_id, m.source_block)[m.source_tx_index as usize];
            assert_eq!(
                (tx.hash.as_str(), tx.from.as_str(), tx.gas_used),
                (m.source_tx_hash.as_str(), m.from.as_str(), m.source_gas_spent)
            );
            assert_eq!(m.source_timestamp_ms, w.block_timestamp_ms(src, m.source_block));
            assert_ne!(m.source_evm_chain_id, m.destination_evm_chain_id);
            if let Some(d) = &m.delivery {
                assert!(d.timestamp >= m.timestamp());
            }
        }
    }
}
