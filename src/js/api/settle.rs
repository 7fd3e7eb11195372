//! The one shape of every method's promise: arguments read synchronously (an error rejects at
//! once, so the future holds only a valid call), then the work run with the call's options while
//! its `signal` stays linked, its value or `McpError` settling the promise.

use crate::engine::RequestOptions;
use crate::js::boundary::error as jserr;
use crate::js::host::abort::SignalLink;
use crate::js::promise;
use crate::protocol::error::McpError;
use js_sys::Promise;
use std::future::Future;
use wasm_bindgen::JsValue;

/// A call's options as `boundary::options::call_options` reads them: the request options and the
/// link that keeps the call's `signal` wired to its cancel token while the call runs.
pub type Call = (RequestOptions, Option<SignalLink>);

/// The method's promise: `ready`'s error rejects at once; otherwise `work` runs with the
/// arguments and options, the signal linked until it settles.
pub fn settle<T, W, F>(ready: Result<(T, Call), McpError>, work: W) -> Promise
where
    W: FnOnce(T, RequestOptions) -> F,
    F: Future<Output = Result<JsValue, McpError>> + 'static,
{
    let (args, (opts, link)) = match ready {
        Ok(r) => r,
        Err(e) => return Promise::reject(&jserr::to_js(e)),
    };
    let work = work(args, opts);
    promise(Box::pin(async move {
        let _link = link;
        work.await.map_err(jserr::to_js)
    }))
}
