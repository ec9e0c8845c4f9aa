//! The world's ERC-20 tokens and the transfers their contracts carry.
//!
//! A few token contracts live on the C-chains ([`TOKENS`]: three on Mainnet, one on Fuji). About
//! one in five non-creating transactions of such a chain is a `transfer(to, amount)` call to one
//! of its tokens ([`erc20_call`], decided in [`super::tx_facts`]): the transaction's `to` is the
//! token contract, its native value is 0, its input is the call (selector `0xa9059cbb`, the
//! recipient, the amount: [`call_data`]) and it emits one `Transfer` log (its `logIndex` counts the
//! block's earlier transfers). So an address's ERC-20 transfers, a token's transfers and the
//! transactions of the world's blocks are the same facts. Every address of a chain's pool holds
//! [`GENESIS_UNITS`] whole tokens of each of the chain's tokens at genesis; its balance after a
//! block follows from the transfers up to it ([`super::DataWorld::erc20_balance`]); a failed
//! transaction's call emits no log and moves nothing.
//!
//! **The spam token** ([`SPAM_TOKEN`], on Mainnet's C-Chain): one in twenty transfer calls goes to
//! it, and each of its `Transfer` logs carries 2^256-1 ([`SPAM_VALUE`], the whole `uint256`
//! range), as airdropped scam tokens do: its contract emits the logs without moving any balance,
//! so nobody holds it ([`Token::genesis_balance`] 0) and its `tokenReputation` is `Malicious`.

use std::sync::OnceLock;

use super::{derive, pow10, range, zipf, P_TX};

/// Whole tokens each pool address holds of every token of its chain at genesis (enough that no
/// address ever runs dry).
pub const GENESIS_UNITS: u128 = 1_000_000_000;

/// The ERC-20 `transfer(address,uint256)` selector.
pub const TRANSFER_SELECTOR: [u8; 4] = [0xa9, 0x05, 0x9c, 0xbb];

/// One ERC-20 token contract of the world.
#[derive(Debug, PartialEq, Eq)]
pub struct Token {
    /// The EVM chain the contract lives on.
    pub evm_chain_id: u64,
    /// The contract address, `0x` + 40 lowercase hex.
    pub address: &'static str,
    /// `name()`.
    pub name: &'static str,
    /// `symbol()`.
    pub symbol: &'static str,
    /// `decimals()`.
    pub decimals: u32,
    /// Whether it is the spam token (transfers of 2^256-1 that move no balance).
    pub spam: bool,
}

impl Token {
    /// The contract address as 20 bytes (decoded once for every token of [`TOKENS`]).
    pub fn address_bytes(&self) -> [u8; 20] {
        static BYTES: OnceLock<Vec<[u8; 20]>> = OnceLock::new();
        let decode = |t: &Token| {
            let mut out = [0u8; 20];
            hex::decode_to_slice(&t.address[2..], &mut out).expect("a token address is 20 bytes of hex");
            out
        };
        match TOKENS.iter().position(|t| std::ptr::eq(t, self)) {
            Some(i) => BYTES.get_or_init(|| TOKENS.iter().map(decode).collect())[i],
            None => decode(self),
        }
    }

    /// The balance (smallest units) every pool address of the chain starts with (0 of the spam
    /// token).
    pub fn genesis_balance(&self) -> u128 {
        if self.spam {
            0
        } else {
            GENESIS_UNITS * 10u128.pow(self.decimals)
        }
    }

    /// The Data API's `tokenReputation`: `Malicious` for the spam token, else `Benign`.
    pub fn reputation(&self) -> &'static str {
        if self.spam {
            "Malicious"
        } else {
            "Benign"
        }
    }
}

/// The value every transfer of the spam token carries: 2^256-1, in decimal.
pub const SPAM_VALUE: &str = "115792089237316195423570985008687907853269984665640564039457584007913129639935";

/// The spam token: its position in [`TOKENS`].
pub const SPAM_TOKEN: usize = 4;

