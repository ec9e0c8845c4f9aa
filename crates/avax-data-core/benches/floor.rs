//! The fetch-and-parse floor of `benches/run.py`: the least work a client can do for an index
//! range walk, with the same requests and the same concurrency as `avax_data`, and nothing else.
//!
//! `getContainerRange` calls of `--batch` containers (1024), `--concurrency` of them in flight
//! (each parsed on the runtime's workers as it arrives, results taken in plan order), and per
//! container: the JSON parsed into borrowed strings, the hex decoded into an owned buffer, one
//! sha256 pass for the checksum and the id (the proposervm prefix's digest taken on the way), the
//! CB58 id decoded and compared by the rule of its index (keccak256 of the header for a pre-fork
//! `C/block`), the timestamp parsed. No Arrow, no Python, no retries, no resume.
//!
//! Prints one JSON line per round: `{"rows", "cpu_s", "wall_s", "response_bytes"}` (CPU time of
//! the whole process from `getrusage`, so the runtime's worker threads count).
//!
//! ```sh
//! cargo build --release --bench floor
//! target/release/deps/floor-* --url http://127.0.0.1:9650 --path C/block --count 200000 --concurrency 4
//! ```

use std::time::Instant;

use futures::stream::{self, StreamExt};
use keccak_asm::Keccak256;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// What to walk, from the command line.
#[derive(Debug, Clone)]
struct Args {
    url: String,
    path: String,
    start: u64,
    count: u64,
    concurrency: usize,
    batch: u64,
    rounds: usize,
    warmup: u64,
}

impl Args {
    fn parse() -> Result<Args, String> {
        let mut args = Args {
            url: String::new(),
            path: "C/block".into(),
            start: 0,
            count: 0,
            concurrency: 4,
            batch: 1024,
            rounds: 1,
            warmup: 0,
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            if flag == "--bench" {
                continue; // `cargo bench` passes it
            }
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            let number = |v: &str| v.parse::<u64>().map_err(|_| format!("{flag}: {v:?} is not an integer >= 0"));
            match flag.as_str() {
                "--url" => args.url = value,
                "--path" => args.path = value,
                "--start" => args.start = number(&value)?,
                "--count" => args.count = number(&value)?,
                "--concurrency" => args.concurrency = number(&value)?.max(1) as usize,
                "--batch" => args.batch = number(&value)?.clamp(1, 1024),
                "--rounds" => args.rounds = number(&value)?.max(1) as usize,
                "--warmup" => args.warmup = number(&value)?,
                other => return Err(format!("unknown option {other}")),
            }
        }
        if args.url.is_empty() {
            return Err("--url is required".into());
        }
        Ok(args)
    }
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    result: Option<RangeResult<'a>>,
    #[serde(borrow)]
    error: Option<RpcError<'a>>,
}

#[derive(Deserialize)]
struct RpcError<'a> {
    message: &'a str,
}

#[derive(Deserialize)]
struct RangeResult<'a> {
    #[serde(borrow)]
    containers: Vec<Wire<'a>>,
}

#[derive(Deserialize)]
struct Wire<'a> {
    id: &'a str,
    bytes: &'a str,
    timestamp: &'a str,
    index: &'a str,
}

/// A verified container, owned (what a client hands on).
struct Row {
    bytes: Vec<u8>,
    timestamp_ns: i64,
    index: u64,
}

/// The length of the part of a stateless (0) or Granite (2) proposervm envelope that its id
/// hashes, or `Err(true)` for an option block (1), `Err(false)` when `b` is no envelope.
fn envelope_id_len(b: &[u8]) -> Result<usize, bool> {
    let u32_at = |i: usize| b.get(i..i + 4).map(|s| u32::from_be_bytes(s.try_into().unwrap()) as usize);
    if b.get(0..2) != Some(&[0, 0][..]) {
        return Err(false);
    }
    let kind = u32_at(2).ok_or(false)?;
    if kind == 1 {
        let inner = u32_at(38).ok_or(false)?;
        return if 42 + inner == b.len() { Err(true) } else { Err(false) };
    }
    if kind != 0 && kind != 2 {
        return Err(false);
    }
    let cert = u32_at(54).ok_or(false)?;
    let inner = u32_at(58 + cert).ok_or(false)?;
    let end = 62 + cert + inner + if kind == 2 { 24 } else { 0 };
    let sig = u32_at(end).ok_or(false)?;
    if end + 4 + sig == b.len() {
        Ok(end)
    } else {
        Err(false)
    }
}

/// keccak256 of the first RLP item inside the outer list (a pre-fork coreth block's header).
fn eth_header_hash(b: &[u8]) -> Option<[u8; 32]> {
    let list_payload = |b: &[u8]| -> Option<(usize, usize)> {
        let lead = *b.first()?;
        match lead {
            0xc0..=0xf7 => Some((1, (lead - 0xc0) as usize)),
            0xf8..=0xff => {
                let n = (lead - 0xf7) as usize;
                let len = b.get(1..1 + n)?.iter().fold(0usize, |acc, &x| (acc << 8) | x as usize);
                Some((1 + n, len))
            }
            _ => None,
        }
    };
    let (outer_head, _) = list_payload(b)?;
    let header = b.get(outer_head..)?;
    let (head, len) = list_payload(header)?;
    Some(Keccak256::digest(header.get(..head + len)?).into())
}

