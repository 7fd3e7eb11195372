//! The callback bridge: calls the user's JS function for a server request (legacy JSON-RPC
//! request or 2026 `inputRequests` entry) and awaits its value or Promise. Which callback,
//! what is refused first and what is checked after are `session::server_requests` rules.

use crate::js::{error as jserr, interop};
use crate::protocol::capabilities::Registered;
use crate::protocol::error::McpError;
use crate::session::server_requests::{
    check_request, check_result, is_registered, not_supported, route, Answerer,
};
use js_sys::{Function, Object, Reflect};
use serde_json::{json, Value};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

/// The user's functions that answer server requests.
#[derive(Default)]
pub struct Callbacks {
    /// `elicitationCallback(context, params)`.
    pub elicitation: Option<Function>,
    /// `samplingCallback(context, params)`.
    pub sampling: Option<Function>,
    /// `listRootsCallback(context)`.
    pub roots: Option<Function>,
}

impl Callbacks {
    /// What registering these callbacks declares (plus `samplingCapabilities`).
    pub fn registered(&self, sampling_capabilities: Option<Value>) -> Registered {
        Registered {
            elicitation: self.elicitation.is_some(),
            sampling: self.sampling.is_some(),
            sampling_capabilities: if self.sampling.is_some() {
                sampling_capabilities
            } else {
                None
            },
            roots: self.roots.is_some(),
        }
    }

    fn function(&self, a: Answerer) -> Option<&Function> {
        match a {
            Answerer::Elicitation => self.elicitation.as_ref(),
            Answerer::Sampling => self.sampling.as_ref(),
            Answerer::Roots => self.roots.as_ref(),
            Answerer::Ping => None,
        }
    }
}

/// Counts callbacks in progress while alive (request timers pause meanwhile).
struct Pending(Rc<Cell<u32>>);

impl Pending {
    fn new(counter: &Rc<Cell<u32>>) -> Self {
        counter.set(counter.get() + 1);
        Pending(counter.clone())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

/// Answers one server request: `{}` for ping, else the checked result of the user's callback.
/// `request_id` and `meta` go into the callback's context with `signal`.
pub async fn answer(
    callbacks: &Callbacks,
    registered: &Registered,
    pending: &Rc<Cell<u32>>,
    method: &str,
    params: Value,
    request_id: JsValue,
    signal: &AbortSignal,
) -> Result<Value, McpError> {
    let a = route(method)?;
    if a == Answerer::Ping {
        return Ok(json!({}));
    }
    if !is_registered(a, registered) {
        return Err(not_supported(a));
    }
    check_request(a, &params, registered)?;
    let f = callbacks.function(a).ok_or_else(|| not_supported(a))?;
    let meta = params.get("_meta").cloned().unwrap_or(Value::Null);
    let context = Object::new();
    let _ = Reflect::set(&context, &"requestId".into(), &request_id);
    let _ = Reflect::set(&context, &"meta".into(), &interop::to_js(&meta));
    let _ = Reflect::set(&context, &"signal".into(), signal);
    let _busy = Pending::new(pending);
    let returned = match a {
        Answerer::Roots => f.call1(&JsValue::UNDEFINED, &context),
        _ => f.call2(&JsValue::UNDEFINED, &context, &interop::to_js(&params)),
    }
    .map_err(|e| jserr::from_js(&e))?;
    let value = match returned.dyn_into::<js_sys::Promise>() {
        Ok(p) => JsFuture::from(p).await.map_err(|e| jserr::from_js(&e))?,
        Err(v) => v,
    };
    let result = interop::from_js(&value).map_err(|e| {
        McpError::local(
            crate::protocol::error::INVALID_PARAMS,
            crate::protocol::error::ErrorKind::Callback,
            format!("{method} callback returned a value that is not JSON: {e}"),
            Value::Null,
        )
    })?;
    check_result(a, &params, result)
}
