//! Checking a tool result's `structuredContent` against the tool's `outputSchema`.
//!
//! A compact JSON Schema validator for the vocabulary output schemas use (2020-12 by default,
//! draft-07/-06/-04 and 2019-09 through `$schema`): types, enum/const, numeric and string
//! bounds, `pattern` (through an injected matcher: JS `RegExp` in wasm), object and array
//! keywords, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, and local `$ref`s. `format` is
//! an annotation (as 2020-12 says). A schema using what this does not implement
//! (`unevaluated*`, `$dynamicRef`, remote `$ref`) does not compile, and the caller says so
//! instead of passing silently. Written here rather than taken from a crate: jsonschema 0.61
//! adds 825 KB gzipped to the wasm (boon 488 KB); this adds a few KB.

use crate::json::{json, Map, Value};
use crate::protocol::error::{truncate, McpError, INVALID_PARAMS};
use crate::util::number::Num;

/// Most errors reported for one result.
const MAX_ERRORS: usize = 20;
/// Longest single error message kept.
const MAX_ERROR_LEN: usize = 300;
/// Deepest `$ref`/subschema nesting followed (cyclic schemas stop here).
const MAX_DEPTH: usize = 64;
/// Subschema visits one `validate` may make: `anyOf`/`$ref` chains can be exponential, and a
/// server must not be able to freeze the client with a 67-byte schema.
const MAX_STEPS: u32 = 100_000;
/// The message when a schema needs more than `MAX_STEPS` visits.
pub const TOO_COMPLEX: &str = "outputSchema too complex to check";

/// Tests `text` against an ECMA-262 `pattern`; `None` when the pattern is invalid.
pub type PatternMatcher = fn(pattern: &str, text: &str) -> Option<bool>;

/// The dialects `$schema` may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Draft4,
    Draft6or7,
    Draft2019,
    Draft2020,
}

/// A tool's `outputSchema`, checked once and reused for every call of the tool.
#[derive(Debug, Clone)]
pub struct OutputValidator {
    steps: std::cell::Cell<u32>,
    schema: Value,
    dialect: Dialect,
    pattern: Option<PatternMatcher>,
}

const UNSUPPORTED: [&str; 5] = [
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
    "dependentSchemas",
];

impl OutputValidator {
    /// Checks a tool's `outputSchema`; an unknown `$schema`, a remote or dangling `$ref`, or an
    /// unsupported keyword is an `Err` with the reason. `pattern` keywords need a matcher.
    pub fn compile(schema: &Value) -> Result<OutputValidator, String> {
        Self::compile_with(schema, None)
    }

    /// [`compile`](Self::compile) with a regular-expression matcher for `pattern`.
    pub fn compile_with(
        schema: &Value,
        pattern: Option<PatternMatcher>,
    ) -> Result<OutputValidator, String> {
        if !schema.is_object() && !schema.is_boolean() {
            return Err(format!(
                "outputSchema must be a JSON object, got {}",
                truncate(&schema.to_string(), 100)
            ));
        }
        let dialect = match schema.get("$schema").and_then(Value::as_str) {
            None => Dialect::Draft2020,
            Some(s) => {
                let s = s.trim_end_matches('#').trim_end_matches('/');
                if s.ends_with("draft-04/schema") {
                    Dialect::Draft4
                } else if s.ends_with("draft-06/schema") || s.ends_with("draft-07/schema") {
                    Dialect::Draft6or7
                } else if s.ends_with("2019-09/schema") {
                    Dialect::Draft2019
                } else if s.ends_with("2020-12/schema") {
                    Dialect::Draft2020
                } else {
                    return Err(format!(
                        "invalid outputSchema: unknown $schema dialect {}",
                        crate::util::quote::quoted(s)
                    ));
                }
            }
        };
        check_static(schema, schema, "", pattern)?;
        Ok(OutputValidator {
            steps: std::cell::Cell::new(0),
            schema: schema.clone(),
            dialect,
            pattern,
        })
    }

    /// Validates `instance`; on failure one message per error, each starting with the JSON
    /// pointer of the offending value (`(root)` for the whole value).
    pub fn validate(&self, instance: &Value) -> Result<(), Vec<String>> {
        let mut errors = Vec::new();
        self.steps.set(0);
        self.check(&self.schema, instance, "", 0, &mut errors);
        if self.steps.get() > MAX_STEPS {
            return Err(vec![format!(
                "(root): {TOO_COMPLEX} (more than {MAX_STEPS} subschema visits)"
            )]);
        }
        if errors.is_empty() {
            return Ok(());
        }
        let more = errors.len() > MAX_ERRORS;
        let mut out: Vec<String> = errors
            .into_iter()
            .take(MAX_ERRORS)
            .map(|e| truncate(&e, MAX_ERROR_LEN))
            .collect();
        if more {
            out.push("(more errors omitted)".into());
        }
        Err(out)
    }

