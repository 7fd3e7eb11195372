//! The exported `Client` and `ClientGroup`, written in JavaScript (`client.js`, `group.js`) over the wasm:
//! `Client` is an `EventTarget` forwarding to a `ClientCore` (`api::client`), `ClientGroup` is
//! several servers behind one object built from such clients. Rust hands the script what it
//! cannot import from the glue: the exported classes (whose `instanceof` and prototype it sets
//! up), the core's prototype, and the `McpError` class.

use crate::js::boundary::error::McpError;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/api/group.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeGroup, catch)]
    fn make_group(
        options: &JsValue,
        new_client: &JsValue,
        error_class: &JsValue,
        group_class: &JsValue,
    ) -> Result<JsValue, JsValue>;
}

// group-calls.js, the group's asynchronous half (the merged lists, the routed calls, the 2026
// list_changed subscription), which group.js imports when the first group is made: named here as
// `api::lazy` names tracing.js, so that wasm-bindgen writes it beside group.js in every build while
// the glue imports nothing of it (a page that makes no group never fetches it; scripts/build-wasm.sh
// checks both).
#[wasm_bindgen(module = "/src/js/api/group-calls.js")]
extern "C" {
    /// group-calls.js's `nameTools` (never called from Rust: naming it is what writes the file).
    #[allow(dead_code)]
    #[wasm_bindgen(js_name = nameTools)]
    fn name_tools(lists: &JsValue, rule: &JsValue) -> JsValue;
}

#[wasm_bindgen(module = "/src/js/api/client.js")]
extern "C" {
    #[wasm_bindgen(js_name = adoptClient)]
    fn adopt_client(exported: &JsValue, core_prototype: &JsValue);

    #[wasm_bindgen(js_name = makeClient, catch)]
    fn make_client(first: &JsValue, second: &JsValue) -> Result<JsValue, JsValue>;
}

/// `new Client(url, options)`: see `client.js` (declared in `types.d.ts`).
#[wasm_bindgen(skip_typescript, js_name = Client)]
#[derive(Debug)]
pub struct ClientFacade;

#[wasm_bindgen(js_class = Client)]
impl ClientFacade {
    /// Returns the facade `client.js` builds over a new `ClientCore` (a constructor may
    /// return another object).
    #[allow(clippy::new_ret_no_self)]
    #[wasm_bindgen(constructor)]
    pub fn new(url: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        make_client(&url, &options)
    }
}

/// Makes the exported `Client` the facade's class, once the module is instantiated: its
/// prototype forwards to the core's (read from a core made for that and dropped).
pub fn install_client() {
    let sample = super::new_client::read(&"http://localhost/".into(), &JsValue::UNDEFINED, None);
    let Ok(sample) = sample else { return };
    let core = JsValue::from(sample);
    if let Ok(exported) = Reflect::get(&JsValue::from(ClientFacade), &"constructor".into()) {
        adopt_client(&exported, &js_sys::Object::get_prototype_of(&core).into());
    }
}

/// `new ClientGroup(options)`: see `group.js` (declared in `group.d.ts`).
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct ClientGroup;

#[wasm_bindgen]
impl ClientGroup {
    /// Returns the group object `group.js` builds (a constructor may return another object).
    #[allow(clippy::new_ret_no_self)]
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<JsValue, JsValue> {
        let new_client = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
            |target, options| make_client(&target, &options),
        )
        .into_js_value();
        let sample = McpError::new(0.into(), JsValue::UNDEFINED, None);
        let error_class = Reflect::get(&sample, &"constructor".into())?;
        let group_class = Reflect::get(&JsValue::from(ClientGroup), &"constructor".into())?;
        make_group(&options, &new_client, &error_class, &group_class)
    }
}
