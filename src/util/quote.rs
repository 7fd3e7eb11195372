//! Text quoted in error messages as `{:?}` quotes a string, without the `Debug` machinery
//! (str's `Debug` brings Unicode's printable tables into the wasm module).

use std::fmt::Write;

/// `s` in double quotes, `"`, `\` and control characters escaped as `{:?}` escapes them.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Strings as `{:?}` shows a list of them: `["a", "b"]`.
pub fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| quoted(s)).collect();
    ["[", &join(&quoted, ", "), "]"].concat()
}

/// `items` joined by `sep`. Owned strings go through this one function: `[String]::join` is a
/// second copy of `[&str]::join` in the wasm module.
pub fn join(items: &[String], sep: &str) -> String {
    let mut out = String::new();
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_debug_does() {
        for s in [
            "",
            "plain",
            "say \"hi\"",
            "back\\slash",
            "line\nbreak\r\ttab\0nul",
            "esc \u{1b} del \u{7f} c1 \u{85}",
            "é 日本 🙂 it's",
        ] {
            assert_eq!(quoted(s), format!("{s:?}"));
        }
        assert_eq!(quoted_list(&["a", "b\"c"]), format!("{:?}", ["a", "b\"c"]));
        assert_eq!(quoted_list(&[]), format!("{:?}", [""; 0]));
        let owned = ["a".to_string(), String::new(), "c".into()];
        assert_eq!(join(&owned, ", "), owned.join(", "));
        assert_eq!(join(&[], "."), "");
    }
}
