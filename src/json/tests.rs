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

#[test]
fn computed_powers_of_ten_are_the_literals() {
    for (n, &want) in LITERALS.iter().enumerate() {
        assert_eq!(parse::pow10(n as u32).to_bits(), want.to_bits(), "1e{n}");
    }
}

/// serde_json's POW10 table: 1e0 … 1e308 as rustc rounds the literals.
static LITERALS: [f64; 309] = [
    1e000, 1e001, 1e002, 1e003, 1e004, 1e005, 1e006, 1e007, 1e008, 1e009, //
    1e010, 1e011, 1e012, 1e013, 1e014, 1e015, 1e016, 1e017, 1e018, 1e019, //
    1e020, 1e021, 1e022, 1e023, 1e024, 1e025, 1e026, 1e027, 1e028, 1e029, //
    1e030, 1e031, 1e032, 1e033, 1e034, 1e035, 1e036, 1e037, 1e038, 1e039, //
    1e040, 1e041, 1e042, 1e043, 1e044, 1e045, 1e046, 1e047, 1e048, 1e049, //
    1e050, 1e051, 1e052, 1e053, 1e054, 1e055, 1e056, 1e057, 1e058, 1e059, //
    1e060, 1e061, 1e062, 1e063, 1e064, 1e065, 1e066, 1e067, 1e068, 1e069, //
    1e070, 1e071, 1e072, 1e073, 1e074, 1e075, 1e076, 1e077, 1e078, 1e079, //
    1e080, 1e081, 1e082, 1e083, 1e084, 1e085, 1e086, 1e087, 1e088, 1e089, //
    1e090, 1e091, 1e092, 1e093, 1e094, 1e095, 1e096, 1e097, 1e098, 1e099, //
    1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109, //
    1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119, //
    1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129, //
    1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139, //
    1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149, //
    1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159, //
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169, //
    1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179, //
    1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189, //
    1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199, //
    1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209, //
    1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, //
    1e220, 1e221, 1e222, 1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229, //
    1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239, //
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249, //
    1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259, //
    1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269, //
    1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279, //
    1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289, //
    1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, //
    1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308, //
];
