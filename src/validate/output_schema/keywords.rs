//! The per-type keywords of the output-schema validator: numbers, strings, arrays, objects.

use super::{json_eq, short, Dialect, OutputValidator};
use crate::json::{json, Map, Value};
use crate::util::number::Num;

impl OutputValidator {
    pub(super) fn check_number(
        &self,
        s: &Map<String, Value>,
        n: f64,
        at: &str,
        errors: &mut Vec<String>,
    ) {
        let num = |k: &str| s.get(k).and_then(Value::as_f64);
        let draft4_excl = |k: &str| {
            self.dialect == Dialect::Draft4 && s.get(k).and_then(Value::as_bool) == Some(true)
        };
        if let Some(min) = num("minimum") {
            if n < min || (draft4_excl("exclusiveMinimum") && n <= min) {
                Self::fail(
                    errors,
                    at,
                    format!("{} is less than the minimum of {}", Num(n), Num(min)),
                );
            }
        }
        if let Some(max) = num("maximum") {
            if n > max || (draft4_excl("exclusiveMaximum") && n >= max) {
                Self::fail(
                    errors,
                    at,
                    format!("{} is greater than the maximum of {}", Num(n), Num(max)),
                );
            }
        }
        if let Some(min) = num("exclusiveMinimum") {
            if n <= min {
                Self::fail(
                    errors,
                    at,
                    format!("{} is not greater than {}", Num(n), Num(min)),
                );
            }
        }
        if let Some(max) = num("exclusiveMaximum") {
            if n >= max {
                Self::fail(
                    errors,
                    at,
                    format!("{} is not less than {}", Num(n), Num(max)),
                );
            }
        }
        if let Some(m) = num("multipleOf").filter(|m| *m > 0.0) {
            let q = n / m;
            if (q - q.round()).abs() > 1e-9 {
                Self::fail(
                    errors,
                    at,
                    format!("{} is not a multiple of {}", Num(n), Num(m)),
                );
            }
        }
    }

    pub(super) fn check_string(
        &self,
        s: &Map<String, Value>,
        text: &str,
        at: &str,
        errors: &mut Vec<String>,
    ) {
        let len = text.chars().count() as u64;
        if let Some(min) = s.get("minLength").and_then(Value::as_u64) {
            if len < min {
                Self::fail(
                    errors,
                    at,
                    format!("{} is shorter than {min} characters", short(&json!(text))),
                );
            }
        }
        if let Some(max) = s.get("maxLength").and_then(Value::as_u64) {
            if len > max {
                Self::fail(
                    errors,
                    at,
                    format!("{} is longer than {max} characters", short(&json!(text))),
                );
            }
        }
        if let (Some(p), Some(matcher)) = (s.get("pattern").and_then(Value::as_str), self.pattern) {
            if matcher(p, text) == Some(false) {
                Self::fail(
                    errors,
                    at,
                    format!(
                        "{} does not match {}",
                        short(&json!(text)),
                        crate::util::quote::quoted(p)
                    ),
                );
            }
        }
    }

    pub(super) fn check_array(
        &self,
        s: &Map<String, Value>,
        items: &[Value],
        at: &str,
        depth: usize,
        errors: &mut Vec<String>,
    ) {
        let len = items.len() as u64;
        if s.get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| len < m)
        {
            Self::fail(errors, at, format!("has {len} items, fewer than minItems"));
        }
        if s.get("maxItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| len > m)
        {
            Self::fail(errors, at, format!("has {len} items, more than maxItems"));
        }
        if s.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
            let dup = items
                .iter()
                .enumerate()
                .any(|(i, a)| items[i + 1..].iter().any(|b| json_eq(a, b)));
            if dup {
                Self::fail(errors, at, "has duplicate items (uniqueItems)".into());
            }
        }
        // Tuple part: 2020-12 `prefixItems`; earlier drafts `items: [..]` + `additionalItems`.
        let (tuple, rest) = match (self.dialect, s.get("prefixItems"), s.get("items")) {
            (Dialect::Draft2020, Some(Value::Array(p)), items) => (p.as_slice(), items),
            (Dialect::Draft2020, _, items) => (&[][..], items),
            (_, _, Some(Value::Array(t))) => (t.as_slice(), s.get("additionalItems")),
            (_, _, items) => (&[][..], items),
        };
        for (i, item) in items.iter().enumerate() {
            let sub = tuple.get(i).or(if i >= tuple.len() { rest } else { None });
            if let Some(sub) = sub {
                self.check(sub, item, &format!("{at}/{i}"), depth + 1, errors);
            }
        }
        if let Some(contains) = s.get("contains") {
            let n = items
                .iter()
                .filter(|i| self.passes(contains, i, depth + 1))
                .count() as u64;
            let min = s.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            let max = s.get("maxContains").and_then(Value::as_u64);
            if n < min || max.is_some_and(|m| n > m) {
                Self::fail(errors, at, format!("{n} items match \"contains\""));
            }
        }
    }

    pub(super) fn check_object(
        &self,
        s: &Map<String, Value>,
        obj: &Map<String, Value>,
        at: &str,
        depth: usize,
        errors: &mut Vec<String>,
    ) {
        for name in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !obj.contains_key(name) {
                Self::fail(errors, at, format!("\"{name}\" is a required property"));
            }
        }
        let n = obj.len() as u64;
        if s.get("minProperties")
            .and_then(Value::as_u64)
            .is_some_and(|m| n < m)
        {
            Self::fail(
                errors,
                at,
                format!("has {n} properties, fewer than minProperties"),
            );
        }
        if s.get("maxProperties")
            .and_then(Value::as_u64)
            .is_some_and(|m| n > m)
        {
            Self::fail(
                errors,
                at,
                format!("has {n} properties, more than maxProperties"),
            );
        }
        if let Some(deps) = s.get("dependentRequired").and_then(Value::as_object) {
            for (k, needs) in deps {
                if obj.contains_key(k) {
                    for need in needs
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        if !obj.contains_key(need) {
                            Self::fail(
                                errors,
                                at,
                                format!("\"{need}\" is required when \"{k}\" is present"),
                            );
                        }
                    }
                }
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        let patterns = s.get("patternProperties").and_then(Value::as_object);
        for (k, v) in obj {
            let path = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
            if let Some(names) = s.get("propertyNames") {
                if !self.passes(names, &Value::String(k.clone()), depth + 1) {
                    Self::fail(
                        errors,
                        at,
                        format!("property name \"{k}\" is not allowed by propertyNames"),
                    );
                }
            }
            let mut matched = false;
            if let Some(sub) = props.and_then(|p| p.get(k)) {
                matched = true;
                self.check(sub, v, &path, depth + 1, errors);
            }
            for (p, sub) in patterns.into_iter().flatten() {
                if let Some(matcher) = self.pattern {
                    if matcher(p, k) == Some(true) {
                        matched = true;
                        self.check(sub, v, &path, depth + 1, errors);
                    }
                }
            }
            if !matched {
                match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => Self::fail(
                        errors,
                        at,
                        format!("additional property \"{k}\" is not allowed"),
                    ),
                    Some(sub @ Value::Object(_)) => self.check(sub, v, &path, depth + 1, errors),
                    _ => {}
                }
            }
        }
    }
}
