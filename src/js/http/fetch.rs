//! HTTP over `fetch` for both HTTP transports: requests with MCP headers, the response head,
//! the body as a text or an incremental byte stream, and the errors for failed requests and
//! non-2xx statuses. Binds the global `fetch` (windows, workers, Node, Deno) or the `fetch`
//! option.

use crate::auth::seam::{Authorize, Credentials};
use crate::engine::trace::{step_event, StepHook, StepPhase};
use crate::js::boundary::{awaited::awaited, error::error_text, held, options::Reader};
use crate::js::host::abort::{new_controller, AbortOnDrop};
use crate::js::host::challenges;
use crate::json::{json, Map, Value};
use crate::protocol::error::{McpError, CONNECTION_CLOSED};
use crate::session::stamp::Outgoing;
use crate::transport::http::{error_for_status, redirect_policy, Redirect, ACCEPT_POST};
use gloo_net::http::Method;
use js_sys::{Function, Reflect};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::AbortSignal;

/// The headers a browser sends without a CORS preflight (plus what fetch adds itself).
const SAFELISTED: [&str; 3] = ["accept", "content-type", "content-language"];

/// The HTTP side of a client: endpoint, fetch function, extra headers.
pub struct Http {
    /// The MCP endpoint URL.
    pub url: String,
    /// `url` as a JS string, made once: each request's `fetch` takes it as it is.
    url_js: JsValue,
    fetch: Function,
    extra_headers: Vec<(String, String)>,
    /// True in a browser page or worker (CORS applies).
    pub in_browser: bool,
    /// Deprecated HTTP+SSE transport: where POSTs go (from the `endpoint` event).
    endpoint: std::cell::RefCell<Option<String>>,
    /// The last request's method, headers and redirect mode, parsed once while they stay the same.
    init_head: crate::js::boundary::interop::ParsedOnce,
    /// The authorization flow (the `auth` option) behind the seam: credentials on every
    /// request, 401/403 handled.
    pub auth: Option<Rc<dyn Authorize>>,
    /// With a tracer: hears the steps of requests (authorization, reconnects) as `trace`
    /// events (`engine::trace::step_event`).
    pub steps: Option<StepHook>,
}

/// One request as [`Http::send`] was given it, its URL resolved ([`Http::target`]): what each
/// send of it (the authorization seam may send it again) repeats.
pub(super) struct Outbound<'a> {
    /// The HTTP method.
    pub method: Method,
    /// Where it goes.
    pub url: String,
    /// The JSON body, if any.
    pub body: Option<&'a str>,
    /// The caller's headers (session, protocol version, `Mcp-*`).
    pub headers: &'a [(String, String)],
    /// Aborts the fetch.
    pub signal: &'a AbortSignal,
    /// What the request is, for errors.
    pub what: &'a str,
    /// The `traceparent` of the MCP request it carries, if any (its steps' span).
    pub traceparent: Option<&'a str>,
}

impl std::fmt::Debug for Http {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Header values may be credentials: only their names are shown.
        f.debug_struct("Http")
            .field("url", &self.url)
            .field("in_browser", &self.in_browser)
            .field("endpoint", &self.endpoint.borrow())
            .finish_non_exhaustive()
    }
}

