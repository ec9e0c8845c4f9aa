//! The five index paths a node serves.

use crate::error::{Error, Result};

/// One of the node's index paths (`/ext/index/<chain>/<kind>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexPath {
    /// `C/block`: C-chain blocks.
    CBlock,
    /// `P/block`: P-chain blocks.
    PBlock,
    /// `X/tx`: X-chain transactions.
    XTx,
    /// `X/block`: X-chain blocks (after Cortina).
    XBlock,
    /// `X/vtx`: X-chain vertices (frozen since Cortina).
    XVtx,
}

impl IndexPath {
    /// All five, in a fixed order.
    pub const ALL: [IndexPath; 5] =
        [IndexPath::CBlock, IndexPath::PBlock, IndexPath::XTx, IndexPath::XBlock, IndexPath::XVtx];

    /// The short name, e.g. `C/block`.
    pub fn as_str(self) -> &'static str {
        match self {
            IndexPath::CBlock => "C/block",
            IndexPath::PBlock => "P/block",
            IndexPath::XTx => "X/tx",
            IndexPath::XBlock => "X/block",
            IndexPath::XVtx => "X/vtx",
        }
    }

    /// The URL path, e.g. `/ext/index/C/block`.
    pub fn url_path(self) -> String {
        format!("/ext/index/{}", self.as_str())
    }

    /// Parses `C/block`, `/ext/index/C/block`, `c/block` (case of the chain letter is free).
    pub fn parse(text: &str) -> Result<Self> {
        let short = text.trim().trim_start_matches("/ext/index/").trim_matches('/');
        let mut parts = short.splitn(2, '/');
        let chain = parts.next().unwrap_or("").to_ascii_uppercase();
        let kind = parts.next().unwrap_or("").to_ascii_lowercase();
        let path = match (chain.as_str(), kind.as_str()) {
            ("C", "block") => IndexPath::CBlock,
            ("P", "block") => IndexPath::PBlock,
            ("X", "tx") => IndexPath::XTx,
            ("X", "block") => IndexPath::XBlock,
            ("X", "vtx") => IndexPath::XVtx,
            _ => {
                return Err(Error::invalid(
                    "path",
                    format!("{text:?}"),
                    "one of 'C/block', 'P/block', 'X/tx', 'X/block', 'X/vtx'",
                ))
            }
        };
        Ok(path)
    }
}

impl std::fmt::Display for IndexPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
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
        assert_eq!(IndexPath::parse("c/block").unwrap(), IndexPath::CBlock);
        let err = IndexPath::parse("Y/tx").unwrap_err().to_string();
        assert!(err.contains("path=\"Y/tx\"") && err.contains("'X/vtx'"), "{err}");
    }
}
