//! JSON values, text in and out: serde_json, behind one facade so call sites name `crate::json`.
//!
//! serde_json is built with `preserve_order`: an object keeps its keys in the order they were
//! read or inserted (what the wire sent is what a JS result shows). Its parser caps nesting at
//! 128, so a hostile `[[[[…` is an error, not a stack overflow; a duplicate key keeps the last
//! value.

pub use serde_json::{
    from_slice, from_str, from_value, json, to_string, to_string_pretty, to_value, to_writer,
    Error, Map, Number, Value,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_keep_the_order_keys_came_in() {
        let v: Value = from_str(r#"{"z":1,"a":2,"m":{"y":0,"b":1}}"#).unwrap();
        assert_eq!(to_string(&v).unwrap(), r#"{"z":1,"a":2,"m":{"y":0,"b":1}}"#);
        let mut m = Map::new();
        m.insert("b".into(), json!(1));
        m.insert("a".into(), json!(2));
        assert_eq!(to_string(&m).unwrap(), r#"{"b":1,"a":2}"#);
    }

    #[test]
    fn hostile_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        let e = from_str::<Value>(&deep).unwrap_err();
        assert!(e.to_string().contains("recursion limit"), "{e}");
    }
}
