//! Replays the authorization fuzz targets' corpora and regression inputs through the checks
//! libFuzzer ran (`fuzz/src/auth_checks.rs`, included by path), on stable Rust: what a hostile
//! resource server, authorization server or IdP sends. A panic here is a fuzz finding.

#[path = "../fuzz/src/auth_checks.rs"]
mod auth_checks;
#[path = "support/fuzz_replay.rs"]
mod fuzz_replay;

use fuzz_replay::{replay, Check};

const TARGETS: [(&str, Check); 5] = [
    ("www_authenticate", auth_checks::check_www_authenticate),
    ("auth_metadata", auth_checks::check_auth_metadata),
    ("token_response", auth_checks::check_token_response),
    ("jose", auth_checks::check_jose),
    ("dpop_nonce", auth_checks::check_dpop_nonce),
];

#[test]
fn www_authenticate_corpus() {
    assert!(replay(TARGETS[0].0, TARGETS[0].1) > 0, "empty corpus");
}

#[test]
fn auth_metadata_corpus() {
    assert!(replay(TARGETS[1].0, TARGETS[1].1) > 0, "empty corpus");
}

#[test]
fn token_response_corpus() {
    assert!(replay(TARGETS[2].0, TARGETS[2].1) > 0, "empty corpus");
}

#[test]
fn jose_corpus() {
    assert!(replay(TARGETS[3].0, TARGETS[3].1) > 0, "empty corpus");
}

#[test]
fn dpop_nonce_corpus() {
    assert!(replay(TARGETS[4].0, TARGETS[4].1) > 0, "empty corpus");
}
