//! Keeps secrets out of URLs shown in errors, reprs, logs and cache files.
//!
//! The rule ([`redact_parsed`]): in a URL, the user name and the password (`https://user:pass@host`),
//! the value of any query parameter whose name holds `key` or is `token` or `secret`, and every
//! path segment that may be a credential are replaced by `***`. A path segment is taken for a
//! credential (the RPC providers' style, `https://host/ext/bc/C/rpc/<token>`,
//! `https://host/<token>/ext/bc/C/rpc`, `https://host/v3/<key>`) when it follows a segment `rpc`
//! or `ws` (unless it is `ext`, where a path the client appends starts), or when it looks like a key: at least [`KEY_SEGMENT_MIN`] characters of letters,
//! digits, `-` and `_`, with a letter and a digit, and not a public identifier (a `0x` hex
//! hash or address, a CB58 id with a valid checksum, optionally `NodeID-`, or a bech32 address,
//! optionally `P-`/`X-`/`C-`). Only the text shown is redacted: requests go to the URL as given.

use sha2::{Digest, Sha256};
use url::Url;

use crate::error::Error;

const SECRET_QUERY_KEYS: [&str; 6] = ["key", "apikey", "api_key", "api-key", "token", "secret"];

/// The shortest path segment that [`redact_parsed`] takes for a key by its look alone.
pub const KEY_SEGMENT_MIN: usize = 20;

/// The path segments after which the next segment is always a credential (`/ext/bc/C/rpc/<token>`).
const TOKEN_AFTER: [&str; 2] = ["rpc", "ws"];

/// What a secret in a URL is replaced with.
const HIDDEN: &str = "***";

/// The URL with its credentials (user name, password, secret-looking query values and path
/// segments, see the module's rule) replaced by `***`.
pub fn redact_url(text: &str) -> String {
    match Url::parse(text) {
        Ok(url) => redact_parsed(url),
        Err(_) => text.to_string(),
    }
}

