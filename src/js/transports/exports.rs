//! The exported transports written in JavaScript: `messagePortTransport`, `windowTransport`,
//! `inMemoryPair`. Arguments are checked here; the objects (the TypeScript SDK's `Transport`
//! shape) are built by `transports.js`.

use crate::js::boundary::error as jserr;
use crate::js::boundary::options;
use crate::protocol::error::McpError;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/transports/transports.js")]
extern "C" {
    #[wasm_bindgen(js_name = portTransport)]
    fn port_transport(port: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = windowTransport)]
    fn window_transport_js(target: &JsValue, target_origin: &str) -> JsValue;
    #[wasm_bindgen(js_name = memoryPair)]
    fn memory_pair() -> JsValue;
}

fn has_function(v: &JsValue, name: &str) -> bool {
    v.is_object()
        && Reflect::get(v, &name.into())
            .map(|f| f.is_function())
            .unwrap_or(false)
}

/// `messagePortTransport(port)`: a transport over a `MessagePort`, a `Worker` (browser or
/// `node:worker_threads`) or a `BroadcastChannel`; `close()` closes a port, never a worker.
#[wasm_bindgen(js_name = messagePortTransport, unchecked_return_type = "PromiseTransport")]
pub fn message_port_transport(
    #[wasm_bindgen(unchecked_param_type = "MessagePortLike")] port: JsValue,
) -> Result<JsValue, JsValue> {
    let listens = has_function(&port, "addEventListener") || has_function(&port, "on");
    if !has_function(&port, "postMessage") || !listens {
        return Err(jserr::to_js(McpError::input(
            "messagePortTransport: port must be a MessagePort, a Worker or a BroadcastChannel (an object with postMessage() and addEventListener())",
        )));
    }
    Ok(port_transport(&port))
}

/// The origin `targetOrigin` names, or the error saying why it cannot be used.
fn exact_origin(v: Option<String>) -> Result<String, McpError> {
    let Some(text) = v else {
        return Err(McpError::input(
            "windowTransport: options.targetOrigin is required (the other window's origin, e.g. \"https://tools.example\")",
        ));
    };
    if text.trim() == "*" {
        return Err(McpError::input(
            "windowTransport: targetOrigin \"*\" is refused: any page could read the messages; name the other window's origin (e.g. \"https://tools.example\")",
        ));
    }
    let origin = web_sys::Url::new(&text).map(|u| u.origin()).map_err(|_| {
        McpError::input(format!("windowTransport: targetOrigin {} is not an absolute origin such as \"https://tools.example\"", crate::util::quote::quoted(&text)
        ))
    })?;
    if origin == "null" {
        return Err(McpError::input(format!(
            "windowTransport: targetOrigin {} has no origin a window can check (opaque)",
            crate::util::quote::quoted(&text)
        )));
    }
    Ok(origin)
}

/// `windowTransport(target, { targetOrigin })`: a transport to another window (an iframe's
/// `contentWindow`, an opener, a popup); every message must come from `target` and
/// `targetOrigin` (never `"*"`), others are dropped and reported to `messageHandler`.
#[wasm_bindgen(js_name = windowTransport, unchecked_return_type = "PromiseTransport")]
pub fn window_transport(
    #[wasm_bindgen(unchecked_param_type = "WindowLike")] target: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{ targetOrigin: string }")] options: JsValue,
) -> Result<JsValue, JsValue> {
    (|| {
        if !has_function(&target, "postMessage") {
            return Err(McpError::input(
                "windowTransport: target must be a window (e.g. iframe.contentWindow) with postMessage()",
            ));
        }
        if !options.is_object() || js_sys::Array::is_array(&options) {
            return Err(McpError::input(
                "windowTransport: options must be { targetOrigin: \"https://...\" }",
            ));
        }
        let origin = exact_origin(options::string(
            &options,
            "targetOrigin",
            "windowTransport options",
        )?)?;
        if !has_function(&js_sys::global().into(), "addEventListener") {
            return Err(McpError::input(
                "windowTransport needs a page or worker (a global addEventListener to hear message events)",
            ));
        }
        Ok(window_transport_js(&target, &origin))
    })()
    .map_err(jserr::to_js)
}

/// `inMemoryPair()`: two linked transports `[clientSide, serverSide]` (tests, same-page servers).
#[wasm_bindgen(js_name = inMemoryPair, unchecked_return_type = "[PromiseTransport, PromiseTransport]")]
pub fn in_memory_pair() -> JsValue {
    memory_pair()
}
