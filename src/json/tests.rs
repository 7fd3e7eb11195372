//! Edge cases of the JSON module, each checked against what serde_json does (the differential
//! test in tests/json_differential.rs covers random texts).

use super::*;

fn err(text: &str) -> String {
    from_str(text).unwrap_err().to_string()
}

#[test]
fn reads_and_writes_every_kind() {
    let text = r#"{"a":null,"b":true,"c":false,"d":-12,"e":0.5,"f":"x","g":[1,[]],"h":{}}"#;
    let v = from_str(text).unwrap();
    assert_eq!(to_string(&v), text);
    assert_eq!(v.to_string(), text);
    assert_eq!(v["d"].as_i64(), Some(-12));
    assert_eq!(v["g"][0], 1);
    assert_eq!(v["missing"], Value::Null);
    assert_eq!(v["g"][7], Value::Null);
    assert_eq!(v.pointer("/g/0"), Some(&json!(1)));
    assert_eq!(v.pointer("/g/01"), None);
    assert_eq!(v.pointer(""), Some(&v));
    assert!(from_str(" \t\r\n[ 1 , 2 ] \n").is_ok());
}

#[test]
fn integers_stay_integers() {
    let v = from_str("[18446744073709551615,-9223372036854775808,18446744073709551616,-9223372036854775809,-0,0]").unwrap();
    assert_eq!(v[0].as_u64(), Some(u64::MAX));
    assert_eq!(v[1].as_i64(), Some(i64::MIN));
    assert!(v[2].is_f64());
    assert_eq!(v[2].as_f64(), Some(18446744073709551616.0));
    assert!(v[3].is_f64());
    // serde_json reads -0 as the float -0.0, and writes it back as "-0.0".
    assert!(v[4].is_f64());
    assert!(v[4].as_f64().unwrap().is_sign_negative());
    assert_eq!(
        to_string(&v),
        "[18446744073709551615,-9223372036854775808,1.8446744073709552e+19,-9.223372036854776e+18,-0.0,0]"
    );
}

#[test]
fn floats_in_and_out() {
    for (text, out) in [
        ("0.1", "0.1"),
        ("1e400", ""),
        ("-1e400", ""),
        ("1e-400", "0.0"),
        ("-1e-400", "-0.0"),
        ("1e22", "1e+22"),
        ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ("5e-324", "5e-324"),
        ("1E+2", "100.0"),
        ("123.456e-2", "1.23456"),
        ("0e99999999999999", "0.0"),
    ] {
        match from_str(text) {
            Ok(v) => assert_eq!(to_string(&v), out, "{text}"),
            Err(e) => {
                assert_eq!(out, "", "{text}: {e}");
                assert!(e.to_string().starts_with("number out of range"), "{e}");
            }
        }
    }
    assert_eq!(Value::from(f64::NAN), Value::Null);
    assert_eq!(Value::from(f64::INFINITY), Value::Null);
    assert!(Number::from_f64(f64::NEG_INFINITY).is_none());
    // Integers and floats are different numbers (as in serde_json).
    assert_ne!(json!(1), json!(1.0));
}

