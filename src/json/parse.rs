//! JSON text to `Value`: serde_json's grammar, limits, error texts and positions, and its number
//! reading (without `float_roundtrip`), in one recursive-descent parser over a `&str`.
//!
//! Never panics on input: every byte access is checked (`peek`), nesting is capped at 128 (as
//! serde_json caps it) so a hostile `[[[[…` is an error, not a stack overflow, and duplicate keys
//! are resolved in O(n log n) (see `dedupe`).

use std::fmt;

use super::{Map, Number, Value, N};

/// Why a text is not JSON, and where (serde_json's texts: "expected value at line 1 column 1").
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    code: Code,
    line: usize,
    column: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Code {
    EofWhileParsingList,
    EofWhileParsingObject,
    EofWhileParsingString,
    EofWhileParsingValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedSomeIdent,
    ExpectedSomeValue,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    InvalidUnicodeCodePoint,
    ControlCharacterWhileParsingString,
    KeyMustBeAString,
    LoneLeadingSurrogateInHexEscape,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
}

impl Error {
    /// Whether the text ended too early (it may be a prefix of valid JSON).
    pub fn is_eof(&self) -> bool {
        matches!(
            self.code,
            Code::EofWhileParsingList
                | Code::EofWhileParsingObject
                | Code::EofWhileParsingString
                | Code::EofWhileParsingValue
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.code {
            Code::EofWhileParsingList => "EOF while parsing a list",
            Code::EofWhileParsingObject => "EOF while parsing an object",
            Code::EofWhileParsingString => "EOF while parsing a string",
            Code::EofWhileParsingValue => "EOF while parsing a value",
            Code::ExpectedColon => "expected `:`",
            Code::ExpectedListCommaOrEnd => "expected `,` or `]`",
            Code::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            Code::ExpectedSomeIdent => "expected ident",
            Code::ExpectedSomeValue => "expected value",
            Code::InvalidEscape => "invalid escape",
            Code::InvalidNumber => "invalid number",
            Code::NumberOutOfRange => "number out of range",
            Code::InvalidUnicodeCodePoint => "invalid unicode code point",
            Code::ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            Code::KeyMustBeAString => "key must be a string",
            Code::LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            Code::TrailingComma => "trailing comma",
            Code::TrailingCharacters => "trailing characters",
            Code::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            Code::RecursionLimitExceeded => "recursion limit exceeded",
        };
        write!(f, "{what} at line {} column {}", self.line, self.column)
    }
}

impl std::error::Error for Error {}

type Result<T> = std::result::Result<T, Error>;

/// Reads one JSON value from `text`; whitespace around it is allowed, anything else is an error.
pub fn from_str(text: &str) -> Result<Value> {
    let mut p = Parser {
        text,
        s: text.as_bytes(),
        i: 0,
        depth: 128,
    };
    let v = p.value()?;
    match p.whitespace() {
        Some(_) => Err(p.peek_error(Code::TrailingCharacters)),
        None => Ok(v),
    }
}

/// As `from_str`, from bytes: invalid UTF-8 anywhere is an error ("invalid unicode code point").
pub fn from_slice(bytes: &[u8]) -> Result<Value> {
    match std::str::from_utf8(bytes) {
        Ok(text) => from_str(text),
        Err(e) => {
            let mut p = Parser {
                text: "",
                s: bytes,
                i: e.valid_up_to(),
                depth: 0,
            };
            p.i += 1;
            Err(p.error(Code::InvalidUnicodeCodePoint))
        }
    }
}

/// serde_json's `overflow!`: whether `a * 10 + b` exceeds `max`.
fn overflows(a: u64, b: u64, max: u64) -> bool {
    a >= max / 10 && (a > max / 10 || b > max % 10)
}

/// Where the first `"`, `\\` or control character (U+0000–U+001F) of `rest` is: eight bytes at a
/// time (serde_json's word-at-a-time scan; a byte loop made a 1 MiB string 4× slower to read),
/// then byte by byte.
fn special(rest: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES << 7;
    // The high bit of each byte of `x` that is zero. A byte above a flagged one may be flagged
    // too (the borrow), so only the lowest flag is exact, and only it is used.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut chunks = rest.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        // (`copy_from_slice` into an array stays a call per word at opt-level z; this is a load.)
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        let hit = below_space | zero(x ^ (ONES * b'"' as u64)) | zero(x ^ (ONES * b'\\' as u64));
        if hit != 0 {
            return Some(at + hit.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let tail = chunks.remainder();
    tail.iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .map(|n| at + n)
}

struct Parser<'a> {
    /// The text (empty when only an error position is wanted, see `from_slice`).
    text: &'a str,
    /// `text`'s bytes: spans cut at ASCII bytes are `str`s.
    s: &'a [u8],
    /// The next byte to read.
    i: usize,
    /// Containers that may still open (serde_json's `remaining_depth`).
    depth: u32,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// The next byte, 0 at the end (serde_json's `peek_or_null`).
    fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i += 1;
        Some(b)
    }

    fn at(&self, i: usize, code: Code) -> Error {
        let i = i.min(self.s.len());
        let before = &self.s[..i];
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1);
        Error {
            code,
            line: 1 + before[..start].iter().filter(|&&b| b == b'\n').count(),
            column: i - start,
        }
    }