/// Checks one container and makes it owned.
fn verify(path: &str, w: &Wire<'_>) -> Result<Row, String> {
    let hex = w.bytes.strip_prefix("0x").ok_or("bytes without 0x")?;
    let mut raw = vec![0u8; hex.len() / 2];
    hex::decode_to_slice(hex, &mut raw).map_err(|e| format!("hex: {e}"))?;
    if raw.len() < 4 {
        return Err("bytes shorter than the checksum".into());
    }
    let data_len = raw.len() - 4;
    let data = &raw[..data_len];
    let block_index = matches!(path, "C/block" | "P/block" | "X/block");
    let envelope = if block_index { envelope_id_len(data) } else { Err(false) };
    let mut hasher = Sha256::new();
    let mut prefix_digest = None;
    if let Ok(prefix) = envelope {
        hasher.update(&data[..prefix]);
        prefix_digest = Some(<[u8; 32]>::from(hasher.clone().finalize()));
        hasher.update(&data[prefix..]);
    } else {
        hasher.update(data);
    }
    let digest: [u8; 32] = hasher.finalize().into();
    if digest[28..] != raw[data_len..] {
        return Err(format!("container {}: checksum mismatch", w.index));
    }
    let mut id = [0u8; 36];
    let n = bs58::decode(w.id).as_cb58(None).onto(&mut id[..]).map_err(|e| format!("id {}: {e}", w.id))?;
    if n != 32 {
        return Err(format!("id {} holds {n} bytes", w.id));
    }
    let expected = match envelope {
        Ok(_) => prefix_digest,
        Err(false) if path == "C/block" => eth_header_hash(data),
        Err(_) => Some(digest),
    };
    let ok = expected.is_some_and(|e| e[..] == id[..32]) || (path != "C/block" && digest[..] == id[..32]);
    if !ok {
        return Err(format!("container {}: id {} does not match its bytes", w.index, w.id));
    }
    let timestamp_ns = chrono::DateTime::parse_from_rfc3339(w.timestamp)
        .map_err(|e| format!("timestamp {}: {e}", w.timestamp))?
        .timestamp_nanos_opt()
        .ok_or("timestamp out of range")?;
    let index = w.index.parse().map_err(|_| format!("index {:?}", w.index))?;
    raw.truncate(data_len);
    Ok(Row { bytes: raw, timestamp_ns, index })
}

/// Fetches and checks `[start, start + count)` in one call; returns the rows and the body size.
async fn fetch(
    client: reqwest::Client,
    url: String,
    path: String,
    start: u64,
    count: u64,
) -> Result<(Vec<Row>, usize), String> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{{"startIndex":{start},"numToFetch":{count},"encoding":"hex"}}}}"#
    );
    let answer = client
        .post(&url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = answer.status();
    let bytes = answer.bytes().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!("HTTP {status}"));
    }
    let envelope: Envelope<'_> = serde_json::from_slice(&bytes).map_err(|e| format!("JSON: {e}"))?;
    if let Some(err) = envelope.error {
        return Err(format!("JSON-RPC error: {}", err.message));
    }
    let wires = envelope.result.ok_or("no result")?.containers;
    if wires.len() as u64 != count {
        return Err(format!("asked for {count} from {start}, got {}", wires.len()));
    }
    let rows = wires.iter().map(|w| verify(&path, w)).collect::<Result<Vec<_>, _>>()?;
    if rows.iter().enumerate().any(|(k, r)| r.index != start + k as u64) {
        return Err(format!("containers out of order in the range from {start}"));
    }
    Ok((rows, bytes.len()))
}

/// One walk of `[start, start + count)`: (rows, response bytes, a digest of the rows).
async fn walk(client: &reqwest::Client, args: &Args, start: u64, count: u64) -> Result<(u64, u64, u64), String> {
    let url = format!("{}/ext/index/{}", args.url.trim_end_matches('/'), args.path);
    let end = start + count;
    let plan = (start..end).step_by(args.batch as usize).map(move |s| (s, args.batch.min(end - s)));
    let mut results = stream::iter(plan)
        .map(|(s, n)| tokio::spawn(fetch(client.clone(), url.clone(), args.path.clone(), s, n)))
        .buffered(args.concurrency);
    let (mut rows, mut body_bytes, mut digest) = (0u64, 0u64, 0u64);
    while let Some(done) = results.next().await {
        let (batch, size) = done.map_err(|e| e.to_string())??;
        rows += batch.len() as u64;
        body_bytes += size as u64;
        for r in &batch {
            digest = digest.wrapping_add(r.bytes.len() as u64 ^ r.timestamp_ns as u64);
        }
    }
    Ok((rows, body_bytes, digest))
}

/// User + system CPU seconds of this process (all threads).
fn cpu_seconds() -> f64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a complete rusage into the pointer it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn main() {
    let args = match Args::parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("floor: {e}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    let client = reqwest::Client::builder().build().expect("a reqwest client");
    runtime.block_on(async {
        if args.warmup > 0 {
            if let Err(e) = walk(&client, &args, args.start, args.warmup).await {
                eprintln!("floor: warm-up: {e}");
                std::process::exit(1);
            }
        }
        for _ in 0..args.rounds {
            let (cpu, wall) = (cpu_seconds(), Instant::now());
            match walk(&client, &args, args.start, args.count).await {
                Ok((rows, bytes, digest)) => println!(
                    r#"{{"rows": {rows}, "cpu_s": {:.6}, "wall_s": {:.6}, "response_bytes": {bytes}, "digest": {digest}}}"#,
                    cpu_seconds() - cpu,
                    wall.elapsed().as_secs_f64()
                ),
                Err(e) => {
                    eprintln!("floor: {e}");
                    std::process::exit(1);
                }
            }
        }
    });
}
