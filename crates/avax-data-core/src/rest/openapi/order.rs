//! The documents' property order. `serde_json::Map` here is sorted by key (no `preserve_order`),
//! so the order a document writes an object's `properties` in is read once more from its text
//! and kept beside the parsed tree: frames get their columns in the document's order.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::Service;

/// A JSON text's shape with object keys in the order they are written (scalars dropped).
enum Ordered {
    Object(Vec<(String, Ordered)>),
    Array(Vec<Ordered>),
    Scalar,
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = Ordered;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Ordered, E> {
        Ok(Ordered::Scalar)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ordered, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Ordered::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
        let mut entries = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Ordered>()? {
            entries.push((key, value));
        }
        Ok(Ordered::Object(entries))
    }
}

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
        deserializer.deserialize_any(OrderedVisitor)
    }
}

/// Key order of every `properties` object of one document, by the address of its parsed map.
type Orders = HashMap<usize, Vec<&'static str>>;

fn record(value: &'static Value, shape: &Ordered, in_properties: bool, out: &mut Orders) {
    match (value, shape) {
        (Value::Object(map), Ordered::Object(entries)) => {
            if in_properties {
                let mut keys: Vec<&'static str> = Vec::with_capacity(map.len());
                for (key, _) in entries {
                    if let Some((k, _)) = map.get_key_value(key.as_str()) {
                        if !keys.contains(&k.as_str()) {
                            keys.push(k.as_str());
                        }
                    }
                }
                out.insert(std::ptr::from_ref(map) as usize, keys);
            }
            for (key, child) in entries {
                if let Some(v) = map.get(key.as_str()) {
                    // The values of a `properties` object are schemas, not property lists.
                    record(v, child, !in_properties && key == "properties", out);
                }
            }
        }
        (Value::Array(values), Ordered::Array(shapes)) => {
            for (v, s) in values.iter().zip(shapes) {
                record(v, s, false, out);
            }
        }
        _ => {}
    }
}

fn orders(service: Service) -> &'static Orders {
    static DATA: OnceLock<Orders> = OnceLock::new();
    static METRICS: OnceLock<Orders> = OnceLock::new();
    let cell = match service {
        Service::Data => &DATA,
        Service::Metrics => &METRICS,
    };
    cell.get_or_init(|| {
        let shape: Ordered = serde_json::from_str(service.text()).expect("the embedded OpenAPI document is JSON");
        let mut out = Orders::new();
        record(service.document(), &shape, false, &mut out);
        out
    })
}

impl Service {
    /// The entries of a `properties` object of this document in the order the document writes
    /// them (a map that is not one of the document's keeps its sorted order).
    pub fn properties_in_order(self, props: &'static Map<String, Value>) -> Vec<(&'static str, &'static Value)> {
        match orders(self).get(&(std::ptr::from_ref(props) as usize)) {
            Some(keys) => keys.iter().filter_map(|k| props.get(*k).map(|v| (*k, v))).collect(),
            None => props.iter().map(|(k, v)| (k.as_str(), v)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_come_in_the_order_the_document_writes_them() {
        let block = Service::Data.schema("EvmBlock").unwrap();
        let props = block.get("properties").and_then(Value::as_object).unwrap();
        let names: Vec<&str> = Service::Data.properties_in_order(props).into_iter().map(|(k, _)| k).collect();
        // The document's own order, read independently of serde_json: positions in the text.
        let text = Service::Data.text();
        let at = text.find("\"EvmBlock\": {").unwrap();
        let mut by_text: Vec<&str> = props.keys().map(String::as_str).collect();
        by_text.sort_by_key(|k| text[at..].find(&format!("\"{k}\": {{")).unwrap());
        assert_eq!(names, by_text);
        assert_eq!(names.len(), props.len());
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_ne!(names, sorted, "the document's order is not alphabetical");
    }

    #[test]
    fn a_map_from_elsewhere_keeps_its_own_order() {
        let v: &'static Value = Box::leak(Box::new(serde_json::json!({"b": 1, "a": 2})));
        let names: Vec<&str> =
            Service::Data.properties_in_order(v.as_object().unwrap()).into_iter().map(|(k, _)| k).collect();
        assert_eq!(names, ["a", "b"]);
    }
}
