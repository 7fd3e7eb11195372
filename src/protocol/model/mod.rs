//! Typed views of the messages the client interprets (serde models, as rmcp's `model/`): the
//! connect results and the server's capabilities, a list page, `resultType`, the JSON-RPC error
//! object, an `input_required` round, a task, a listed tool, a resource's contents, the params
//! of what a server asks, a subscription's honoured filter. Results the client only hands to JS
//! are not modelled: they stay `Value`s, and where a modelled message is also passed on, the
//! caller keeps the original `Value` beside the view.
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

/// A JSON value read as serde_json reads it, with two differences: a struct is read only from
/// an object (serde's derived structs also take an array, by position, which no message here
/// means), and each type is read by its own method rather than `deserialize_any`, so serde_json's
/// object and array walkers are compiled only for the types that read objects and arrays (the
/// wasm carries one copy of them per type that reaches them).
struct ObjectsOnly<'a>(&'a Value);

macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
            self.0.$method(v)
        }
    )*};
}

impl<'de> Deserializer<'de> for ObjectsOnly<'de> {
    type Error = crate::json::Error;

    forward! {
        deserialize_any deserialize_bool deserialize_i64 deserialize_u64 deserialize_f64
        deserialize_str deserialize_string deserialize_option deserialize_seq deserialize_map
        deserialize_ignored_any
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
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        // As a map: an object, and nothing else, reaches the struct's visitor.
        self.0.deserialize_map(v)
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i128 u8 u16 u32 u128 f32 char bytes byte_buf
        unit unit_struct tuple tuple_struct enum identifier
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
    T::deserialize(ObjectsOnly(v)).ok()
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
