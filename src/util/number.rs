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
pub fn parse(text: &str) -> Option<f64> {
    let t = text.trim();
    // std also reads "inf", "infinity" and "nan" in any case: only digits and their marks here.
    if !t
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    t.parse::<f64>().ok().filter(|n| n.is_finite())
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
        ] {
            assert_eq!(parse(text), Some(n), "{text:?}");
        }
        for text in [
            "", "-", ".", "inf", "NaN", "0x10", "1,5", "1e999", "--1", "+-1", "e3", "1 2",
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }
}