    /// An error at the byte just read (serde_json's `error`).
    #[cold]
    fn error(&self, code: Code) -> Error {
        self.at(self.i, code)
    }

    /// An error at the byte about to be read (serde_json's `peek_error`).
    #[cold]
    fn peek_error(&self, code: Code) -> Error {
        self.at(self.i + 1, code)
    }

    /// Skips whitespace; the next byte.
    fn whitespace(&mut self) -> Option<u8> {
        while let Some(b @ (b' ' | b'\n' | b'\t' | b'\r')) = self.peek() {
            let _ = b;
            self.i += 1;
        }
        self.peek()
    }

    fn value(&mut self) -> Result<Value> {
        let Some(b) = self.whitespace() else {
            return Err(self.peek_error(Code::EofWhileParsingValue));
        };
        match b {
            b'n' => self.ident(b"null", Value::Null),
            b't' => self.ident(b"true", Value::Bool(true)),
            b'f' => self.ident(b"false", Value::Bool(false)),
            b'-' => {
                self.i += 1;
                self.number(false)
            }
            b'0'..=b'9' => self.number(true),
            b'"' => {
                self.i += 1;
                self.string().map(Value::String)
            }
            b'[' | b'{' => {
                self.depth -= 1;
                if self.depth == 0 {
                    return Err(self.peek_error(Code::RecursionLimitExceeded));
                }
                self.i += 1;
                let v = if b == b'[' {
                    self.array()
                } else {
                    self.object()
                };
                self.depth += 1;
                v
            }
            _ => Err(self.peek_error(Code::ExpectedSomeValue)),
        }
    }

    fn ident(&mut self, word: &[u8], v: Value) -> Result<Value> {
        self.i += 1;
        for &want in &word[1..] {
            match self.next() {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(b) if b != want => return Err(self.error(Code::ExpectedSomeIdent)),
                Some(_) => {}
            }
        }
        Ok(v)
    }

    /// Before an array's element or an object's member: `None` at the `close` byte (not consumed),
    /// else the first byte of the next one, past the `,` every one but the `first` needs. The
    /// errors are serde_json's: `missing_comma`, `eof` (no `close`), a trailing comma, and EOF
    /// after a comma.
    fn next_item(
        &mut self,
        close: u8,
        first: bool,
        missing_comma: Code,
        eof: Code,
    ) -> Result<Option<u8>> {
        let next = match self.whitespace() {
            Some(b) if b == close => return Ok(None),
            Some(b',') if !first => {
                self.i += 1;
                self.whitespace()
            }
            Some(b) if first => Some(b),
            Some(_) => return Err(self.peek_error(missing_comma)),
            None => return Err(self.peek_error(eof)),
        };
        match next {
            Some(b) if b == close => Err(self.peek_error(Code::TrailingComma)),
            Some(b) => Ok(Some(b)),
            None => Err(self.peek_error(Code::EofWhileParsingValue)),
        }
    }

    /// After `[`, through `]`.
    fn array(&mut self) -> Result<Value> {
        let mut items = Vec::new();
        while self
            .next_item(
                b']',
                items.is_empty(),
                Code::ExpectedListCommaOrEnd,
                Code::EofWhileParsingList,
            )?
            .is_some()
        {
            items.push(self.value()?);
        }
        self.i += 1;
        Ok(Value::Array(items))
    }

