//! Elicitation answers: filling schema defaults into an accepted form (SEP-1034) and checking
//! the content against `requestedSchema` before it is sent.
//!
//! Rendering a `requestedSchema` as a form (field kinds, options, coercing typed input) is in
//! `form`.

mod form;
#[cfg(test)]
mod tests;

pub use form::{coerce_form, field_kind, field_options, form_model};

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
                let article = if ty == "integer" { "an" } else { "a" };
                return errors.push(err(name, format!("must be {article} {ty}, got {value}")));
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
