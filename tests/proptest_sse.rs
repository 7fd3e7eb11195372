//! Property tests of the incremental SSE parser (`transport::sse`): for any valid event stream
//! (events with `event`/`id`/`retry`, multi-line data, comments, unknown fields, CR/LF/CRLF line
//! ends mixed freely, an optional BOM) and any split into chunks, the parser yields
//!   1. the events the generator meant,
//!   2. the same events as a simple whole-stream reference parser (WHATWG rules), and
//!   3. the same events and final state as feeding the stream in one piece.
#![cfg(not(target_arch = "wasm32"))]

use mcp_wasm_client::transport::sse::{SseEvent, SseParser};
use proptest::prelude::*;
use proptest::sample::Index;

/// A field value: no CR or LF; multi-byte characters so splits fall inside UTF-8 sequences.
fn value() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            6 => proptest::char::range('a', 'z'),
            1 => Just(' '),
            1 => Just(':'),
            1 => Just('é'),
            1 => Just('€'),
            1 => Just('😀'),
            1 => Just('\u{FEFF}'),
            1 => Just('{'),
            1 => Just('"'),
            1 => Just('\t'),
        ],
        0..12,
    )
    .prop_map(|v| v.into_iter().collect())
}

#[derive(Debug, Clone)]
enum Line {
    Event(String),
    Data(String),
    Id(String),
    Retry(String),
    Comment(String),
    Unknown(String),
}

#[derive(Debug, Clone)]
struct GenEvent {
    lines: Vec<Line>,
    /// `field:value` without the optional space, where that does not change the value.
    no_space: bool,
}

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        1 => value().prop_map(Line::Event),
        4 => value().prop_map(Line::Data),
        1 => value().prop_map(|v| Line::Id(v.replace('\0', ""))),
        1 => prop_oneof![
            (0u32..100_000).prop_map(|n| n.to_string()),
            Just("12a".to_string()),
            Just(String::new()),
            Just(" 5".to_string()),
        ].prop_map(Line::Retry),
        1 => value().prop_map(Line::Comment),
        1 => value().prop_map(Line::Unknown),
    ]
}

fn event() -> impl Strategy<Value = GenEvent> {
    (proptest::collection::vec(line(), 0..6), any::<bool>())
        .prop_map(|(lines, no_space)| GenEvent { lines, no_space })
}

#[derive(Debug, Clone, Copy)]
enum Ending {
    Lf,
    Cr,
    CrLf,
}

fn ending() -> impl Strategy<Value = Ending> {
    prop_oneof![Just(Ending::Lf), Just(Ending::Cr), Just(Ending::CrLf)]
}

/// A generated stream: bytes plus what it means.
#[derive(Debug, Clone)]
struct Stream {
    bytes: Vec<u8>,
    expected: Vec<SseEvent>,
    retry: Option<u64>,
    last_id: Option<String>,
}

fn stream() -> impl Strategy<Value = Stream> {
    (
        any::<bool>(),
        proptest::collection::vec(event(), 0..8),
        proptest::collection::vec(ending(), 64),
        proptest::option::of(value()),
    )
        .prop_map(|(bom, events, endings, trailing)| build(bom, &events, &endings, trailing))
}

fn build(bom: bool, events: &[GenEvent], endings: &[Ending], trailing: Option<String>) -> Stream {
    let mut bytes = Vec::new();
    if bom {
        bytes.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let mut k = 0;
    let mut prev_cr = false;
    let mut push_line = |bytes: &mut Vec<u8>, text: &str| {
        bytes.extend_from_slice(text.as_bytes());
        let mut e = endings[k % endings.len()];
        k += 1;
        // CR then an LF-ended empty line would be one CRLF: end that empty line with CRLF.
        if prev_cr && text.is_empty() && matches!(e, Ending::Lf) {
            e = Ending::CrLf;
        }
        bytes.extend_from_slice(match e {
            Ending::Lf => b"\n",
            Ending::Cr => b"\r",
            Ending::CrLf => b"\r\n",
        });
        prev_cr = matches!(e, Ending::Cr);
    };
    let mut expected = Vec::new();
    let mut last_id: Option<String> = None;
    let mut retry = None;
    for ev in events {
        let mut data: Option<String> = None;
        let mut kind = String::new();
        for l in &ev.lines {
            let field = |name: &str, v: &str| {
                if ev.no_space && !v.starts_with(' ') {
                    format!("{name}:{v}")
                } else {
                    format!("{name}: {v}")
                }
            };
            let text = match l {
                Line::Event(v) => {
                    kind = v.clone();
                    field("event", v)
                }
                Line::Data(v) => {
                    data = Some(match data {
                        Some(d) => format!("{d}\n{v}"),
                        None => v.clone(),
                    });
                    field("data", v)
                }
                Line::Id(v) => {
                    last_id = Some(v.clone());
                    field("id", v)
                }
                Line::Retry(v) => {
                    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
                        retry = v.parse().ok();
                    }
                    field("retry", v)
                }
                Line::Comment(v) => format!(":{v}"),
                Line::Unknown(v) => field("x-unknown", v),
            };
            push_line(&mut bytes, &text);
        }
        push_line(&mut bytes, "");
        if let Some(data) = data {
            expected.push(SseEvent {
                event: if kind.is_empty() {
                    "message".into()
                } else {
                    kind
                },
                data,
                id: last_id.clone(),
            });
        }
    }
    if let Some(t) = trailing {
        // An event cut off by the end of the stream: never dispatched.
        bytes.extend_from_slice(format!("data: {t}").as_bytes());
    }
    Stream {
        bytes,
        expected,
        retry,
        last_id,
    }
}

