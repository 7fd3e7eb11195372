//! The properties checked by every fuzz target, on one input each.
//!
//! Each `check_*` function panics when a property fails (that is what libFuzzer reports as a
//! crash); it returns normally for any input the code under test handles, including inputs it
//! rejects with an error.

use mcp_wasm_client::json::{Map, Value};
use mcp_wasm_client::protocol::jsonrpc::{decode, Message};
use mcp_wasm_client::session::mrtr;
use mcp_wasm_client::transport::sse::{SseError, SseEvent, SseParser};
use mcp_wasm_client::validate::elicitation;
use mcp_wasm_client::validate::output_schema::OutputValidator;

/// What feeding a stream produced: the events, then the error that stopped it (if any), and the
/// parser state at the end.
#[derive(Debug, PartialEq)]
pub struct SseOutcome {
    pub events: Vec<SseEvent>,
    pub error: Option<SseError>,
    pub last_event_id: Option<String>,
    pub retry_ms: Option<u64>,
    pub partial: bool,
}

/// Feeds `chunks` in order and stops at the first error.
pub fn sse_feed(max: usize, chunks: &[&[u8]]) -> SseOutcome {
    let mut p = SseParser::new(max);
    let mut events = Vec::new();
    let mut error = None;
    for c in chunks {
        match p.feed(c) {
            Ok(evs) => events.extend(evs),
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    SseOutcome {
        events,
        error,
        last_event_id: p.last_event_id().map(str::to_string),
        retry_ms: p.retry_ms(),
        partial: p.has_partial_event(),
    }
}

/// Without an error: identical outcomes. With one (the size cap): the same error; `feed` drops
/// the events it completed in the failing chunk, so the event lists may differ by where the
/// chunks end, but one is a prefix of the other. (The parser is dead after an error: the client
/// fails the stream, so its end state is not compared.)
fn same_outcome(whole: &SseOutcome, other: &SseOutcome, what: &str) {
    assert_eq!(whole.error, other.error, "{what} changed the error");
    if whole.error.is_none() {
        assert_eq!(whole, other, "{what} changed the outcome");
    } else {
        let n = whole.events.len().min(other.events.len());
        assert_eq!(
            whole.events[..n],
            other.events[..n],
            "{what} changed the events before the error"
        );
    }
}

/// Input layout: byte 0 picks the size cap (bit 0: a small cap of 64 + byte 1 bytes, else the
/// default 16 MiB); byte 2 = the number of split points n (mod 16); the next n bytes are split
/// offsets (each scaled into the stream); the rest is the stream.
///
/// Properties: any split gives the same events, the same error and the same final state as one
/// feed; byte-at-a-time too; no event ever exceeds the cap; dispatched data holds no CR.
pub fn check_sse(data: &[u8]) {
    if data.len() < 3 {
        let whole = sse_feed(1 << 24, &[data]);
        assert_eq!(
            whole,
            sse_feed(1 << 24, &data.chunks(1).collect::<Vec<_>>())
        );
        return;
    }
    let max = if data[0] & 1 == 1 {
        64 + data[1] as usize
    } else {
        mcp_wasm_client::transport::sse::DEFAULT_MAX_EVENT_BYTES
    };
    let n = (data[2] % 16) as usize;
    let rest = &data[3..];
    let (offs, stream) = rest.split_at(n.min(rest.len()));
    let mut cuts: Vec<usize> = offs
        .iter()
        .map(|o| (*o as usize * (stream.len() + 1)) / 256)
        .collect();
    cuts.sort_unstable();
    let mut chunks = Vec::new();
    let mut prev = 0;
    for c in cuts {
        chunks.push(&stream[prev..c]); // empty chunks too: feeding nothing must be harmless
        prev = c;
    }
    chunks.push(&stream[prev..]);

    let whole = sse_feed(max, &[stream]);
    let split = sse_feed(max, &chunks);
    same_outcome(&whole, &split, "split");
    if stream.len() <= 4096 {
        let bytewise: Vec<&[u8]> = stream.chunks(1).collect();
        same_outcome(&whole, &sse_feed(max, &bytewise), "byte-at-a-time feed");
    }
    for ev in &whole.events {
        assert!(
            ev.data.len() <= max,
            "event data {} bytes over the cap {max}",
            ev.data.len()
        );
        assert!(!ev.data.contains('\r'), "CR inside dispatched data");
        assert!(
            !ev.event.contains(['\r', '\n']),
            "line break inside the event type"
        );
        if let Some(id) = &ev.id {
            assert!(
                !id.contains(['\r', '\n', '\0']),
                "bad character inside an id"
            );
        }
    }
}

/// Decodes the input as a body; every decoded message re-encodes and decodes to itself.
pub fn check_jsonrpc(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(messages) = decode(&text) else {
        return;
    };
    assert!(!messages.is_empty(), "decode returned Ok with no message");
    for m in messages {
        let again = decode(&m.to_json()).expect("a decoded message re-encodes to valid JSON-RPC");
        assert_eq!(again.len(), 1);
        match (&m, &again[0]) {
            (Message::Error { id: a, .. }, Message::Error { id: b, .. }) => assert_eq!(a, b),
            (a, b) => assert_eq!(a, b, "re-encoding changed the message"),
        }
        let _ = m.response_id();
    }
}

fn json(data: &[u8]) -> Option<Value> {
    mcp_wasm_client::json::from_slice(data).ok()
}

/// Input: JSON; `[result, originalParams]` or a bare result (also used as the original params).
pub fn check_input_required(data: &[u8]) {
    let Some(v) = json(data) else { return };
    let (result, original) = match &v {
        Value::Array(a) if a.len() == 2 => (a[0].clone(), a[1].clone()),
        _ => (v.clone(), v.clone()),
    };
    for method in mrtr::MRTR_METHODS {
        let Ok(ir) = mrtr::parse(method, &result) else {
            continue;
        };
        assert!(!ir.requests.is_empty() || ir.request_state.is_some());
        let responses: Map<String, Value> = ir
            .requests
            .iter()
            .map(|r| {
                (
                    r.key.clone(),
                    mcp_wasm_client::json::json!({ "action": "cancel", "method": r.method }),
                )
            })
            .collect();
        let with = if responses.is_empty() {
            None
        } else {
            Some(responses.clone())
        };
        let p = mrtr::retry_params(&original, with.clone(), ir.request_state.as_deref());
        let obj = p.as_object().expect("retry params are an object");
        assert_eq!(
            obj.get("requestState").and_then(Value::as_str),
            ir.request_state.as_deref(),
            "requestState is echoed verbatim, and only the new one"
        );
        assert_eq!(obj.get("inputResponses"), with.map(Value::Object).as_ref());
        if let Some(orig) = original.as_object() {
            for (k, val) in orig {
                if k != "inputResponses" && k != "requestState" {
                    assert_eq!(obj.get(k), Some(val), "original param {k:?} kept");
                }
            }
        }
        // A retry built from a retry is the same retry (idempotent).
        let p2 = mrtr::retry_params(
            &p,
            Some(responses).filter(|r| !r.is_empty()),
            ir.request_state.as_deref(),
        );
        assert_eq!(p, p2);
    }
    for n in 0..4 {
        assert!(mrtr::backoff_ms(n) <= 250);
    }
}

fn dummy_matcher(pattern: &str, text: &str) -> Option<bool> {
    if pattern.len() > 64 {
        None
    } else {
        Some(text.contains(pattern))
    }
}

/// Input: JSON; `[schema, content]` or a bare value used as both.
pub fn check_elicitation_schema(data: &[u8]) {
    let Some(v) = json(data) else { return };
    let (schema, content) = match &v {
        Value::Array(a) if a.len() == 2 => (a[0].clone(), a[1].clone()),
        _ => (v.clone(), v.clone()),
    };
    // Elicitation forms.
    if let Ok(model) = elicitation::form_model(&schema) {
        assert!(model.get("fields").is_some_and(Value::is_array));
    }
    let content_map = match &content {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    let coerced = elicitation::coerce_form(&schema, &content_map);
    for k in coerced.keys() {
        assert!(
            content_map.contains_key(k),
            "coerce_form invented field {k:?}"
        );
    }
    let mut filled = coerced.clone();
    elicitation::apply_defaults(&schema, &mut filled);
    let errors = elicitation::validate(&schema, &filled);
    let _ = errors.iter().map(|e| format!("{e:?}")).count();
    let _ = elicitation::validate(&schema, &content_map);
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for prop in props.values() {
            let _ = elicitation::field_kind(prop);
            let _ = elicitation::field_options(prop);
            if let (Some(f), Some(s)) =
                (prop.get("format").and_then(Value::as_str), content.as_str())
            {
                let _ = elicitation::format_ok(f, s);
            }
        }
    }
    // Output schemas.
    if let Ok(validator) = OutputValidator::compile(&schema) {
        if let Err(errs) = validator.validate(&content) {
            assert!(!errs.is_empty(), "Err with no message");
            assert!(
                errs.len() <= 21,
                "{} errors: the list is capped",
                errs.len()
            );
        }
        let _ = validator.validate(&schema);
    }
    if let Ok(validator) = OutputValidator::compile_with(&schema, Some(dummy_matcher)) {
        let _ = validator.validate(&content);
    }
}
