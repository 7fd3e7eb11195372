//! Incremental Server-Sent Events parser (WHATWG event-stream rules).
//!
//! Feed it chunks split anywhere (inside a UTF-8 sequence, between CR and LF, inside the BOM);
//! it returns every event completed so far. Lines end in CRLF, LF or CR; `data:` lines join
//! with `\n`; comments (`:`) are skipped; `id:` and `retry:` persist across events.

/// Default cap on one event (or one line) in bytes.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The event type; `message` when the stream named none.
    pub event: String,
    /// The data lines joined with `\n`.
    pub data: String,
    /// The last event id in force when the event was dispatched.
    pub id: Option<String>,
}

/// Errors of the parser: only the size cap.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    /// An event grew beyond the configured cap.
    #[error("SSE event larger than {limit} bytes")]
    EventTooLarge {
        /// The cap in bytes.
        limit: usize,
    },
}

/// The parser state.
#[derive(Debug)]
pub struct SseParser {
    line: Vec<u8>,
    after_cr: bool,
    at_stream_start: bool,
    data: String,
    has_data: bool,
    event: String,
    last_event_id: Option<String>,
    retry_ms: Option<u64>,
    max_event_bytes: usize,
}

impl Default for SseParser {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_EVENT_BYTES)
    }
}

impl SseParser {
    /// A parser that refuses events larger than `max_event_bytes`.
    pub fn new(max_event_bytes: usize) -> Self {
        SseParser {
            line: Vec::new(),
            after_cr: false,
            at_stream_start: true,
            data: String::new(),
            has_data: false,
            event: String::new(),
            last_event_id: None,
            retry_ms: None,
            max_event_bytes,
        }
    }

    /// The last `id:` seen (for `Last-Event-ID` on resumption).
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The last valid `retry:` value in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    /// True when the stream stopped inside an event (data or a line not yet dispatched).
    pub fn has_partial_event(&self) -> bool {
        self.has_data || !self.line.is_empty() || !self.event.is_empty()
    }

