//! The engine's host in JavaScript: timers and tasks on the event loop, and the user's
//! functions (callbacks that answer the server, handlers that hear it).

pub mod abort;
#[cfg(not(feature = "auth"))]
pub mod auth_part;
pub mod cache_store;
pub mod challenges;
#[cfg(feature = "lazy-parts")]
pub mod parts;

use crate::engine::{Cancel, Host};
use crate::js::boundary::{error as jserr, interop};
use crate::js::host::abort::{signal_for, sleep};
use crate::json::Value;
use crate::protocol::capabilities::Registered;
use crate::protocol::error::{ErrorKind, McpError, INVALID_PARAMS};
use crate::session::lists::{ListKind, Phase};
use crate::session::server_requests::{not_supported, Answerer};
use crate::validate::output_schema::PatternMatcher;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The user's functions.
#[derive(Debug, Default)]
pub struct JsHost {
    /// `elicitationCallback(context, params)`.
    pub elicitation: Option<Function>,
    /// `samplingCallback(context, params)`.
    pub sampling: Option<Function>,
    /// `listRootsCallback(context)`.
    pub roots: Option<Function>,
    /// `messageHandler(notificationOrError)`.
    pub message_handler: Option<Function>,
    /// `loggingCallback(params)`.
    pub logging_callback: Option<Function>,
    /// The `Client` facade's `(type, detail)`: what becomes its events (`client.js`).
    pub observer: Option<Function>,
    /// A `tracer` was given: the steps inside requests become `trace` events (`tracing.js`
    /// makes them child spans).
    pub tracing: bool,
}

impl JsHost {
    /// What registering these callbacks declares (plus `samplingCapabilities`).
    pub fn registered(&self, sampling_capabilities: Option<Value>) -> Registered {
        Registered {
            elicitation: self.elicitation.is_some(),
            sampling: self.sampling.is_some(),
            sampling_capabilities: self.sampling.as_ref().and(sampling_capabilities),
            roots: self.roots.is_some(),
            ..Registered::default()
        }
    }

    fn callback(&self, a: Answerer) -> Option<&Function> {
        match a {
            Answerer::Elicitation => self.elicitation.as_ref(),
            Answerer::Sampling => self.sampling.as_ref(),
            Answerer::Roots => self.roots.as_ref(),
            Answerer::Ping => None,
        }
    }
}

/// A plain object of these entries.
fn object(entries: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in entries {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

impl JsHost {
    /// With a tracer: what the HTTP layer tells its steps to (`trace` events to the facade).
    pub fn steps_hook(&self) -> Option<crate::engine::trace::StepHook> {
        let observer = self.observer.clone().filter(|_| self.tracing)?;
        Some(std::rc::Rc::new(move |event: &Value| {
            let _ = observer.call2(&JsValue::UNDEFINED, &"trace".into(), &interop::to_js(event));
        }))
    }

    /// Tells the facade: an event of `kind` with `detail` (a throwing observer is ignored).
    fn observe(&self, kind: &str, detail: &JsValue) {
        if let Some(f) = &self.observer {
            let _ = f.call2(&JsValue::UNDEFINED, &JsValue::from_str(kind), detail);
        }
    }
}

/// Calls a handler; a Promise it returns is awaited in the background (and its rejection
/// ignored: a handler cannot fail a call).
pub fn call_handler(f: &Function, arg: &JsValue) {
    if let Ok(ret) = f.call1(&JsValue::UNDEFINED, arg) {
        if let Ok(p) = ret.dyn_into::<js_sys::Promise>() {
            crate::js::spawn(Box::pin(async move {
                let _ = JsFuture::from(p).await;
            }));
        }
    }
}

impl Host for JsHost {
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        sleep(ms).boxed_local()
    }

    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        crate::js::spawn(task);
    }

    fn call_back(
        &self,
        answerer: Answerer,
        params: &Value,
        request_id: &Value,
        cancel: &Cancel,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>> {
        let Some(f) = self.callback(answerer).cloned() else {
            return futures::future::ready(Err(not_supported(answerer))).boxed_local();
        };
        let meta = params.get("_meta").unwrap_or(&Value::Null);
        let context = Object::new();
        let _ = Reflect::set(&context, &"requestId".into(), &interop::to_js(request_id));
        let _ = Reflect::set(&context, &"meta".into(), &interop::to_js(meta));
        let signal = signal_for(cancel).map_or(JsValue::UNDEFINED, JsValue::from);
        let _ = Reflect::set(&context, &"signal".into(), &signal);
        let returned = match answerer {
            Answerer::Roots => f.call1(&JsValue::UNDEFINED, &context),
            _ => f.call2(&JsValue::UNDEFINED, &context, &interop::to_js(params)),
        };
        let method = answerer.method();
        async move {
            let returned = returned.map_err(|e| jserr::from_js(&e))?;
            let value = match returned.dyn_into::<js_sys::Promise>() {
                Ok(p) => JsFuture::from(p).await.map_err(|e| jserr::from_js(&e))?,
                Err(v) => v,
            };
            interop::from_js(&value).map_err(|e| {
                McpError::local(
                    INVALID_PARAMS,
                    ErrorKind::Callback,
                    format!("{method} callback returned a value that is not JSON: {e}"),
                    Value::Null,
                )
            })
        }
        .boxed_local()
    }

    fn notification(&self, message: &Value) {
        let message = interop::to_js(message);
        if let Some(f) = &self.message_handler {
            call_handler(f, &message);
        }
        self.observe("notification", &message);
    }

    fn phase_changed(&self, to: Phase, from: Phase, error: Option<&McpError>) {
        let mut detail = vec![
            ("state", JsValue::from_str(to.name())),
            ("previous", JsValue::from_str(from.name())),
        ];
        if let Some(e) = error {
            detail.push(("error", jserr::to_js(e.clone())));
        }
        self.observe("statechange", &object(&detail));
    }

    fn list_changed(&self, kind: ListKind, items: &Value) {
        let event = [kind.key(), "change"].concat();
        self.observe(&event, &interop::to_js(items));
    }

    fn tracing(&self) -> bool {
        self.tracing
    }

    fn trace(&self, event: &Value) {
        self.observe("trace", &interop::to_js(event));
    }

    fn log(&self, params: &Value) {
        if let Some(f) = &self.logging_callback {
            call_handler(f, &interop::to_js(params));
        }
    }

    fn surface_error(&self, error: McpError) {
        if let Some(f) = &self.message_handler {
            call_handler(f, &jserr::to_js(error));
        }
    }

    fn pattern_matcher(&self) -> Option<PatternMatcher> {
        Some(interop::regex_test)
    }
}
