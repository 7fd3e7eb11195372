//! Reading a response body as a stream of JSON-RPC messages: SSE parsed incrementally, or one
//! JSON text; shared by both HTTP transports.

use crate::js::http::fetch::{body_reader, Head};
use crate::json::json;
use crate::protocol::error::{ErrorKind, McpError, INVALID_REQUEST};
use crate::protocol::jsonrpc::{decode, Message};
use crate::transport::http::stream_ended;
use crate::transport::sse::{SseError, SseParser};

/// Reads an SSE body, handing each message to `on_message` until it returns true; a stream
/// that ends or breaks before that is an error saying how it ended. `parser` keeps the last
/// event id and `retry:` for resuming.
pub async fn read_sse_messages(
    head: &Head,
    what: &str,
    parser: &mut SseParser,
    on_message: &mut dyn FnMut(Message) -> bool,
) -> Result<(), McpError> {
    let mut body = body_reader(head);
    while let Some(chunk) = body.next(what).await {
        let chunk =
            chunk.map_err(|e| stream_ended(what, parser.has_partial_event(), Some(&e.message)))?;
        let events = parser.feed(&chunk).map_err(|e| event_too_large(&e, what))?;
        for ev in events {
            if ev.data.trim().is_empty() {
                continue;
            }
            for m in decode(&ev.data)? {
                if on_message(m) {
                    return Ok(());
                }
            }
        }
    }
    Err(stream_ended(what, parser.has_partial_event(), None))
}

/// The refusal of an SSE event over the cap (`data.maxMessageBytes`), naming the stream and
/// never quoting the event.
pub fn event_too_large(e: &SseError, what: &str) -> McpError {
    let SseError::EventTooLarge { limit } = e;
    McpError::local(
        INVALID_REQUEST,
        ErrorKind::Protocol,
        format!("{e} in the response stream for {what}; refused (maxMessageBytes)"),
        json!({ "maxMessageBytes": limit }),
    )
}

/// Whether `e` is [`event_too_large`]'s refusal (a message over `maxMessageBytes`).
pub fn is_too_large(e: &McpError) -> bool {
    e.data_json()
        .is_some_and(|d| d.get("maxMessageBytes").is_some())
}
