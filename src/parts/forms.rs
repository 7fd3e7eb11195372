//! The forms part: the elicitation form helpers UIs call (`elicitationForm`,
//! `validateElicitation`: the form model of a `requestedSchema`, and what a person typed coerced
//! and checked; the rules are `validate::elicitation`'s). Its exports are synchronous, so it is
//! loaded before they can be called: by `init()` (the exports' readiness, `ClientCore.loadParts`),
//! and by a client before it hands the server's first elicitation to `elicitationCallback` (which
//! draws the form with them).

use crate::json::{json, Map, Value};
use crate::validate::elicitation::{coerce_form, form_model, validate};
use std::cell::Cell;

/// What the part does.
pub trait Forms {
    /// The form model of `schema` (`{ fields: [...] }`), or why it cannot be drawn.
    fn form(&self, schema: &Value) -> Result<Value, String>;
    /// `{ content, errors }`: `content` coerced from form strings to the schema's types, the
    /// fields that do not match it.
    fn check(&self, schema: &Value, content: &Map<String, Value>) -> Value;
}

struct Part;

impl Forms for Part {
    fn form(&self, schema: &Value) -> Result<Value, String> {
        form_model(schema)
    }

    fn check(&self, schema: &Value, content: &Map<String, Value>) -> Value {
        let coerced = coerce_form(schema, content);
        let errors: Vec<Value> = validate(schema, &coerced)
            .into_iter()
            .map(|e| json!({ "field": e.field, "message": e.message }))
            .collect();
        json!({ "content": coerced, "errors": errors })
    }
}

super::part!(forms, "the form helpers' part", Forms, Part);

thread_local! {
    /// The part once [`load`] has had it (the synchronous exports read it).
    static LOADED: Cell<Option<&'static dyn Forms>> = const { Cell::new(None) };
}

/// Loads the part (once) and keeps it for [`ready`].
pub async fn load() -> Result<&'static dyn Forms, crate::protocol::error::McpError> {
    let part = get().await?;
    LOADED.with(|loaded| loaded.set(Some(part)));
    Ok(part)
}

/// The part, if it is loaded (where it is linked in, always).
pub fn ready() -> Option<&'static dyn Forms> {
    #[cfg(not(all(feature = "lazy-parts", target_arch = "wasm32")))]
    return Some(linked());
    #[cfg(all(feature = "lazy-parts", target_arch = "wasm32"))]
    LOADED.with(Cell::get)
}
