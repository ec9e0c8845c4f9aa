//! Answers generated from a response schema, deterministic in a seed: every required property and
//! most optional ones, enums by one of their values, `oneOf` by one variant (the discriminator's
//! mapping honoured), arrays of one to three items, strings in the shape of the document's
//! example (a `0x` hash or address of the same length, a decimal of the same number of digits, a
//! CB58 id, a `NodeID-`, a bech32 `avax1`/`fuji1` address, a UUID, an RFC 3339 time) or, without
//! one, by the property's name; numbers inside `minimum`/`maximum`, timestamps in the world's
//! last 90 days.

use serde_json::{Map, Value};

use crate::data_api::paging::is_uuid;
use crate::rfc3339_nano;
use crate::world::{splitmix64, WORLD_NOW_MS};
use avax_data_core::index::cb58;
use avax_data_core::rest::openapi::Service;

const BECH32: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BASE58: &str = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// How far back generated timestamps reach from the world's now.
const SPAN_MS: i64 = 90 * 24 * 3600 * 1000;
const MAX_DEPTH: u32 = 16;

/// A seeded generator over one document.
pub(crate) struct Gen<'a> {
    service: Service,
    state: u64,
    /// Path parameter values echoed by properties of the same name (the answer's top levels;
    /// `address` only at the top).
    echo: &'a [(String, String)],
    /// A `oneOf` variant whose `$ref` contains this text is preferred (e.g. `PChain`).
    prefer: Option<&'a str>,
}

