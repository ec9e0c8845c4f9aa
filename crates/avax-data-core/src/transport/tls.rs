//! Trust roots: the platform's store and the bundled web roots (reqwest's built-in roots), plus
//! the PEM files the user names (`ca_bundle`, `SSL_CERT_FILE`).

use std::path::Path;

use reqwest::Certificate;

use crate::error::{Error, Result};

/// Reads every certificate of a PEM file; `param` names where the path came from.
pub fn load_pem(param: &str, path: &Path) -> Result<Vec<Certificate>> {
    let shown = path.display().to_string();
    let pem = std::fs::read(path)
        .map_err(|e| Error::invalid_text(param, &shown, format!("a readable PEM file of CA certificates ({e})")))?;
    let certs = Certificate::from_pem_bundle(&pem)
        .map_err(|e| Error::invalid_text(param, &shown, format!("a PEM file of CA certificates ({e})")))?;
    if certs.is_empty() {
        return Err(Error::invalid_text(param, &shown, "a PEM file holding at least one CA certificate"));
    }
    Ok(certs)
}

/// The extra roots to trust: `ca_bundle`, then `SSL_CERT_FILE` when set and not empty.
pub fn extra_roots(ca_bundle: Option<&Path>) -> Result<Vec<Certificate>> {
    let mut roots = Vec::new();
    if let Some(path) = ca_bundle {
        roots.extend(load_pem("ca_bundle", path)?);
    }
    if let Some(path) = std::env::var_os("SSL_CERT_FILE").filter(|p| !p.is_empty()) {
        roots.extend(load_pem("SSL_CERT_FILE", Path::new(&path))?);
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_or_empty_bundles_name_the_parameter() {
        let err = load_pem("ca_bundle", Path::new("/nonexistent/ca.pem")).unwrap_err().to_string();
        assert!(err.starts_with("invalid ca_bundle=\"/nonexistent/ca.pem\": a readable PEM file"), "{err}");
        let dir = std::env::temp_dir().join(format!("avax-data-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "no certificates here\n").unwrap();
        let err = load_pem("ca_bundle", &empty).unwrap_err().to_string();
        assert!(err.contains("at least one CA certificate"), "{err}");
    }
}
