//! The node's Index RPC on `/ext/index/{C/block,P/block,X/tx,X/block,X/vtx}`: HTTP checks as
//! gorilla/rpc does them, then the six `index.*` methods as avalanchego's indexer answers them.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use serde_json::value::RawValue;

use avax_data_core::index::cb58;
use avax_data_core::index::IndexPath;

use super::fault_bodies;
use super::fault_layer::{Applied, IndexFaults};
use super::faults::FaultKind;
use super::formats;
use super::id_index;
use super::jsonrpc::{self, RpcRequest, BAD_ARGUMENT, PARSE_ERROR, SERVER_ERROR};
use super::layers::{go_not_found, go_plain_text};
use super::state::EmulatorState;
use super::wire::{self, Encoding, Scratch};

/// One worker's share of a range: its JSON and what to record in the id map.
type RangePart = (Vec<u8>, Vec<(u64, u64)>);

/// Ranges of at least this many `C/block` containers are generated on every core.
const PARALLEL_RANGE: u64 = 64;

/// avalanchego's `MaxFetchedByRange`.
pub(crate) const MAX_FETCHED_BY_RANGE: u64 = 1024;

/// The routes of the five index paths.
pub(crate) fn routes() -> Router<Arc<EmulatorState>> {
    let mut router = Router::new();
    for path in IndexPath::ALL {
        router = router.route(
            &path.url_path(),
            any(move |State(state): State<Arc<EmulatorState>>, request: Request| serve(state, path, request)),
        );
    }
    router
}

async fn serve(state: Arc<EmulatorState>, path: IndexPath, request: Request) -> Response {
    if !state.index_enabled() {
        return go_not_found();
    }
    if request.method() != Method::POST {
        let message = format!("rpc: POST method required, received {}", request.method().as_str());
        return go_plain_text(StatusCode::METHOD_NOT_ALLOWED, message, false);
    }
    // gorilla: the header up to the first ';', compared case-insensitively.
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_default();
    let media_type = content_type.split(';').next().unwrap_or("").to_string();
    if media_type.to_lowercase() != "application/json" {
        let message = format!("rpc: unrecognized Content-Type: {media_type}");
        return go_plain_text(StatusCode::UNSUPPORTED_MEDIA_TYPE, message, false);
    }
    let faults = request.extensions().get::<IndexFaults>().copied();
    let body = match axum::body::to_bytes(request.into_body(), usize::MAX).await {
        Ok(body) => body,
        // A body cut short reads as truncated JSON: "unexpected EOF".
        Err(_) => axum::body::Bytes::from_static(b"{"),
    };
    let answer = tokio::task::spawn_blocking(move || answer(&state, path, &body, faults)).await;
    match answer {
        Ok(answer) => answer.into_response(),
        Err(e) => go_plain_text(StatusCode::INTERNAL_SERVER_ERROR, format!("emulator handler failed: {e}"), false),
    }
}

/// What the JSON-RPC layer writes: a body (none for notifications) and whether the method ran
/// (gorilla then adds `x-content-type-options: nosniff`); and the fault injected, if any.
struct Answer {
    body: Option<Vec<u8>>,
    executed: bool,
    fault: Option<FaultKind>,
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let mut response = match self.body {
            Some(body) => {
                let mut r = Response::new(Body::from(body));
                r.headers_mut()
                    .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
                r
            }
            None => Response::new(Body::empty()),
        };
        if self.executed {
            response.headers_mut().insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        }
        if let Some(kind) = self.fault {
            response.extensions_mut().insert(Applied(kind));
        }
        response
    }
}

const METHODS: &[&str] =
    &["GetContainerByID", "GetContainerByIndex", "GetContainerRange", "GetIndex", "GetLastAccepted", "IsAccepted"];

/// JSON field names of each method's argument struct (avalanchego's indexer/service.go).
fn argument_fields(method: &str) -> &'static [&'static str] {
    match method {
        "GetContainerByID" => &["id", "encoding"],
        "GetContainerByIndex" => &["index", "encoding"],
        "GetContainerRange" => &["startIndex", "numToFetch", "encoding"],
        "GetIndex" | "IsAccepted" => &["id"],
        _ => &["encoding"],
    }
}