    /// After `{`, through `}`.
    fn object(&mut self) -> Result<Value> {
        let mut entries = Vec::new();
        while let Some(b) = self.next_item(
            b'}',
            entries.is_empty(),
            Code::ExpectedObjectCommaOrEnd,
            Code::EofWhileParsingObject,
        )? {
            if b != b'"' {
                return Err(self.peek_error(Code::KeyMustBeAString));
            }
            self.i += 1;
            let key = self.string()?;
            match self.whitespace() {
                Some(b':') => self.i += 1,
                Some(_) => return Err(self.peek_error(Code::ExpectedColon)),
                None => return Err(self.peek_error(Code::EofWhileParsingObject)),
            }
            entries.push((key, self.value()?));
        }
        self.i += 1;
        Ok(Value::Object(dedupe(entries)))
    }

    /// After the opening `"`, through the closing one.
    fn string(&mut self) -> Result<String> {
        let mut out = String::new();
        loop {
            // The run up to the next quote, backslash or control character, copied at once.
            let start = self.i;
            let run = self.s.get(start..).and_then(special);
            let Some(n) = run else {
                self.i = self.s.len();
                return Err(self.error(Code::EofWhileParsingString));
            };
            self.i = start + n;
            // Cut at ASCII bytes of a `str`, so never `None`.
            let Some(span) = self.text.get(start..self.i) else {
                return Err(self.error(Code::InvalidUnicodeCodePoint));
            };
            out.push_str(span);
            match self.next() {
                Some(b'"') => return Ok(out),
                Some(b'\\') => self.escape(&mut out)?,
                _ => return Err(self.error(Code::ControlCharacterWhileParsingString)),
            }
        }
    }

    /// After a `\`, the escape's text appended to `out`.
    fn escape(&mut self, out: &mut String) -> Result<()> {
        let Some(b) = self.next() else {
            return Err(self.error(Code::EofWhileParsingString));
        };
        let c = match b {
            b'"' | b'\\' | b'/' => b,
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.unicode_escape(out),
            _ => return Err(self.error(Code::InvalidEscape)),
        };
        out.push(c as char);
        Ok(())
    }

