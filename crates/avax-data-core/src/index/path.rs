//! The five index paths a node serves.

use crate::error::{Error, Result};
use crate::named_enum;

named_enum! {
    /// One of the node's index paths (`/ext/index/<chain>/<kind>`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum IndexPath {
        /// `C/block`: C-chain blocks.
        CBlock => "C/block",
        /// `P/block`: P-chain blocks.
        PBlock => "P/block",
        /// `X/tx`: X-chain transactions.
        XTx => "X/tx",
        /// `X/block`: X-chain blocks (after Cortina).
        XBlock => "X/block",
        /// `X/vtx`: X-chain vertices (frozen since Cortina).
        XVtx => "X/vtx",
    }
    /// All five, in a fixed order.
    ALL;
    /// The short name, e.g. `C/block`.
    fn as_str;
}

impl IndexPath {
    /// The URL path, e.g. `/ext/index/C/block`.
    pub fn url_path(self) -> String {
        format!("/ext/index/{}", self.as_str())
    }

    /// Parses `C/block` or `/ext/index/C/block`, exactly as the node spells it (a path is
    /// case-sensitive on the node). A path that differs only in case is refused with the right
    /// spelling suggested.
    pub fn parse(text: &str) -> Result<Self> {
        let short = text.trim().trim_start_matches("/ext/index/").trim_matches('/');
        if let Some(path) = IndexPath::ALL.into_iter().find(|p| p.as_str() == short) {
            return Ok(path);
        }
        const ALLOWED: &str = "one of 'C/block', 'P/block', 'X/tx', 'X/block', 'X/vtx'";
        let allowed = match IndexPath::ALL.into_iter().find(|p| p.as_str().eq_ignore_ascii_case(short)) {
            Some(near) => format!("{ALLOWED} (paths are case-sensitive: did you mean '{near}'?)"),
            None => ALLOWED.to_string(),
        };
        Err(Error::invalid_text("path", text, allowed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        for p in IndexPath::ALL {
            assert_eq!(IndexPath::parse(p.as_str()).unwrap(), p);
            assert_eq!(IndexPath::parse(&p.url_path()).unwrap(), p);
        }
        let err = IndexPath::parse("c/block").unwrap_err().to_string();
        assert!(err.contains("path=\"c/block\"") && err.contains("did you mean 'C/block'?"), "{err}");
        let err = IndexPath::parse("/ext/index/x/TX").unwrap_err().to_string();
        assert!(err.contains("did you mean 'X/tx'?"), "{err}");
        let err = IndexPath::parse("Y/tx").unwrap_err().to_string();
        assert!(err.contains("path=\"Y/tx\"") && err.contains("'X/vtx'"), "{err}");
    }
}
