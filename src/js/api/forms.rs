//! Elicitation form helpers for UIs: the form model of a `requestedSchema`, and checking (and
//! coercing) what a person typed. The rules are `validate::elicitation`'s.

use crate::js::boundary::{error as jserr, interop};
use crate::json::{json, Value};
use crate::protocol::error::McpError;
use crate::validate::elicitation::{coerce_form, form_model, validate};
use wasm_bindgen::prelude::*;

fn schema_of(v: &JsValue) -> Result<Value, JsValue> {
    interop::from_js(v)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| jserr::to_js(McpError::input("requestedSchema must be an object")))
}

/// `elicitationForm(requestedSchema)` → `{ fields: [{ name, title, description?, required, kind,
/// constraints, options?, default? }] }`; unsupported constructs throw an `McpError`.
#[wasm_bindgen(js_name = elicitationForm, unchecked_return_type = "{ fields: FormField[] }")]
pub fn elicitation_form(
    #[wasm_bindgen(unchecked_param_type = "RequestedSchema")] requested_schema: JsValue,
) -> Result<JsValue, JsValue> {
    let schema = schema_of(&requested_schema)?;
    form_model(&schema)
        .map(|m| interop::to_js(&m))
        .map_err(|e| jserr::to_js(McpError::input(format!("elicitationForm: {e}"))))
}

/// `validateElicitation(requestedSchema, content)` → `{ content, errors: [{ field, message }] }`:
/// `content` coerced from form strings to the schema's types; `errors` empty when valid.
#[wasm_bindgen(js_name = validateElicitation, unchecked_return_type = "ElicitationValidation")]
pub fn validate_elicitation(
    requested_schema: JsValue,
    content: JsValue,
) -> Result<JsValue, JsValue> {
    let schema = schema_of(&requested_schema)?;
    let content = match interop::from_js(&content) {
        Ok(Value::Object(o)) => o,
        Ok(Value::Null) => Default::default(),
        _ => {
            return Err(jserr::to_js(McpError::input(
                "validateElicitation: content must be an object",
            )))
        }
    };
    let coerced = coerce_form(&schema, &content);
    let errors: Vec<Value> = validate(&schema, &coerced)
        .into_iter()
        .map(|e| json!({ "field": e.field, "message": e.message }))
        .collect();
    Ok(interop::to_js(
        &json!({ "content": coerced, "errors": errors }),
    ))
}
