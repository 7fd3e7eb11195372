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

mod keywords;
#[cfg(test)]
mod tests;

use crate::json::{json, Value};
use crate::protocol::error::{truncate, McpError, INVALID_PARAMS};

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
