//! The one shape of every method's promise: arguments read synchronously (an error rejects at
//! once, so the future holds only a valid call), then the work run with the call's options while
//! its `signal` stays linked, its value or `McpError` settling the promise.

use crate::engine::RequestOptions;
use crate::js::boundary::error as jserr;
use crate::js::host::abort::SignalLink;
use crate::js::promise_at;
use crate::protocol::error::McpError;
use js_sys::Promise;
use std::future::Future;
use wasm_bindgen::JsValue;

/// A call's options as `boundary::options::call_options` reads them: the request options and the
/// link that keeps the call's `signal` wired to its cancel token while the call runs.
pub type Call = (RequestOptions, Option<SignalLink>);

/// A method's promise: `ready`'s error (its arguments) rejects at once, so the future holds only
/// a valid call; otherwise `run`'s future settles it, an `McpError` becoming the rejection. A
/// panic in the future (a trap), or an instance an earlier one poisoned, rejects it with kind
/// `internal` (`boundary::error::guarded`).
pub fn promise_for<A, F>(ready: Result<A, McpError>, run: impl FnOnce(A) -> F) -> Promise
where
    F: Future<Output = Result<JsValue, McpError>> + 'static,
{
    // taken now, while the caller is on the stack: the rejection's stack shows it
    let site = jserr::call_site();
    let done = match jserr::usable(&site).map(|()| ready) {
        Err(refused) => return Promise::reject(&refused),
        Ok(Err(e)) => return Promise::reject(&jserr::to_js_at(e, &site)),
        Ok(Ok(args)) => run(args),
    };
    let at = site.clone();
    let p = promise_at(
        Box::pin(async move { done.await.map_err(|e| jserr::to_js_at(e, &at)) }),
        site.clone(),
    );
    jserr::track(&p, &site)
}

/// [`promise_for`] of a call with per-call options: `work` runs with the arguments and the
/// options, the signal linked until it settles.
pub fn settle<T, W, F>(ready: Result<(T, Call), McpError>, work: W) -> Promise
where
    W: FnOnce(T, RequestOptions) -> F,
    F: Future<Output = Result<JsValue, McpError>> + 'static,
{
    promise_for(ready, |(args, (opts, link))| {
        let work = work(args, opts);
        async move {
            let _link = link;
            work.await
        }
    })
}
