//! Numbers in messages and form input, shown and read as a person (and JS) writes them.

use std::fmt;

/// An `f64` shown as JS shows it: integers without a fraction (`5`), others shortest (`0.25`,
/// `1e+21`), `NaN` and `Infinity` by name.
#[derive(Debug)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        if n.fract() == 0.0 && n.abs() < 1e15 {
            return fmt::Display::fmt(&(n as i64), f);
        }
        // serde_json writes a finite float in its shortest form, exponents as JS writes them.
        match serde_json::Number::from_f64(n) {
            Some(x) => fmt::Display::fmt(&x, f),
            None if n.is_nan() => f.write_str("NaN"),
            None if n > 0.0 => f.write_str("Infinity"),
            None => f.write_str("-Infinity"),
        }
    }
}

/// A decimal number as a person or a server writes it (`"3"`, `"-0.5"`, `".5"`, `"5."`, `"+2"`,
/// `"1e3"`), surrounding whitespace ignored; `None` for anything else (`"inf"`, `"NaN"`, `"0x1"`)
/// and for numbers too large for an `f64`.
///
/// The liberties people take (a `+`, a leading or trailing `.`, leading zeros) are undone and the
/// rest is read by serde_json's number parser, which the module holds anyway: std's float parser
/// (`str::parse::<f64>`) would bring its own tables, about 13 KB of gzipped wasm (docs/SIZE.md).
pub fn parse(text: &str) -> Option<f64> {
    let t = text.trim();
    let (negative, unsigned) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || whole.len() + fraction.len() == 0 {
        return None;
    }
    let mut json = String::with_capacity(t.len() + 2);
    if negative {
        json.push('-');
    }
    let whole = whole.trim_start_matches('0');
    json.push_str(if whole.is_empty() { "0" } else { whole });
    if !fraction.is_empty() {
        json.push('.');
        json.push_str(fraction);
    }
    if let Some(e) = exponent {
        let e_digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e_digits.is_empty() || !digits(e_digits) {
            return None;
        }
        json.push('e');
        json.push_str(e);
    }
    crate::json::from_str::<f64>(&json)
        .ok()
        .filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_numbers_as_json_does() {
        assert_eq!(Num(5.0).to_string(), "5");
        assert_eq!(Num(-3.0).to_string(), "-3");
        assert_eq!(Num(0.25).to_string(), "0.25");
        assert_eq!(Num(0.1 + 0.2).to_string(), "0.30000000000000004");
        assert_eq!(Num(1e21).to_string(), "1e+21");
        assert_eq!(Num(f64::NAN).to_string(), "NaN");
        assert_eq!(Num(f64::INFINITY).to_string(), "Infinity");
    }

    #[test]
    fn parses_what_people_type() {
        for (text, n) in [
            ("3", 3.0),
            (" -0.5 ", -0.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("+2", 2.0),
            ("1e3", 1000.0),
            ("007", 7.0),
            ("0", 0.0),
            ("-.25", -0.25),
            ("2.5E-1", 0.25),
            ("1e+2", 100.0),
            ("-0", -0.0),
            ("00.50", 0.5),
            ("123456789.125", 123456789.125),
            ("1.7976931348623157e308", f64::MAX),
            ("5e-324", 5e-324),
        ] {
            assert_eq!(parse(text), Some(n), "{text:?}");
        }
        for text in [
            "", "-", ".", "inf", "NaN", "0x10", "1,5", "1e999", "--1", "+-1", "e3", "1 2", "1e",
            "1e+", "1.2.3", "1e3.5", "++1", "1_000",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }
}