    fn fail(errors: &mut Vec<String>, at: &str, message: String) {
        let at = if at.is_empty() { "(root)" } else { at };
        errors.push(format!("{at}: {message}"));
    }

    fn passes(&self, schema: &Value, v: &Value, depth: usize) -> bool {
        let mut e = Vec::new();
        self.check(schema, v, "", depth, &mut e);
        e.is_empty()
    }

    fn check(&self, schema: &Value, v: &Value, at: &str, depth: usize, errors: &mut Vec<String>) {
        self.steps.set(self.steps.get().saturating_add(1));
        if errors.len() > MAX_ERRORS || self.steps.get() > MAX_STEPS {
            return;
        }
        let s = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return Self::fail(errors, at, "no value is allowed here".into()),
            Value::Object(s) => s,
            _ => return,
        };
        if depth > MAX_DEPTH {
            return Self::fail(errors, at, "schema nesting too deep (cyclic $ref?)".into());
        }
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            match resolve(&self.schema, r) {
                Some(target) => self.check(target, v, at, depth + 1, errors),
                None => Self::fail(
                    errors,
                    at,
                    format!("$ref {} does not resolve", crate::util::quote::quoted(r)),
                ),
            }
            // Before 2019-09, $ref overrides its siblings.
            if matches!(self.dialect, Dialect::Draft4 | Dialect::Draft6or7) {
                return;
            }
        }
        if let Some(t) = s.get("type") {
            let ok = match t {
                Value::String(t) => type_ok(t, v),
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(|t| type_ok(t, v)),
                _ => true,
            };
            if !ok {
                Self::fail(errors, at, format!("{} is not of type {}", short(v), t));
            }
        }
        if let Some(options) = s.get("enum").and_then(Value::as_array) {
            if !options.iter().any(|o| json_eq(o, v)) {
                Self::fail(
                    errors,
                    at,
                    format!(
                        "{} is not one of {}",
                        short(v),
                        short(&Value::Array(options.clone()))
                    ),
                );
            }
        }
        if let Some(c) = s.get("const") {
            if !json_eq(c, v) {
                Self::fail(errors, at, format!("{} is not {}", short(v), short(c)));
            }
        }
        match v {
            Value::Number(n) => self.check_number(s, n.as_f64().unwrap_or(f64::NAN), at, errors),
            Value::String(text) => self.check_string(s, text, at, errors),
            Value::Array(items) => self.check_array(s, items, at, depth, errors),
            Value::Object(obj) => self.check_object(s, obj, at, depth, errors),
            _ => {}
        }
        for sub in s
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.check(sub, v, at, depth + 1, errors);
        }
        if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
            if !any.iter().any(|sub| self.passes(sub, v, depth + 1)) {
                Self::fail(
                    errors,
                    at,
                    format!("{} matches none of the anyOf schemas", short(v)),
                );
            }
        }
        if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
            let n = one
                .iter()
                .filter(|sub| self.passes(sub, v, depth + 1))
                .count();
            if n != 1 {
                Self::fail(
                    errors,
                    at,
                    format!(
                        "{} matches {n} of the oneOf schemas, not exactly one",
                        short(v)
                    ),
                );
            }
        }
        if let Some(not) = s.get("not") {
            if self.passes(not, v, depth + 1) {
                Self::fail(
                    errors,
                    at,
                    format!("{} must not match the \"not\" schema", short(v)),
                );
            }
        }
        if let Some(cond) = s.get("if") {
            let branch = if self.passes(cond, v, depth + 1) {
                s.get("then")
            } else {
                s.get("else")
            };
            if let Some(b) = branch {
                self.check(b, v, at, depth + 1, errors);
            }
        }
    }

    fn check_number(&self, s: &Map<String, Value>, n: f64, at: &str, errors: &mut Vec<String>) {
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

    fn check_string(&self, s: &Map<String, Value>, text: &str, at: &str, errors: &mut Vec<String>) {
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

    fn check_array(
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

    fn check_object(
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

/// Walks the schema once: remote or dangling `$ref`s, unsupported keywords and (without a
/// matcher) `pattern`s make it uncompilable.
fn check_static(
    root: &Value,
    node: &Value,
    at: &str,
    pattern: Option<PatternMatcher>,
) -> Result<(), String> {
    match node {
        Value::Object(o) => {
            for (k, v) in o {
                if matches!(k.as_str(), "enum" | "const" | "default" | "examples") {
                    continue;
                }
                if let Some(why) = malformed_keyword(k, v) {
                    return Err(format!("invalid outputSchema at {at}/{k}: {why}"));
                }
                if UNSUPPORTED.contains(&k.as_str()) {
                    return Err(format!("invalid outputSchema at {at}/{k}: {k} is not supported by this client's validator"));
                }
                if k == "$ref" {
                    let r = v.as_str().unwrap_or_default();
                    if !r.starts_with('#') {
                        return Err(format!("invalid outputSchema at {at}: remote reference {r} is not resolved: output schemas must be self-contained"));
                    }
                    if resolve(root, r).is_none() {
                        return Err(format!(
                            "invalid outputSchema at {at}: $ref {r} does not resolve"
                        ));
                    }
                }
                if (k == "pattern" || k == "patternProperties") && pattern.is_none() {
                    return Err(format!("invalid outputSchema at {at}/{k}: no regular-expression engine to check {k}"));
                }
                if k == "pattern" {
                    if let (Some(p), Some(m)) = (v.as_str(), pattern) {
                        if m(p, "").is_none() {
                            return Err(format!("invalid outputSchema at {at}: pattern {} is not a valid regular expression", crate::util::quote::quoted(p)));
                        }
                    }
                }
                if k == "properties"
                    || k == "patternProperties"
                    || k == "$defs"
                    || k == "definitions"
                    || k == "dependentRequired"
                {
                    if let Value::Object(children) = v {
                        for (name, child) in children {
                            check_static(root, child, &format!("{at}/{k}/{name}"), pattern)?;
                        }
                    }
                    continue;
                }
                check_static(root, v, &format!("{at}/{k}"), pattern)?;
            }
            Ok(())
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_static(root, v, &format!("{at}/{i}"), pattern)),
        _ => Ok(()),
    }
}

/// What is wrong with a keyword's value, for the keywords whose shape is fixed.
fn malformed_keyword(k: &str, v: &Value) -> Option<String> {
    const TYPES: [&str; 7] = [
        "null", "boolean", "object", "array", "number", "integer", "string",
    ];
    let names_ok = |v: &Value| v.as_array().is_some_and(|a| a.iter().all(Value::is_string));
    match k {
        "type" => {
            let list: Vec<&Value> = match v {
                Value::Array(a) => a.iter().collect(),
                other => vec![other],
            };
            list.iter()
                .find(|t| !t.as_str().is_some_and(|t| TYPES.contains(&t)))
                .map(|t| format!("{t} is not a JSON Schema type"))
        }
        "required" if !names_ok(v) => Some(format!(
            "required must be an array of strings, got {}",
            short(v)
        )),
        "enum" if !v.is_array() => Some("enum must be an array".into()),
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties"
        | "minContains" | "maxContains"
            if !v.is_u64() =>
        {
            Some(format!(
                "{k} must be a non-negative integer, got {}",
                short(v)
            ))
        }
        "minimum" | "maximum" | "multipleOf" if !v.is_number() => {
            Some(format!("{k} must be a number, got {}", short(v)))
        }
        "properties" | "patternProperties" | "$defs" | "definitions" if !v.is_object() => {
            Some(format!("{k} must be an object"))
        }
        "allOf" | "anyOf" | "oneOf" | "prefixItems"
            if v.as_array().is_none_or(|a| a.is_empty()) =>
        {
            Some(format!("{k} must be a non-empty array"))
        }
        _ => None,
    }
}

/// Resolves a local `$ref` (`#` or a `#/json/pointer`).
fn resolve<'a>(root: &'a Value, r: &str) -> Option<&'a Value> {
    let pointer = r.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    let decoded = pointer.replace("%25", "%").replace("%22", "\"");
    root.pointer(&decoded)
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.as_f64().is_some_and(|n| n.fract() == 0.0),
        _ => true,
    }
}

/// JSON equality where `1` equals `1.0`.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn short(v: &Value) -> String {
    truncate(&v.to_string(), 80)
}

