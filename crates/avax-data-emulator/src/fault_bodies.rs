//! The bodies of the faults that change an answer's bytes: cut, truncated, malformed, slow,
//! oversized, a gzip bomb, a corrupted checksum, a repeated page token. Pure functions over the
//! answer the service gave (plus streams for the ones sent over time).

use std::io::Write;
use std::time::Duration;

use axum::body::Body;
use bytes::Bytes;
use flate2::write::GzEncoder;
use flate2::Compression;
use futures::stream::{self, StreamExt};

use super::fault_conn::Conn;

/// `cut`: the first half of `body` (at least one byte, never all of it), then the connection
/// drops. The headers promise the whole length.
pub(crate) fn cut(body: Bytes, conn: Option<Conn>) -> Body {
    let keep = (body.len() / 2).max(1).min(body.len().saturating_sub(1));
    let head = body.slice(..keep);
    let first = stream::once(async move { Ok::<Bytes, std::io::Error>(head) });
    let then_drop = stream::once(async move {
        // Give the first piece time to leave, then end the connection mid-body.
        tokio::time::sleep(Duration::from_millis(30)).await;
        if let Some(conn) = conn {
            conn.kill();
        }
        Err(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "emulator fault: body cut"))
    });
    Body::from_stream(first.chain(then_drop))
}

/// `truncated_json`: the first half of `body`, which then is the whole answer. `None` when the
/// body is too short for its half to be surely incomplete JSON.
pub(crate) fn truncated(body: &Bytes) -> Option<Bytes> {
    (body.len() >= 4).then(|| body.slice(..body.len() / 2))
}

/// `malformed_json`: `body` with its first `:` replaced by `=`, so it no longer parses. `None`
/// when it has none.
pub(crate) fn malformed(body: &Bytes) -> Option<Bytes> {
    let colon = body.iter().position(|b| *b == b':')?;
    let mut out = body.to_vec();
    out[colon] = b'=';
    Some(out.into())
}

/// `slow_body`: `body` in eight pieces with `pause` before each one after the first.
pub(crate) fn slow(body: Bytes, pause: Duration) -> Body {
    let piece = body.len().div_ceil(8).max(1);
    let pieces: Vec<Bytes> =
        (0..body.len()).step_by(piece).map(|at| body.slice(at..(at + piece).min(body.len()))).collect();
    let stream = stream::iter(pieces.into_iter().enumerate()).then(move |(i, piece)| async move {
        if i > 0 {
            tokio::time::sleep(pause).await;
        }
        Ok::<Bytes, std::io::Error>(piece)
    });
    Body::from_stream(stream)
}

/// `oversized`: `body` followed by `extra` bytes of spaces (still the same JSON value).
pub(crate) fn oversized(body: Bytes, extra: u64) -> Body {
    const CHUNK: usize = 64 << 10;
    static SPACES: [u8; CHUNK] = [b' '; CHUNK];
    let mut left = extra;
    let padding = stream::iter(std::iter::from_fn(move || {
        (left > 0).then(|| {
            let n = left.min(CHUNK as u64) as usize;
            left -= n as u64;
            Ok::<Bytes, std::io::Error>(Bytes::from_static(&SPACES[..n]))
        })
    }));
    Body::from_stream(stream::once(async move { Ok(body) }).chain(padding))
}

/// A gzip member that inflates to `size` spaces (about 1,000:1).
pub(crate) fn gzip_of_spaces(size: u64) -> Bytes {
    let block = vec![b' '; 1 << 20];
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    let mut left = size;
    while left > 0 {
        let n = left.min(block.len() as u64) as usize;
        encoder.write_all(&block[..n]).expect("writing to a Vec does not fail");
        left -= n as u64;
    }
    encoder.finish().expect("writing to a Vec does not fail").into()
}

/// `bad_checksum`: flips the last hex digit of the `k`-th (mod their number) checksummed
/// `"bytes":"0x..."` value in an Index RPC answer, leaving every other byte as it was. `None` when
/// the answer holds none.
pub(crate) fn corrupt_checksum(body: &mut [u8], k: u64) -> Option<()> {
    const KEY: &[u8] = b"\"bytes\":\"0x";
    let starts: Vec<usize> = body.windows(KEY.len()).enumerate().filter(|(_, w)| *w == KEY).map(|(i, _)| i).collect();
    if starts.is_empty() {
        return None;
    }
    let at = starts[(k % starts.len() as u64) as usize] + KEY.len();
    let end = at + body[at..].iter().position(|b| *b == b'"')?;
    // `0x` + at least the 8 checksum digits.
    if end - at < 8 {
        return None;
    }
    let last = &mut body[end - 1];
    *last = if *last == b'0' { b'1' } else { b'0' };
    Some(())
}

/// `repeated_token`: the answer with its `nextPageToken` value replaced by `token`. `None` when
/// the answer has no next page token.
pub(crate) fn repeat_token(body: &[u8], token: &str) -> Option<Bytes> {
    const KEY: &[u8] = b"\"nextPageToken\":\"";
    let at = body.windows(KEY.len()).position(|w| w == KEY)? + KEY.len();
    let end = at + body[at..].iter().position(|b| *b == b'"')?;
    let quoted = serde_json::to_string(token).ok()?;
    let mut out = Vec::with_capacity(body.len() + quoted.len());
    out.extend_from_slice(&body[..at - 1]);
    out.extend_from_slice(quoted.as_bytes());
    out.extend_from_slice(&body[end + 1..]);
    Some(out.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_bomb_inflates_to_its_size() {
        let bomb = gzip_of_spaces(3 << 20);
        assert!(bomb.len() < 20_000, "{} bytes", bomb.len());
        let mut inflated = Vec::new();
        flate2::read::GzDecoder::new(&bomb[..]).read_to_end(&mut inflated).unwrap();
        assert_eq!(inflated.len(), 3 << 20);
        assert!(inflated.iter().all(|b| *b == b' '));
    }

    #[test]
    fn checksums_and_tokens_are_rewritten_in_place() {
        let mut body = br#"{"containers":[{"bytes":"0xaabbccdd00112233"},{"bytes":"0xaabbccdd00112230"}]}"#.to_vec();
        corrupt_checksum(&mut body, 1).unwrap();
        assert_eq!(body, br#"{"containers":[{"bytes":"0xaabbccdd00112233"},{"bytes":"0xaabbccdd00112231"}]}"#);
        assert_eq!(corrupt_checksum(&mut b"{\"index\":\"1\"}".to_vec(), 0), None);

        let page = br#"{"blocks":[],"nextPageToken":"new"}"#;
        assert_eq!(&repeat_token(page, "old").unwrap()[..], br#"{"blocks":[],"nextPageToken":"old"}"#);
        assert_eq!(repeat_token(br#"{"blocks":[]}"#, "old"), None);
    }

    #[test]
    fn truncated_and_malformed_bodies_do_not_parse() {
        let body = Bytes::from_static(b"{\"a\":1,\"b\":[1,2,3]}\n");
        let cut = truncated(&body).unwrap();
        assert_eq!(cut.len(), body.len() / 2);
        assert!(serde_json::from_slice::<serde_json::Value>(&cut).is_err());
        let bad = malformed(&body).unwrap();
        assert_eq!(bad.len(), body.len());
        assert!(serde_json::from_slice::<serde_json::Value>(&bad).is_err());
    }
}