/// The reference: the whole stream at once, split into lines, each processed by the spec text.
fn reference(bytes: &[u8]) -> (Vec<SseEvent>, Option<String>, Option<u64>) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut lines: Vec<&[u8]> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' => {
                lines.push(&bytes[start..i]);
                i += if bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            b'\n' => {
                lines.push(&bytes[start..i]);
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    // bytes[start..] is an unterminated line: ignored.
    let (mut events, mut data, mut kind, mut id, mut retry) = (
        Vec::new(),
        String::new(),
        String::new(),
        None::<String>,
        None,
    );
    let mut has_data = false;
    for l in lines {
        let l = String::from_utf8_lossy(l);
        if l.is_empty() {
            if has_data {
                events.push(SseEvent {
                    event: if kind.is_empty() {
                        "message".into()
                    } else {
                        kind.clone()
                    },
                    data: std::mem::take(&mut data),
                    id: id.clone(),
                });
            }
            has_data = false;
            data.clear();
            kind.clear();
            continue;
        }
        if l.starts_with(':') {
            continue;
        }
        let (f, v) = match l.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (&l[..], ""),
        };
        match f {
            "event" => kind = v.to_string(),
            "data" => {
                if has_data {
                    data.push('\n');
                }
                data.push_str(v);
                has_data = true;
            }
            "id" if !v.contains('\0') => id = Some(v.to_string()),
            "retry" if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                retry = v.parse().ok()
            }
            _ => {}
        }
    }
    (events, id, retry)
}

fn feed(chunks: &[&[u8]]) -> (Vec<SseEvent>, Option<String>, Option<u64>) {
    let mut p = SseParser::default();
    let mut out = Vec::new();
    for c in chunks {
        out.extend(p.feed(c).expect("no size error below the default cap"));
    }
    (out, p.last_event_id().map(str::to_string), p.retry_ms())
}

fn split<'a>(bytes: &'a [u8], cuts: &[Index]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
    at.sort_unstable();
    let mut chunks = Vec::new();
    let mut prev = 0;
    for c in at {
        chunks.push(&bytes[prev..c]);
        prev = c;
    }
    chunks.push(&bytes[prev..]);
    chunks
}

proptest! {
    // proptest is built `no_std` (Cargo.toml: its `std` feature pulls getrandom, which breaks the
    // wasm32 test build), so the seed is fixed: every run checks the same cases. PROPTEST_CASES
    // (default 1000 per property) explores further.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_split_gives_the_generated_events(s in stream(), cuts in proptest::collection::vec(any::<Index>(), 0..24)) {
        let whole = feed(&[&s.bytes]);
        prop_assert_eq!(&whole.0, &s.expected, "one feed vs the generator");
        prop_assert_eq!(&whole.1, &s.last_id);
        prop_assert_eq!(whole.2, s.retry);
        prop_assert_eq!(&reference(&s.bytes), &whole, "one feed vs the reference parser");
        let chunks = split(&s.bytes, &cuts);
        prop_assert_eq!(&feed(&chunks), &whole, "split at {:?}", chunks.iter().map(|c| c.len()).collect::<Vec<_>>());
    }

    #[test]
    fn byte_at_a_time_is_the_same(s in stream()) {
        let bytewise: Vec<&[u8]> = s.bytes.chunks(1).collect();
        prop_assert_eq!(feed(&bytewise), feed(&[&s.bytes]));
    }

    /// Arbitrary bytes (not only valid streams): any split still equals one feed and the reference.
    #[test]
    fn arbitrary_bytes_match_the_reference(bytes in proptest::collection::vec(
        prop_oneof![4 => any::<u8>(), 1 => Just(b'\r'), 1 => Just(b'\n'), 1 => Just(b':'), 1 => Just(b' ')], 0..300),
        cuts in proptest::collection::vec(any::<Index>(), 0..12))
    {
        let whole = feed(&[&bytes]);
        prop_assert_eq!(&reference(&bytes), &whole);
        prop_assert_eq!(&feed(&split(&bytes, &cuts)), &whole);
    }
}
