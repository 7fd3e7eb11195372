//! 2026 `x-mcp-header`: validating a tool's annotations and mirroring arguments into
//! `Mcp-Param-*` headers (spec c.3).
//!
//! An annotation is valid only on a property reached from the `inputSchema` root through a pure
//! chain of `properties`; its token must be an RFC 9110 token, unique (case-insensitively) in the
//! tool; the property's `type` must be exactly `"string"`, `"integer"` or `"boolean"`.

use crate::json::{Map, Value};
use crate::protocol::header_value::encode_header_value;

/// The annotation keyword.
const KEYWORD: &str = "x-mcp-header";
/// Keywords whose value is a map of names to subschemas (the names are not keywords).
const NAME_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is instance data, not a schema.
const DATA: &[&str] = &["const", "enum", "default", "examples"];

/// One argument mirrored into a header: `Mcp-Param-<token>` takes the value at `path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamHeader {
    /// The annotation's token, as written by the server.
    pub token: String,
    /// Property names from the `inputSchema` root to the annotated property.
    pub path: Vec<String>,
}

/// The tool's `Mcp-Param-*` declarations, or why its annotations make it invalid.
pub fn validate_tool(tool: &Value) -> Result<Vec<ParamHeader>, String> {
    check(tool).map_err(|what| format!("tool {}: {what}", tool_name(tool)))
}

/// Removes tools with invalid annotations from a `tools/list` result; one warning per tool.
pub fn filter_tools(result: &mut Value) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(tools) = result.get_mut("tools").and_then(Value::as_array_mut) {
        tools.retain(|tool| match check(tool) {
            Ok(_) => true,
            Err(what) => {
                warnings.push(format!("tool {} dropped: {what}", tool_name(tool)));
                false
            }
        });
    }
    warnings
}

/// The `Mcp-Param-*` headers (name, encoded value) for a call with these `arguments`.
pub fn param_headers(headers: &[ParamHeader], arguments: &Value) -> Vec<(String, String)> {
    headers
        .iter()
        .filter_map(|h| {
            let value = h.path.iter().try_fold(arguments, |v, k| v.get(k))?;
            let text = header_text(value)?;
            Some((format!("Mcp-Param-{}", h.token), encode_header_value(&text)))
        })
        .collect()
}

/// string as is, integer in decimal, boolean `true`/`false`; anything else has no header.
fn header_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        // A JS number such as 3 may arrive as 3.0: still an integer if exactly representable.
        Value::Number(n) => n
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0)
            .map(|f| (f as i64).to_string()),
        _ => None,
    }
}

fn tool_name(tool: &Value) -> String {
    match tool.get("name").and_then(Value::as_str) {
        Some(name) => crate::util::quote::quoted(name),
        None => "(unnamed)".to_string(),
    }
}

/// Walks `inputSchema`; the error is the reason without the tool's name.
fn check(tool: &Value) -> Result<Vec<ParamHeader>, String> {
    let mut out = Vec::new();
    if let Some(schema) = tool.get("inputSchema") {
        walk_chain(schema, &mut Vec::new(), &mut out)?;
    }
    for (i, h) in out.iter().enumerate() {
        if out[..i]
            .iter()
            .any(|o| o.token.eq_ignore_ascii_case(&h.token))
        {
            return Err(format!(
                "x-mcp-header {} is used more than once (tokens are case-insensitive)",
                crate::util::quote::quoted(&h.token)
            ));
        }
    }
    Ok(out)
}

