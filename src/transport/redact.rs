//! Keeps secrets out of URLs shown in errors, reprs and logs.

use url::Url;

const SECRET_QUERY_KEYS: [&str; 6] = ["key", "apikey", "api_key", "api-key", "token", "secret"];

/// The URL with any password and any secret-looking query value replaced by `***`.
pub fn redact_url(text: &str) -> String {
    let Ok(mut url) = Url::parse(text) else { return text.to_string() };
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

/// Replaces every occurrence of each secret in `text` with `***`.
pub fn redact_secrets(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets.iter().filter(|s| s.len() >= 4) {
        out = out.replace(secret.as_str(), "***");
    }
    out
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
        assert_eq!(redact_secrets("bad key s3cr3t-key here", &["s3cr3t-key".into()]), "bad key *** here");
    }
}
