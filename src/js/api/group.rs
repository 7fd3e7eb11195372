//! The exported `ClientGroup`: several servers behind one object, written in JavaScript
//! (`classes.js`) on top of the exported `Client`. Rust only hands the script the two things it
//! cannot import from the glue: a way to make a `Client`, the `McpError` class, and this class
//! (whose `instanceof` it answers).

use crate::js::api::client::Client;
use crate::js::boundary::error::McpError;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/api/classes.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeGroup, catch)]
    fn make_group(
        options: &JsValue,
        new_client: &JsValue,
        error_class: &JsValue,
        group_class: &JsValue,
    ) -> Result<JsValue, JsValue>;
}

/// `new ClientGroup(options)`: see `classes.js` (declared in `types.rs`).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct ClientGroup;

#[wasm_bindgen]
impl ClientGroup {
    /// Returns the group object `classes.js` builds (a constructor may return another object).
    #[allow(clippy::new_ret_no_self)]
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsValue, JsValue> {
        let new_client = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
            |target, options| Client::new(target, Some(options)).map(JsValue::from),
        )
        .into_js_value();
        let sample = McpError::new(0.into(), JsValue::UNDEFINED, None);
        let error_class = Reflect::get(&sample, &"constructor".into())?;
        let group_class = Reflect::get(&JsValue::from(ClientGroup), &"constructor".into())?;
        make_group(&options, &new_client, &error_class, &group_class)
    }
}