/// The rule for a `tools/call` result: skipped when `isError`; otherwise `structuredContent`
/// must be present and valid. A failure is a local `McpError` (-32602) naming the tool;
/// `Ok(Some(warning))` when the schema was too complex to check.
pub fn check_result(
    tool_name: &str,
    validator: &OutputValidator,
    result: &Value,
) -> Result<Option<String>, McpError> {
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        return Ok(None);
    }
    let errors = match result.get("structuredContent") {
        None | Some(Value::Null) => vec!["structuredContent is missing".to_string()],
        Some(sc) => match validator.validate(sc) {
            Ok(()) => return Ok(None),
            Err(e) if e[0].contains(TOO_COMPLEX) => {
                return Ok(Some(format!(
                    "tool {}: result not checked, {}",
                    crate::util::quote::quoted(tool_name),
                    e[0]
                )))
            }
            Err(e) => e,
        },
    };
    let message = if errors[0] == "structuredContent is missing" {
        format!(
            "Tool {} declares an outputSchema but returned no structured content",
            crate::util::quote::quoted(tool_name)
        )
    } else {
        format!(
            "Tool {} returned structuredContent that does not match its outputSchema: {}",
            crate::util::quote::quoted(tool_name),
            errors[0]
        )
    };
    Err(McpError::local(
        INVALID_PARAMS,
        crate::protocol::error::ErrorKind::Protocol,
        message,
        json!({ "tool": tool_name, "errors": errors }),
    ))
}
#[cfg(test)]
mod tests {
    use super::*;