/// The decoded arguments of any method (absent fields keep Go's zero values).
#[derive(Debug, Default)]
struct Args {
    id: [u8; 32],
    index: u64,
    start_index: u64,
    num_to_fetch: u64,
    encoding: Encoding,
}

/// avalanchego's `json.Uint64.UnmarshalJSON`: a number or a quoted decimal; `null` keeps the value.
fn go_uint64(raw: &[u8]) -> Result<Option<u64>, ()> {
    if raw == b"null" {
        return Ok(None);
    }
    let digits = match raw {
        [b'"', inner @ .., b'"'] => inner,
        _ => raw,
    };
    // strconv.ParseUint(s, 10, 64): ASCII digits only (no sign), no overflow.
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(());
    }
    std::str::from_utf8(digits).map_err(|_| ())?.parse().map(Some).map_err(|_| ())
}

/// avalanchego's `ids.ID.UnmarshalJSON`: a quoted CB58 string of 32 bytes; `null` keeps the value.
fn go_id(raw: &[u8]) -> Result<Option<[u8; 32]>, ()> {
    if raw == b"null" {
        return Ok(None);
    }
    let [b'"', inner @ .., b'"'] = raw else {
        return Err(());
    };
    let text = std::str::from_utf8(inner).map_err(|_| ())?;
    cb58::decode_id(text).map(Some).map_err(|_| ())
}

fn parse_args(params: Option<&RawValue>, fields: &[&str]) -> Result<Args, ()> {
    let mut args = Args::default();
    jsonrpc::decode_params(params, fields, |field, raw| {
        match fields[field] {
            "id" => {
                if let Some(id) = go_id(raw)? {
                    args.id = id;
                }
            }
            "encoding" => {
                if let Some(encoding) = Encoding::from_raw_json(raw)? {
                    args.encoding = encoding;
                }
            }
            name => {
                if let Some(n) = go_uint64(raw)? {
                    match name {
                        "index" => args.index = n,
                        "startIndex" => args.start_index = n,
                        _ => args.num_to_fetch = n,
                    }
                }
            }
        }
        Ok(())
    })?;
    Ok(args)
}

fn error_answer(request: &RpcRequest<'_>, message: &str, executed: bool) -> Answer {
    let body = request.id.map(|id| jsonrpc::error_response(Some(id), SERVER_ERROR, message, None));
    Answer { body, executed, fault: None }
}

/// The message of an injected `rpc_error` fault.
pub(crate) const INJECTED_RPC_ERROR: &str = "injected fault: the node could not answer this call, retry it";

/// Which index fault a call gets: the first kind of the draw that applies to it. `call.tip` is
/// lowered for `lagging_tip`, `args.num_to_fetch` for `short_batch`.
fn choose_fault(faults: IndexFaults, method: &str, call: &mut Call<'_>, args: &mut Args) -> Option<FaultKind> {
    let returns_containers =
        matches!(method, "GetContainerRange" | "GetContainerByIndex" | "GetContainerByID" | "GetLastAccepted");
    for kind in faults.draw.kinds() {
        match kind {
            FaultKind::RpcError => return Some(kind),
            FaultKind::LaggingTip if call.tip >= 2 => {
                call.tip -= faults.lag.min(call.tip - 1);
                return Some(kind);
            }
            FaultKind::ShortBatch if method == "GetContainerRange" => {
                let n = args.num_to_fetch;
                let available = call.tip.saturating_sub(args.start_index);
                // Only a valid call that would answer two or more containers can be cut short.
                if (1..=MAX_FETCHED_BY_RANGE).contains(&n) && n.min(available) >= 2 {
                    args.num_to_fetch = 1 + faults.draw.salt % (n.min(available) - 1);
                    return Some(kind);
                }
            }
            FaultKind::BadChecksum if returns_containers && matches!(args.encoding, Encoding::Hex | Encoding::HexC) => {
                return Some(kind);
            }
            _ => {}
        }
    }
    None
}

