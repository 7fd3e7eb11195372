//! Elicitation answers: filling schema defaults into an accepted form (SEP-1034) and checking
//! the content against `requestedSchema` before it is sent.

use crate::json::{Map, Value};
use crate::util::number::Num;

/// One problem with an answer, tied to a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The property name (empty for the form as a whole).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

fn err(field: &str, message: impl Into<String>) -> FieldError {
    FieldError {
        field: field.to_string(),
        message: message.into(),
    }
}

fn properties(schema: &Value) -> Option<&Map<String, Value>> {
    schema.get("properties")?.as_object()
}

/// Fills fields missing from `content` with their schema `default` (string, number, integer,
/// boolean, enum and multi-select fields).
pub fn apply_defaults(schema: &Value, content: &mut Map<String, Value>) {
    let Some(props) = properties(schema) else {
        return;
    };
    for (name, prop) in props {
        if content.contains_key(name) {
            continue;
        }
        if let Some(default) = prop.get("default") {
            if !default.is_null() {
                content.insert(name.clone(), default.clone());
            }
        }
    }
}

fn enum_values(prop: &Value) -> Option<Vec<&Value>> {
    if let Some(e) = prop.get("enum").and_then(Value::as_array) {
        return Some(e.iter().collect());
    }
    let options = prop
        .get("oneOf")
        .or_else(|| prop.get("anyOf"))?
        .as_array()?;
    Some(options.iter().filter_map(|o| o.get("const")).collect())
}

/// Checks `content` against a flat elicitation `requestedSchema`; empty when valid.
pub fn validate(schema: &Value, content: &Map<String, Value>) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let props = properties(schema);
    if let Some(required) = schema.get("required").and_then(Value::as_array) {
        for name in required.iter().filter_map(Value::as_str) {
            if content.get(name).is_none_or(Value::is_null) {
                errors.push(err(name, "is required"));
            }
        }
    }
    for (name, value) in content {
        let Some(prop) = props.and_then(|p| p.get(name)) else {
            errors.push(err(name, "is not a field of the requested schema"));
            continue;
        };
        check_value(name, prop, value, &mut errors);
    }
    errors
}

fn check_value(name: &str, prop: &Value, value: &Value, errors: &mut Vec<FieldError>) {
    let ty = prop.get("type").and_then(Value::as_str).unwrap_or(
        if prop.get("oneOf").is_some() || prop.get("enum").is_some() {
            "string"
        } else {
            ""
        },
    );
    match ty {
        "string" => {
            let Some(s) = value.as_str() else {
                return errors.push(err(name, format!("must be a string, got {value}")));
            };
            let len = s.chars().count() as f64;
            check_bounds(
                errors,
                name,
                prop,
                len,
                ("minLength", "maxLength"),
                ("must be", " characters"),
            );
            if let Some(allowed) = enum_values(prop) {
                if !allowed.iter().any(|a| a.as_str() == Some(s)) {
                    errors.push(err(name, format!("must be one of {}", list(&allowed))));
                }
            }
            if let Some(format) = prop.get("format").and_then(Value::as_str) {
                if !format_ok(format, s) {
                    errors.push(err(name, format!("is not a valid {format}")));
                }
            }
        }
        "number" | "integer" => {
            let Some(n) = value.as_f64() else {
                return errors.push(err(name, format!("must be a {ty}, got {value}")));
            };
            if ty == "integer" && n.fract() != 0.0 {
                errors.push(err(name, format!("must be an integer, got {value}")));
            }
            check_bounds(
                errors,
                name,
                prop,
                n,
                ("minimum", "maximum"),
                ("must be", ""),
            );
        }
        "boolean" if !value.is_boolean() => {
            errors.push(err(name, format!("must be a boolean, got {value}")));
        }
        "array" => {
            let Some(items) = value.as_array() else {
                return errors.push(err(name, format!("must be an array, got {value}")));
            };
            let allowed = prop.get("items").and_then(enum_values);
            for item in items {
                match (&allowed, item.as_str()) {
                    (_, None) => {
                        errors.push(err(name, format!("items must be strings, got {item}")))
                    }
                    (Some(allowed), Some(s)) if !allowed.iter().any(|a| a.as_str() == Some(s)) => {
                        errors.push(err(name, format!("{item} is not one of {}", list(allowed))))
                    }
                    _ => {}
                }
            }
            check_bounds(
                errors,
                name,
                prop,
                items.len() as f64,
                ("minItems", "maxItems"),
                ("must have", " selections"),
            );
        }
        _ => {}
    }
}

