//! Elicitation form helpers for UIs: the form model of a `requestedSchema`, and checking (and
//! coercing) what a person typed. The work is the forms part's (`parts::forms`), which `init()`
//! loads (`ClientCore.loadParts`) and a client loads with a server's first elicitation.

use crate::js::api::client::Client;
use crate::js::boundary::{error as jserr, interop};
use crate::js::promise;
use crate::json::Value;
use crate::parts::forms::{self, Forms};
use crate::protocol::error::McpError;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

fn schema_of(v: &JsValue) -> Result<Value, JsValue> {
    interop::from_js(v)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| jserr::to_js(McpError::input("requestedSchema must be an object")))
}

/// The forms part, or the error of a helper called before `init()` loaded it.
fn part(helper: &str) -> Result<&'static dyn Forms, JsValue> {
    forms::ready().ok_or_else(|| {
        jserr::to_js(McpError::input(
            [
                helper,
                ": the form helpers are not loaded yet: `await init()` loads them (a client also does, with the server's first elicitation)",
            ]
            .concat(),
        ))
    })
}

/// `elicitationForm(requestedSchema)` → `{ fields: [{ name, title, description?, required, kind,
/// constraints, options?, default? }] }`; unsupported constructs throw an `McpError`.
#[wasm_bindgen(js_name = elicitationForm, unchecked_return_type = "{ fields: FormField[] }")]
pub fn elicitation_form(
    #[wasm_bindgen(unchecked_param_type = "RequestedSchema")] requested_schema: JsValue,
) -> Result<JsValue, JsValue> {
    let schema = schema_of(&requested_schema)?;
    part("elicitationForm")?
        .form(&schema)
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
    Ok(interop::to_js(
        &part("validateElicitation")?.check(&schema, &content),
    ))
}

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// `ClientCore.loadParts()`: loads the parts the synchronous exports need (the form
    /// helpers'); `init()` awaits it, so every export works once `init()` has resolved.
    #[wasm_bindgen(js_name = loadParts)]
    pub fn load_parts() -> Promise {
        promise(Box::pin(async {
            forms::load().await.map_err(jserr::to_js)?;
            Ok(JsValue::UNDEFINED)
        }))
    }
}
