//! Skill URIs: a canonical spelling (what `skills/get` compares), the skill root of a
//! `SKILL.md` URI, relative references resolved against it, and the key under which every
//! spelling of one file (`Q&A.md`, `Q%26A.md`, `a/./b`) is the same file.
//!
//! Hand-written for the generic URI syntax (RFC 3986) as WHATWG URL serialises non-special
//! schemes: the scheme lowercased, the authority kept, dot segments removed, characters outside
//! the path set percent-encoded. The client never resolves an authority (no DNS, no network).

/// Characters a path segment keeps raw in a file key (WHATWG's path set, `^` encoded).
fn keeps_raw(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_!$&'()*+,.:;=@[]|~-".contains(c)
}

/// Characters WHATWG URL percent-encodes in a path (C0, space, `"#<>?\`{}`, non-ASCII).
fn path_encodes(c: char) -> bool {
    c <= ' ' || c > '~' || "\"<>`{}".contains(c)
}

fn encode_with(text: &str, encode: fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if encode(c) {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A URI split at its generic parts (scheme lowercased; `rest` is what follows `scheme:`).
struct Parts<'a> {
    scheme: String,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

fn split(uri: &str) -> Option<Parts<'_>> {
    let colon = uri.find(':')?;
    let scheme = &uri[..colon];
    let mut chars = scheme.chars();
    if !chars.next()?.is_ascii_alphabetic()
        || !chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return None;
    }
    let rest = &uri[colon + 1..];
    let rest = rest.split('#').next().unwrap_or_default();
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, rest),
    };
    Some(Parts {
        scheme: scheme.to_ascii_lowercase(),
        authority,
        path,
        query,
    })
}

/// RFC 3986 §5.2.4 on a path (`%2E` counts as a dot, as WHATWG URL does).
fn remove_dots(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    for (i, seg) in segments.iter().enumerate() {
        let lower = seg.to_ascii_lowercase();
        let dots = lower.replace("%2e", ".");
        match dots.as_str() {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            _ => out.push(seg),
        }
    }
    out.join("/")
}

fn join(parts: &Parts<'_>, path: &str) -> String {
    let mut out = format!("{}:", parts.scheme);
    if let Some(a) = parts.authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&encode_with(path, path_encodes));
    if let Some(q) = parts.query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// The canonical spelling of `uri` without its fragment, or `None` when it is no absolute URI.
pub fn canonical(uri: &str) -> Option<String> {
    let parts = split(uri)?;
    let path = if parts.path.starts_with('/') {
        remove_dots(parts.path)
    } else {
        parts.path.to_string()
    };
    Some(join(&parts, &path))
}

/// True when `uri` (as written) has a query or a fragment.
pub fn has_query_or_fragment(uri: &str) -> bool {
    uri.contains('?') || uri.contains('#')
}

/// The skill root of a `SKILL.md` URI (canonical, no trailing slash), or `None` when the URI
/// does not end in `/SKILL.md` inside a named directory.
pub fn skill_root(skill_md: &str) -> Option<String> {
    let c = canonical(skill_md)?;
    if c.contains('?') {
        return None;
    }
    let root = c.strip_suffix("/SKILL.md")?;
    (!root.ends_with('/') && !root.ends_with(':')).then(|| root.to_string())
}

/// `reference` (default `SKILL.md`) resolved against `root` as a browser resolves a link,
/// fragment dropped; `None` when it does not resolve.
pub fn resolve(root: &str, reference: &str) -> Option<String> {
    if split(reference).is_some() {
        return canonical(reference);
    }
    let base = split(root)?;
    let reference = reference.split('#').next().unwrap_or_default();
    let (path, query) = match reference.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (reference, None),
    };
    let joined = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{path}", base.path)
    };
    let mut parts = base;
    parts.query = query;
    Some(join(&parts, &remove_dots(&joined)))
}

/// The decoded last path segment of a root (the authority when the path is empty).
pub fn last_segment(root: &str) -> String {
    let Some(parts) = split(root) else {
        return String::new();
    };
    let seg = match parts.path.rsplit('/').next() {
        Some(s) if !s.is_empty() => s,
        _ => parts.authority.unwrap_or_default(),
    };
    decode(seg).unwrap_or_else(|| seg.to_string())
}

/// Percent-decodes `text` when the result is UTF-8.
fn decode(text: &str) -> Option<String> {
    String::from_utf8(decode_bytes(text)).ok()
}

fn decode_bytes(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// One segment's key: escapes decoded where they form UTF-8, then encoded in one way.
fn segment_key(segment: &str) -> String {
    match decode(segment) {
        Some(text) => encode_with(&text, |c| !keeps_raw(c)),
        // Escapes that are no UTF-8 stay as published, the `%` itself encoded.
        None => encode_with(&segment.replace('%', "%25"), |c| !keeps_raw(c) && c != '%'),
    }
}

/// The one spelling every way of writing a file's URI below `root` shares; a URI outside the
/// root (or with a query) keys as its canonical form. `None` when it does not parse.
pub fn file_key(root: &str, uri: &str) -> Option<String> {
    let c = canonical(uri)?;
    let below = match c.strip_prefix(root).and_then(|r| r.strip_prefix('/')) {
        Some(below) if !c.contains('?') => below,
        _ => return Some(c),
    };
    let keyed: Vec<String> = below.split('/').map(segment_key).collect();
    Some(format!("{root}/{}", keyed.join("/")))
}

/// True when `uri` is strictly inside `root` and no segment below it decodes to empty, `.`,
/// `..`, or a name holding `/` or NUL.
pub fn is_within(root: &str, uri: &str) -> bool {
    let Some(c) = canonical(uri) else {
        return false;
    };
    let Some(below) = c.strip_prefix(root).and_then(|r| r.strip_prefix('/')) else {
        return false;
    };
    !c.contains('?')
        && below.split('/').all(|seg| {
            let d = String::from_utf8_lossy(&decode_bytes(seg)).into_owned();
            !d.is_empty() && d != "." && d != ".." && !d.contains('/') && !d.contains('\0')
        })
}