/// Checks `n` against the schema's lower and upper bound keywords, e.g. `("minLength",
/// "maxLength")`; `phrase` words the error: `("must be", " characters")`.
fn check_bounds(
    errors: &mut Vec<FieldError>,
    name: &str,
    prop: &Value,
    n: f64,
    keys: (&str, &str),
    phrase: (&str, &str),
) {
    let (verb, unit) = phrase;
    if let Some(min) = prop
        .get(keys.0)
        .and_then(Value::as_f64)
        .filter(|min| n < *min)
    {
        errors.push(err(name, format!("{verb} at least {}{unit}", Num(min))));
    }
    if let Some(max) = prop
        .get(keys.1)
        .and_then(Value::as_f64)
        .filter(|max| n > *max)
    {
        errors.push(err(name, format!("{verb} at most {}{unit}", Num(max))));
    }
}

fn list(values: &[&Value]) -> String {
    let texts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    crate::util::quote::join(&texts, ", ")
}

/// Checks the string formats elicitation allows: email, uri, date, date-time.
pub fn format_ok(format: &str, s: &str) -> bool {
    match format {
        "email" => {
            let mut parts = s.splitn(2, '@');
            let (local, domain) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !s.chars().any(char::is_whitespace)
        }
        "uri" => {
            let Some((scheme, rest)) = s.split_once(':') else {
                return false;
            };
            let mut chars = scheme.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !rest.is_empty()
                && !s.chars().any(|c| c.is_whitespace() || c.is_control())
        }
        "date" => date_ok(s),
        "date-time" => {
            let Some((date, time)) = s.split_once(['T', 't']) else {
                return false;
            };
            date_ok(date) && time_ok(time)
        }
        _ => true,
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

fn date_ok(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts[..] else { return false };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn time_ok(s: &str) -> bool {
    let (clock, offset) = if let Some(c) = s.strip_suffix(['Z', 'z']) {
        (c, None)
    } else if let Some(i) = s.rfind(['+', '-']) {
        (&s[..i], Some(&s[i + 1..]))
    } else {
        return false;
    };
    if let Some(off) = offset {
        let Some((h, m)) = off.split_once(':') else {
            return false;
        };
        if !matches!((digits(h, 2), digits(m, 2)), (Some(h), Some(m)) if h < 24 && m < 60) {
            return false;
        }
    }
    let (hms, frac) = clock.split_once('.').unwrap_or((clock, "0"));
    if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let parts: Vec<&str> = hms.split(':').collect();
    let [h, m, sec] = parts[..] else { return false };
    matches!((digits(h, 2), digits(m, 2), digits(sec, 2)), (Some(h), Some(m), Some(s)) if h < 24 && m < 60 && s <= 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 10},
                "email": {"type": "string", "format": "email"},
                "site": {"type": "string", "format": "uri"},
                "born": {"type": "string", "format": "date"},
                "at": {"type": "string", "format": "date-time"},
                "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
                "score": {"type": "number", "default": 1.5},
                "ok": {"type": "boolean", "default": true},
                "color": {"type": "string", "enum": ["red", "green"], "default": "red"},
                "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2, "default": ["a"]},
                "nick": {"type": "string", "default": "anon"}
            },
            "required": ["name", "email"]
        })
    }

    #[test]
    fn defaults_fill_only_missing_fields() {
        let mut c = json!({"name": "Ada", "age": 36})
            .as_object()
            .unwrap()
            .clone();
        apply_defaults(&schema(), &mut c);
        assert_eq!(c["age"], 36);
        assert_eq!(c["score"], 1.5);
        assert_eq!(c["ok"], true);
        assert_eq!(c["color"], "red");
        assert_eq!(c["tags"], json!(["a"]));
        assert_eq!(c["nick"], "anon");
        assert!(!c.contains_key("email"));
    }

    #[test]
    fn a_valid_answer_has_no_errors() {
        let c = json!({"name": "Ada", "email": "ada@example.org", "site": "https://x.org/a", "born": "1815-12-10",
            "at": "2026-07-28T10:00:00.5+02:00", "age": 36, "score": 2.5, "ok": false, "color": "green", "size": "l", "tags": ["a", "c"]});
        assert_eq!(validate(&schema(), c.as_object().unwrap()), vec![]);
    }

    #[test]
    fn each_violation_is_named() {
        let c = json!({"name": "A", "site": "not a uri", "born": "2023-02-29", "at": "2026-07-28 10:00",
            "age": 200, "score": "x", "ok": "yes", "color": "blue", "size": "m", "tags": ["a", "b", "z"], "extra": 1});
        let errors = validate(&schema(), c.as_object().unwrap());
        let has = |f: &str, m: &str| errors.iter().any(|e| e.field == f && e.message.contains(m));
        assert!(has("email", "is required"));
        assert!(has("name", "at least 2"));
        assert!(has("site", "valid uri"));
        assert!(has("born", "valid date"));
        assert!(has("at", "valid date-time"));
        assert!(has("age", "at most 150"));
        assert!(has("score", "must be a number"));
        assert!(has("ok", "must be a boolean"));
        assert!(has("color", "one of \"red\", \"green\""));
        assert!(has("size", "one of \"s\", \"l\""));
        assert!(has("tags", "\"z\" is not one of"));
        assert!(has("tags", "at most 2"));
        assert!(has("extra", "not a field"));
        assert_eq!(errors.len(), 13, "{errors:?}");
    }

    #[test]
    fn formats() {
        assert!(format_ok("email", "a.b@c.io"));
        assert!(!format_ok("email", "a@b"));
        assert!(!format_ok("email", "a b@c.io"));
        assert!(format_ok("uri", "mailto:x@y.z"));
        assert!(!format_ok("uri", "/relative"));
        assert!(format_ok("date", "2024-02-29"));
        assert!(!format_ok("date", "2024-13-01"));
        assert!(format_ok("date-time", "2024-02-29T23:59:60Z"));
        assert!(!format_ok("date-time", "2024-02-29T24:00:00Z"));
        assert!(!format_ok("date-time", "2024-02-29T10:00:00"));
        assert!(format_ok("integer-ish-unknown-format", "anything"));
    }
}

