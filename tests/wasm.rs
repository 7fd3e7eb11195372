//! The wasm suite: the wasm `Client` against the live peers (tests/peers, tests/hostile), one set
//! of `#[wasm_bindgen_test]` functions run in two hosts by scripts/test.sh:
//!
//!   wasm-pack test --node -- --test wasm                                   (Node)
//!   WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome -- --test wasm   (Chromium)
//!
//! There is deliberately no `wasm_bindgen_test_configure!(run_in_browser)`: it would pin the file
//! to the browser. wasm-bindgen-test-runner reads WASM_BINDGEN_USE_BROWSER instead, and
//! `runs_in_the_requested_host` checks the runner really honoured it.
//! Peer ports come from the same `PEERS_*_PORT` (and `HOSTILE_PORT`) variables as
//! tests/peers/peers.sh, read at compile time.
#![cfg(target_arch = "wasm32")]

use js_sys::{Object, Reflect};
use mcp_wasm_client::js::Client;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

fn port(var: Option<&'static str>, default: u16) -> u16 {
    var.and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// URL of the Python SDK v2 peer (both eras).
fn python() -> String {
    format!(
        "http://127.0.0.1:{}/mcp",
        port(option_env!("PEERS_PYTHON_PORT"), 18101)
    )
}
/// URL of the TypeScript SDK peer (legacy).
fn typescript() -> String {
    format!(
        "http://127.0.0.1:{}/mcp",
        port(option_env!("PEERS_TS_PORT"), 18102)
    )
}
/// URL of server-everything (legacy).
fn everything() -> String {
    format!(
        "http://127.0.0.1:{}/mcp",
        port(option_env!("PEERS_EVERYTHING_PORT"), 18103)
    )
}
/// URL of the deprecated HTTP+SSE peer.
fn python_sse() -> String {
    format!(
        "http://127.0.0.1:{}/sse",
        port(option_env!("PEERS_PYTHON_SSE_PORT"), 18105)
    )
}

/// URL of one fault of the hostile-server suite (tests/hostile/server.mjs).
fn hostile(name: &str) -> String {
    format!(
        "http://127.0.0.1:{}/{name}/mcp",
        port(option_env!("HOSTILE_PORT"), 18801)
    )
}

/// URL of one fault of the misbehaving server.
fn fault(name: &str) -> String {
    format!(
        "http://127.0.0.1:{}/{name}/mcp",
        port(option_env!("PEERS_MISBEHAVE_PORT"), 18104)
    )
}

/// An options object from key/value pairs.
fn opts(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &(*k).into(), v).unwrap();
    }
    o.into()
}

/// Reads a property.
fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

/// Constructs a client: the ONLY place the suite calls `Client::new`, so a change of the
/// constructor's signature is one line here. `options` may be `undefined` (no options).
fn new_client(url: &str, options: JsValue) -> Result<Client, JsValue> {
    Client::new(JsValue::from_str(url), Some(options), None)
}

/// Connects a client in `mode`.
async fn connect(url: &str, mode: &str) -> Client {
    connect_with(url, opts(&[("mode", mode.into())])).await
}

/// Connects a client with these options.
async fn connect_with(url: &str, options: JsValue) -> Client {
    let c = new_client(url, options).expect("constructor");
    JsFuture::from(c.connect(JsValue::UNDEFINED))
        .await
        .expect("connect");
    c
}

/// A JS function from source (test callbacks).
fn js_fn(args: &str, body: &str) -> JsValue {
    js_sys::Function::new_with_args(args, body).into()
}

/// Calls a tool and returns the text of its first content block.
async fn call_text(c: &Client, tool: &str, args: JsValue) -> String {
    let r = JsFuture::from(c.call_tool(tool.into(), args, JsValue::UNDEFINED))
        .await
        .expect("callTool");
    let first = js_sys::Array::from(&get(&r, "content")).get(0);
    get(&first, "text").as_string().unwrap()
}

/// Calls `echo` and returns its text.
async fn echo(c: &Client, text: &str) -> String {
    let args = opts(&[("text", text.into())]);
    let r = JsFuture::from(c.call_tool("echo".into(), args, JsValue::UNDEFINED))
        .await
        .expect("callTool");
    let first = js_sys::Array::from(&get(&r, "content")).get(0);
    get(&first, "text").as_string().unwrap()
}

