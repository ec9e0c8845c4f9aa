//! [`JsonItem`]: one item of a page as the JSON text the service sent, parsed only by what
//! consumes it (Arrow columns straight from the text, or a `serde_json::Value` for a dict).

use serde_json::value::RawValue;
use serde_json::Value;

/// One JSON object of a page, kept as its text. Made by the page parser (which checked it is an
/// object) or from a [`Value`]; the empty default is what a handed-out slot holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonItem(Box<str>);

impl JsonItem {
    /// The item's JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The item as a [`Value`] (`Null` for the empty default).
    pub fn to_value(&self) -> Value {
        if self.0.is_empty() {
            return Value::Null;
        }
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }

    /// The value of field `name`, as raw JSON text (`None` when absent or the item is not an
    /// object).
    pub fn field(&self, name: &str) -> Option<&RawValue> {
        use std::collections::HashMap;
        let fields: HashMap<std::borrow::Cow<'_, str>, &RawValue> = serde_json::from_str(&self.0).ok()?;
        fields.get(name).copied()
    }
}

impl From<&RawValue> for JsonItem {
    fn from(raw: &RawValue) -> Self {
        JsonItem(raw.get().into())
    }
}

impl From<&Value> for JsonItem {
    fn from(value: &Value) -> Self {
        JsonItem(value.to_string().into_boxed_str())
    }
}

impl From<Value> for JsonItem {
    fn from(value: Value) -> Self {
        JsonItem::from(&value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn items_keep_their_text_and_read_back_as_values_and_fields() {
        let item = JsonItem::from(json!({"timestamp": 1700000000, "value": "1.5", "a\"b": [1]}));
        assert_eq!(item.to_value(), json!({"timestamp": 1700000000, "value": "1.5", "a\"b": [1]}));
        assert_eq!(item.field("timestamp").map(RawValue::get), Some("1700000000"));
        assert_eq!(item.field("value").map(RawValue::get), Some("\"1.5\""));
        assert_eq!(item.field("a\"b").map(RawValue::get), Some("[1]"));
        assert!(item.field("missing").is_none());
        assert_eq!(JsonItem::default().to_value(), Value::Null);
        assert!(JsonItem::default().field("x").is_none());
    }
}