/// The kind of input a form field needs.
pub fn field_kind(prop: &Value) -> Result<&'static str, String> {
    let ty = prop.get("type").and_then(Value::as_str);
    if ty == Some("array") {
        let items = prop.get("items").ok_or("a multi-select needs `items`")?;
        return if enum_values(items).is_some() {
            Ok("multi-select")
        } else {
            Err("array fields must list their options in items.enum or items.anyOf".into())
        };
    }
    if enum_values(prop).is_some() {
        return Ok("single-select");
    }
    match (ty, prop.get("format").and_then(Value::as_str)) {
        (Some("string"), None) => Ok("text"),
        (Some("string"), Some("email")) => Ok("email"),
        (Some("string"), Some("uri")) => Ok("uri"),
        (Some("string"), Some("date")) => Ok("date"),
        (Some("string"), Some("date-time")) => Ok("date-time"),
        (Some("string"), Some(f)) => Err([
            "string format ",
            &crate::util::quote::quoted(f),
            " is not one elicitation allows",
        ]
        .concat()),
        (Some("number"), _) => Ok("number"),
        (Some("integer"), _) => Ok("integer"),
        (Some("boolean"), _) => Ok("boolean"),
        (Some(t), _) => Err([
            "type ",
            &crate::util::quote::quoted(t),
            " is not a primitive elicitation field",
        ]
        .concat()),
        (None, _) => Err("the field has no type".into()),
    }
}