impl<'a> Gen<'a> {
    pub(crate) fn new(service: Service, seed: u64, echo: &'a [(String, String)], prefer: Option<&'a str>) -> Gen<'a> {
        Gen { service, state: splitmix64(seed), echo, prefer }
    }

    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        splitmix64(self.state)
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        for chunk in out.chunks_mut(8) {
            let word = self.next().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        out
    }

    fn hex(&mut self, digits: usize) -> String {
        (0..digits).map(|_| char::from(b"0123456789abcdef"[self.below(16) as usize])).collect()
    }

    fn digits(&mut self, n: usize) -> String {
        if n <= 1 {
            return self.below(10).to_string();
        }
        let mut out = (1 + self.below(9)).to_string();
        out.extend((1..n).map(|_| char::from(b'0' + self.below(10) as u8)));
        out
    }

    fn timestamp_ms(&mut self) -> i64 {
        WORLD_NOW_MS - 1 - self.below(SPAN_MS as u64) as i64
    }

    /// A value of `schema` for a property called `name` at `depth`.
    pub(crate) fn value(&mut self, schema: &'static Value, name: &str, depth: u32) -> Value {
        let s = self.service.resolve(schema);
        if let Some(c) = s.get("const") {
            return c.clone();
        }
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            let choices: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
            if !choices.is_empty() {
                return choices[self.below(choices.len() as u64) as usize].clone();
            }
        }
        if let Some(parts) = s.get("allOf").and_then(Value::as_array) {
            return self.all_of(s, parts, name, depth);
        }
        if let Some(variants) = s.get("oneOf").or_else(|| s.get("anyOf")).and_then(Value::as_array) {
            return self.one_of(s, variants, name, depth);
        }
        match type_of(s) {
            "object" => self.object(s, depth),
            "array" => self.array(s, name, depth),
            "number" => self.number(s, name, false),
            "integer" => self.number(s, name, true),
            "boolean" => Value::Bool(self.below(2) == 1),
            "null" => Value::Null,
            _ => Value::String(self.string(s, name)),
        }
    }

    fn all_of(&mut self, s: &'static Value, parts: &'static [Value], name: &str, depth: u32) -> Value {
        let mut merged: Option<Value> = None;
        for part in parts {
            let v = self.value(part, name, depth);
            merged = Some(match (merged, v) {
                (Some(Value::Object(mut a)), Value::Object(b)) => {
                    a.extend(b);
                    Value::Object(a)
                }
                (_, v) => v,
            });
        }
        if s.get("properties").is_some() {
            if let (Some(Value::Object(mut a)), Value::Object(b)) = (merged.clone(), self.object(s, depth)) {
                a.extend(b);
                return Value::Object(a);
            }
        }
        merged.unwrap_or(Value::Null)
    }

    fn one_of(&mut self, s: &'static Value, variants: &'static [Value], name: &str, depth: u32) -> Value {
        let discriminator = s.get("discriminator");
        let mapping = discriminator.and_then(|d| d.get("mapping")).and_then(Value::as_object);
        let ref_of = |v: &Value| v.get("$ref").and_then(Value::as_str).unwrap_or("").to_string();
        let preferred: Vec<usize> = match self.prefer {
            Some(p) if depth <= 1 => (0..variants.len()).filter(|&i| ref_of(&variants[i]).contains(p)).collect(),
            _ => Vec::new(),
        };
        let pick = if preferred.is_empty() {
            self.below(variants.len() as u64) as usize
        } else {
            preferred[self.below(preferred.len() as u64) as usize]
        };
        let mut value = self.value(&variants[pick], name, depth);
        if let (Some(mapping), Some(property), Value::Object(obj)) =
            (mapping, discriminator.and_then(|d| d.get("propertyName")).and_then(Value::as_str), &mut value)
        {
            let target = ref_of(&variants[pick]);
            if let Some((key, _)) = mapping.iter().find(|(_, r)| r.as_str() == Some(target.as_str())) {
                obj.insert(property.to_string(), Value::String(key.clone()));
            }
        }
        value
    }

    fn object(&mut self, s: &'static Value, depth: u32) -> Value {
        let mut out = Map::new();
        if depth > MAX_DEPTH {
            return Value::Object(out);
        }
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            for (key, schema) in props {
                if !required.contains(&key.as_str()) && self.below(8) == 0 {
                    continue;
                }
                // An `address` is the answer's own (a contract's metadata), not its items' (a
                // token held by the address).
                let echoed = (depth <= 2)
                    .then(|| self.echo.iter().find(|(k, _)| k == key && (depth == 0 || k != "address")))
                    .flatten();
                let value = match echoed {
                    Some((_, v)) if accepts_text(self.service, schema, v) => Value::String(v.clone()),
                    _ => self.value(schema, key, depth + 1),
                };
                out.insert(key.clone(), value);
            }
        } else if let Some(extra) = s.get("additionalProperties").filter(|a| a.is_object()) {
            for i in 0..2 {
                let value = self.value(extra, "value", depth + 1);
                out.insert(format!("key{i}"), value);
            }
        }
        Value::Object(out)
    }

    fn array(&mut self, s: &'static Value, name: &str, depth: u32) -> Value {
        let Some(items) = s.get("items") else { return Value::Array(Vec::new()) };
        let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let max = s.get("maxItems").and_then(Value::as_u64).unwrap_or(u64::MAX);
        let n = if depth > MAX_DEPTH { min } else { (1 + self.below(3)).clamp(min, max) };
        let singular = name.strip_suffix('s').unwrap_or(name);
        Value::Array((0..n).map(|_| self.value(items, singular, depth + 1)).collect())
    }

    fn number(&mut self, s: &'static Value, name: &str, integer: bool) -> Value {
        let lower = name.to_ascii_lowercase();
        let example = first_example(s).and_then(Value::as_f64);
        let min = s.get("minimum").and_then(Value::as_f64);
        let max = s.get("maximum").and_then(Value::as_f64);
        let x: f64 = if name.len() > 2 && name.ends_with("At") {
            // `createdAt` (no unit in the documents): milliseconds, as a JavaScript service's
            // `Date.now()`; the client reads seconds or milliseconds by size.
            self.timestamp_ms() as f64
        } else if lower.contains("timestamp") || lower.ends_with("time") {
            let ms = self.timestamp_ms();
            if lower.contains("milli") || example.is_some_and(|e| e > 1e12) {
                ms as f64
            } else {
                ms.div_euclid(1000) as f64
            }
        } else if lower == "latitude" || lower == "longitude" {
            let half = if lower == "latitude" { 9_000 } else { 18_000 };
            (self.below(2 * half + 1) as f64 - half as f64) / 100.0
        } else if lower.contains("percent") || lower.contains("uptime") {
            let v = self.below(10_001) as f64 / 100.0;
            if integer {
                v.floor()
            } else {
                v
            }
        } else if let Some(e) = example {
            self.below(2 * e.abs() as u64 + 10) as f64
        } else {
            self.below(1_000) as f64
        };
        let x = x.max(min.unwrap_or(f64::MIN)).min(max.unwrap_or(f64::MAX));
        if x.fract() == 0.0 && x.abs() < 9e15 {
            Value::from(x as i64)
        } else {
            Value::from(x)
        }
    }

    fn string(&mut self, s: &'static Value, name: &str) -> String {
        if s.get("format").and_then(Value::as_str) == Some("date-time") {
            return rfc3339_nano(self.timestamp_ms() * 1_000_000, 0);
        }
        match first_example(s) {
            Some(Value::String(example)) => self.like(example),
            Some(other) if !other.is_object() && !other.is_array() => other.to_string(),
            // A field the schema rule reads as a decimal amount (e.g. `messageNonce`) gets digits.
            _ if avax_data_core::rest::openapi::DECIMAL_NAMES.contains(&name) => {
                let n = 1 + self.below(18) as usize;
                self.digits(n)
            }
            // So does one it reads as an integer or a uint256 (`tokenId`, `consumingBlockNumber`).
            _ if avax_data_core::rest::openapi::U256_NAMES.contains(&name)
                || avax_data_core::rest::openapi::SIGNED_NAMES.contains(&name)
                || avax_data_core::rest::openapi::integer_name(name) =>
            {
                let n = 1 + self.below(9) as usize;
                self.digits(n)
            }
            _ => self.by_name(name),
        }
    }

    /// A new string of the same shape as `example`.
    fn like(&mut self, example: &str) -> String {
        let hex_body = example.strip_prefix("0x").filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
        if let Some(body) = hex_body {
            return format!("0x{}", self.hex(body.len()));
        }
        if !example.is_empty() && example.bytes().all(|b| b.is_ascii_digit()) {
            return self.digits(example.len());
        }
        if example.starts_with("NodeID-") {
            return format!("NodeID-{}", cb58::encode(&self.bytes::<20>()));
        }
        for hrp in ["avax1", "fuji1"] {
            if let Some(at) = example.find(hrp).filter(|_| !example.contains(',')) {
                let tail = example.len() - at - hrp.len();
                let chars: String = (0..tail).map(|_| char::from(BECH32[self.below(32) as usize])).collect();
                return format!("{}{chars}", &example[..at + hrp.len()]);
            }
        }
        if is_uuid(example) {
            return self.uuid();
        }
        if example.len() >= 30 && example.chars().all(|c| BASE58.contains(c)) {
            return cb58::encode(&self.bytes::<32>());
        }
        if example.len() >= 20 && example.as_bytes()[4] == b'-' && example.as_bytes()[10] == b'T' {
            return rfc3339_nano(self.timestamp_ms() * 1_000_000, 0);
        }
        example.to_string()
    }

    fn uuid(&mut self) -> String {
        let mut b = self.bytes::<16>();
        b[6] = (b[6] & 0x0f) | 0x40;
        b[8] = (b[8] & 0x3f) | 0x80;
        let h = hex::encode(b);
        format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..])
    }

    /// A string for a property named `name` when the document gives no example.
    fn by_name(&mut self, name: &str) -> String {
        let lower = name.to_ascii_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
        if lower == "nodeid" || lower == "nodeids" {
            format!("NodeID-{}", cb58::encode(&self.bytes::<20>()))
        } else if has(&["contractaddress", "evmaddress", "tokenaddress"]) {
            format!("0x{}", self.hex(40))
        } else if has(&["address"]) {
            let chars: String = (0..38).map(|_| char::from(BECH32[self.below(32) as usize])).collect();
            format!("avax1{chars}")
        } else if lower.ends_with("hash") || lower.ends_with("id") || lower.ends_with("ids") {
            cb58::encode(&self.bytes::<32>())
        } else if lower.ends_with("number") || lower.ends_with("index") {
            // `createBlockNumber`, an X-chain UTXO's `outputIndex`: decimal text in real answers.
            let n = 1 + self.below(8) as usize;
            self.digits(n)
        } else if has(&["timestamp"]) {
            self.timestamp_ms().div_euclid(1000).to_string()
        } else if has(&[
            "amount",
            "reward",
            "capacity",
            "fee",
            "weight",
            "balance",
            "value",
            "supply",
            "staked",
            "delegated",
            "burned",
            "minted",
            "price",
            "gas",
        ]) {
            let n = 1 + self.below(18) as usize;
            self.digits(n)
        } else if has(&["version"]) {
            format!("avalanchego/1.{}.{}", 10 + self.below(4), self.below(10))
        } else if has(&["url", "uri"]) {
            format!("https://emulator.invalid/{lower}/{}", self.below(10_000))
        } else if has(&["symbol"]) {
            format!("TK{}", self.below(100))
        } else {
            format!("{name}-{}", self.below(10_000))
        }
    }
}