/// Every token of the world (fixed, not seed dependent).
pub static TOKENS: [Token; 5] = [
    Token {
        evm_chain_id: 43114,
        address: "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b30",
        name: "Emulated USD Coin",
        symbol: "eUSDC",
        decimals: 6,
        spam: false,
    },
    Token {
        evm_chain_id: 43114,
        address: "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b31",
        name: "Emulated Wrapped AVAX",
        symbol: "eWAVAX",
        decimals: 18,
        spam: false,
    },
    Token {
        evm_chain_id: 43114,
        address: "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b33",
        name: "Emulated Tether USD",
        symbol: "eUSDT",
        decimals: 6,
        spam: false,
    },
    Token {
        evm_chain_id: 43113,
        address: "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b32",
        name: "Emulated Test Dollar",
        symbol: "eTUSD",
        decimals: 6,
        spam: false,
    },
    Token {
        evm_chain_id: 43114,
        address: "0x5e1c0e5e2d1a4b7f9c3e8d6a0b2f4c6e8a0d1b3f",
        name: "Claim Your Airdrop At emulator.invalid",
        symbol: "AIRDROP",
        decimals: 18,
        spam: true,
    },
];

/// The tokens on the chain with `evm_chain_id` (empty for a chain without any).
pub fn tokens_of(evm_chain_id: u64) -> Vec<&'static Token> {
    TOKENS.iter().filter(|t| t.evm_chain_id == evm_chain_id).collect()
}

/// The token of the world at `address` (any case) on `evm_chain_id`.
pub fn find_token(evm_chain_id: u64, address: &str) -> Option<&'static Token> {
    TOKENS.iter().find(|t| t.evm_chain_id == evm_chain_id && t.address.eq_ignore_ascii_case(address))
}

/// A `transfer(to, amount)` call: what a transaction's input says and its `Transfer` log reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Erc20Call {
    /// The token contract called (the transaction's `to`).
    pub token: &'static Token,
    /// The recipient's index in the shared address pool.
    pub to: u64,
    /// Amount in the token's smallest units (0.01 to 20,000 whole tokens); 0 for the spam token,
    /// whose call says [`SPAM_VALUE`] and moves nothing.
    pub amount: u128,
}

const P_ERC20: u64 = 0x0065_7263_3230;

/// The tokens of one chain sorted out once ([`chain_tokens`]): what [`erc20_call`] picks from
/// on every fifth transaction, without building a list per call.
struct ChainTokens {
    evm_chain_id: u64,
    /// The chain's tokens that are not spam, in [`TOKENS`] order.
    real: Vec<&'static Token>,
    /// The chain's spam token, if it has one.
    spam: Option<&'static Token>,
}

/// The [`ChainTokens`] of the chain `evm_chain_id`; `None` for a chain without tokens.
fn chain_tokens(evm_chain_id: u64) -> Option<&'static ChainTokens> {
    static TABLE: OnceLock<Vec<ChainTokens>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut ids: Vec<u64> = TOKENS.iter().map(|t| t.evm_chain_id).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter()
            .map(|id| {
                let (spam, real): (Vec<&Token>, Vec<&Token>) = tokens_of(id).into_iter().partition(|t| t.spam);
                ChainTokens { evm_chain_id: id, real, spam: spam.first().copied() }
            })
            .collect()
    });
    table.iter().find(|t| t.evm_chain_id == evm_chain_id)
}

/// Whether transaction `k` of block `number` of the chain `evm_chain_id` (a pool of `pool`
/// addresses) is a transfer call, and the call: about one in five, on a chain with tokens; one
/// call in twenty goes to the chain's spam token if it has one. The recipient is a Zipf-like
/// pick of the pool ([`super::zipf`]).
pub fn erc20_call(seed: u64, evm_chain_id: u64, pool: u64, number: u64, k: u32) -> Option<Erc20Call> {
    let key = number.wrapping_mul(1_000).wrapping_add(k as u64);
    let d = |p: u64| derive(seed, evm_chain_id, key, P_TX ^ P_ERC20 ^ (p << 32));
    // Four transactions in five make no call: decided before the chain's tokens are looked up.
    if d(1) % 5 != 0 {
        return None;
    }
    let tokens = chain_tokens(evm_chain_id).filter(|t| !t.real.is_empty())?;
    let token = match tokens.spam {
        Some(s) if d(5).is_multiple_of(20) => s,
        _ => tokens.real[(d(2) % tokens.real.len() as u64) as usize],
    };
    let to = zipf(d(3), pool);
    // Hundredths of a whole token: `r * 10^decimals / 100`, exact as `r * 10^(decimals - 2)`.
    let cents = range(d(4), 1, 2_000_000) as u128;
    let amount = match token.decimals.checked_sub(2) {
        _ if token.spam => 0,
        Some(e) => cents * pow10(e),
        None => cents * pow10(token.decimals) / 100,
    };
    Some(Erc20Call { token, to, amount })
}