    fn sum_schema_2020() -> Value {
        json!({
            "type": "object",
            "properties": {
                "sum": { "type": "integer" },
                "terms": { "type": "array", "items": { "type": "number" } }
            },
            "required": ["sum"]
        })
    }

    /// What the TypeScript SDK emits (zod-to-json-schema).
    fn weather_schema_draft7() -> Value {
        json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "temperature": { "type": "number" },
                "conditions": { "type": "string", "enum": ["sunny", "cloudy", "rainy"] }
            },
            "required": ["temperature", "conditions"],
            "additionalProperties": false
        })
    }

    fn ok_result(structured: Value) -> Value {
        json!({
            "content": [{ "type": "text", "text": structured.to_string() }],
            "structuredContent": structured
        })
    }

    #[test]
    fn valid_2020_12_result_passes() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        assert_eq!(v.validate(&json!({"sum": 3, "terms": [1, 2]})), Ok(()));
        assert!(check_result("add", &v, &ok_result(json!({"sum": 3}))).is_ok());
    }

    #[test]
    fn type_mismatch_names_the_pointer() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let errors = v.validate(&json!({"sum": "x"})).unwrap_err();
        assert_eq!(
            errors,
            vec![r#"/sum: "x" is not of type "integer""#.to_string()]
        );

        let errors = v
            .validate(&json!({"sum": 1, "terms": [1, "two"]}))
            .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("/terms/1: "), "{errors:?}");

        let e = check_result("add", &v, &ok_result(json!({"sum": "x"}))).unwrap_err();
        assert_eq!(e.code, INVALID_PARAMS);
        assert!(e.is_local());
        assert_eq!(e.kind(), Some(crate::protocol::error::ErrorKind::Protocol));
        assert!(e.message.contains("add"), "{}", e.message);
        assert!(e.message.contains("/sum"), "{}", e.message);
        let data = e.into_parts().data.unwrap();
        assert_eq!(data["tool"], "add");
        assert_eq!(data["errors"][0], r#"/sum: "x" is not of type "integer""#);
    }

    #[test]
    fn missing_required_property_is_reported() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let errors = v.validate(&json!({"terms": []})).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("(root): "), "{errors:?}");
        assert!(
            errors[0].contains(r#""sum" is a required property"#),
            "{errors:?}"
        );
    }

    #[test]
    fn draft_07_schema_from_typescript_sdk() {
        let v = OutputValidator::compile(&weather_schema_draft7()).unwrap();
        let good = json!({"temperature": 21.5, "conditions": "sunny"});
        assert_eq!(v.validate(&good), Ok(()));
        assert!(check_result("weather", &v, &ok_result(good)).is_ok());

        let extra = json!({"temperature": 21.5, "conditions": "sunny", "wind": 3});
        let errors = v.validate(&extra).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("wind"), "{errors:?}");

        let errors = v
            .validate(&json!({"temperature": "warm", "conditions": "foggy"}))
            .unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors.iter().any(|e| e.starts_with("/temperature: ")));
        assert!(errors.iter().any(|e| e.starts_with("/conditions: ")));
    }

    #[test]
    fn dialect_follows_dollar_schema() {
        // `prefixItems` is a 2020-12 keyword: enforced by default, ignored under draft-07.
        let tuple = json!({"type": "array", "prefixItems": [{"type": "string"}]});
        let v = OutputValidator::compile(&tuple).unwrap();
        assert!(v.validate(&json!([1])).is_err());

        let mut draft7 = tuple.clone();
        draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        let v = OutputValidator::compile(&draft7).unwrap();
        assert_eq!(v.validate(&json!([1])), Ok(()));
    }

    #[test]
    fn local_refs_resolve() {
        let schema = json!({
            "$defs": { "point": { "type": "object", "required": ["x"] } },
            "type": "object",
            "properties": { "at": { "$ref": "#/$defs/point" } }
        });
        let v = OutputValidator::compile(&schema).unwrap();
        assert_eq!(v.validate(&json!({"at": {"x": 1}})), Ok(()));
        let errors = v.validate(&json!({"at": {}})).unwrap_err();
        assert!(errors[0].starts_with("/at: "), "{errors:?}");
    }

    #[test]
    fn error_results_are_not_checked() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let result = json!({
            "content": [{ "type": "text", "text": "division by zero" }],
            "isError": true
        });
        assert!(check_result("add", &v, &result).is_ok());
        let wrong = json!({"isError": true, "structuredContent": {"sum": "x"}});
        assert!(check_result("add", &v, &wrong).is_ok());
    }

    #[test]
    fn missing_structured_content_is_an_error() {
        let v = OutputValidator::compile(&sum_schema_2020()).unwrap();
        let result = json!({"content": [{ "type": "text", "text": "3" }]});
        let e = check_result("add", &v, &result).unwrap_err();
        assert_eq!(e.code, INVALID_PARAMS);
        assert_eq!(e.kind(), Some(crate::protocol::error::ErrorKind::Protocol));
        assert!(e.message.contains("add"), "{}", e.message);
        assert!(e.message.contains("structured content"), "{}", e.message);
        assert_eq!(
            e.into_parts().data.unwrap()["errors"][0],
            "structuredContent is missing"
        );
        // `isError: false` is checked like an absent flag.
        let result = json!({"content": [], "isError": false});
        assert!(check_result("add", &v, &result).is_err());
    }

    #[test]
    fn invalid_schemas_are_rejected() {
        let err = OutputValidator::compile(&json!({"type": "integr"})).unwrap_err();
        assert!(err.starts_with("invalid outputSchema"), "{err}");
        assert!(err.contains("integr"), "{err}");

        let err =
            OutputValidator::compile(&json!({"type": "object", "required": "sum"})).unwrap_err();
        assert!(err.starts_with("invalid outputSchema"), "{err}");

        let err = OutputValidator::compile(&json!("object")).unwrap_err();
        assert!(err.contains("must be a JSON object"), "{err}");
    }

    #[test]
    fn remote_refs_fail_without_fetching() {
        let schema = json!({
            "type": "object",
            "properties": { "x": { "$ref": "https://example.invalid/schemas/x.json" } }
        });
        let err = OutputValidator::compile(&schema).unwrap_err();
        assert!(
            err.contains("https://example.invalid/schemas/x.json"),
            "{err}"
        );
        assert!(err.contains("not resolved"), "{err}");

        let unknown_dialect = json!({"$schema": "https://example.invalid/meta", "type": "object"});
        let err = OutputValidator::compile(&unknown_dialect).unwrap_err();
        assert!(err.starts_with("invalid outputSchema"), "{err}");
    }

    #[test]
    fn many_errors_are_capped() {
        let schema = json!({"type": "array", "items": {"type": "string"}});
        let v = OutputValidator::compile(&schema).unwrap();
        let errors = v
            .validate(&json!((0..50).collect::<Vec<i32>>()))
            .unwrap_err();
        assert_eq!(errors.len(), MAX_ERRORS + 1);
        assert_eq!(errors.last().unwrap(), "(more errors omitted)");
    }
}

