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
    /// The 1-based line of the error.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column (in bytes) of the error; 0 when the error is at a line's start.
    pub fn column(&self) -> usize {
        self.column
    }

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

    /// Whether the text is not valid JSON (anything but `is_eof`).
    pub fn is_syntax(&self) -> bool {
        !self.is_eof()
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

struct Parser<'a> {
    /// Always valid UTF-8 (a `&str`'s bytes), so spans cut at ASCII bytes are `str`s.
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

    /// After `[`, through `]`.
    fn array(&mut self) -> Result<Value> {
        let mut items = Vec::new();
        loop {
            let next = match self.whitespace() {
                Some(b']') => break,
                Some(b',') if !items.is_empty() => {
                    self.i += 1;
                    self.whitespace()
                }
                Some(_) if items.is_empty() => self.peek(),
                Some(_) => return Err(self.peek_error(Code::ExpectedListCommaOrEnd)),
                None => return Err(self.peek_error(Code::EofWhileParsingList)),
            };
            match next {
                Some(b']') => return Err(self.peek_error(Code::TrailingComma)),
                Some(_) => items.push(self.value()?),
                None => return Err(self.peek_error(Code::EofWhileParsingValue)),
            }
        }
        self.i += 1;
        Ok(Value::Array(items))
    }

    /// After `{`, through `}`.
    fn object(&mut self) -> Result<Value> {
        let mut entries = Vec::new();
        loop {
            let next = match self.whitespace() {
                Some(b'}') => break,
                Some(b',') if !entries.is_empty() => {
                    self.i += 1;
                    self.whitespace()
                }
                Some(_) if entries.is_empty() => self.peek(),
                Some(_) => return Err(self.peek_error(Code::ExpectedObjectCommaOrEnd)),
                None => return Err(self.peek_error(Code::EofWhileParsingObject)),
            };
            match next {
                Some(b'"') => {}
                Some(b'}') => return Err(self.peek_error(Code::TrailingComma)),
                Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                None => return Err(self.peek_error(Code::EofWhileParsingValue)),
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
        let mut out = Vec::new();
        let mut start = self.i;
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error(Code::EofWhileParsingString));
            };
            match b {
                b'"' | b'\\' => {
                    out.extend_from_slice(&self.s[start..self.i]);
                    self.i += 1;
                    if b == b'"' {
                        // Valid UTF-8: spans of the input cut at ASCII bytes, and whole escapes.
                        return String::from_utf8(out)
                            .map_err(|_| self.error(Code::InvalidUnicodeCodePoint));
                    }
                    self.escape(&mut out)?;
                    start = self.i;
                }
                0..=0x1f => {
                    self.i += 1;
                    return Err(self.error(Code::ControlCharacterWhileParsingString));
                }
                _ => self.i += 1,
            }
        }
    }

    /// After a `\`, the escape's text appended to `out`.
    fn escape(&mut self, out: &mut Vec<u8>) -> Result<()> {
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
        out.push(c);
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
    fn unicode_escape(&mut self, out: &mut Vec<u8>) -> Result<()> {
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
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
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
            match POW10.get(exponent.unsigned_abs() as usize) {
                Some(&pow) => {
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
                None => {
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

/// 10^0 … 10^308, each correctly rounded (serde_json's table).
static POW10: [f64; 309] = [
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