#[test]
fn strings_and_escapes() {
    let v = from_str(r#""a\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00\u0001""#).unwrap();
    assert_eq!(v, "a\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1F600}\u{1}");
    assert_eq!(
        to_string(&v),
        r#""a\"\\/\b\f\n\r\t\u00e9😀\u0001""#.replace("\\u00e9", "\u{e9}")
    );
    assert_eq!(to_string(&json!("\u{7f}\u{1f}")), "\"\u{7f}\\u001f\"");
    assert_eq!(
        err(r#""\uDE00""#),
        "lone leading surrogate in hex escape at line 1 column 7"
    );
    assert_eq!(
        err(r#""\uD83D""#),
        "unexpected end of hex escape at line 1 column 8"
    );
    assert_eq!(
        err(r#""\uD83D\u0041""#),
        "lone leading surrogate in hex escape at line 1 column 13"
    );
    assert_eq!(
        err("\"a\u{1}\""),
        "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3"
    );
    assert_eq!(err(r#""\x""#), "invalid escape at line 1 column 3");
    assert_eq!(
        err(r#""\u12"#),
        "EOF while parsing a string at line 1 column 5"
    );
    assert_eq!(
        err(r#""abc"#),
        "EOF while parsing a string at line 1 column 4"
    );
}

#[test]
fn error_texts_and_places() {
    assert_eq!(err(""), "EOF while parsing a value at line 1 column 0");
    assert_eq!(err("x"), "expected value at line 1 column 1");
    assert_eq!(err("1 2"), "trailing characters at line 1 column 3");
    assert_eq!(err("[1,]"), "trailing comma at line 1 column 4");
    assert_eq!(err("{\"a\":1,}"), "trailing comma at line 1 column 8");
    assert_eq!(err("{1:1}"), "key must be a string at line 1 column 2");
    assert_eq!(err("{\"a\" 1}"), "expected `:` at line 1 column 6");
    assert_eq!(err("[1 2]"), "expected `,` or `]` at line 1 column 4");
    assert_eq!(
        err("{\"a\":1 \"b\"}"),
        "expected `,` or `}` at line 1 column 8"
    );
    assert_eq!(err("nul"), "EOF while parsing a value at line 1 column 3");
    assert_eq!(err("nulx"), "expected ident at line 1 column 4");
    assert_eq!(err("01"), "invalid number at line 1 column 2");
    assert_eq!(err("1."), "EOF while parsing a value at line 1 column 2");
    assert_eq!(err("-"), "EOF while parsing a value at line 1 column 1");
    assert_eq!(err("[\n1,\n  x]"), "expected value at line 3 column 3");
    assert!(from_str("[").unwrap_err().is_eof());
    assert!(!from_str("]").unwrap_err().is_eof());
    assert_eq!(
        from_slice(b"\"\xff\"").unwrap_err().to_string(),
        "invalid unicode code point at line 1 column 2"
    );
}

#[test]
fn nesting_is_capped_at_128() {
    let ok = "[".repeat(127) + &"]".repeat(127);
    assert!(from_str(&ok).is_ok());
    let deep = "[".repeat(128) + &"]".repeat(128);
    assert_eq!(err(&deep), "recursion limit exceeded at line 1 column 128");
    let hostile = "{\"a\":".repeat(100_000);
    assert!(err(&hostile).starts_with("recursion limit exceeded"));
}

#[test]
fn duplicate_keys_last_value_first_place() {
    let v = from_str(r#"{"a":1,"b":2,"a":3}"#).unwrap();
    assert_eq!(to_string(&v), r#"{"a":3,"b":2}"#);
    // The sorted path (more than 32 members) gives the same answer.
    let mut text = String::from("{");
    for i in 0..100 {
        text += &format!("\"k{}\":{i},", i % 40);
    }
    text += "\"z\":0}";
    let v = from_str(&text).unwrap();
    let o = v.as_object().unwrap();
    assert_eq!(o.len(), 41);
    let keys: Vec<&String> = o.keys().collect();
    assert_eq!(keys[0], "k0");
    assert_eq!(keys[39], "k39");
    assert_eq!(o["k0"], 80);
    assert_eq!(o["k39"], 79);
    // Many copies of one key stay fast.
    let hostile = format!("{{{}\"a\":1}}", "\"a\":1,".repeat(200_000));
    assert_eq!(from_str(&hostile).unwrap().as_object().unwrap().len(), 1);
}

#[test]
fn map_keeps_order() {
    let mut m = Map::new();
    m.insert("b".into(), json!(1));
    m.insert("a".into(), json!(2));
    assert_eq!(m.insert("b".into(), json!(3)), Some(json!(1)));
    m.insert("c".into(), json!(4));
    assert_eq!(m.remove("b"), Some(json!(3)));
    assert_eq!(to_string(&Value::Object(m.clone())), r#"{"a":2,"c":4}"#);
    *m.entry("a").or_insert_with(|| json!(0)) = json!(9);
    m.entry("d").or_insert(json!(5));
    m.retain(|k, _| k != "c");
    assert_eq!(Value::Object(m).to_string(), r#"{"a":9,"d":5}"#);
    let mut v = Value::Null;
    v["x"]["y"] = json!(true);
    assert_eq!(v.to_string(), r#"{"x":{"y":true}}"#);
}

#[test]
fn the_macro() {
    let name = String::from("n");
    let opt: Option<&str> = None;
    let list = vec!["a", "b"];
    let key = "k";
    let v = json!({
        "null": null,
        "t": true,
        "nested": { "arr": [1, -2, 2.5, "s", null, [], {}], },
        "name": name,
        "opt": opt,
        "list": list,
        (key): 1u8,
        "sum": 1 + 2,
    });
    assert_eq!(
        v.to_string(),
        r#"{"null":null,"t":true,"nested":{"arr":[1,-2,2.5,"s",null,[],{}]},"name":"n","opt":null,"list":["a","b"],"k":1,"sum":3}"#
    );
    assert_eq!(name, "n");
    assert_eq!(json!([]).to_string(), "[]");
    assert_eq!(json!([1, 2,]).to_string(), "[1,2]");
    assert_eq!(json!(f64::NAN), Value::Null);
}
