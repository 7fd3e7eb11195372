#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_common::auth_checks::check_token_response(data));