    /// Feeds one chunk; returns the events it completed.
    pub fn feed(&mut self, mut chunk: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        while !chunk.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if chunk[0] == b'\n' {
                    chunk = &chunk[1..];
                    continue;
                }
            }
            match line_end(chunk) {
                // A whole line inside the chunk: read where it is, not copied first.
                Some(pos) if self.line.is_empty() => {
                    self.check_size(pos)?;
                    self.after_cr = chunk[pos] == b'\r';
                    if let Some(ev) = self.process_line(&chunk[..pos])? {
                        out.push(ev);
                    }
                    chunk = &chunk[pos + 1..];
                }
                Some(pos) => {
                    self.push_line_bytes(&chunk[..pos])?;
                    self.after_cr = chunk[pos] == b'\r';
                    chunk = &chunk[pos + 1..];
                    let line = std::mem::take(&mut self.line);
                    if let Some(ev) = self.process_line(&line)? {
                        out.push(ev);
                    }
                    self.line = line;
                    self.line.clear();
                }
                None => {
                    self.push_line_bytes(chunk)?;
                    chunk = &[];
                }
            }
        }
        Ok(out)
    }

    /// Refuses a line of `more` bytes (after what is held) that would pass the cap.
    fn check_size(&self, more: usize) -> Result<(), SseError> {
        if self.line.len() + more + self.data.len() > self.max_event_bytes {
            return Err(SseError::EventTooLarge {
                limit: self.max_event_bytes,
            });
        }
        Ok(())
    }

    fn push_line_bytes(&mut self, bytes: &[u8]) -> Result<(), SseError> {
        self.check_size(bytes.len())?;
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    /// One line's field. The line is read as bytes: its field name is ASCII, and the first `:`
    /// splits it as it would split the line's text (a replaced malformed sequence never holds a
    /// `:`, and no sequence spans one), so each value is made text on its own.
    fn process_line(&mut self, raw: &[u8]) -> Result<Option<SseEvent>, SseError> {
        let mut raw = raw;
        if self.at_stream_start {
            self.at_stream_start = false;
            if let Some(rest) = raw.strip_prefix(b"\xEF\xBB\xBF") {
                raw = rest;
            }
        }
        if raw.is_empty() {
            return Ok(self.dispatch());
        }
        if raw[0] == b':' {
            return Ok(None);
        }
        let (field, value) = match raw.iter().position(|b| *b == b':') {
            Some(i) => {
                let v = &raw[i + 1..];
                (&raw[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (raw, &[][..]),
        };
        match field {
            b"event" => self.event = String::from_utf8_lossy(value).into_owned(),
            b"data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                // Valid UTF-8 (the usual case) is checked a word at a time; `from_utf8_lossy`
                // walks every byte of a 1 MiB line.
                match std::str::from_utf8(value) {
                    Ok(text) => self.data.push_str(text),
                    Err(_) => self.data.push_str(&String::from_utf8_lossy(value)),
                }
                self.has_data = true;
                if self.data.len() > self.max_event_bytes {
                    return Err(SseError::EventTooLarge {
                        limit: self.max_event_bytes,
                    });
                }
            }
            b"id" if !value.contains(&0) => {
                self.last_event_id = Some(String::from_utf8_lossy(value).into_owned())
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                self.retry_ms = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok());
            }
            _ => {}
        }
        Ok(None)
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        if !self.has_data {
            return None;
        }
        self.has_data = false;
        Some(SseEvent {
            event: if event.is_empty() {
                "message".to_string()
            } else {
                event
            },
            data: std::mem::take(&mut self.data),
            id: self.last_event_id.clone(),
        })
    }
}

/// Where the first `\n` or `\r` of `bytes` is (memchr: a word at a time, so a long `data:` line,
/// such as a 1 MiB tool result, is not scanned byte by byte).
fn line_end(bytes: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut p = SseParser::default();
        chunks.iter().flat_map(|c| p.feed(c).unwrap()).collect()
    }

    fn ev(event: &str, data: &str, id: Option<&str>) -> SseEvent {
        SseEvent {
            event: event.into(),
            data: data.into(),
            id: id.map(Into::into),
        }
    }

    #[test]
    fn basic_event_with_type_and_id() {
        let got = parse_all(&[b"event: message\nid: 7\ndata: {\"a\":1}\n\n"]);
        assert_eq!(got, vec![ev("message", "{\"a\":1}", Some("7"))]);
    }

    #[test]
    fn multi_line_data_joins_with_newline() {
        assert_eq!(
            parse_all(&[b"data: a\ndata: b\ndata\n\n"]),
            vec![ev("message", "a\nb\n", None)]
        );
    }

    #[test]
    fn crlf_lf_and_cr_line_endings() {
        let expected = vec![ev("message", "x", None), ev("message", "y", None)];
        assert_eq!(parse_all(&[b"data: x\r\n\r\ndata: y\r\n\r\n"]), expected);
        assert_eq!(parse_all(&[b"data: x\r\rdata: y\r\r"]), expected);
        assert_eq!(parse_all(&[b"data: x\n\ndata: y\n\n"]), expected);
    }

    #[test]
    fn cr_and_lf_split_across_chunks_is_one_line_end() {
        assert_eq!(
            parse_all(&[b"data: x\r", b"\n\r", b"\n"]),
            vec![ev("message", "x", None)]
        );
    }

    #[test]
    fn bom_is_stripped_even_when_split() {
        assert_eq!(
            parse_all(&[b"\xEF\xBB", b"\xBFdata: x\n\n"]),
            vec![ev("message", "x", None)]
        );
        // A BOM later in the stream is data, not stripped.
        let got = parse_all(&[b"data: a\n\n\xEF\xBB\xBFdata: b\n\n"]);
        assert_eq!(got.len(), 1);
    }

    #[test]
    fn comments_are_ignored_and_empty_data_dispatches_empty() {
        assert_eq!(parse_all(&[b": keep-alive\n\n"]), vec![]);
        assert_eq!(
            parse_all(&[b"id: 1\ndata:\n\n"]),
            vec![ev("message", "", Some("1"))]
        );
    }

    #[test]
    fn priming_event_without_data_records_id_only() {
        let mut p = SseParser::default();
        assert!(p.feed(b"id: prime-1\nretry: 1500\n\n").unwrap().is_empty());
        assert_eq!(p.last_event_id(), Some("prime-1"));
        assert_eq!(p.retry_ms(), Some(1500));
        assert_eq!(
            p.feed(b"data: z\n\n").unwrap(),
            vec![ev("message", "z", Some("prime-1"))]
        );
    }

    #[test]
    fn invalid_retry_and_nul_ids_are_ignored() {
        let mut p = SseParser::default();
        p.feed(b"retry: 12a\nid: a\0b\ndata: q\n\n").unwrap();
        assert_eq!(p.retry_ms(), None);
        assert_eq!(p.last_event_id(), None);
    }

    #[test]
    fn field_without_colon_and_value_without_space() {
        assert_eq!(
            parse_all(&[b"event:ping\ndata:x\n\n"]),
            vec![ev("ping", "x", None)]
        );
        assert_eq!(parse_all(&[b"data\n\n"]), vec![ev("message", "", None)]);
    }

    #[test]
    fn utf8_split_inside_a_character() {
        let s = "data: h\u{e9}llo \u{1F600}\n\n".as_bytes();
        for cut in 0..s.len() {
            assert_eq!(
                parse_all(&[&s[..cut], &s[cut..]]),
                vec![ev("message", "h\u{e9}llo \u{1F600}", None)],
                "cut {cut}"
            );
        }
    }

    #[test]
    fn every_byte_split_gives_the_same_events() {
        let stream = b"\xEF\xBB\xBFevent: message\r\nid: 1\r\ndata: {\"x\":\r\ndata: 2}\r\n\r\n: c\rdata: b\r\r";
        let whole = parse_all(&[stream]);
        assert_eq!(whole.len(), 2);
        let singles: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(parse_all(&singles), whole);
    }

    #[test]
    fn partial_event_is_reported_and_not_dispatched() {
        let mut p = SseParser::default();
        assert!(p
            .feed(b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"res")
            .unwrap()
            .is_empty());
        assert!(p.has_partial_event());
        let mut q = SseParser::default();
        q.feed(b"data: x\n\n").unwrap();
        assert!(!q.has_partial_event());
    }

    #[test]
    fn line_ends_are_found_in_every_position_of_a_word() {
        for len in 0..40 {
            for at in 0..len {
                for end in [b'\n', b'\r'] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = end;
                    if at + 1 < len {
                        bytes[at + 1] = b'\n';
                    }
                    assert_eq!(line_end(&bytes), Some(at), "{len} bytes, at {at}");
                }
            }
            assert_eq!(line_end(&vec![0x8a; len]), None, "{len} bytes without one");
        }
    }

    #[test]
    fn oversized_events_are_refused() {
        let mut p = SseParser::new(16);
        assert_eq!(
            p.feed(b"data: 0123456789abcdefXYZ"),
            Err(SseError::EventTooLarge { limit: 16 })
        );
        let mut p = SseParser::new(16);
        let e = p.feed(b"data: 0123456789\ndata: 0123456789\n");
        assert!(e.is_err());
    }
}
