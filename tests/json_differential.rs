//! The crate's JSON module (`mcp_wasm_client::json`) against serde_json, which it replaced in the
//! wasm: for random values and texts (and mutations of them) both must accept the same texts,
//! read them into the same values, write the same bytes, and reject with the same messages
//! (text, line and column).
#![cfg(not(target_arch = "wasm32"))]

use mcp_wasm_client::json as ours;
use proptest::prelude::*;

/// serde_json's value in our type, numbers kept as they were read.
fn convert(v: &serde_json::Value) -> ours::Value {
    match v {
        serde_json::Value::Null => ours::Value::Null,
        serde_json::Value::Bool(b) => ours::Value::Bool(*b),
        serde_json::Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                ours::Value::from(u)
            } else if let Some(i) = n.as_i64() {
                ours::Value::from(i)
            } else {
                ours::Value::from(n.as_f64().unwrap())
            }
        }
        serde_json::Value::String(s) => ours::Value::String(s.clone()),
        serde_json::Value::Array(a) => ours::Value::Array(a.iter().map(convert).collect()),
        serde_json::Value::Object(o) => {
            let mut m = ours::Map::new();
            for (k, v) in o {
                m.insert(k.clone(), convert(v));
            }
            ours::Value::Object(m)
        }
    }
}

/// Both parsers on `text`: the same outcome, value (bit for bit for floats), text and error.
fn same(text: &str) {
    let theirs = serde_json::from_str::<serde_json::Value>(text);
    let mine = ours::from_str(text);
    match (&theirs, &mine) {
        (Ok(t), Ok(m)) => {
            let c = convert(t);
            assert_eq!(&c, m, "value of {text:?}");
            assert_eq!(
                serde_json::to_string(t).unwrap(),
                ours::to_string(m),
                "text of {text:?}"
            );
            // -0.0 == 0.0 above; the written text tells them apart.
            assert_eq!(format!("{c:?}"), format!("{m:?}"), "bits of {text:?}");
        }
        (Err(t), Err(m)) => assert_eq!(t.to_string(), m.to_string(), "error of {text:?}"),
        _ => panic!("{text:?}: serde_json {theirs:?}, ours {mine:?}"),
    }
    let bytes = serde_json::from_slice::<serde_json::Value>(text.as_bytes()).is_ok();
    assert_eq!(
        bytes,
        ours::from_slice(text.as_bytes()).is_ok(),
        "from_slice {text:?}"
    );
}

#[test]
fn fixed_cases() {
    let long = "1".repeat(400);
    let deep_ok = "[".repeat(127) + &"]".repeat(127);
    let deep = "[".repeat(128) + &"]".repeat(128);
    let deep_obj = "{\"a\":".repeat(130);
    let cases = [
        "",
        " ",
        "null",
        "true",
        "false",
        "nul",
        "nulx",
        "tru",
        "fals",
        "x",
        "[",
        "]",
        "{",
        "}",
        "[1,]",
        "[,1]",
        "[1 2]",
        "[1,,2]",
        "{\"a\":1,}",
        "{,}",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\" 1}",
        "{1:1}",
        "{\"a\":1 \"b\":2}",
        "{\"a\":1,\"a\":2,\"b\":3,\"a\":4}",
        "1 2",
        "1 x",
        "[] ]",
        "0",
        "-0",
        "-",
        "01",
        "-01",
        "1.",
        "1.e5",
        ".5",
        "1e",
        "1e+",
        "1e-",
        "1E5",
        "1e-5",
        "0.1",
        "1e400",
        "-1e400",
        "1e-400",
        "-1e-400",
        "1e22",
        "1e23",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "5e-324",
        "2.2250738585072014e-308",
        "4.9e-324",
        "1e-330",
        "123.456e-2",
        "0e99999999999999",
        "1e99999999999999",
        "1e-99999999999999",
        "0.000000000000000000000000000001",
        "18446744073709551615",
        "18446744073709551616",
        "18446744073709551616.5",
        "184467440737095516150",
        "-9223372036854775808",
        "-9223372036854775809",
        "9223372036854775808",
        "123456789012345678901234567890e-10",
        "0.12345678901234567890123456789",
        "1.0000000000000000000000001",
        &long,
        "1e2147483647",
        "1e2147483648",
        "-1e-2147483648",
        "1.5e308",
        "17976931348623157e292",
        "\"\"",
        "\"abc",
        "\"\\\"",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\u12",
        "\"\\u00e9\"",
        "\"\\u00E9\"",
        "\"\\uD83D\\uDE00\"",
        "\"\\uD83D\"",
        "\"\\uDE00\"",
        "\"\\uD83D\\u0041\"",
        "\"\\uD83Dx\"",
        "\"\\uD83D\\n\"",
        "\"\\uD83D\\uD83D\\uDE00\"",
        "\"\\uzzzz\"",
        "\"a\u{1}\"",
        "\"\u{7f}\"",
        "\"\\/\\b\\f\\n\\r\\t\"",
        "\"é😀\"",
        "\"\t\"",
        "[\n1,\n  x]",
        "\n\n  }",
        "\u{feff}1",
        "[1,{\"a\":[true,false,null,\"\\u0000\"]}]",
        &deep_ok,
        &deep,
        &deep_obj,
        "{\"a\":1}x",
        "[1]\n\n x",
        "1\r\n",
        "NaN",
        "Infinity",
        "-Infinity",
        "+1",
        "0x10",
        "1_000",
    ];
    for text in cases {
        same(text);
    }
}