#[cfg(test)]
mod own_tests {
    use super::*;

    fn regex_stub(pattern: &str, text: &str) -> Option<bool> {
        // Enough for the tests: a literal prefix anchor `^abc`, or `(` marks an invalid pattern.
        if pattern.contains('(') {
            return None;
        }
        Some(match pattern.strip_prefix('^') {
            Some(p) => text.starts_with(p),
            None => text.contains(pattern),
        })
    }

    #[test]
    fn combinators_conditionals_and_bounds() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
                "kind": {"oneOf": [{"const": "a"}, {"const": "b"}]},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 2},
                "any": {"anyOf": [{"type": "null"}, {"type": "integer"}]},
                "no": {"not": {"type": "string"}}
            },
            "if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["n"]},
            "additionalProperties": {"type": "boolean"}
        });
        let v = OutputValidator::compile(&schema).unwrap();
        assert_eq!(
            v.validate(
                &json!({"n": 1.5, "kind": "a", "tags": ["x"], "any": null, "no": 1, "flag": true})
            ),
            Ok(())
        );
        let errors = v.validate(&json!({"n": 0.3, "kind": "c", "tags": ["x", "x", "y"], "any": 1.5, "no": "s", "flag": 3})).unwrap_err();
        let has = |p: &str| errors.iter().any(|e| e.starts_with(p));
        for p in ["/n:", "/kind:", "/tags:", "/any:", "/no:", "/flag:"] {
            assert!(has(p), "{p} in {errors:?}");
        }
        let errors = v.validate(&json!({"kind": "a"})).unwrap_err();
        assert!(
            errors[0].contains("\"n\" is a required property"),
            "{errors:?}"
        );
    }

    #[test]
    fn integers_and_numbers_compare_by_value() {
        let v = OutputValidator::compile(&json!({"type": "integer", "enum": [1, 2]})).unwrap();
        assert_eq!(v.validate(&json!(1.0)), Ok(()));
        assert!(v.validate(&json!(1.5)).is_err());
    }

    #[test]
    fn draft_04_exclusive_bounds_and_tuples() {
        let v = OutputValidator::compile(&json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "array",
            "items": [{"type": "number", "maximum": 5, "exclusiveMaximum": true}], "additionalItems": false})).unwrap();
        assert_eq!(v.validate(&json!([4])), Ok(()));
        assert!(v.validate(&json!([5])).is_err());
        assert!(v.validate(&json!([1, 2])).is_err());
    }

    #[test]
    fn patterns_need_a_matcher_and_a_valid_expression() {
        let schema = json!({"type": "string", "pattern": "^ab"});
        assert!(OutputValidator::compile(&schema)
            .unwrap_err()
            .contains("no regular-expression engine"));
        let v = OutputValidator::compile_with(&schema, Some(regex_stub)).unwrap();
        assert_eq!(v.validate(&json!("abc")), Ok(()));
        assert_eq!(
            v.validate(&json!("xab")).unwrap_err()[0],
            r#"(root): "xab" does not match "^ab""#
        );
        assert!(
            OutputValidator::compile_with(&json!({"pattern": "(("}), Some(regex_stub))
                .unwrap_err()
                .contains("not a valid regular expression")
        );
    }

    #[test]
    fn unsupported_keywords_and_cycles() {
        assert!(
            OutputValidator::compile(&json!({"unevaluatedProperties": false}))
                .unwrap_err()
                .contains("not supported")
        );
        let cyclic = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
        let v = OutputValidator::compile(&cyclic).unwrap();
        assert!(v.validate(&json!(1)).unwrap_err()[0].contains("too deep"));
        let recursive = json!({"type": "object", "properties": {"child": {"$ref": "#"}}});
        let v = OutputValidator::compile(&recursive).unwrap();
        assert_eq!(v.validate(&json!({"child": {"child": {}}})), Ok(()));
        assert!(v.validate(&json!({"child": {"child": 3}})).unwrap_err()[0]
            .starts_with("/child/child:"));
    }
}

#[cfg(test)]
mod budget_tests {
    use super::*;

    #[test]
    fn exponential_schemas_stop_at_the_step_budget() {
        let schema = json!({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"});
        let v = OutputValidator::compile(&schema).unwrap();
        let errors = v.validate(&json!({"x": 1})).unwrap_err();
        assert!(errors[0].contains(TOO_COMPLEX), "{errors:?}");
        let warning = check_result("t", &v, &json!({"structuredContent": {"x": 1}})).unwrap();
        assert!(warning.unwrap().contains("not checked"));
        // The budget is per call: a simple schema on the same validator type still works.
        let ok = OutputValidator::compile(&json!({"type": "integer"})).unwrap();
        assert_eq!(ok.validate(&json!(1)), Ok(()));
    }
}