/// The head of a response; the body is read with [`read_text`] or [`body_reader`]. What every
/// response needs (status, `Content-Type`) is read once; the rest only when asked for: each read
/// is a call into the host (undici's `Headers.get` in Node is not free).
pub struct Head {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`, if readable.
    pub content_type: Option<String>,
    /// The raw response.
    pub response: web_sys::Response,
    headers: web_sys::Headers,
}

impl Head {
    fn new(response: web_sys::Response) -> Head {
        let headers = response.headers();
        Head {
            status: response.status(),
            content_type: headers.get("content-type").ok().flatten(),
            response,
            headers,
        }
    }

    /// A response header, if present and readable (CORS must expose it).
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).ok().flatten()
    }

    /// `Mcp-Session-Id`, if present and readable (CORS must expose it).
    pub fn session_id(&self) -> Option<String> {
        self.header("mcp-session-id")
    }

    /// The status text (for errors).
    pub fn status_text(&self) -> String {
        text_field(&self.response, "statusText")
    }
}

/// True when running in a browser page or worker (not Node or Deno).
fn detect_browser() -> bool {
    let g = js_sys::global();
    let has = |k: &str| {
        Reflect::get(&g, &k.into())
            .map(|v| !v.is_undefined())
            .unwrap_or(false)
    };
    let node = Reflect::get(&g, &"process".into())
        .ok()
        .and_then(|p| Reflect::get(&p, &"versions".into()).ok())
        .and_then(|v| Reflect::get(&v, &"node".into()).ok())
        .is_some_and(|n| !n.is_undefined());
    (has("document") || has("WorkerGlobalScope")) && !node && !has("Deno")
}

impl Http {
    /// A transport for `url`, using `fetch` when given, else the global `fetch` (none: the
    /// error is kept in `r`, the caller's options reader).
    pub fn new(
        r: &mut Reader,
        url: String,
        fetch: Option<Function>,
        extra_headers: Vec<(String, String)>,
    ) -> Option<Http> {
        let fetch = fetch.or_else(|| {
            Reflect::get(&js_sys::global(), &"fetch".into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
        });
        let Some(fetch) = fetch else {
            r.fail(McpError::local(
                CONNECTION_CLOSED,
                crate::protocol::error::ErrorKind::Network,
                "No global fetch: pass options.fetch",
                Value::Null,
            ));
            return None;
        };
        Some(Http {
            url_js: JsValue::from_str(&url),
            url,
            fetch,
            extra_headers,
            in_browser: detect_browser(),
            endpoint: Default::default(),
            init_head: Default::default(),
            auth: None,
            steps: None,
        })
    }

    /// The `Authorization` value requests go with now: the authorization flow's token, else
    /// an `Authorization` header of the `headers` option.
    pub fn credential(&self) -> Option<crate::util::secret::Secret> {
        if let Some(auth) = &self.auth {
            return auth.credential();
        }
        self.extra_headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("authorization"))
            .map(|(_, value)| crate::util::secret::Secret::new(value.as_str()))
    }

    /// Tells the tracer (if any) that the step `kind` of the request `what` (of the span
    /// `traceparent`) began or ended.
    pub fn step(
        &self,
        kind: &str,
        phase: StepPhase,
        what: &str,
        traceparent: Option<&str>,
        detail: Value,
        error: Option<&McpError>,
    ) {
        if let Some(hear) = &self.steps {
            hear(&step_event(kind, phase, what, traceparent, detail, error));
        }
    }

    /// The fetch function requests go through (the authorization flow fetches with it too).
    #[cfg(feature = "auth")]
    pub fn fetch_function(&self) -> &Function {
        &self.fetch
    }

    /// True when the `auth` option is set (then its flow has already met any 401).
    pub fn signs_in(&self) -> bool {
        self.auth.is_some()
    }

    /// POSTs a stamped message with a controller of its own; the guard aborts the request
    /// (and its body) when dropped.
    pub async fn post(&self, out: &Outgoing, what: &str) -> Result<(Head, AbortOnDrop), McpError> {
        let guard = AbortOnDrop::new(new_controller()?);
        let signal = guard.signal();
        let trace = out.traceparent.as_deref();
        let head = self
            .send(
                Method::POST,
                Some(&out.body),
                &out.headers,
                &signal,
                what,
                trace,
            )
            .await?;
        Ok((head, guard))
    }

    /// POSTs a message that gets no response (a notification, a response to the server, a
    /// request whose response comes on another stream); any 2xx is success.
    pub async fn post_message(&self, out: &Outgoing, what: &str) -> Result<(), McpError> {
        let (head, guard) = self.post(out, what).await?;
        if !(200..300).contains(&head.status) {
            return Err(status_error(self, &head, what, &out.headers).await);
        }
        if head.status == 202 {
            // No body: nothing to abort (an abort is an event through the fetch's signals).
            guard.disarm();
        }
        Ok(())
    }

    /// Resolves and adopts the `endpoint` event's URL; it must be on the server's origin, so
    /// credentials in `headers` never go elsewhere.
    pub fn set_endpoint(&self, endpoint: &str) -> Result<(), McpError> {
        let resolved = web_sys::Url::new_with_base(endpoint, &self.url).map_err(|_| {
            McpError::protocol(
                crate::protocol::error::INVALID_REQUEST,
                format!(
                    "The HTTP+SSE endpoint {} is not a URL",
                    crate::util::quote::quoted(endpoint)
                ),
            )
        })?;
        let base = web_sys::Url::new(&self.url).map_err(|_| {
            McpError::protocol(crate::protocol::error::INVALID_REQUEST, "bad base URL")
        })?;
        if resolved.origin() != base.origin() {
            return Err(McpError::protocol(
                crate::protocol::error::INVALID_REQUEST,
                format!(
                    "The HTTP+SSE endpoint {} is on another origin than {}; refused",
                    text_field(&resolved, "href"),
                    self.url
                ),
            ));
        }
        *self.endpoint.borrow_mut() = Some(text_field(&resolved, "href"));
        Ok(())
    }

    /// Where a request of `method` goes: the HTTP+SSE endpoint for POSTs once known, else
    /// the server URL.
    pub(super) fn target(&self, method: &Method) -> String {
        match self.endpoint.borrow().as_ref() {
            Some(endpoint) if *method == Method::POST => endpoint.clone(),
            _ => self.url.clone(),
        }
    }

    /// Sends `out` once with `credentials`, following the redirects the policy allows;
    /// resolves with the head of the final response.
    pub(super) async fn send_once(
        &self,
        out: &Outbound<'_>,
        credentials: &Credentials,
    ) -> Result<Head, McpError> {
        let Outbound { method, what, .. } = out;
        let mut url = out.url.clone();
        // In a browser a manual redirect is opaque (no Location); follow there unless the user
        // gave headers (credentials) that must not reach another origin.
        let manual = !self.in_browser || !self.extra_headers.is_empty() || !credentials.is_empty();
        let redirect = if manual { "manual" } else { "follow" };
        let init = self.request_init(out, credentials, redirect);
        let failed = |e: JsValue| self.network_error(&e, what, &sent_names(self, out, credentials));
        let mut hops = 0;
        loop {
            let other = (url != self.url).then(|| JsValue::from_str(&url));
            let url_js = other.as_ref().unwrap_or(&self.url_js);
            let promise = self
                .fetch
                .call2(&JsValue::UNDEFINED, url_js, &init)
                .map_err(failed)?;
            let value = awaited(&promise).await.map_err(failed)?;
            let head = Head::new(value.unchecked_into());
            // An opaque redirect has status 0 (its type is read only then).
            if head.status == 0 && is_opaque_redirect(&head.response) {
                return Err(redirect_error(what, format!(
                    "the server redirected {url}; with custom headers set, a browser client does not follow redirects (the target is hidden): use the final URL"
                )));
            }
            if let Some(next) = redirect_target(&head, &url, method, hops, what)? {
                hops += 1;
                url = next;
                continue;
            }
            return Ok(head);
        }
    }

    /// The `fetch(url, init)` init of a request, a plain object (cheaper than building a
    /// `Request`: Node's undici makes a transferable body stream for every Request object).
    /// Its method, headers and redirect mode cross as one JSON text (one `JSON.parse` instead of
    /// a call into the host per header), parsed once while they stay the same (`init_head`);
    /// `held.js` fetchInit makes the init from them, the body and the signal.
    fn request_init(
        &self,
        out: &Outbound<'_>,
        credentials: &Credentials,
        redirect: &str,
    ) -> JsValue {
        let mut header_map = Map::new();
        if out.body.is_some() {
            header_map.insert("content-type".into(), "application/json".into());
        }
        header_map.insert("accept".into(), ACCEPT_POST.into());
        for (k, v) in self.extra_headers.iter().chain(out.headers.iter()) {
            header_map.insert(k.to_ascii_lowercase(), v.as_str().into());
        }
        for (name, value) in credentials.headers() {
            header_map.insert(name.into(), value.into());
        }
        let head =
            json!({ "method": out.method.as_ref(), "headers": header_map, "redirect": redirect });
        let head = self.init_head.get(head.to_string());
        held::fetch_init(&head, out.body, out.signal)
    }

    fn network_error(&self, e: &JsValue, what: &str, sent: &[String]) -> McpError {
        let is_abort = Reflect::get(e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .as_deref()
            == Some("AbortError");
        if is_abort {
            return McpError::local(
                CONNECTION_CLOSED,
                crate::protocol::error::ErrorKind::Aborted,
                format!("The request for {what} was aborted"),
                Value::Null,
            );
        }
        let detail = error_text(e);
        let preflighted: Vec<&str> = sent
            .iter()
            .map(String::as_str)
            .filter(|h| !SAFELISTED.contains(h))
            .collect();
        if self.in_browser {
            let message = format!(
                "Could not reach {} for {what}: {detail}. If the server is up, a cross-origin server must answer the CORS preflight allowing the request headers [content-type{}{}] and the method",
                self.url,
                if preflighted.is_empty() { "" } else { ", " },
                preflighted.join(", ")
            );
            return McpError::local(
                CONNECTION_CLOSED,
                crate::protocol::error::ErrorKind::Cors,
                message,
                json!({ "url": self.url, "headers": preflighted }),
            );
        }
        McpError::local(
            CONNECTION_CLOSED,
            crate::protocol::error::ErrorKind::Network,
            format!("Could not reach {} for {what}: {detail}", self.url),
            json!({ "url": self.url }),
        )
    }
}

/// The names of the headers a request sets (lower case), for a CORS error.
fn sent_names(http: &Http, out: &Outbound<'_>, credentials: &Credentials) -> Vec<String> {
    let own = http.extra_headers.iter().chain(out.headers.iter());
    let names = own.map(|(k, _)| k.to_ascii_lowercase());
    names
        .chain(
            credentials
                .headers()
                .into_iter()
                .map(|(k, _)| k.to_string()),
        )
        .collect()
}

/// Where a 3xx response to `method` `url` (after `hops` redirects) goes, when it has a
/// `Location` the redirect policy follows; `None` for a final response, an error for a
/// redirect refused.
fn redirect_target(
    head: &Head,
    url: &str,
    method: &Method,
    hops: u32,
    what: &str,
) -> Result<Option<String>, McpError> {
    let status = head.status;
    if !(300..400).contains(&status) || status == 304 {
        return Ok(None);
    }
    let Some(location) = head.header("location") else {
        return Ok(None);
    };
    let target = web_sys::Url::new_with_base(&location, url).map_err(|_| {
        redirect_error(
            what,
            format!(
                "the server redirected to an invalid URL {}",
                crate::util::quote::quoted(&location)
            ),
        )
    })?;
    let from = web_sys::Url::new(url)
        .map(|u| u.origin())
        .unwrap_or_default();
    let href = text_field(&target, "href");
    match redirect_policy(
        status,
        method.as_ref(),
        &from,
        &target.origin(),
        &href,
        hops,
    ) {
        Redirect::Follow => Ok(Some(href)),
        Redirect::Refuse(why) => Err(redirect_error(what, why)),
    }
}

fn redirect_error(what: &str, why: String) -> McpError {
    McpError::local(
        crate::protocol::error::INVALID_REQUEST,
        crate::protocol::error::ErrorKind::Http,
        format!("Refused a redirect for {what}: {why}"),
        Value::Null,
    )
}

/// A string property of a JS object (`""` when it is not a string): one `Reflect.get` where a
/// web-sys getter would bring its own string-returning import into the glue.
#[inline(never)]
pub fn text_field(obj: &JsValue, key: &str) -> String {
    Reflect::get(obj, &key.into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Largest error body read from a non-2xx response.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// Reads the whole body as text, refusing bodies larger than `max_bytes`.
pub async fn read_text(head: &Head, max_bytes: usize, what: &str) -> Result<String, McpError> {
    // A declared length within the cap: one native read (`text()`), no stream reader.
    match declared_length(head) {
        Some(n) if n > max_bytes => return Err(too_large(what, max_bytes)),
        Some(_) => {
            let failed = |e: JsValue| body_failed(what, &error_text(&e));
            let text = head.response.text().map_err(failed)?;
            let text = awaited(&text).await.map_err(failed)?;
            return Ok(text.as_string().unwrap_or_default());
        }
        None => {}
    }
    let body = capped_body(head, max_bytes, what, 0, u32::MAX).await?;
    Ok(body.map_or_else(String::from, utf8_text))
}

/// A body read whole by the host (held.js `readCappedBody`) and refused as soon as it passes
/// `max_bytes`: its bytes copied into the wasm (`Ok`; a leading byte order mark dropped) when it
/// is `from` bytes or more and under `below`, else its text (malformed UTF-8 read as U+FFFD).
pub async fn capped_body(
    head: &Head,
    max_bytes: usize,
    what: &str,
    from: u32,
    below: u32,
) -> Result<Result<Vec<u8>, js_sys::JsString>, McpError> {
    let read = held::read_capped_body(head.response.body(), max_bytes as f64, from, below);
    let body = awaited(&read).await;
    let body = body.map_err(|e| body_failed(what, &error_text(&e)))?;
    if body.is_undefined() {
        return Err(too_large(what, max_bytes));
    }
    if let Some(bytes) = body.dyn_ref::<js_sys::Uint8Array>() {
        return Ok(Ok(bytes.to_vec()));
    }
    let no_text = |_| body_failed(what, "the body reader gave no text");
    body.dyn_into().map(Err).map_err(no_text)
}

/// Bytes as text, malformed UTF-8 read as U+FFFD (each maximal subpart, as `TextDecoder` does);
/// valid UTF-8 (the usual case) becomes the String without a copy.
pub fn utf8_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `Content-Length`, when the response declares one.
pub fn declared_length(head: &Head) -> Option<usize> {
    let length = head.header("content-length")?;
    length.trim().parse().ok()
}

/// The error for a response body that could not be read (`why`).
pub fn body_failed(what: &str, why: &str) -> McpError {
    McpError::local(
        CONNECTION_CLOSED,
        crate::protocol::error::ErrorKind::Network,
        format!("The response body for {what} failed: {why}"),
        Value::Null,
    )
}

/// The error for a response body over `max_bytes`.
pub fn too_large(what: &str, max_bytes: usize) -> McpError {
    McpError::local(
        crate::protocol::error::INVALID_REQUEST,
        crate::protocol::error::ErrorKind::Protocol,
        format!("The response to {what} is larger than {max_bytes} bytes"),
        json!({ "maxMessageBytes": max_bytes }),
    )
}

/// The body, read chunk by chunk with [`BodyReader::next`] (no chunks when the response has
/// no body). Dropping the reader before the body's end cancels the body.
pub fn body_reader(head: &Head) -> BodyReader {
    BodyReader {
        reader: head
            .response
            .body()
            .map(|b| b.get_reader().unchecked_into()),
        done: false,
    }
}

/// A body's reader; cancels the body when dropped before its end (one call into JS, no future
/// spawned: every SSE exchange ends so).
pub struct BodyReader {
    reader: Option<web_sys::ReadableStreamDefaultReader>,
    done: bool,
}

impl BodyReader {
    /// The next chunk of bytes; `None` at the end of the body (or after a failed read). `what`
    /// names the request in errors.
    pub async fn next(&mut self, what: &str) -> Option<Result<Vec<u8>, McpError>> {
        let reader = self.reader.as_ref().filter(|_| !self.done)?;
        let failed = |e: &JsValue| {
            McpError::local(
                CONNECTION_CLOSED,
                crate::protocol::error::ErrorKind::Network,
                format!("The response stream for {what} failed: {}", error_text(e)),
                Value::Null,
            )
        };
        match awaited(&reader.read()).await {
            Ok(step) => {
                let field = |k: &str| Reflect::get(&step, &k.into()).unwrap_or_default();
                if field("done").as_bool() != Some(false) {
                    self.done = true;
                    return None;
                }
                Some(
                    field("value")
                        .dyn_into::<js_sys::Uint8Array>()
                        .map(|a| a.to_vec())
                        .map_err(|v| {
                            failed(
                                &[
                                    "a chunk that is not bytes: ",
                                    &crate::js::boundary::interop::describe(&v),
                                ]
                                .concat()
                                .into(),
                            )
                        }),
                )
            }
            Err(e) => {
                self.done = true;
                Some(Err(failed(&e)))
            }
        }
    }
}

impl Drop for BodyReader {
    fn drop(&mut self) {
        if let Some(reader) = self.reader.as_ref().filter(|_| !self.done) {
            held::cancel_quietly(reader);
        }
    }
}

/// The error for a non-2xx response, with its body's detail; `headers` are the ones sent
/// (a `Mcp-Session-Id` among them makes a 404 an expired session).
pub async fn status_error(
    http: &Http,
    head: &Head,
    what: &str,
    headers: &[(String, String)],
) -> McpError {
    let body = read_text(head, MAX_ERROR_BODY, what)
        .await
        .unwrap_or_default();
    let sent = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    let has_session = sent("mcp-session-id");
    let legacy = !sent("mcp-method");
    if head.status == 401 {
        let challenge = head.header("www-authenticate");
        return challenges::unauthorized(challenge, what, http.signs_in()).await;
    }
    let status_text = head.status_text();
    let e = error_for_status(head.status, &status_text, &body, what, has_session);
    if http.in_browser && legacy && !has_session && head.status == 400 {
        return e.with_suffix(" — no Mcp-Session-Id was readable after initialize: a cross-origin server must list Mcp-Session-Id in Access-Control-Expose-Headers");
    }
    e
}

/// Whether `response` is a manual redirect a browser hides (`type` "opaqueredirect"). Read as a
/// string: web-sys's `ResponseType` enum brings a table of every type into the glue.
fn is_opaque_redirect(response: &web_sys::Response) -> bool {
    Reflect::get(response, &"type".into())
        .ok()
        .and_then(|t| t.as_string())
        .is_some_and(|t| t == "opaqueredirect")
}