    /// Four hex digits (after `\u`).
    fn hex4(&mut self) -> Result<u32> {
        let Some(digits) = self.s.get(self.i..self.i + 4) else {
            self.i = self.s.len();
            return Err(self.error(Code::EofWhileParsingString));
        };
        self.i += 4;
        let mut n = 0;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.error(Code::InvalidEscape)),
            };
            n = n * 16 + v as u32;
        }
        Ok(n)
    }

    /// After `\u`: one code point, a surrogate pair's two escapes together; a lone surrogate is an
    /// error (as serde_json reads into a `String`).
    fn unicode_escape(&mut self, out: &mut String) -> Result<()> {
        let n = self.hex4()?;
        let c = match n {
            0xDC00..=0xDFFF => return Err(self.error(Code::LoneLeadingSurrogateInHexEscape)),
            0xD800..=0xDBFF => {
                for want in [b'\\', b'u'] {
                    match self.next() {
                        None => return Err(self.error(Code::EofWhileParsingString)),
                        Some(b) if b != want => {
                            return Err(self.error(Code::UnexpectedEndOfHexEscape))
                        }
                        Some(_) => {}
                    }
                }
                let n2 = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&n2) {
                    return Err(self.error(Code::LoneLeadingSurrogateInHexEscape));
                }
                0x1_0000 + ((n - 0xD800) << 10 | (n2 - 0xDC00))
            }
            _ => n,
        };
        // Never None: surrogates are handled above, and a pair is at most U+10FFFF.
        let c = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
        out.push(c);
        Ok(())
    }

    /// A number (after its `-`, if `!positive`); serde_json's `parse_integer`.
    fn number(&mut self, positive: bool) -> Result<Value> {
        let n = match self.next() {
            None => return Err(self.error(Code::EofWhileParsingValue)),
            Some(b'0') => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
                self.after_integer(positive, 0)?
            }
            Some(c @ b'1'..=b'9') => {
                let mut significand = (c - b'0') as u64;
                loop {
                    let c = self.peek_or_null();
                    if !c.is_ascii_digit() {
                        break self.after_integer(positive, significand)?;
                    }
                    let digit = (c - b'0') as u64;
                    if overflows(significand, digit, u64::MAX) {
                        // serde_json's parse_long_integer: later digits only scale.
                        let mut exponent = 0;
                        while self.peek_or_null().is_ascii_digit() {
                            self.i += 1;
                            exponent += 1;
                        }
                        break N::Float(self.fraction_or_exponent(
                            positive,
                            significand,
                            exponent,
                        )?);
                    }
                    self.i += 1;
                    significand = significand * 10 + digit;
                }
            }
            Some(_) => return Err(self.error(Code::InvalidNumber)),
        };
        Ok(Value::Number(Number(n)))
    }

    /// After an integer's digits: the integer, or the float a fraction or an exponent makes.
    fn after_integer(&mut self, positive: bool, significand: u64) -> Result<N> {
        Ok(match self.peek_or_null() {
            b'.' | b'e' | b'E' => N::Float(self.fraction_or_exponent(positive, significand, 0)?),
            _ if positive => N::PosInt(significand),
            _ => {
                let neg = (significand as i64).wrapping_neg();
                // A float below i64::MIN, and for `-0` (serde_json keeps -0.0).
                if neg >= 0 {
                    N::Float(-(significand as f64))
                } else {
                    N::NegInt(neg)
                }
            }
        })
    }

    /// At `.`, `e`, `E` or the number's end: serde_json's parse_decimal/parse_exponent.
    fn fraction_or_exponent(
        &mut self,
        positive: bool,
        mut significand: u64,
        mut exponent: i32,
    ) -> Result<f64> {
        if self.peek() == Some(b'.') {
            self.i += 1;
            let mut digits = 0;
            let mut full = false;
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                self.i += 1;
                digits += 1;
                let digit = (c - b'0') as u64;
                // Once the u64 is full, later digits are dropped (serde_json's
                // parse_decimal_overflow).
                full = full || overflows(significand, digit, u64::MAX);
                if !full {
                    significand = significand * 10 + digit;
                    exponent -= 1;
                }
            }
            if digits == 0 {
                return Err(match self.peek() {
                    Some(_) => self.peek_error(Code::InvalidNumber),
                    None => self.peek_error(Code::EofWhileParsingValue),
                });
            }
        }
        if let b'e' | b'E' = self.peek_or_null() {
            self.i += 1;
            let positive_exp = match self.peek_or_null() {
                b'+' => {
                    self.i += 1;
                    true
                }
                b'-' => {
                    self.i += 1;
                    false
                }
                _ => true,
            };
            let mut exp = match self.next() {
                None => return Err(self.error(Code::EofWhileParsingValue)),
                Some(c @ b'0'..=b'9') => (c - b'0') as i32,
                Some(_) => return Err(self.error(Code::InvalidNumber)),
            };
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                self.i += 1;
                let digit = (c - b'0') as i32;
                if overflows(exp as u64, digit as u64, i32::MAX as u64) {
                    // serde_json's parse_exponent_overflow.
                    if significand != 0 && positive_exp {
                        return Err(self.error(Code::NumberOutOfRange));
                    }
                    while self.peek_or_null().is_ascii_digit() {
                        self.i += 1;
                    }
                    return Ok(if positive { 0.0 } else { -0.0 });
                }
                exp = exp * 10 + digit;
            }
            exponent = if positive_exp {
                exponent.saturating_add(exp)
            } else {
                exponent.saturating_sub(exp)
            };
        }
        self.f64_from_parts(positive, significand, exponent)
    }

    /// `significand × 10^exponent` as serde_json computes it without `float_roundtrip`: one
    /// multiplication or division by a (correctly rounded) power of ten, so exact up to 1e22 and
    /// within an ulp or so beyond. Too big is an error ("number out of range"), too small is 0.
    fn f64_from_parts(&self, positive: bool, significand: u64, mut exponent: i32) -> Result<f64> {
        let mut f = significand as f64;
        loop {
            match exponent.unsigned_abs() {
                e @ 0..=308 => {
                    let pow = pow10(e);
                    if exponent >= 0 {
                        f *= pow;
                        if f.is_infinite() {
                            return Err(self.error(Code::NumberOutOfRange));
                        }
                    } else {
                        f /= pow;
                    }
                    break;
                }
                _ => {
                    if f == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(Code::NumberOutOfRange));
                    }
                    f /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { f } else { -f })
    }
}