/// Answers one JSON-RPC body on `path` (blocking: generates containers, may build the id map),
/// with the index fault of `faults` that applies to the call, if any.
fn answer(state: &EmulatorState, path: IndexPath, body: &[u8], faults: Option<IndexFaults>) -> Answer {
    let (request, failure) = jsonrpc::decode_request(body);
    if let Some((code, message)) = failure {
        // json2 answers a parse error even without an id; other failures only with one.
        let body = (code == PARSE_ERROR || request.id.is_some())
            .then(|| jsonrpc::error_response(request.id, code, &message, Some(&request)));
        return Answer { body, executed: false, fault: None };
    }
    let method = match jsonrpc::resolve_method(&request.method, "index", METHODS) {
        Ok(method) => method,
        Err(message) => return error_answer(&request, &message, false),
    };
    let Ok(mut args) = parse_args(request.params, argument_fields(method)) else {
        return error_answer(&request, BAD_ARGUMENT, false);
    };
    let mut out = Vec::new();
    jsonrpc::start_result(&mut out);
    let mut call = Call { state, path, tip: state.container_count(path) };
    let fault = faults.and_then(|f| choose_fault(f, method, &mut call, &mut args));
    if fault == Some(FaultKind::RpcError) && request.id.is_some() {
        return Answer { fault, ..error_answer(&request, INJECTED_RPC_ERROR, true) };
    }
    let result = match method {
        "GetContainerByID" => call.container_by_id(&args, &mut out),
        "GetContainerByIndex" => call.container_by_index(&args, &mut out),
        "GetContainerRange" => call.container_range(&args, &mut out),
        "GetIndex" => call.index_of(&args, &mut out),
        "IsAccepted" => call.is_accepted(&args, &mut out),
        _ => call.last_accepted(&args, &mut out),
    };
    // A lagging node's error is still its fault; a corrupted checksum needs a container to corrupt.
    let fault = match (fault, &result) {
        (Some(FaultKind::BadChecksum), Ok(())) => {
            fault_bodies::corrupt_checksum(&mut out, faults.map_or(0, |f| f.draw.salt)).map(|()| FaultKind::BadChecksum)
        }
        (Some(FaultKind::LaggingTip), _) => fault,
        (Some(FaultKind::ShortBatch), Ok(())) => fault,
        _ => None,
    };
    match result {
        Err(message) => Answer { fault, ..error_answer(&request, &message, true) },
        Ok(()) => {
            let body = request.id.map(|id| {
                jsonrpc::finish(&mut out, Some(id));
                out
            });
            Answer { body, executed: true, fault }
        }
    }
}

/// One method call on one path, against the tip as it was when the call started.
struct Call<'a> {
    state: &'a EmulatorState,
    path: IndexPath,
    /// Number of accepted containers; the last accepted index is `tip - 1`.
    tip: u64,
}

const NONE_ACCEPTED: &str = "no containers have been accepted";
const NOT_FOUND: &str = "not found";