/// The input of the call: the selector, the recipient's address and the amount, each argument
/// one 32-byte word (the ABI encoding).
pub fn call_data(call: &Erc20Call, recipient: [u8; 20]) -> Vec<u8> {
    let mut data = Vec::with_capacity(68);
    write_call_data(call, recipient, &mut data);
    data
}

/// Appends [`call_data`] to `data` (a transaction's reused input buffer).
pub fn write_call_data(call: &Erc20Call, recipient: [u8; 20], data: &mut Vec<u8>) {
    data.extend_from_slice(&TRANSFER_SELECTOR);
    data.extend_from_slice(&[0u8; 12]);
    data.extend_from_slice(&recipient);
    if call.token.spam {
        data.extend_from_slice(&[0xff; 32]);
    } else {
        data.extend_from_slice(&[0u8; 16]);
        data.extend_from_slice(&call.amount.to_be_bytes());
    }
}

/// One ERC-20 transfer as a transaction of the world carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erc20Transfer {
    /// The token whose contract emitted the `Transfer` log.
    pub token: &'static Token,
    /// The sender (the transaction's `from`).
    pub from: String,
    /// The recipient.
    pub to: String,
    /// Smallest units moved (0 for the spam token: see [`Erc20Transfer::value`]).
    pub amount: u128,
    /// Position of the `Transfer` log in the block.
    pub log_index: u32,
}

impl Erc20Transfer {
    /// The value the `Transfer` log carries, in decimal: the amount, or [`SPAM_VALUE`] for the
    /// spam token.
    pub fn value(&self) -> String {
        if self.token.spam {
            SPAM_VALUE.to_string()
        } else {
            self.amount.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_distinct_and_the_call_is_abi_encoded() {
        let addresses: std::collections::HashSet<_> = TOKENS.iter().map(|t| t.address).collect();
        assert_eq!(addresses.len(), TOKENS.len());
        assert_eq!(find_token(43114, &TOKENS[1].address.to_ascii_uppercase().replace("0X", "0x")), Some(&TOKENS[1]));
        assert_eq!(find_token(43113, TOKENS[1].address), None);
        let call = Erc20Call { token: &TOKENS[0], to: 3, amount: 0x0102 };
        let data = call_data(&call, [7u8; 20]);
        assert_eq!(data.len(), 4 + 32 + 32);
        assert_eq!(&data[..4], &TRANSFER_SELECTOR);
        assert_eq!(&data[16..36], &[7u8; 20]);
        assert_eq!(&data[66..], &[1, 2]);
        let calls: Vec<Erc20Call> = (0..4_000).filter_map(|n| erc20_call(5, 43114, 200, n, 0)).collect();
        assert!((600..1_000).contains(&calls.len()), "{}", calls.len());
        let spam: Vec<&Erc20Call> = calls.iter().filter(|c| c.token.spam).collect();
        assert!((10..80).contains(&spam.len()), "{}", spam.len());
        assert!(spam.iter().all(|c| c.amount == 0 && std::ptr::eq(c.token, &TOKENS[SPAM_TOKEN])));
        let max = call_data(spam[0], [7u8; 20]);
        assert_eq!(&max[36..], &[0xff; 32], "the spam call says 2^256-1");
        assert_eq!(SPAM_VALUE.parse::<f64>().unwrap(), 2f64.powi(256));
        assert_eq!(TOKENS[SPAM_TOKEN].genesis_balance(), 0);
        assert!((0..500).all(|n| erc20_call(5, 1, 200, n, 0).is_none()), "a chain without tokens has no calls");
    }
}