/// An object's members with each key once: a repeated key's last value in its first place (as
/// `JSON.parse` and serde_json's `preserve_order` do). Small objects compare pairwise; bigger
/// ones (a hostile server's `{"a":1,"a":1,…}` included) sort an index by key, so the work is
/// O(n log n) either way.
pub(super) fn dedupe(mut entries: Vec<(String, Value)>) -> Map<String, Value> {
    let n = entries.len();
    if n <= 32 {
        let mut m = Map::with_capacity(n);
        for (k, v) in entries {
            m.insert(k, v);
        }
        return m;
    }
    let mut order: Vec<usize> = (0..n).collect();
    // (key, position): a total order, so the unstable heapsort groups each key's positions in
    // ascending order.
    heapsort(&mut order, |&a, &b| {
        (entries[a].0.as_str(), a) < (entries[b].0.as_str(), b)
    });
    let mut keep = vec![true; n];
    let mut run = 0;
    while run < n {
        let first = order[run];
        let mut end = run + 1;
        while end < n && entries[order[end]].0 == entries[first].0 {
            keep[order[end]] = false;
            end += 1;
        }
        let last = order[end - 1];
        if last != first {
            let v = std::mem::take(&mut entries[last].1);
            entries[first].1 = v;
        }
        run = end;
    }
    let mut at = 0;
    entries.retain(|_| {
        at += 1;
        keep[at - 1]
    });
    Map::from_distinct(entries)
}

/// In-place heapsort (O(n log n) worst case, a few dozen bytes of wasm; core's sorts are larger).
fn heapsort<T: Copy>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let sift = |v: &mut [T], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            break;
        }
        if child + 1 < end && less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !less(&v[root], &v[child]) {
            break;
        }
        v.swap(root, child);
        root = child;
    };
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift(v, i, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

/// 10^n (n ≤ 308) correctly rounded, as the literal `1e{n}` is: the same values as serde_json's
/// 309-entry table (tests compare all of them), computed instead of stored (−2.4 KB of data).
/// 5^n exactly in 32-bit limbs, rounded to 53 bits by the u64 → f64 conversion (its low bit made
/// sticky, so ties break right), then scaled by 2^n exactly.
pub(super) fn pow10(n: u32) -> f64 {
    // 5^308 < 2^716: 23 limbs.
    let mut limbs = [0u32; 23];
    limbs[0] = 1;
    let mut len = 1;
    for _ in 0..n.min(308) {
        let mut carry = 0u64;
        for limb in &mut limbs[..len] {
            let x = *limb as u64 * 5 + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry != 0 && len < limbs.len() {
            limbs[len] = carry as u32;
            len += 1;
        }
    }
    // The top 64 bits (the top limb is non-zero), the rest as a sticky bit.
    let top = limbs[len - 1];
    let bits = 32 * len as u32 - top.leading_zeros();
    let shift = bits.saturating_sub(64);
    let mut m = 0u64;
    let mut sticky = false;
    for (i, &limb) in limbs[..len].iter().enumerate() {
        let lo = 32 * i as u32;
        if lo + 32 <= shift {
            sticky |= limb != 0;
        } else if lo >= shift {
            m |= (limb as u64) << (lo - shift);
        } else {
            let cut = shift - lo;
            sticky |= limb & ((1 << cut) - 1) != 0;
            m |= (limb as u64) >> cut;
        }
    }
    let f = (m | sticky as u64) as f64;
    // × 2^(shift + n): shift + n ≤ 652 + 308, a normal power of two.
    f * f64::from_bits(((1023 + shift + n.min(308)) as u64) << 52)
}

#[cfg(test)]
mod scan_tests {
    use super::special;

    /// `special` against the byte loop it replaces, for every special byte at every position of
    /// short and word-crossing texts, among ASCII and multi-byte UTF-8 neighbours.
    #[test]
    fn finds_the_first_special_byte() {
        let naive = |s: &[u8]| s.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
        let fillers: [&[u8]; 3] = [b"abcdefgh", "éü€😀".as_bytes(), b"\x7f !#[]~\x80"];
        for filler in fillers {
            for len in 0..40 {
                let base: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                assert_eq!(special(&base), naive(&base));
                for at in 0..len {
                    for b in [b'"', b'\\', 0, 0x1f, b'\n', 0x20, 0x21, 0x5b, 0x5d, 0xff] {
                        let mut v = base.clone();
                        v[at] = b;
                        assert_eq!(special(&v), naive(&v), "byte {b:#x} at {at} of {v:?}");
                        // A second special byte later must not move the first.
                        if at + 3 < len {
                            v[at + 3] = b'"';
                            assert_eq!(special(&v), naive(&v));
                        }
                    }
                }
            }
        }
    }
}
