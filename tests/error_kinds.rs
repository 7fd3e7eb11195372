//! The `data.kind`s the TypeScript declarations list (`McpErrorKinds` in src/js/api/types.d.ts)
//! are exactly the kinds the client can emit: every `ErrorKind::as_str` string of the Rust, and
//! the kinds the package's JavaScript makes itself (`kind: "…"` objects in src/js and
//! pkg-template, the custom elements' `#err(code, message, "kind")`). Checked on the source, so
//! a kind added on either side without the other fails here. The errors table (docs/client.md,
//! included in the package README) names only declared kinds.

use std::collections::BTreeSet;
use std::path::PathBuf;

#[path = "support/source_files.rs"]
mod source_files;
use source_files::files_with_extension;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The text of `source` from the line starting with `start` to the first line equal to `end`.
fn block<'a>(source: &'a str, start: &str, end: &str) -> &'a str {
    let from = source
        .find(start)
        .unwrap_or_else(|| panic!("no {start:?} found"));
    let rest = &source[from..];
    let to = rest
        .find(&format!("\n{end}\n"))
        .unwrap_or_else(|| panic!("no line {end:?} after {start:?}"));
    &rest[..to]
}

/// The string literal `text` starts with (`"x"` or `'x'`), if it is made of `[a-z_]`.
fn leading_literal(text: &str) -> Option<String> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &text[1..];
    let word = &body[..body.find(quote)?];
    word.chars()
        .all(|c| c.is_ascii_lowercase() || c == '_')
        .then(|| word.to_string())
}

/// Each such literal that follows `marker` in `text`.
fn literals_after(text: &str, marker: &str) -> Vec<String> {
    text.match_indices(marker)
        .filter_map(|(at, _)| leading_literal(&text[at + marker.len()..]))
        .collect()
}

/// The kinds the Rust emits: the strings `ErrorKind::as_str` returns (its match is exhaustive).
fn rust_kinds() -> BTreeSet<String> {
    let source = read("src/protocol/error.rs");
    let body = block(&source, "    pub fn as_str(self)", "    }");
    let kinds: BTreeSet<String> = literals_after(body, "=> ").into_iter().collect();
    assert!(kinds.len() >= 20, "as_str read wrongly: {kinds:?}");
    kinds
}

/// The JS files of the package: src/js/**/*.js and pkg-template/**/*.js.
fn js_files() -> Vec<PathBuf> {
    files_with_extension([root().join("src/js"), root().join("pkg-template")], "js")
}

/// The third argument of each `name(code, message, 'kind'…)` call in `text` (the elements' `#err`).
fn err_call_kinds(text: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices(name) {
        let rest = &text[at + name.len()..];
        // code, then the message: a '…', "…" or `…` literal
        let Some(comma) = rest.find(',') else {
            continue;
        };
        let message = rest[comma + 1..].trim_start();
        let Some(quote) = message.chars().next().filter(|c| "'\"`".contains(*c)) else {
            continue;
        };
        let Some(end) = message[1..].find(quote) else {
            continue;
        };
        let after = message[end + 2..].trim_start();
        if let Some(kind) = after
            .strip_prefix(',')
            .and_then(|a| leading_literal(a.trim_start()))
        {
            out.push(kind);
        }
    }
    out
}

/// The kinds the package's JavaScript makes (not through the wasm).
fn js_kinds() -> BTreeSet<String> {
    let mut kinds = BTreeSet::new();
    for path in js_files() {
        let text = std::fs::read_to_string(&path).expect("a readable file");
        kinds.extend(literals_after(&text, "kind: "));
        kinds.extend(err_call_kinds(&text, "#err("));
        kinds.extend(err_call_kinds(&text, "mkErr("));
    }
    kinds
}

/// The keys of `McpErrorKinds` in the hand-written declarations.
fn declared_kinds() -> BTreeSet<String> {
    let source = read("src/js/api/types.d.ts");
    let body = block(&source, "export interface McpErrorKinds {", "}");
    body.lines()
        .filter_map(|line| {
            let key = line.strip_prefix("  ")?.split(':').next()?;
            key.chars()
                .all(|c| c.is_ascii_lowercase() || c == '_')
                .then(|| key.to_string())
        })
        .filter(|k| !k.is_empty())
        .collect()
}

#[test]
fn the_declared_kinds_are_the_kinds_the_client_emits() {
    let mut emitted = rust_kinds();
    let js = js_kinds();
    assert!(
        js.contains("unknown_tool") && js.contains("cancelled"),
        "the JS kinds were read wrongly: {js:?}"
    );
    emitted.extend(js);
    let declared = declared_kinds();
    let undeclared: Vec<_> = emitted.difference(&declared).collect();
    let unemitted: Vec<_> = declared.difference(&emitted).collect();
    assert!(
        undeclared.is_empty() && unemitted.is_empty(),
        "McpErrorKinds in src/js/api/types.d.ts must list every kind the client emits: \
         emitted but not declared {undeclared:?}; declared but never emitted {unemitted:?}"
    );
}

/// The errors table is written once, in docs/client.md's "## Errors" (the package README includes
/// that section: scripts/package-readme.mjs).
#[test]
fn the_errors_table_names_only_declared_kinds() {
    let declared = declared_kinds();
    let readme = read("docs/client.md");
    let table = block(&readme, "| kind | code | when |", "");
    let named: BTreeSet<String> = table
        .lines()
        .filter_map(|line| line.strip_prefix("| `")?.split('`').next())
        .map(str::to_string)
        .collect();
    assert!(
        named.len() >= 10,
        "the errors table was read wrongly: {named:?}"
    );
    let unknown: Vec<_> = named.difference(&declared).collect();
    assert!(unknown.is_empty(), "README kinds not declared: {unknown:?}");
}