impl Call<'_> {
    /// Writes container `index`; returns what to record in the id map.
    fn push(&self, out: &mut Vec<u8>, scratch: &mut Scratch, index: u64, encoding: Encoding) -> (u64, u64) {
        let state = self.state;
        let raw_id =
            wire::push_container(out, scratch, state.source(), self.path, index, encoding, state.utc_offset_minutes);
        (id_index::prefix(&raw_id), index)
    }

    /// Writes one container and records its id.
    fn push_one(&self, out: &mut Vec<u8>, index: u64, encoding: Encoding) {
        let served = self.push(out, &mut Scratch::default(), index, encoding);
        self.state.id_index(self.path).record(&[served]);
    }

    fn lookup(&self, raw_id: &[u8; 32]) -> Option<u64> {
        if *raw_id == [0u8; 32] {
            return None; // ids.Empty: the zero value of a missing id.
        }
        self.state.id_index(self.path).lookup(self.state.source(), self.path, raw_id, self.tip)
    }

    fn last_accepted(&self, args: &Args, out: &mut Vec<u8>) -> Result<(), String> {
        let last = self.tip.checked_sub(1).ok_or(NONE_ACCEPTED)?;
        args.encoding.check()?;
        self.push_one(out, last, args.encoding);
        Ok(())
    }

    fn container_by_index(&self, args: &Args, out: &mut Vec<u8>) -> Result<(), String> {
        if args.index >= self.tip {
            return Err(format!("no container at index {}", args.index));
        }
        args.encoding.check()?;
        self.push_one(out, args.index, args.encoding);
        Ok(())
    }

    fn container_range(&self, args: &Args, out: &mut Vec<u8>) -> Result<(), String> {
        let n = args.num_to_fetch;
        if n == 0 || n > MAX_FETCHED_BY_RANGE {
            return Err(format!("numToFetch must be in [1,{MAX_FETCHED_BY_RANGE}] but is {n}"));
        }
        let last_accepted = self.tip.checked_sub(1).ok_or(NONE_ACCEPTED)?;
        let start = args.start_index;
        if start > last_accepted {
            return Err(format!("start index ({start}) > last accepted index ({last_accepted})"));
        }
        args.encoding.check()?;
        let last = start.saturating_add(n - 1).min(last_accepted);
        let source = self.state.source();
        let total: usize =
            (start..=last).map(|i| wire::json_size_hint(formats::len_hint(source, self.path, i)) + 1).sum();
        out.reserve(total + 32);
        out.extend_from_slice(b"{\"containers\":[");
        let count = last - start + 1;
        let mut served = Vec::with_capacity(count as usize);
        // Signed C/block envelopes cost an ECDSA signature each: large ranges use every core,
        // unless a part would start where the containers before it are not built (a first walk):
        // that part would build them again from the id chain's last checkpoint.
        let mut threads = if self.path == IndexPath::CBlock && count >= PARALLEL_RANGE {
            std::thread::available_parallelism().map_or(1, |n| n.get().min(8)) as u64
        } else {
            1
        };
        let chunk = count.div_ceil(threads);
        let mut part_starts = (1..threads).map(|t| start + t * chunk).filter(|&from| from <= last);
        if !part_starts.all(|from| formats::starts_cheaply(source, self.path, from)) {
            threads = 1;
        }
        let run = |from: u64, to: u64, buf: &mut Vec<u8>, served: &mut Vec<(u64, u64)>| {
            let mut scratch = Scratch::default();
            for i in from..=to {
                if i != from {
                    buf.push(b',');
                }
                served.push(self.push(buf, &mut scratch, i, args.encoding));
            }
        };
        if threads < 2 {
            run(start, last, out, &mut served);
        } else {
            let parts: Vec<RangePart> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| start + t * chunk)
                    .filter(|&from| from <= last)
                    .map(|from| {
                        let to = (from + chunk - 1).min(last);
                        scope.spawn(move || {
                            let (mut buf, mut served) = (Vec::new(), Vec::new());
                            run(from, to, &mut buf, &mut served);
                            (buf, served)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("range worker panicked")).collect()
            });
            for (k, (buf, part)) in parts.into_iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(&buf);
                served.extend(part);
            }
        }
        out.extend_from_slice(b"]}");
        self.state.id_index(self.path).record(&served);
        Ok(())
    }

    fn container_by_id(&self, args: &Args, out: &mut Vec<u8>) -> Result<(), String> {
        let index = self.lookup(&args.id).ok_or(NOT_FOUND)?;
        args.encoding.check()?;
        self.push_one(out, index, args.encoding);
        Ok(())
    }

    fn index_of(&self, args: &Args, out: &mut Vec<u8>) -> Result<(), String> {
        let index = self.lookup(&args.id).ok_or(NOT_FOUND)?;
        out.extend_from_slice(format!("{{\"index\":\"{index}\"}}").as_bytes());
        Ok(())
    }

    fn is_accepted(&self, args: &Args, out: &mut Vec<u8>) -> Result<(), String> {
        let accepted = self.lookup(&args.id).is_some();
        out.extend_from_slice(format!("{{\"isAccepted\":{accepted}}}").as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uint64_arguments_follow_avalanchego() {
        assert_eq!(go_uint64(b"5"), Ok(Some(5)));
        assert_eq!(go_uint64(b"\"18446744073709551615\""), Ok(Some(u64::MAX)));
        assert_eq!(go_uint64(b"\"007\""), Ok(Some(7)));
        assert_eq!(go_uint64(b"null"), Ok(None));
        for bad in [&b"-1"[..], b"1.0", b"1e3", b"\"+5\"", b"\"\"", b"true", b"{}", b"\"18446744073709551616\""] {
            assert_eq!(go_uint64(bad), Err(()), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn id_arguments_must_be_quoted_cb58_of_32_bytes() {
        let raw = cb58::sha256(b"x");
        let quoted = format!("\"{}\"", cb58::encode(&raw));
        assert_eq!(go_id(quoted.as_bytes()), Ok(Some(raw)));
        assert_eq!(go_id(b"null"), Ok(None));
        assert_eq!(go_id(cb58::encode(&raw).as_bytes()), Err(()));
        assert_eq!(go_id(format!("\"{}\"", cb58::encode(b"short")).as_bytes()), Err(()));
        assert_eq!(go_id(b"\"\""), Err(()));
        assert_eq!(go_id(b"\"0OIl\""), Err(()));
    }
}

#[cfg(test)]
mod cost {
    use super::*;

    /// A first walk by ranges of 1,024 (split over the cores only where the containers before a
    /// part are built) encodes each block once: the id chain up to the walk's start, then each
    /// container walked. Splitting a first walk's range made its second part rebuild the first
    /// part from the id chain (9,660 blocks encoded for this walk of 3,072 from 3,000).
    #[test]
    fn a_first_c_block_walk_encodes_each_block_once() {
        let config = crate::EmulatorConfig { seed: 0x0e24b, default_count: 10_000, ..Default::default() };
        let state = EmulatorState::new(&config);
        let chain = state.source().c_chain();
        let before = chain.c_blocks_encoded();
        for start in [3_000, 4_024, 5_048] {
            let body = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{{"startIndex":{start},"numToFetch":1024}}}}"#
            );
            let answer = answer(&state, IndexPath::CBlock, body.as_bytes(), None).body.unwrap();
            assert_eq!(answer.windows(11).filter(|w| w == b"\"timestamp\"").count(), 1_024, "{start}");
        }
        // The id chain to 2,999 walks the 256-height segment it falls in (to 3,071), and the runs
        // of 64 containers walked span 2,944..6,080.
        let encoded = chain.c_blocks_encoded() - before;
        assert!((3 * 1_024..=3_072 + 3_136).contains(&encoded), "{encoded} blocks encoded");
        // A walk of the same containers again is served from the kept runs (on every core).
        let again = chain.c_blocks_encoded();
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{"startIndex":4024,"numToFetch":1024}}"#;
        assert!(answer(&state, IndexPath::CBlock, body, None).body.unwrap().len() > 1_000_000);
        assert_eq!(chain.c_blocks_encoded(), again);
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    #[test]
    fn a_1024_container_c_block_range_is_generated_in_milliseconds() {
        let config = crate::EmulatorConfig { default_count: 100_000, ..Default::default() };
        let state = EmulatorState::new(&config);
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"index.getContainerRange","params":{"startIndex":5000,"numToFetch":1024}}"#;
        let mut times = Vec::new();
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let answer = answer(&state, IndexPath::CBlock, body, None);
            times.push(t.elapsed());
            assert!(answer.body.unwrap().len() > 1_000_000);
        }
        times.sort();
        println!("server side, 1024 C/block containers: median {:?}", times[2]);
        assert!(times[2] < std::time::Duration::from_secs(2), "{times:?}");
    }
}