/// A schema reached through a pure `properties` chain: annotations here are allowed.
fn walk_chain(
    schema: &Value,
    path: &mut Vec<String>,
    out: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    let Some(obj) = schema.as_object() else {
        return Ok(());
    };
    if let Some(token) = obj.get(KEYWORD) {
        out.push(annotation(obj, token, path)?);
    }
    for (key, value) in obj {
        match key.as_str() {
            KEYWORD => {}
            "properties" if value.is_object() => {
                for (name, sub) in value.as_object().into_iter().flatten() {
                    path.push(name.clone());
                    walk_chain(sub, path, out)?;
                    path.pop();
                }
            }
            k if DATA.contains(&k) => {}
            k if contains_annotation(value, NAME_MAPS.contains(&k)) => {
                return Err(format!(
                    "x-mcp-header under `{k}` at {} is not reachable through properties alone",
                    where_(path)
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks one annotation on the schema `obj` at `path`.
fn annotation(
    obj: &Map<String, Value>,
    token: &Value,
    path: &[String],
) -> Result<ParamHeader, String> {
    let at = where_(path);
    let Some(token) = token.as_str() else {
        return Err(format!("x-mcp-header at {at} is not a string: {token}"));
    };
    if path.is_empty() {
        return Err([
            "x-mcp-header ",
            &crate::util::quote::quoted(token),
            " is on the root schema",
        ]
        .concat());
    }
    if token.chars().any(char::is_control) {
        return Err(format!(
            "x-mcp-header {} at {at} contains a control character",
            crate::util::quote::quoted(token)
        ));
    }
    if token.is_empty() || !token.bytes().all(is_tchar) {
        return Err(format!(
            "x-mcp-header {} at {at} is not a valid token",
            crate::util::quote::quoted(token)
        ));
    }
    match obj.get("type").and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => Ok(ParamHeader {
            token: token.to_string(),
            path: path.to_vec(),
        }),
        _ => Err(format!(
            "x-mcp-header {} at {at} needs type string, integer or boolean, not {}",
            crate::util::quote::quoted(token),
            obj.get("type").map_or("none".to_string(), Value::to_string)
        )),
    }
}

/// True if an annotation appears anywhere in `value` (a schema, an array of schemas, or with
/// `name_map` a map of names to schemas).
fn contains_annotation(value: &Value, name_map: bool) -> bool {
    match value {
        Value::Object(obj) if name_map => obj.values().any(|v| contains_annotation(v, false)),
        Value::Object(obj) => {
            obj.contains_key(KEYWORD)
                || obj.iter().any(|(k, v)| {
                    !DATA.contains(&k.as_str())
                        && contains_annotation(v, NAME_MAPS.contains(&k.as_str()))
                })
        }
        Value::Array(items) => items.iter().any(|v| contains_annotation(v, false)),
        _ => false,
    }
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn where_(path: &[String]) -> String {
    if path.is_empty() {
        "the root".to_string()
    } else {
        ["`", &crate::util::quote::join(path, "."), "`"].concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    fn tool(properties: Value) -> Value {
        json!({"name": "t", "inputSchema": {"type": "object", "properties": properties}})
    }

    fn err(t: &Value) -> String {
        validate_tool(t).unwrap_err()
    }

    #[test]
    fn valid_annotations_with_nested_path() {
        let t = tool(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "confirm": {"type": "boolean", "x-mcp-header": "Confirm"},
            "options": {"type": "object", "properties": {
                "limit": {"type": "integer", "x-mcp-header": "Limit"}
            }},
            "query": {"type": "string"}
        }));
        let mut got = validate_tool(&t).unwrap();
        got.sort_by(|a, b| a.token.cmp(&b.token));
        assert_eq!(
            got,
            vec![
                ParamHeader {
                    token: "Confirm".into(),
                    path: vec!["confirm".into()]
                },
                ParamHeader {
                    token: "Limit".into(),
                    path: vec!["options".into(), "limit".into()]
                },
                ParamHeader {
                    token: "Region".into(),
                    path: vec!["region".into()]
                },
            ]
        );
    }

    #[test]
    fn no_schema_or_no_annotations_is_valid() {
        assert_eq!(validate_tool(&json!({"name": "t"})).unwrap(), vec![]);
        assert_eq!(
            validate_tool(&tool(json!({"a": {"type": "number"}}))).unwrap(),
            vec![]
        );
        // A property *named* x-mcp-header, and instance data, are not annotations.
        let t = tool(json!({
            "x-mcp-header": {"type": "object", "default": {"x-mcp-header": "X"}},
            "e": {"enum": [{"x-mcp-header": "Y"}]}
        }));
        assert_eq!(validate_tool(&t).unwrap(), vec![]);
    }

    #[test]
    fn every_token_char_is_accepted() {
        let token = "Az09!#$%&'*+-.^_`|~";
        let t = tool(json!({"a": {"type": "string", "x-mcp-header": token}}));
        assert_eq!(validate_tool(&t).unwrap()[0].token, token);
    }

    #[test]
    fn invalid_tokens() {
        for bad in ["", "A B", "a:b", "a/b", "ré", "a\"b", "(x)", "a,b"] {
            let t = tool(json!({"a": {"type": "string", "x-mcp-header": bad}}));
            let e = err(&t);
            assert!(e.contains("is not a valid token"), "{bad:?}: {e}");
            assert!(e.starts_with("tool \"t\""), "{e}");
        }
        let t = tool(json!({"a": {"type": "string", "x-mcp-header": "a\tb"}}));
        assert!(err(&t).contains("control character"));
        let t = tool(json!({"a": {"type": "string", "x-mcp-header": "a\u{7f}"}}));
        assert!(err(&t).contains("control character"));
        let t = tool(json!({"a": {"type": "string", "x-mcp-header": 5}}));
        assert!(err(&t).contains("not a string"));
    }

    #[test]
    fn duplicate_tokens_case_insensitive() {
        let t = tool(json!({
            "a": {"type": "string", "x-mcp-header": "Region"},
            "b": {"type": "object", "properties": {"c": {"type": "string", "x-mcp-header": "REGION"}}}
        }));
        assert!(err(&t).contains("more than once"));
    }

    #[test]
    fn invalid_types() {
        for ty in [
            json!("number"),
            json!("array"),
            json!("object"),
            json!("null"),
            json!(["string", "null"]),
        ] {
            let t = tool(json!({"a": {"type": ty, "x-mcp-header": "A"}}));
            assert!(
                err(&t).contains("needs type string, integer or boolean"),
                "{ty}"
            );
        }
        let t = tool(json!({"a": {"x-mcp-header": "A"}}));
        assert!(err(&t).contains("not none"));
    }

    #[test]
    fn annotation_on_root_is_invalid() {
        let t = json!({"name": "t", "inputSchema": {"type": "object", "x-mcp-header": "A"}});
        assert!(err(&t).contains("root schema"));
    }

    #[test]
    fn annotation_off_the_properties_chain_is_invalid() {
        let a = json!({"type": "string", "x-mcp-header": "A"});
        let cases = [
            ("items", json!({"list": {"type": "array", "items": a}})),
            (
                "prefixItems",
                json!({"list": {"type": "array", "prefixItems": [a]}}),
            ),
            ("anyOf", json!({"x": {"anyOf": [a, {"type": "integer"}]}})),
            ("oneOf", json!({"x": {"oneOf": [a]}})),
            ("allOf", json!({"x": {"allOf": [a]}})),
            ("not", json!({"x": {"not": a}})),
            ("if", json!({"x": {"if": a}})),
            ("then", json!({"x": {"then": a}})),
            ("else", json!({"x": {"else": a}})),
            (
                "additionalProperties",
                json!({"x": {"type": "object", "additionalProperties": a}}),
            ),
            (
                "patternProperties",
                json!({"x": {"type": "object", "patternProperties": {"^a": a}}}),
            ),
            (
                "$defs",
                json!({"x": {"$defs": {"d": a}, "$ref": "#/properties/x/$defs/d"}}),
            ),
            ("definitions", json!({"x": {"definitions": {"d": a}}})),
            // Deep: properties inside anyOf inside properties.
            (
                "anyOf",
                json!({"x": {"anyOf": [{"type": "object", "properties": {"y": a}}]}}),
            ),
        ];
        for (keyword, props) in cases {
            let e = err(&tool(props));
            assert!(e.contains(&format!("under `{keyword}`")), "{keyword}: {e}");
        }
        // At the root too, e.g. $defs reached by $ref.
        let t = json!({"name": "t", "inputSchema": {
            "type": "object", "properties": {"r": {"$ref": "#/$defs/r"}},
            "$defs": {"r": a}
        }});
        assert!(err(&t).contains("under `$defs` at the root"));
    }

    #[test]
    fn filter_drops_invalid_tools_only() {
        let mut result = json!({"tools": [
            tool(json!({"a": {"type": "string", "x-mcp-header": "A"}})),
            {"name": "x", "inputSchema": {"type": "object", "properties": {
                "a": {"type": "string", "x-mcp-header": "A B"}}}},
            {"name": "plain", "inputSchema": {"type": "object"}},
            {"name": "y", "inputSchema": {"type": "object", "properties": {
                "n": {"type": "number", "x-mcp-header": "N"}}}}
        ], "nextCursor": "c"});
        let warnings = filter_tools(&mut result);
        let names: Vec<_> = result["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["t", "plain"]);
        assert_eq!(warnings.len(), 2);
        assert_eq!(
            warnings[0],
            "tool \"x\" dropped: x-mcp-header \"A B\" at `a` is not a valid token"
        );
        assert!(warnings[1].starts_with("tool \"y\" dropped: "));
        assert_eq!(result["nextCursor"], "c");
        assert!(filter_tools(&mut json!({})).is_empty());
    }

    fn ph(token: &str, path: &[&str]) -> ParamHeader {
        ParamHeader {
            token: token.into(),
            path: path.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn header_values() {
        let hs = [
            ph("Region", &["region"]),
            ph("Limit", &["options", "limit"]),
            ph("Confirm", &["confirm"]),
            ph("Neg", &["neg"]),
            ph("Whole", &["whole"]),
        ];
        let args = json!({"region": "eu-west-1", "options": {"limit": 10}, "confirm": false,
                          "neg": -3, "whole": 4.0});
        assert_eq!(
            param_headers(&hs, &args),
            vec![
                ("Mcp-Param-Region".to_string(), "eu-west-1".to_string()),
                ("Mcp-Param-Limit".to_string(), "10".to_string()),
                ("Mcp-Param-Confirm".to_string(), "false".to_string()),
                ("Mcp-Param-Neg".to_string(), "-3".to_string()),
                ("Mcp-Param-Whole".to_string(), "4".to_string()),
            ]
        );
    }

    #[test]
    fn missing_null_or_wrong_type_gives_no_header() {
        let hs = [
            ph("A", &["a"]),
            ph("B", &["o", "b"]),
            ph("C", &["c"]),
            ph("D", &["d"]),
        ];
        let args = json!({"a": null, "o": "not an object", "c": 1.5, "d": [1]});
        assert!(param_headers(&hs, &args).is_empty());
        assert!(param_headers(&hs, &Value::Null).is_empty());
        assert!(param_headers(&hs, &json!({})).is_empty());
    }

    #[test]
    fn non_ascii_value_is_base64() {
        let hs = [ph("City", &["city"])];
        let got = param_headers(&hs, &json!({"city": "café"}));
        assert_eq!(
            got,
            vec![(
                "Mcp-Param-City".to_string(),
                "=?base64?Y2Fmw6k=?=".to_string()
            )]
        );
    }
}
