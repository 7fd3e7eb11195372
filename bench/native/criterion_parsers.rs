// Criterion micro-benchmarks of the pure-Rust hot paths, native (not wasm), in MiB/s:
// the SSE parser fed a large stream in 4 KiB chunks, and JSON-RPC `decode`.
//
//   cargo bench --bench parsers
//
// The inputs are byte-for-byte the bodies bench/server.mjs sends (the `stream` tool's 10 000
// `notifications/message` events + result; the `big` tool's 1 MiB result), so the numbers sit
// next to bench/parser.mjs (eventsource-parser + JSON.parse in Node). bench/run.mjs reads the
// results from target/criterion/*/*/new/{estimates,benchmark}.json.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcp_wasm_client::protocol::jsonrpc::decode;
use mcp_wasm_client::transport::sse::SseParser;
use mcp_wasm_client::json::json;
use std::hint::black_box;

const EVENTS: usize = 10_000;
const CHUNK: usize = 4096;

/// The `stream` tool's SSE body (bench/server.mjs `streamBody` + the result event).
fn stream_body() -> Vec<u8> {
    let mut s = String::new();
    for i in 0..EVENTS {
        let n = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "logger": "bench", "data": format!("event {i} of {EVENTS}: lorem ipsum dolor sit amet")}});
        s.push_str("event: message\ndata: ");
        s.push_str(&n.to_string());
        s.push_str("\n\n");
    }
    s.push_str("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n");
    s.into_bytes()
}

/// The `big` tool's 1 MiB result body.
fn big_body() -> String {
    const LINE: &str = "The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLM.\n";
    let text: String = LINE.repeat((1 << 20) / LINE.len() + 1)[..1 << 20].to_string();
    json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": text}]}})
        .to_string()
}

fn parse_stream(body: &[u8]) -> usize {
    let mut p = SseParser::default();
    let mut n = 0;
    for chunk in body.chunks(CHUNK) {
        n += p.feed(chunk).unwrap().len();
    }
    n
}

fn parse_and_decode(body: &[u8]) -> usize {
    let mut p = SseParser::default();
    let mut n = 0;
    for chunk in body.chunks(CHUNK) {
        for ev in p.feed(chunk).unwrap() {
            n += decode(&ev.data).unwrap().len();
        }
    }
    n
}

fn benches(c: &mut Criterion) {
    let body = stream_body();
    assert_eq!(parse_stream(&body), EVENTS + 1);
    assert_eq!(parse_and_decode(&body), EVENTS + 1);
    let datas: Vec<String> = {
        let mut p = SseParser::default();
        body.chunks(CHUNK)
            .flat_map(|ch| p.feed(ch).unwrap())
            .map(|e| e.data)
            .collect()
    };
    let data_bytes: usize = datas.iter().map(String::len).sum();
    let big = big_body();

    let mut g = c.benchmark_group("sse");
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("parse_4k", |b| b.iter(|| parse_stream(black_box(&body))));
    g.finish();

    let mut g = c.benchmark_group("sse_decode");
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("stream_4k", |b| {
        b.iter(|| parse_and_decode(black_box(&body)))
    });
    g.finish();

    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Bytes(data_bytes as u64));
    g.bench_function("events", |b| {
        b.iter(|| {
            datas
                .iter()
                .map(|d| decode(black_box(d)).unwrap().len())
                .sum::<usize>()
        })
    });
    g.throughput(Throughput::Bytes(big.len() as u64));
    g.bench_function("big_1mib", |b| {
        b.iter(|| decode(black_box(&big)).unwrap().len())
    });
    g.finish();
}

criterion_group!(parsers, benches);
criterion_main!(parsers);