/// The schema's first example (`examples[0]`, else `example`).
fn first_example(s: &Value) -> Option<&Value> {
    s.get("examples").and_then(Value::as_array).and_then(|e| e.first()).or_else(|| s.get("example"))
}

/// The JSON type a schema describes (the first non-null of a type list; `object` for a schema
/// with properties, `array` with items, else `string`).
fn type_of(s: &Value) -> &str {
    match s.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null").unwrap_or("null"),
        _ if s.get("properties").is_some() || s.get("additionalProperties").is_some() => "object",
        _ if s.get("items").is_some() => "array",
        _ => "string",
    }
}

/// Whether the text `value` is valid for `schema` (a string without an enum, or an enum that has it).
fn accepts_text(service: Service, schema: &'static Value, value: &str) -> bool {
    let s = service.resolve(schema);
    let s = match s.get("allOf").and_then(Value::as_array) {
        Some(parts) if parts.len() == 1 => service.resolve(&parts[0]),
        _ => s,
    };
    if s.get("oneOf").is_some() || s.get("anyOf").is_some() || type_of(s) != "string" {
        return false;
    }
    s.get("enum").and_then(Value::as_array).is_none_or(|e| e.iter().any(|v| v.as_str() == Some(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(v: Value) -> &'static Value {
        Box::leak(Box::new(v))
    }

    #[test]
    fn strings_take_the_shape_of_their_example() {
        let mut g = Gen::new(Service::Data, 1, &[], None);
        let hash = g.like("0x17533aeb5193378b9ff441d61728e7a2ebaf10f61fd5310759451627dfca2e7c");
        assert_eq!(hash.len(), 66);
        assert_ne!(hash, "0x17533aeb5193378b9ff441d61728e7a2ebaf10f61fd5310759451627dfca2e7c");
        let amount = g.like("10000000000000000000");
        assert!(amount.len() == 20 && amount.bytes().all(|b| b.is_ascii_digit()) && !amount.starts_with('0'));
        assert!(g.like("NodeID-111111111111111111116DBWJs").starts_with("NodeID-"));
        let p = g.like("P-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg");
        assert!(p.starts_with("P-avax1") && p.len() == "P-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg".len());
        assert!(is_uuid(&g.like("f33de69c-d13b-4691-908f-870d6e2e6b04")));
        assert!(cb58::decode(&g.like("2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5")).is_ok());
        assert_eq!(g.like("Wrapped AVAX"), "Wrapped AVAX");
    }

    #[test]
    fn objects_enums_bounds_and_discriminators() {
        let s = schema(serde_json::json!({
            "type": "object",
            "required": ["kind", "n", "list", "pick"],
            "properties": {
                "kind": {"type": "string", "enum": ["a", "b"]},
                "n": {"type": "integer", "minimum": 5, "maximum": 7},
                "list": {"type": "array", "items": {"type": "boolean"}, "maxItems": 2},
                "pick": {
                    "oneOf": [{"type": "object", "properties": {"t": {"type": "string"}}, "required": ["t"]}],
                    "discriminator": {"propertyName": "t", "mapping": {}}
                }
            }
        }));
        for seed in 0..50 {
            let v = Gen::new(Service::Data, seed, &[], None).value(s, "root", 0);
            assert!(["a", "b"].contains(&v["kind"].as_str().unwrap()));
            assert!((5..=7).contains(&v["n"].as_i64().unwrap()));
            let list = v["list"].as_array().unwrap();
            assert!((1..=2).contains(&list.len()) && list.iter().all(Value::is_boolean));
            assert!(v["pick"]["t"].is_string());
        }
        let a = Gen::new(Service::Data, 3, &[], None).value(s, "root", 0);
        assert_eq!(a, Gen::new(Service::Data, 3, &[], None).value(s, "root", 0), "deterministic");
    }

    #[test]
    fn path_values_are_echoed_where_the_schema_allows() {
        let s = schema(serde_json::json!({
            "type": "object",
            "required": ["chainId", "network"],
            "properties": {"chainId": {"type": "string"}, "network": {"type": "string", "enum": ["mainnet", "fuji"]}}
        }));
        let echo = [("chainId".to_string(), "43114".to_string()), ("network".to_string(), "testnet".to_string())];
        let v = Gen::new(Service::Data, 9, &echo, None).value(s, "root", 0);
        assert_eq!(v["chainId"], "43114");
        assert!(["mainnet", "fuji"].contains(&v["network"].as_str().unwrap()), "testnet is not in the enum");
        let s = schema(serde_json::json!({
            "type": "object",
            "required": ["address", "tokens"],
            "properties": {
                "address": {"type": "string"},
                "tokens": {"type": "array", "items": {
                    "type": "object", "required": ["address", "chainId"],
                    "properties": {"address": {"type": "string"}, "chainId": {"type": "string"}}
                }}
            }
        }));
        let echo = [("address".to_string(), "0xabc".to_string()), ("chainId".to_string(), "43114".to_string())];
        let v = Gen::new(Service::Data, 2, &echo, None).value(s, "root", 0);
        assert_eq!(v["address"], "0xabc");
        for token in v["tokens"].as_array().unwrap() {
            assert_ne!(token["address"], "0xabc", "a held token's address is not the holder's");
            assert_eq!(token["chainId"], "43114");
        }
    }
}