/// Asserts the promise rejects with an `McpError` of `code`; returns its message.
async fn rejects_with(p: js_sys::Promise, code: f64) -> String {
    let err = JsFuture::from(p).await.expect_err("expected a rejection");
    assert!(
        err.is_instance_of::<js_sys::Error>(),
        "rejection is an Error"
    );
    let proto_ok = err.clone().dyn_into::<Object>().is_ok();
    assert!(proto_ok);
    assert_eq!(get(&err, "name").as_string().as_deref(), Some("McpError"));
    let message = get(&err, "message").as_string().unwrap();
    assert_eq!(get(&err, "code").as_f64(), Some(code), "{message}");
    message
}

#[wasm_bindgen_test]
async fn auto_mode_is_modern_on_the_python_peer() {
    let c = connect(&python(), "auto").await;
    assert_eq!(
        c.protocol_version().as_string().as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(c.era().as_string().as_deref(), Some("modern"));
    assert_eq!(echo(&c, "wasm ✓").await, "wasm ✓");
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn auto_mode_is_legacy_on_the_typescript_peer() {
    let c = connect(&typescript(), "auto").await;
    assert_eq!(
        c.protocol_version().as_string().as_deref(),
        Some("2025-11-25")
    );
    assert!(c.session_id().is_string(), "Mcp-Session-Id readable");
    assert_eq!(echo(&c, "ts").await, "ts");
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn auto_mode_is_legacy_on_server_everything() {
    let c = connect(&everything(), "auto").await;
    assert_eq!(
        c.protocol_version().as_string().as_deref(),
        Some("2025-11-25")
    );
    let tools = JsFuture::from(c.list_tools(JsValue::UNDEFINED))
        .await
        .unwrap();
    assert!(js_sys::Array::from(&get(&tools, "tools")).length() > 3);
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn legacy_mode_on_the_python_peer() {
    let c = connect(&python(), "legacy").await;
    assert_eq!(c.era().as_string().as_deref(), Some("legacy"));
    assert_eq!(echo(&c, "legacy").await, "legacy");
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn structured_output_and_tool_errors() {
    let c = connect(&python(), "auto").await;
    let args = opts(&[("a", 2.into()), ("b", 40.into())]);
    let r = JsFuture::from(c.call_tool("add".into(), args, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(
        get(&get(&r, "structuredContent"), "sum").as_f64(),
        Some(42.0)
    );
    let args = opts(&[("message", "kaput".into())]);
    let r = JsFuture::from(c.call_tool("fail".into(), args, JsValue::UNDEFINED))
        .await
        .unwrap();
    assert_eq!(get(&r, "isError").as_bool(), Some(true));
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn malformed_json_is_a_parse_error() {
    let c = connect(&fault("malformed-json"), "legacy").await;
    let msg = rejects_with(
        c.call_tool("echo".into(), opts(&[]), JsValue::UNDEFINED),
        -32700.0,
    )
    .await;
    assert!(msg.contains("malformed JSON"), "{msg}");
}

#[wasm_bindgen_test]
async fn a_cut_sse_stream_is_an_error_not_a_hang() {
    let c = connect(&fault("sse-cut"), "legacy").await;
    let msg = rejects_with(
        c.call_tool("echo".into(), opts(&[]), JsValue::UNDEFINED),
        -32000.0,
    )
    .await;
    assert!(msg.contains("SSE stream"), "{msg}");
}

/// A response stream whose end never comes (the server keeps it open; some engines do not
/// signal an end that came): each call settles on its response event, well inside timeoutMs.
#[wasm_bindgen_test]
async fn a_response_stream_that_never_ends_still_settles() {
    let c = connect(&fault("sse-never-ends"), "legacy").await;
    for _ in 0..2 {
        let o = opts(&[("timeoutMs", 3000.into())]);
        let r = JsFuture::from(c.call_tool("echo".into(), opts(&[]), o))
            .await
            .expect("the call settles on its response event");
        assert!(js_sys::JSON::stringify(&r)
            .unwrap()
            .as_string()
            .unwrap()
            .contains("ok"));
    }
}

#[wasm_bindgen_test]
async fn a_hanging_server_times_out() {
    let c = connect(&fault("hang"), "legacy").await;
    let o = opts(&[("timeoutMs", 200.into())]);
    let msg = rejects_with(c.call_tool("echo".into(), opts(&[]), o), -32001.0).await;
    assert!(msg.contains("200 ms"), "{msg}");
}

#[wasm_bindgen_test]
async fn a_refused_connection_is_an_mcp_error() {
    let c = new_client("http://127.0.0.1:18199/mcp", JsValue::UNDEFINED).unwrap();
    let msg = rejects_with(c.connect(JsValue::UNDEFINED), -32000.0).await;
    assert!(
        msg.contains("Could not reach http://127.0.0.1:18199/mcp"),
        "{msg}"
    );
}

#[wasm_bindgen_test]
async fn elicitation_callback_on_both_eras() {
    for (url, mode, era) in [
        (python(), "auto", "modern"),
        (python(), "legacy", "legacy"),
        (typescript(), "auto", "legacy"),
    ] {
        let cb = js_fn(
            "ctx, params",
            "return Promise.resolve({ action: 'accept', content: { name: 'Ada Lovelace' } })",
        );
        let c = connect_with(
            &url,
            opts(&[("mode", mode.into()), ("elicitationCallback", cb)]),
        )
        .await;
        assert_eq!(c.era().as_string().as_deref(), Some(era));
        assert_eq!(
            call_text(&c, "issue_card", opts(&[])).await,
            "Card issued to Ada Lovelace."
        );
        JsFuture::from(c.close()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn registered_callbacks_are_the_declared_capabilities() {
    for mode in ["auto", "legacy"] {
        let e = js_fn("", "return { action: 'decline' }");
        let s = js_fn(
            "",
            "return { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }",
        );
        let r = js_fn("", "return { roots: [] }");
        let c = connect_with(
            &python(),
            opts(&[
                ("mode", mode.into()),
                ("elicitationCallback", e),
                ("samplingCallback", s),
                ("listRootsCallback", r),
            ]),
        )
        .await;
        let result =
            JsFuture::from(c.call_tool("client_features".into(), opts(&[]), JsValue::UNDEFINED))
                .await
                .unwrap();
        let list = js_sys::Array::from(&get(&get(&result, "structuredContent"), "result"));
        let mut names: Vec<String> = list.iter().filter_map(|v| v.as_string()).collect();
        names.sort();
        assert_eq!(names, ["elicitation", "roots", "sampling"], "mode {mode}");
        JsFuture::from(c.close()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn sampling_and_roots_callbacks_on_both_eras() {
    for (url, mode) in [
        (python(), "auto"),
        (python(), "legacy"),
        (everything(), "auto"),
    ] {
        let s = js_fn("ctx, p", "return { role: 'assistant', content: { type: 'text', text: 'sampled in wasm' }, model: 'wasm-llm' }");
        let r = js_fn("ctx", "return Promise.resolve({ roots: [{ uri: 'file:///home/ada/notebooks', name: 'notebooks' }] })");
        let c = connect_with(
            &url,
            opts(&[
                ("mode", mode.into()),
                ("samplingCallback", s),
                ("listRootsCallback", r),
            ]),
        )
        .await;
        let (sample_tool, sample_args, roots_tool) = if url == everything() {
            (
                "trigger-sampling-request",
                opts(&[("prompt", "hi".into()), ("maxTokens", 5.into())]),
                "get-roots-list",
            )
        } else {
            ("ask_llm", opts(&[("topic", "owls".into())]), "list_roots")
        };
        let sampled = call_text(&c, sample_tool, sample_args).await;
        assert!(sampled.contains("sampled in wasm"), "{mode}: {sampled}");
        let roots = call_text(&c, roots_tool, opts(&[])).await;
        assert!(
            roots.contains("file:///home/ada/notebooks"),
            "{mode}: {roots}"
        );
        JsFuture::from(c.close()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn three_input_required_rounds() {
    let e = js_fn("", "return { action: 'accept', content: { name: 'Ada' } }");
    let r = js_fn(
        "",
        "return { roots: [{ uri: 'file:///home/ada', name: 'home' }] }",
    );
    let c = connect_with(
        &fault("mrtr-3"),
        opts(&[
            ("mode", "2026-07-28".into()),
            ("elicitationCallback", e),
            ("listRootsCallback", r),
        ]),
    )
    .await;
    let text = call_text(&c, "x", opts(&[])).await;
    assert!(
        text.contains("\"tries\":3") && text.contains("file:///home/ada"),
        "{text}"
    );
}

#[wasm_bindgen_test]
async fn listen_delivers_list_changed_on_2026() {
    let c = connect(&python(), "auto").await;
    let sub = JsFuture::from(c.listen(
        opts(&[("toolsListChanged", true.into())]),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(
        get(&get(&sub, "honoured"), "toolsListChanged").as_bool(),
        Some(true)
    );
    call_text(&c, "poke", opts(&[("kind", "tools".into())])).await;
    let next: js_sys::Function = get(&sub, "next").dyn_into().unwrap();
    let item = JsFuture::from(js_sys::Promise::from(next.call0(&sub).unwrap()))
        .await
        .unwrap();
    assert_eq!(
        get(&get(&item, "value"), "method").as_string().as_deref(),
        Some("notifications/tools/list_changed")
    );
    let close: js_sys::Function = get(&sub, "close").dyn_into().unwrap();
    JsFuture::from(js_sys::Promise::from(close.call0(&sub).unwrap()))
        .await
        .unwrap();
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn a_dropped_legacy_stream_is_resumed() {
    let c = connect(&fault("resume-with-ids"), "legacy").await;
    assert_eq!(echo(&c, "x").await, "resumed");
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn an_expired_session_is_renewed() {
    let c = connect(&fault("expire-after-one-call"), "legacy").await;
    let first = c.session_id().as_string();
    assert!(echo(&c, "1").await.starts_with("ok on session"));
    assert!(echo(&c, "2").await.starts_with("ok on session"));
    assert_ne!(c.session_id().as_string(), first);
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn the_deprecated_http_sse_transport() {
    let c = connect(&python_sse(), "auto").await;
    assert_eq!(c.transport().as_string().as_deref(), Some("http+sse"));
    assert_eq!(echo(&c, "old transport").await, "old transport");
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
async fn hostile_servers_give_clear_errors_and_the_client_stays_usable() {
    for (fault, code, needle) in [
        ("truncated-json", -32700.0, "malformed JSON"),
        ("ct-html", -32600.0, "Unexpected content type"),
        ("deep-result-json", -32700.0, "recursion limit"),
        ("modern-unknown-resulttype", -32600.0, "resultType"),
    ] {
        let mode = if fault.starts_with("modern") {
            "2026-07-28"
        } else {
            "legacy"
        };
        let c = connect(&hostile(fault), mode).await;
        let msg = rejects_with(
            c.call_tool("hostile".into(), opts(&[]), JsValue::UNDEFINED),
            code,
        )
        .await;
        assert!(msg.contains(needle), "{fault}: {msg}");
        let again = rejects_with(
            c.call_tool("hostile".into(), opts(&[]), JsValue::UNDEFINED),
            code,
        )
        .await;
        assert!(again.contains(needle), "{fault} (second call): {again}");
        JsFuture::from(c.close()).await.unwrap();
    }
}

#[wasm_bindgen_test]
async fn a_thousand_server_pings_are_all_answered() {
    let c = connect(&hostile("ping-flood"), "legacy").await;
    let r = JsFuture::from(c.call_tool("hostile".into(), opts(&[]), JsValue::UNDEFINED)).await;
    assert!(r.is_ok(), "{r:?}");
    JsFuture::from(c.close()).await.unwrap();
}

#[wasm_bindgen_test]
fn mcp_error_is_an_error() {
    let e = mcp_wasm_client::js::McpError::new((-1.0).into(), "boom".into(), Some(JsValue::NULL));
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(get(&e, "message").as_string().as_deref(), Some("boom"));
}

/// The host probe: WASM_BINDGEN_USE_BROWSER (seen at compile time too, since wasm-pack passes the
/// environment to both cargo and the runner) must put the suite in a browser, its absence in Node.
/// Without this, a runner that ignored the variable would silently run the "browser" pass in Node.
#[wasm_bindgen_test]
fn runs_in_the_requested_host() {
    let global = js_sys::global();
    let has = |name: &str| Reflect::has(&global, &name.into()).unwrap();
    if option_env!("WASM_BINDGEN_USE_BROWSER").is_some() {
        assert!(has("window") && has("document"), "expected a browser page");
    } else {
        assert!(!has("window"), "expected Node, found a window");
        let versions = get(&get(&global.into(), "process"), "versions");
        assert!(get(&versions, "node").is_string(), "expected Node");
    }
}
