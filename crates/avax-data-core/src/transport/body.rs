//! Reading response bodies within a limit, counted while streaming and after decompression, so
//! that no answer (a gzip bomb, an endless chunked body) can take more memory than allowed.

use bytes::{Bytes, BytesMut};

/// Most bytes of an error body kept for an exception.
pub const ERROR_BODY_KEEP: usize = 64 * 1024;

/// Why a body could not be read whole.
#[derive(Debug)]
pub enum BodyError {
    /// More than the limit arrived; reading stopped there.
    TooLarge,
    /// The connection failed (or was cut) while reading.
    Broken(reqwest::Error),
}

/// Reads the whole (decompressed) body, failing once it passes `limit` bytes.
pub async fn read_limited(mut response: reqwest::Response, limit: u64) -> Result<Bytes, BodyError> {
    if response.content_length().is_some_and(|n| n > limit) {
        return Err(BodyError::TooLarge);
    }
    // A body that arrives in one chunk (a page read by one `recv`) is that chunk, not a copy.
    let Some(first) = response.chunk().await.map_err(BodyError::Broken)? else { return Ok(Bytes::new()) };
    if first.len() as u64 > limit {
        return Err(BodyError::TooLarge);
    }
    let Some(second) = response.chunk().await.map_err(BodyError::Broken)? else { return Ok(first) };
    let hint = response.content_length().unwrap_or(0).min(limit).min(16 * 1024 * 1024);
    let mut out = BytesMut::with_capacity(hint as usize);
    out.extend_from_slice(&first);
    let mut next = Some(second);
    while let Some(chunk) = next.take() {
        if out.len() as u64 + chunk.len() as u64 > limit {
            return Err(BodyError::TooLarge);
        }
        out.extend_from_slice(&chunk);
        next = response.chunk().await.map_err(BodyError::Broken)?;
    }
    Ok(out.freeze())
}

/// The start of an error body: at most `keep` bytes, the body's length, and whether that length
/// is unknown because reading stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyStart {
    /// The first bytes.
    pub bytes: Vec<u8>,
    /// The body's length: the whole of it when its end was read or its `Content-Length` declared
    /// it; otherwise the bytes received before reading stopped.
    pub total: u64,
    /// Reading stopped before the end of a body of unknown length (so `total` is a lower bound).
    pub stopped: bool,
}

/// Reads the first `keep` bytes of an error body (fewer if `limit` is smaller) and stops there:
/// the rest is never read. The response is dropped with its body unread, which closes the
/// connection instead of draining it, so a huge error body costs one chunk past `keep` on each
/// attempt, not the response limit.
pub async fn read_start(mut response: reqwest::Response, keep: usize, limit: u64) -> BodyStart {
    let declared = response.content_length();
    let cap = limit.min(keep as u64);
    let mut start = BodyStart { bytes: Vec::new(), total: 0, stopped: false };
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = (cap as usize).saturating_sub(start.bytes.len());
                start.bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
                start.total += chunk.len() as u64;
                if start.total > cap {
                    match declared {
                        Some(n) if n >= start.total => start.total = n,
                        _ => start.stopped = true,
                    }
                    return start;
                }
            }
            Ok(None) => return start,
            Err(_) => {
                start.stopped = true;
                return start;
            }
        }
    }
}

/// `text` cut to at most `max` bytes (at a character boundary), marked when cut:
/// `…[cut: N bytes total]`, or `…[cut: more than N bytes]` when the end was never seen.
pub fn cut_text(text: &str, max: usize, total: u64, stopped: bool) -> String {
    let whole = !stopped && text.len() <= max && total as usize <= text.len();
    if whole {
        return text.to_string();
    }
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let total = total.max(text.len() as u64);
    if stopped {
        format!("{}…[cut: more than {total} bytes]", &text[..end])
    } else {
        format!("{}…[cut: {total} bytes total]", &text[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_text_marks_what_it_cuts() {
        assert_eq!(cut_text("short", 10, 5, false), "short");
        assert_eq!(cut_text("abcdefghij", 4, 10, false), "abcd…[cut: 10 bytes total]");
        assert_eq!(cut_text("abcd", 4, 70_000, false), "abcd…[cut: 70000 bytes total]");
        assert_eq!(cut_text("abcd", 4, 4, true), "abcd…[cut: more than 4 bytes]");
        // never inside a character
        assert_eq!(cut_text("ééé", 3, 6, false), "é…[cut: 6 bytes total]");
    }
}