/// The options of a select field with their labels, for every enum shape (`enum` +
/// `enumNames`, `oneOf`/`anyOf` of `{const, title}`, and the same under `items`).
pub fn field_options(prop: &Value) -> Vec<Value> {
    let src = if prop.get("type").and_then(Value::as_str) == Some("array") {
        prop.get("items").unwrap_or(&Value::Null)
    } else {
        prop
    };
    if let Some(values) = src.get("enum").and_then(Value::as_array) {
        let names = src
            .get("enumNames")
            .or_else(|| prop.get("enumNames"))
            .and_then(Value::as_array);
        return values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let label = names
                    .and_then(|n| n.get(i))
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| {
                        v.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| v.to_string())
                    });
                crate::json::json!({ "value": v, "label": label })
            })
            .collect();
    }
    let options = src
        .get("oneOf")
        .or_else(|| src.get("anyOf"))
        .and_then(Value::as_array);
    options
        .into_iter()
        .flatten()
        .filter_map(|o| {
            let v = o.get("const")?;
            let label = o
                .get("title")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| {
                    v.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string())
                });
            Some(crate::json::json!({ "value": v, "label": label }))
        })
        .collect()
}

/// The form model of a `requestedSchema`: its fields in order, each with name, title,
/// description, required, kind, constraints, options and default. Unsupported constructs are
/// an `Err` naming the field.
pub fn form_model(schema: &Value) -> Result<Value, String> {
    if schema
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t != "object")
    {
        return Err("requestedSchema must be an object schema".into());
    }
    let props = properties(schema).ok_or("requestedSchema has no properties")?;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields = Vec::new();
    for (name, prop) in props {
        let kind = field_kind(prop)
            .map_err(|e| ["field ", &crate::util::quote::quoted(name), ": ", &e].concat())?;
        let mut constraints = Map::new();
        for k in [
            "minLength",
            "maxLength",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "format",
        ] {
            if let Some(v) = prop.get(k) {
                constraints.insert(k.to_string(), v.clone());
            }
        }
        let mut field = crate::json::json!({
            "name": name,
            "title": prop.get("title").and_then(Value::as_str).unwrap_or(name),
            "required": required.contains(&name.as_str()),
            "kind": kind,
            "constraints": constraints,
        });
        if let Some(d) = prop.get("description") {
            field["description"] = d.clone();
        }
        if kind.ends_with("select") {
            field["options"] = Value::Array(field_options(prop));
        }
        if let Some(d) = prop.get("default").filter(|d| !d.is_null()) {
            field["default"] = d.clone();
        }
        fields.push(field);
    }
    Ok(crate::json::json!({ "fields": fields }))
}

/// Coerces form values (strings from inputs) to the schema's types: numbers, integers,
/// booleans (`"true"`, `"on"`, `"1"`), and a single string into a one-item multi-select.
/// Empty strings for optional fields are dropped. Values already of the right type pass.
pub fn coerce_form(schema: &Value, content: &Map<String, Value>) -> Map<String, Value> {
    let props = properties(schema);
    let mut out = Map::new();
    for (name, v) in content {
        let prop = props.and_then(|p| p.get(name));
        let ty = prop
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let coerced = match (ty, v) {
            (_, Value::String(s)) if s.is_empty() && ty != "string" => continue,
            ("string", Value::String(s)) if s.is_empty() && !required(schema, name) => continue,
            ("number", Value::String(s)) => crate::util::number::parse(s)
                .and_then(|n| crate::json::Number::from_f64(n).map(Value::Number))
                .unwrap_or_else(|| v.clone()),
            ("integer", Value::String(s)) => s
                .trim()
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or_else(|_| v.clone()),
            ("boolean", Value::String(s)) => match s.as_str() {
                "true" | "on" | "1" | "yes" => Value::Bool(true),
                "false" | "off" | "0" | "no" => Value::Bool(false),
                _ => v.clone(),
            },
            ("array", Value::String(s)) => Value::Array(vec![Value::String(s.clone())]),
            _ => v.clone(),
        };
        out.insert(name.clone(), coerced);
    }
    out
}

