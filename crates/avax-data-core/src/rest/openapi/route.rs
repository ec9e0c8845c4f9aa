//! Path templates: matching a request path to its operation, and filling a template.

use super::{service_operations, Operation, Service};

/// One `/`-separated piece of a template: a literal, or `prefix{name}suffix`.
#[derive(Debug, Clone)]
enum Piece {
    Literal(&'static str),
    Slot { prefix: &'static str, name: &'static str, suffix: &'static str },
}

/// A parsed path template (`/v1/chains/{chainId}/addresses/{address}/balances:listErc20`).
#[derive(Debug, Clone)]
pub(crate) struct Template {
    pieces: Vec<Piece>,
}

impl Template {
    /// Parses `path` (the documents put at most one `{name}` in a segment).
    pub(crate) fn parse(path: &'static str) -> Self {
        let pieces = path
            .trim_start_matches('/')
            .split('/')
            .map(|seg| match (seg.find('{'), seg.find('}')) {
                (Some(open), Some(close)) if open < close => {
                    Piece::Slot { prefix: &seg[..open], name: &seg[open + 1..close], suffix: &seg[close + 1..] }
                }
                _ => Piece::Literal(seg),
            })
            .collect();
        Template { pieces }
    }

    /// The slot names in order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Slot { name, .. } => Some(*name),
            Piece::Literal(_) => None,
        })
    }

    /// How well `path` (no query) matches: the literal characters matched and the captured
    /// segments (percent-decoded), or `None`.
    fn matches(&self, path: &str) -> Option<(usize, Vec<(&'static str, String)>)> {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        if segments.len() != self.pieces.len() {
            return None;
        }
        let (mut score, mut captured) = (0, Vec::new());
        for (piece, seg) in self.pieces.iter().zip(segments) {
            match *piece {
                Piece::Literal(lit) if lit == seg => score += lit.len(),
                Piece::Literal(_) => return None,
                Piece::Slot { prefix, name, suffix } => {
                    let middle = seg.strip_prefix(prefix)?.strip_suffix(suffix).filter(|m| !m.is_empty())?;
                    let value = percent_decode(middle)?;
                    score += prefix.len() + suffix.len();
                    captured.push((name, value));
                }
            }
        }
        Some((score, captured))
    }

    /// The path with each slot's value from `values` (by name; inserted as given).
    pub(crate) fn fill(&self, values: &[(&str, String)]) -> Option<String> {
        let mut out = String::new();
        for piece in &self.pieces {
            out.push('/');
            match *piece {
                Piece::Literal(lit) => out.push_str(lit),
                Piece::Slot { prefix, name, suffix } => {
                    let (_, value) = values.iter().find(|(n, _)| *n == name)?;
                    out.push_str(prefix);
                    out.push_str(value);
                    out.push_str(suffix);
                }
            }
        }
        Some(out)
    }
}

/// `%XX` sequences decoded; `None` when the result is not UTF-8 or a `%` is not followed by two
/// hex digits.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The GET operation of `service` whose template matches `path` (relative to the service root;
/// a query or fragment is ignored), with its path parameters by wire name, percent-decoded.
/// When several templates match, the one with the most literal characters wins
/// (`/v2/chains/43114/btcb/bridged:getAddresses` over `/v2/chains/{chainId}/...`).
pub fn route(service: Service, path: &str) -> Option<(&'static Operation, Vec<(&'static str, String)>)> {
    let path = path.split(['?', '#']).next().unwrap_or(path);
    service_operations(service)
        .filter_map(|op| op.template.matches(path).map(|(score, params)| (score, op, params)))
        .max_by_key(|(score, _, _)| *score)
        .map(|(_, op, params)| (op, params))
}
