//! The JSON-RPC error object (`{ code, message, data? }`): a response's `error`, and a failed
//! 2026 task's `error`.

use super::{view, Field};
use crate::json::Value;
use serde::Deserialize;

/// An error object as it arrived.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ErrorObject {
    /// The code: an integer (a fraction or a string is [`Field::Wrong`]).
    pub code: Field<i64>,
    /// The message.
    pub message: Field<String>,
    /// Anything the server adds (`null` included: it is passed on as sent).
    pub data: Field<Value>,
}

impl ErrorObject {
    /// Reads an error object (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }

    /// `code` and `message` when both have their types: a well-formed error object.
    pub fn parts(&self) -> Option<(i64, &str)> {
        Some((*self.code.ok()?, self.message.ok()?.as_str()))
    }

    /// `data` as sent: `None` when absent, `null` kept.
    pub fn data(&self) -> Option<Value> {
        match &self.data {
            Field::Absent => None,
            Field::Null => Some(Value::Null),
            Field::Wrong(v) | Field::Is(v) => Some(v.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn a_well_formed_error_object() {
        let e = ErrorObject::read(&json!({"code": -32602, "message": "bad", "data": {"x": 1}}))
            .unwrap();
        assert_eq!(e.parts(), Some((-32602, "bad")));
        assert_eq!(e.data(), Some(json!({"x": 1})));
        let e = ErrorObject::read(&json!({"code": 1, "message": "m", "data": null})).unwrap();
        assert_eq!(e.data(), Some(Value::Null), "a null data is passed on");
        let e = ErrorObject::read(&json!({"code": 1, "message": "m"})).unwrap();
        assert_eq!(e.data(), None);
    }

    #[test]
    fn wrong_types_are_not_an_error_object() {
        for bad in [
            json!({"code": "x", "message": "m"}),
            json!({"code": 1.5, "message": "m"}),
            json!({"code": 1}),
            json!({"code": 1, "message": 2}),
        ] {
            assert_eq!(ErrorObject::read(&bad).unwrap().parts(), None, "{bad}");
        }
        assert!(ErrorObject::read(&json!("oops")).is_none());
    }
}