/// A public identifier that may stand in a path: a `0x` hex hash or address, a CB58 id with its
/// checksum (optionally after `NodeID-`), or a bech32 address (optionally after a chain letter).
fn public_id(segment: &str) -> bool {
    if let Some(hex) = segment.strip_prefix("0x").or_else(|| segment.strip_prefix("0X")) {
        return hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let cb58 = segment.strip_prefix("NodeID-").unwrap_or(segment);
    if let Ok(raw) = bs58::decode(cb58).into_vec() {
        if raw.len() > 4 {
            let (data, check) = raw.split_at(raw.len() - 4);
            if Sha256::digest(data)[28..] == *check {
                return true;
            }
        }
    }
    let bare = ["P-", "X-", "C-"].iter().find_map(|p| segment.strip_prefix(p)).unwrap_or(segment);
    bech32::primitives::decode::CheckedHrpstring::new::<bech32::Bech32>(bare).is_ok()
}

/// Whether a path segment looks like a key or token (the module's rule), by its text alone.
pub fn looks_like_key(segment: &str) -> bool {
    segment.len() >= KEY_SEGMENT_MIN
        && segment.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && segment.bytes().any(|b| b.is_ascii_alphabetic())
        && segment.bytes().any(|b| b.is_ascii_digit())
        && !public_id(segment)
}

/// Whether each segment of `path` (split at `/`) is a credential by the module's rule.
fn credential_segments(path: &str) -> impl Iterator<Item = (&str, bool)> {
    let mut after_token_marker = false;
    path.split('/').map(move |segment| {
        // `ext` after `rpc` is the start of a path this client appended (`.../rpc/ext/index/...`).
        let secret = !segment.is_empty() && ((after_token_marker && segment != "ext") || looks_like_key(segment));
        after_token_marker = TOKEN_AFTER.iter().any(|t| segment.eq_ignore_ascii_case(t));
        (segment, secret)
    })
}

/// The path with its credential segments replaced by `***`; `None` when none is.
fn redacted_path(path: &str) -> Option<String> {
    let mut changed = false;
    let segments: Vec<&str> = credential_segments(path)
        .map(|(segment, secret)| {
            changed |= secret;
            if secret {
                HIDDEN
            } else {
                segment
            }
        })
        .collect();
    changed.then(|| segments.join("/"))
}

/// The credentials a URL carries, to be redacted also where a server echoes them (error
/// bodies): the password, the user name when it is the only credential (`https://<token>@host`)
/// or looks like a key (a plain name such as `admin` would blank out ordinary words; the URL
/// itself is always shown with `***` for it), and the path segments [`redact_parsed`] hides.
pub fn url_secrets(url: &Url) -> Vec<String> {
    let password = url.password().unwrap_or("");
    let user = url.username();
    let user_is_secret = password.is_empty() || looks_like_key(user);
    let mut out: Vec<String> = [if user_is_secret { user } else { "" }, password]
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    out.extend(credential_segments(url.path()).filter(|(_, secret)| *secret).map(|(s, _)| s.to_string()));
    out
}

/// The name of the service at `url` in the cache's keys: its redacted text, then `#` and the
/// first 16 hex digits of the sha256 of the URL as given, so two URLs that differ only in a
/// secret are two services and the secret never reaches the disk.
pub fn keyed_url(url: &str) -> String {
    let digest = hex::encode(Sha256::digest(url.trim_end_matches('/').as_bytes()));
    format!("{}#{}", redact_url(url).trim_end_matches('/'), &digest[..16])
}

/// [`redact_url`] of a URL already parsed (a request's own URL: no second parse per request).
pub fn redact_parsed(mut url: Url) -> String {
    if !url.username().is_empty() {
        let _ = url.set_username(HIDDEN);
    }
    if url.password().is_some() {
        let _ = url.set_password(Some(HIDDEN));
    }
    if let Some(path) = redacted_path(url.path()) {
        url.set_path(&path);
    }
    if url.query().is_some() {
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(k, v)| {
                let secret = SECRET_QUERY_KEYS.iter().any(|s| k.eq_ignore_ascii_case(s))
                    || k.to_ascii_lowercase().contains("key");
                (k.into_owned(), if secret { "***".to_string() } else { v.into_owned() })
            })
            .collect();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url.to_string()
}

/// What a secret is replaced with in bodies and messages.
pub const REDACTED: &str = "[redacted]";

/// Replaces every occurrence of each secret in `text` with `[redacted]`: as written, and in the
/// forms a server echoing it may use (percent-encoded, JSON-escaped). Secrets shorter than 4
/// bytes are left alone (they would blank out ordinary text).
pub fn redact_secrets(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets.iter().filter(|s| s.len() >= 4) {
        let encoded: String = url::form_urlencoded::byte_serialize(secret.as_bytes()).collect();
        let json = serde_json::to_string(secret).unwrap_or_default();
        let json = json.trim_matches('"').to_string();
        for form in [secret.clone(), encoded, json] {
            if !form.is_empty() && out.contains(form.as_str()) {
                out = out.replace(form.as_str(), REDACTED);
            }
        }
    }
    out
}

/// `err` with `redact` applied to every text it carries that may hold what a server sent or a
/// URL (messages, bodies, URLs, tokens).
pub fn redact_error(err: Error, redact: impl Fn(&str) -> String) -> Error {
    let r = |s: String| redact(&s);
    match err {
        Error::Transport { kind, message, method, url } => {
            Error::Transport { kind, message: r(message), method, url: r(url) }
        }
        Error::Http { status, body, method, url, retry_after } => {
            Error::Http { status, body: r(body), method, url: r(url), retry_after }
        }
        Error::Redirect { kind, status, method, from, to, hops } => {
            Error::Redirect { kind, status, method, from: r(from), to: r(to), hops }
        }
        Error::BodyTooLarge { limit, method, url } => Error::BodyTooLarge { limit, method, url: r(url) },
        Error::IndexDisabled { url, body } => Error::IndexDisabled { url: r(url), body: r(body) },
        Error::Rpc { kind, code, message, method, url } => {
            Error::Rpc { kind, code, message: r(message), method, url: r(url) }
        }
        Error::Integrity { message, url } => Error::Integrity { message: r(message), url: r(url) },
        Error::PageToken { token, items_read, message, status, body, url } => {
            Error::PageToken { token: r(token), items_read, message: r(message), status, body: r(body), url: r(url) }
        }
        Error::PageTokenLoop { token, pages } => Error::PageTokenLoop { token: r(token), pages },
        Error::Decode { message, url, body } => Error::Decode { message: r(message), url: r(url), body: r(body) },
        Error::Internal(message) => Error::Internal(r(message)),
        other @ (Error::InvalidArgument { .. }
        | Error::Authentication { .. }
        | Error::Closed
        | Error::Superseded
        | Error::Interrupted
        | Error::ContainerDecode { .. }
        | Error::DatasetLocked { .. }
        | Error::File { .. }) => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_key_parameters_are_hidden() {
        assert_eq!(
            redact_url("https://user:hunter2@host/x?apiKey=abc&page=2"),
            "https://***:***@host/x?apiKey=***&page=2"
        );
        assert_eq!(redact_url("http://127.0.0.1:9650/ext/index/X/tx"), "http://127.0.0.1:9650/ext/index/X/tx");
        assert_eq!(redact_secrets("bad key s3cr3t-key here", &["s3cr3t-key".into()]), "bad key [redacted] here");
        let secrets = vec!["a b/\"c".to_string(), "xy".to_string()];
        assert_eq!(
            redact_secrets(r#"{"k":"a b/\"c","q":"a+b%2F%22c","xy":1}"#, &secrets),
            r#"{"k":"[redacted]","q":"[redacted]","xy":1}"#
        );
    }

    #[test]
    fn a_parsed_url_is_shown_as_its_text_is() {
        for text in [
            "https://user:hunter2@host:8443/v1/chains/43114/blocks",
            "http://127.0.0.1:9650/ext/index/X/tx",
            "http://[::1]/x/y%20z?a=1&b=%22q%22",
            "https://h\u{00e9}st.example/p?pageToken=t%2B1&api_key=s&x=a+b",
            "http://h/p?Token=x&keyring=y&page=&=v",
        ] {
            let mut url = Url::parse(text).unwrap();
            assert_eq!(redact_parsed(url.clone()), redact_url(text), "{text}");
            // As a request builds it: query pairs appended to the parsed URL.
            url.query_pairs_mut().extend_pairs([("pageSize", "100"), ("apiKey", "k e\"y"), ("pageToken", "a/b+c")]);
            assert_eq!(redact_parsed(url.clone()), redact_url(url.as_str()), "{url}");
            assert!(redact_parsed(url).contains("apiKey=***&"), "the key's value is hidden");
        }
    }

    #[test]
    fn credentials_in_the_userinfo_and_the_path_are_hidden() {
        for (given, shown) in [
            ("https://alice:s3cret@host/ext/index/X/tx", "https://***:***@host/ext/index/X/tx"),
            ("https://0123456789abcdef0123456789abcdef@host/v1", "https://***@host/v1"),
            ("https://node.example/ext/bc/C/rpc/tok", "https://node.example/ext/bc/C/rpc/***"),
            ("https://node.example/ext/bc/C/ws/Abc/more", "https://node.example/ext/bc/C/ws/***/more"),
            ("https://n.example/ext/bc/C/rpc/tok/ext/index/X/tx", "https://n.example/ext/bc/C/rpc/***/ext/index/X/tx"),
            (
                "https://x.quiknode.pro/9f8e7d6c5b4a39281706f5e4d3c2b1a098765432/ext/bc/C/rpc",
                "https://x.quiknode.pro/***/ext/bc/C/rpc",
            ),
            (
                "https://avalanche-mainnet.infura.io/v3/0123456789abcdef0123456789abcdef",
                "https://avalanche-mainnet.infura.io/v3/***",
            ),
            (
                "https://avax-mainnet.g.alchemy.com/v2/Ab_cD-12eF34gH56iJ78kL90",
                "https://avax-mainnet.g.alchemy.com/v2/***",
            ),
        ] {
            assert_eq!(redact_url(given), shown, "{given}");
            let secrets = url_secrets(&Url::parse(given).unwrap());
            assert!(!secrets.is_empty(), "{given}");
            assert!(secrets.iter().all(|s| !shown.contains(s.as_str())), "{given}: {secrets:?}");
        }
        // A plain user name beside a password is shown as *** in URLs but not blanked out in texts.
        assert_eq!(url_secrets(&Url::parse("https://admin:pw12345@h/x").unwrap()), vec!["pw12345".to_string()]);
        assert_eq!(url_secrets(&Url::parse("https://tok@h/x").unwrap()), vec!["tok".to_string()]);
    }

    #[test]
    fn public_ids_in_a_path_are_shown() {
        for path in [
            "http://127.0.0.1:9650/ext/index/C/block",
            "https://glacier-api.avax.network/v1/chains/43114/blocks/12",
            "https://h/v1/chains/43114/transactions/0x8a2c3c9fbd16cd2d89e5f5bb6d4e0ea4c01f1ad86bcd05bd6fb7a2ed55d3a9c1",
            "https://h/v1/networks/mainnet/blockchains/2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM/blocks/x",
            "https://h/v1/networks/mainnet/blockchains/11111111111111111111111111111111LpoYY/transactions",
            "https://h/v1/networks/mainnet/validators/NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg",
            "https://h/v2/chains/43114/metrics/txCount",
            "http://127.0.0.1:9650/ext/bc/C/rpc/ext/index/C/block",
        ] {
            assert_eq!(redact_url(path), path);
        }
        let address = bech32::encode::<bech32::Bech32>(bech32::Hrp::parse("avax").unwrap(), &[7; 20]).unwrap();
        for path in [format!("https://h/v1/networks/fuji/addresses/{address}"), format!("https://h/x/P-{address}")] {
            assert_eq!(redact_url(&path), path);
        }
        // A CB58 text whose checksum fails is not an id: it may be a key.
        assert!(looks_like_key("2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByN"));
    }

    #[test]
    fn the_cache_name_of_a_url_hides_its_secret_and_tells_secrets_apart() {
        let one = keyed_url("https://h/ext/bc/C/rpc/token-one");
        let two = keyed_url("https://h/ext/bc/C/rpc/token-two");
        assert!(one.starts_with("https://h/ext/bc/C/rpc/***#") && two.starts_with("https://h/ext/bc/C/rpc/***#"));
        assert_ne!(one, two, "two secrets, two services");
        assert!(!one.contains("token-one"));
        assert_eq!(keyed_url("https://h/"), keyed_url("https://h"));
    }
}
