//! Typed views of the messages the client interprets (serde models, as rmcp's `model/`):
//! the connect results, a list page, the JSON-RPC error object, an `input_required` round and
//! a task. Results the client only hands to JS are not modelled: they stay `Value`s, and where a
//! modelled message is also passed on, the caller keeps the original `Value` beside the view.
//!
//! The wire is read as leniently as the client always read it: a field that may be absent,
//! `null` or of a wrong type is a [`Field`], so the session decides what each case means (and
//! names the field in its error) instead of a serde message deciding it.

pub mod error;
pub mod initialize;
pub mod input_required;
pub mod list;
pub mod resource;
pub mod result;
pub mod server_request;
pub mod subscription;
pub mod task;
pub mod tool;

use crate::json::Value;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, IgnoredAny, Visitor};

/// One field of a wire object as it arrived: absent, `null`, of the wrong type (kept, for the
/// error text), or the expected type.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Field<T> {
    /// Not in the object.
    #[default]
    Absent,
    /// `null`.
    Null,
    /// Something other than `T` (the value as sent).
    Wrong(Value),
    /// A `T`.
    Is(T),
}

impl<T> Field<T> {
    /// The value when it has the expected type.
    pub fn ok(&self) -> Option<&T> {
        match self {
            Field::Is(t) => Some(t),
            _ => None,
        }
    }

    /// The value when it has the expected type, owned.
    pub fn into_ok(self) -> Option<T> {
        match self {
            Field::Is(t) => Some(t),
            _ => None,
        }
    }

    /// Absent or `null`.
    pub fn is_missing(&self) -> bool {
        matches!(self, Field::Absent | Field::Null)
    }

    /// In the object (`null` included).
    pub fn is_present(&self) -> bool {
        !matches!(self, Field::Absent)
    }

    /// `Ok(None)` when absent or `null`, `Ok(Some(t))` when a `T`, `Err(why)` otherwise.
    pub fn optional(self, why: &str) -> Result<Option<T>, String> {
        match self {
            Field::Absent | Field::Null => Ok(None),
            Field::Is(t) => Ok(Some(t)),
            Field::Wrong(_) => Err(why.to_string()),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        if v.is_null() {
            return Ok(Field::Null);
        }
        // A failed attempt keeps the value, for the error text.
        match T::deserialize(ObjectsOnly(&v)) {
            Ok(t) => Ok(Field::Is(t)),
            Err(_) => Ok(Field::Wrong(v)),
        }
    }
}

/// A JSON value read as serde_json reads it, except that a struct is read only from an object
/// (serde's derived structs also take an array, by position, which no message here means).
struct ObjectsOnly<'a>(&'a Value);

impl<'de> Deserializer<'de> for ObjectsOnly<'de> {
    type Error = crate::json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.0.deserialize_any(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        self.0.deserialize_option(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_newtype_struct(name, v)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        if !self.0.is_object() {
            return Err(serde::de::Error::custom("not an object"));
        }
        self.0.deserialize_struct(name, fields, v)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// Whether a field is in the object (`null` included), its value skipped unread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen(pub bool);

impl<'de> Deserialize<'de> for Seen {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_ignored_any(IgnoredAny)?;
        Ok(Seen(true))
    }
}

/// A borrowed string field read leniently (`deserialize_with`): anything but a string is
/// `None`. For models read without copying (a resource's base64 `blob` may be megabytes).
pub fn lenient_str<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de str>, D::Error> {
    Ok(Option::<&'de str>::deserialize(d).ok().flatten())
}

/// Reads a model from a JSON value; a value that is not an object is `None` (every field of a
/// model is a [`Field`] or defaulted, so only a non-object fails; serde would also read a
/// struct from an array, by position, which no message here means).
pub fn view<'de, T: Deserialize<'de>>(v: &'de Value) -> Option<T> {
    if !v.is_object() {
        return None;
    }
    T::deserialize(v).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[derive(serde::Deserialize, Debug, Default)]
    #[serde(default)]
    struct Probe {
        s: Field<String>,
        n: Field<u64>,
    }

    #[test]
    fn fields_tell_absent_null_wrong_and_right_apart() {
        let p: Probe = view(&json!({"s": null, "n": 5})).unwrap();
        assert_eq!((p.s, p.n), (Field::Null, Field::Is(5)));
        let p: Probe = view(&json!({"s": 5, "x": true})).unwrap();
        assert_eq!((p.s, p.n), (Field::Wrong(json!(5)), Field::Absent));
        assert!(view::<Probe>(&json!([1])).is_none());
        assert!(view::<Probe>(&json!("x")).is_none());
    }

    #[derive(serde::Deserialize, Debug, Default, PartialEq)]
    #[serde(default)]
    struct Outer {
        inner: Field<Probe2>,
    }

    #[derive(serde::Deserialize, Debug, Default, PartialEq)]
    #[serde(default)]
    struct Probe2 {
        s: Field<String>,
    }

    #[test]
    fn a_nested_model_is_read_only_from_an_object() {
        let o: Outer = view(&json!({"inner": {"s": "x"}})).unwrap();
        assert_eq!(o.inner.ok().unwrap().s, Field::Is("x".into()));
        let o: Outer = view(&json!({"inner": ["x"]})).unwrap();
        assert_eq!(o.inner, Field::Wrong(json!(["x"])));
    }

    #[test]
    fn optional_names_a_wrong_type() {
        assert_eq!(Field::<String>::Null.optional("why"), Ok(None));
        assert_eq!(Field::Is(1).optional("why"), Ok(Some(1)));
        assert_eq!(
            Field::<String>::Wrong(json!(1)).optional("s is not a string"),
            Err("s is not a string".to_string())
        );
    }
}