fn required(schema: &Value, name: &str) -> bool {
    schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)))
}

#[cfg(test)]
mod form_tests {
    use super::*;
    use crate::json::json;

    fn every_kind() -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Name", "minLength": 1},
            "email": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "born": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
            "score": {"type": "number", "minimum": 0},
            "age": {"type": "integer", "default": 30},
            "ok": {"type": "boolean"},
            "color": {"type": "string", "enum": ["r", "g"], "enumNames": ["Red", "Green"]},
            "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 2},
            "pets": {"type": "array", "items": {"anyOf": [{"const": "cat", "title": "Cat"}, {"const": "dog", "title": "Dog"}]}}
        }, "required": ["name", "email"]})
    }

    #[test]
    fn every_field_kind_and_option_shape() {
        let m = form_model(&every_kind()).unwrap();
        let fields = m["fields"].as_array().unwrap();
        let kinds: Vec<&str> = fields.iter().map(|f| f["kind"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "text",
                "email",
                "uri",
                "date",
                "date-time",
                "number",
                "integer",
                "boolean",
                "single-select",
                "single-select",
                "multi-select",
                "multi-select"
            ]
        );
        assert_eq!(fields[0]["title"], "Name");
        assert_eq!(fields[0]["required"], true);
        assert_eq!(fields[0]["constraints"]["minLength"], 1);
        assert_eq!(fields[6]["default"], 30);
        assert_eq!(
            fields[8]["options"],
            json!([{"value": "r", "label": "Red"}, {"value": "g", "label": "Green"}])
        );
        assert_eq!(
            fields[9]["options"][1],
            json!({"value": "l", "label": "Large"})
        );
        assert_eq!(
            fields[10]["options"][0],
            json!({"value": "a", "label": "a"})
        );
        assert_eq!(
            fields[11]["options"][1],
            json!({"value": "dog", "label": "Dog"})
        );
    }

    #[test]
    fn unsupported_constructs_are_named() {
        assert!(
            form_model(&json!({"type": "object", "properties": {"o": {"type": "object"}}}))
                .unwrap_err()
                .contains("field \"o\"")
        );
        assert!(form_model(
            &json!({"type": "object", "properties": {"p": {"type": "string", "format": "ipv4"}}})
        )
        .unwrap_err()
        .contains("ipv4"));
        assert!(form_model(&json!({"type": "array"})).is_err());
    }

    #[test]
    fn form_strings_are_coerced() {
        let content = json!({"name": "Ada", "score": "2.5", "age": "36", "ok": "on", "tags": "a", "site": "", "email": "a@b.co"});
        let c = coerce_form(&every_kind(), content.as_object().unwrap());
        assert_eq!(
            Value::Object(c.clone()),
            json!({"name": "Ada", "score": 2.5, "age": 36, "ok": true, "tags": ["a"], "email": "a@b.co"})
        );
        assert!(validate(&every_kind(), &c).is_empty());
        let bad = coerce_form(
            &every_kind(),
            json!({"name": "", "email": "x", "age": "3.5"})
                .as_object()
                .unwrap(),
        );
        let errors = validate(&every_kind(), &bad);
        assert!(errors.iter().any(|e| e.field == "email"));
        assert!(errors.iter().any(|e| e.field == "age"));
    }
}
