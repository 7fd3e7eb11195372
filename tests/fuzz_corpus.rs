//! Replays every fuzz corpus file (`fuzz/corpus/<target>/*`) and every regression input
//! (`fuzz/artifacts/regressions/<target>/*`) through the same checks the libFuzzer targets run
//! (`fuzz/src/checks.rs`, included by path), on stable Rust. A panic here is a fuzz finding.
//! The authorization targets' corpora: `tests/fuzz_auth_corpus.rs`.

#[path = "../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

#[path = "support/fuzz_replay.rs"]
mod fuzz_replay;

use fuzz_replay::{replay, Check};

const TARGETS: [(&str, Check); 4] = [
    ("sse_parser", checks::check_sse),
    ("jsonrpc_decode", checks::check_jsonrpc),
    ("input_required", checks::check_input_required),
    ("elicitation_schema", checks::check_elicitation_schema),
];

#[test]
fn sse_parser_corpus() {
    assert!(replay(TARGETS[0].0, TARGETS[0].1) > 0, "empty corpus");
}

#[test]
fn jsonrpc_decode_corpus() {
    assert!(replay(TARGETS[1].0, TARGETS[1].1) > 0, "empty corpus");
}

#[test]
fn input_required_corpus() {
    assert!(replay(TARGETS[2].0, TARGETS[2].1) > 0, "empty corpus");
}

#[test]
fn elicitation_schema_corpus() {
    assert!(replay(TARGETS[3].0, TARGETS[3].1) > 0, "empty corpus");
}

/// Runs `f` on a thread and fails if it takes longer than `secs` (the thread is left behind).
fn within(secs: u64, what: &str, f: impl FnOnce() + Send + 'static) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        f();
        let _ = tx.send(());
    });
    assert!(
        rx.recv_timeout(std::time::Duration::from_secs(secs))
            .is_ok(),
        "{what} took longer than {secs} s"
    );
}

/// Finding: a 67-byte outputSchema whose `anyOf` holds two `$ref`s to itself makes
/// `OutputValidator::validate` branch twice per level down to MAX_DEPTH (64): 2^64 steps. A
/// server sends it in `tools/list`; the next `callTool` with `structuredContent` blocks the JS
/// event loop forever, until `src/validate/output_schema` bounded the work per `validate`;
/// this test keeps it bounded.
#[test]
fn output_schema_exponential_anyof_ref_is_bounded() {
    within(
        5,
        "validating against a self-referential anyOf schema",
        || {
            let schema: mcp_wasm_client::json::Value = mcp_wasm_client::json::from_str(
            r##"{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}"##,
        )
        .unwrap();
            let v = mcp_wasm_client::validate::output_schema::OutputValidator::compile(&schema)
                .expect("compiles today");
            let _ = v.validate(&mcp_wasm_client::json::json!({ "x": 1 }));
        },
    );
}

/// The same blow-up without `$ref` cycles: a chain of 24 definitions, each `anyOf` the next one
/// twice (2^24 visits, ~2 KB of schema). Must also stay well under a second.
#[test]
fn output_schema_exponential_anyof_chain_is_bounded() {
    within(2, "validating against a 24-level anyOf chain", || {
        let n = 24;
        let mut defs = mcp_wasm_client::json::Map::new();
        for i in 0..n {
            let next = if i + 1 == n {
                mcp_wasm_client::json::json!({ "type": "string" })
            } else {
                let r = format!("#/$defs/d{}", i + 1);
                mcp_wasm_client::json::json!({ "anyOf": [{ "$ref": r }, { "$ref": r }] })
            };
            defs.insert(format!("d{i}"), next);
        }
        let schema = mcp_wasm_client::json::json!({ "$defs": defs, "$ref": "#/$defs/d0" });
        let v = mcp_wasm_client::validate::output_schema::OutputValidator::compile(&schema)
            .expect("compiles today");
        let _ = v.validate(&mcp_wasm_client::json::json!(1));
    });
}
