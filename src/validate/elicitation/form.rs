//! A `requestedSchema` as a form: the kind of input each field needs, its options, the model
//! a UI renders, and typed input coerced back to what the schema asks for.

use super::{enum_values, properties};
use crate::json::{Map, Value};

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

/// One option of a select field: `{ value, label }`, the label its title (when a string) or the
/// value itself (a string as is, anything else as JSON).
fn option(value: &Value, title: Option<&Value>) -> Value {
    let label = match title.and_then(Value::as_str) {
        Some(t) => t.to_string(),
        None => value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string),
    };
    crate::json::json!({ "value": value, "label": label })
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
            .map(|(i, v)| option(v, names.and_then(|n| n.get(i))))
            .collect();
    }
    let options = src
        .get("oneOf")
        .or_else(|| src.get("anyOf"))
        .and_then(Value::as_array);
    options
        .into_iter()
        .flatten()
        .filter_map(|o| Some(option(o.get("const")?, o.get("title"))))
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