#[test]
fn written_text_matches() {
    let v = ours::json!({
        "s": "\"\\\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}é😀",
        "n": [0, 1, -1, u64::MAX, i64::MIN, 0.5, -0.0, 1e22, 1e21, 1e-7, 123456.789, f64::MAX, f64::MIN_POSITIVE, 5e-324],
        "e": {}, "a": [],
    });
    let t = serde_json::json!({
        "s": "\"\\\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}é😀",
        "n": [0, 1, -1, u64::MAX, i64::MIN, 0.5, -0.0, 1e22, 1e21, 1e-7, 123456.789, f64::MAX, f64::MIN_POSITIVE, 5e-324],
        "e": {}, "a": [],
    });
    assert_eq!(ours::to_string(&v), serde_json::to_string(&t).unwrap());
    for f in [
        0.1,
        1.0,
        100.0,
        1e15,
        1e16,
        1e300,
        -2.5e-300,
        0.30000000000000004,
    ] {
        assert_eq!(
            ours::Number::from_f64(f).unwrap().to_string(),
            serde_json::Number::from_f64(f).unwrap().to_string()
        );
    }
}

/// A random serde_json value (keys from a small set, so duplicates and reordering happen).
fn value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        (-1000i64..1000, -30i32..30)
            .prop_map(|(m, e)| serde_json::Value::from(m as f64 * 10f64.powi(e))),
        "[a-z\"\\\\/\u{0}-\u{1f}é😀\u{7f}]{0,8}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            proptest::collection::vec(("[a-e]{1,2}", inner), 0..6)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Number texts the way people and servers write them, valid or nearly so.
fn number_text() -> impl Strategy<Value = String> {
    "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{0,25})?([eE][-+]?[0-9]{0,4})?"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_values_round_trip(v in value()) {
        let text = serde_json::to_string(&v).unwrap();
        same(&text);
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        same(&pretty);
        prop_assert_eq!(ours::to_string(&convert(&v)), text);
    }

    #[test]
    fn mutated_texts_agree(v in value(), at in any::<proptest::sample::Index>(), op in 0..4u8, b in prop_oneof![
        Just(b'"'), Just(b'\\'), Just(b','), Just(b':'), Just(b'['), Just(b']'), Just(b'{'), Just(b'}'),
        Just(b'0'), Just(b'-'), Just(b'e'), Just(b'.'), Just(b' '), Just(b'\n'), Just(b'u'), Just(1u8), Just(b'x'),
    ]) {
        let mut bytes = serde_json::to_string(&v).unwrap().into_bytes();
        let i = at.index(bytes.len() + 1);
        match op {
            0 => bytes.insert(i, b),
            1 if i < bytes.len() => { bytes.remove(i); }
            2 if i < bytes.len() => bytes[i] = b,
            _ => bytes.truncate(i),
        }
        if let Ok(text) = String::from_utf8(bytes) {
            same(&text);
        }
    }

    #[test]
    fn numbers_agree(text in number_text()) {
        same(&text);
        same(&format!("[{text}]"));
    }
}
