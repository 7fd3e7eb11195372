//! The JS face of `client.listen(filter)`: an async iterable over an engine subscription
//! (`{ honoured, next(), close(), return(), [Symbol.asyncIterator] }`).

use crate::engine::listen::Subscription;
use crate::engine::{Engine, RequestOptions};
use crate::js::boundary::{error as jserr, interop};
use crate::js::promise;
use js_sys::{Function, Object, Promise, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/api/client.js")]
extern "C" {
    #[wasm_bindgen(js_name = asyncIterable)]
    fn async_iterable(next: &Function, close: &Function, honoured: &JsValue) -> JsValue;
}

/// The JS object handed to the caller for `subscription`.
pub fn to_js(engine: &Rc<Engine>, subscription: Subscription, opts: RequestOptions) -> JsValue {
    let subscription = Rc::new(subscription);
    let honoured = interop::to_js(&subscription.queue.honoured.borrow());
    let queue = subscription.queue.clone();
    let next = Closure::<dyn FnMut() -> Promise>::new(move || {
        let queue = queue.clone();
        promise(Box::pin(async move {
            let item = queue.next().await.map_err(jserr::to_js)?;
            let out = Object::new();
            let _ = Reflect::set(&out, &"done".into(), &JsValue::from_bool(item.is_none()));
            let value = item.as_ref().map_or(JsValue::UNDEFINED, interop::to_js);
            let _ = Reflect::set(&out, &"value".into(), &value);
            Ok(out.into())
        }))
    });
    let engine = engine.clone();
    let close = Closure::<dyn FnMut() -> Promise>::new(move || {
        let (engine, sub, opts) = (engine.clone(), subscription.clone(), opts.clone());
        promise(Box::pin(async move {
            // The part is loaded: listen() made this subscription through it.
            let part = crate::parts::listen::get().await.map_err(jserr::to_js)?;
            part.unlisten(&engine, &sub, &opts).await;
            Ok(JsValue::UNDEFINED)
        }))
    });
    async_iterable(
        next.into_js_value().unchecked_ref(),
        close.into_js_value().unchecked_ref(),
        &honoured,
    )
}
