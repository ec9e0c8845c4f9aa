//! Keeps secrets out of URLs shown in errors, reprs and logs.

use url::Url;

use crate::error::Error;

const SECRET_QUERY_KEYS: [&str; 6] = ["key", "apikey", "api_key", "api-key", "token", "secret"];

/// The URL with any password and any secret-looking query value replaced by `***`.
pub fn redact_url(text: &str) -> String {
    match Url::parse(text) {
        Ok(url) => redact_parsed(url),
        Err(_) => text.to_string(),
    }
}

/// [`redact_url`] of a URL already parsed (a request's own URL: no second parse per request).
pub fn redact_parsed(mut url: Url) -> String {
    if url.password().is_some() {
        let _ = url.set_password(Some("***"));
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
            "https://user:***@host/x?apiKey=***&page=2"
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
}
