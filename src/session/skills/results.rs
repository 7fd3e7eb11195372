//! What the client makes of the extension's results, without I/O: a walked `skills/list` split
//! into valid and invalid entries, a `skills/get` checked against the URI it asked for, a
//! directory read's walked pages, and the skills held for `read(fileUri)` (each listed or got
//! entry, newest first).

use super::entry::{self, Skill};
use super::uri;
use super::verify::{failure, holds, Reason};
use super::wire::{GetSkillResult, SkillsPage};
use super::EXTENSION_ID;
use crate::json::{json, Map, Value};
use crate::protocol::error::{ErrorKind, McpError, INVALID_REQUEST, METHOD_NOT_FOUND};
use crate::protocol::model::{view, Field};
use std::collections::BTreeSet;

/// Pages `list()` and `readDirectory()` walk at most unless `maxPages` says otherwise.
pub const DEFAULT_MAX_PAGES: u32 = 64;

/// The method `readDirectory()` sends (its pages walked like a list's, under `resources`).
pub const DIRECTORY_METHOD: &str = "resources/directory/read";

/// The refusal of a method the server's declaration does not offer (no request is made).
pub fn unsupported(method: &str) -> McpError {
    McpError::local(
        METHOD_NOT_FOUND,
        ErrorKind::Unsupported,
        format!("the server does not declare the {EXTENSION_ID} extension (needed for {method})"),
        Value::Null,
    )
}

/// Copies `ttlMs` and `cacheScope` of a result, where it has them.
fn cache_fields(from: &Value, into: &mut Map<String, Value>) {
    for key in ["ttlMs", "cacheScope"] {
        if let Some(v) = from.get(key) {
            into.insert(key.into(), v.clone());
        }
    }
}

/// Keeps `skills` as the held entries, first, each replacing an older one of the same root.
pub fn hold(held: &mut Vec<Skill>, skills: &[Skill]) {
    held.retain(|h| !skills.iter().any(|s| s.root == h.root));
    held.splice(0..0, skills.iter().cloned());
}

/// The held skill whose entry lists `file_uri` (the innermost, for nested skills).
pub fn holder(held: &[Skill], file_uri: &str) -> Result<Skill, McpError> {
    let found = held
        .iter()
        .filter(|s| holds(s, file_uri))
        .max_by_key(|s| s.root.len());
    found.cloned().ok_or_else(|| {
        let msg = format!("no skill this client has listed or got lists {file_uri}");
        failure(Reason::Unlisted, file_uri, msg, vec![])
    })
}

/// A `skills/list` result (every page walked, or the one page a cursor asked for) as
/// `list()` answers it: `{ skills, invalid, nextCursor? (one page), ttlMs?, cacheScope? }`.
/// An invalid entry fails the listing unless `skip_invalid`; the valid ones are held.
pub fn listing(
    page: &Value,
    skip_invalid: bool,
    one_page: bool,
    held: &mut Vec<Skill>,
) -> Result<Value, McpError> {
    let Some(Field::Is(values)) = view::<SkillsPage>(page).map(|p| p.skills) else {
        return Err(McpError::protocol(
            INVALID_REQUEST,
            "skills/list: the result has no skills array",
        ));
    };
    let (skills, invalid) = entry::partition(&values);
    let invalid_json: Vec<Value> = invalid
        .iter()
        .map(|i| json!({ "index": i.index, "uri": i.uri, "reason": i.reason }))
        .collect();
    if !invalid.is_empty() && !skip_invalid {
        let detail: Vec<String> = invalid
            .iter()
            .map(|i| {
                let uri = i.uri.as_deref().unwrap_or("");
                format!("#{} {uri}: {}", i.index, i.reason)
            })
            .collect();
        let mut e = McpError::protocol(
            INVALID_REQUEST,
            format!(
                "skills/list returned invalid entries:\n{}",
                detail.join("\n")
            ),
        );
        e.data = Some(json!({ "invalid": invalid_json }));
        return Err(e);
    }
    hold(held, &skills);
    let refused: BTreeSet<usize> = invalid.iter().map(|i| i.index).collect();
    let valid: Vec<Value> = (values.iter().enumerate())
        .filter(|(i, _)| !refused.contains(i))
        .map(|(_, v)| v.clone())
        .collect();
    let mut out = Map::new();
    out.insert("skills".into(), Value::Array(valid));
    out.insert("invalid".into(), Value::Array(invalid_json));
    if one_page {
        if let Some(c) = page.get("nextCursor") {
            out.insert("nextCursor".into(), c.clone());
        }
    }
    cache_fields(page, &mut out);
    Ok(Value::Object(out))
}

/// A `skills/get` result for `uri` as `get()` answers it (`{ skill, ttlMs?, cacheScope? }`): a
/// valid entry for that very skill, which is held.
pub fn got(uri: &str, result: &Value, held: &mut Vec<Skill>) -> Result<Value, McpError> {
    let raw = match view::<GetSkillResult>(result).map(|r| r.skill) {
        Some(Field::Is(v) | Field::Wrong(v)) => v,
        _ => Value::Null,
    };
    let skill = entry::check(&raw).map_err(|problems| {
        McpError::protocol(
            INVALID_REQUEST,
            format!(
                "skills/get returned an invalid entry for {uri}: {}",
                problems.join("; ")
            ),
        )
    })?;
    let asked = uri::canonical(uri);
    if asked.is_none() || asked != uri::canonical(&skill.uri) {
        return Err(McpError::protocol(
            INVALID_REQUEST,
            format!("skills/get for {uri} returned {}", skill.uri),
        ));
    }
    hold(held, std::slice::from_ref(&skill));
    let mut out = Map::new();
    out.insert("skill".into(), raw);
    cache_fields(result, &mut out);
    Ok(Value::Object(out))
}

/// The params of a directory read's first page (the engine keeps them on every later page,
/// with the cursor).
pub fn directory_params(uri: &str) -> Value {
    json!({ "uri": uri })
}

/// A walked `resources/directory/read` result as `readDirectory()` answers it:
/// `{ resources, ttlMs?, cacheScope? }` (nothing else the server put there).
pub fn directory(all: &Value) -> Value {
    let mut out = Map::new();
    cache_fields(all, &mut out);
    let items = all.get("resources").cloned().unwrap_or_else(|| json!([]));
    out.insert("resources".into(), items);
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::skills::verify::digest_of;

    fn entry(name: &str) -> Value {
        let md = format!("---\nname: {name}\ndescription: d\n---\n");
        json!({
            "uri": format!("skill://{name}/SKILL.md"),
            "frontmatter": { "name": name, "description": "d" },
            "resources": [{ "uri": format!("skill://{name}/SKILL.md"), "digest": digest_of(md.as_bytes()), "size": md.len() }]
        })
    }

    #[test]
    fn listing_holds_the_valid_entries_and_refuses_an_invalid_one_unless_skipped() {
        let page = json!({ "skills": [entry("a"), { "uri": 5 }, entry("b")], "ttlMs": 9, "nextCursor": "c" });
        let mut held = Vec::new();
        let e = listing(&page, false, false, &mut held).unwrap_err();
        assert!(e.message.contains("#1"), "{}", e.message);
        assert_eq!(e.data_json().unwrap()["invalid"][0]["index"], 1);
        assert!(held.is_empty(), "nothing held from a refused listing");

        let out = listing(&page, true, false, &mut held).unwrap();
        let uris: Vec<&str> = (out["skills"].as_array().unwrap().iter())
            .map(|s| s["uri"].as_str().unwrap())
            .collect();
        assert_eq!(uris, ["skill://a/SKILL.md", "skill://b/SKILL.md"]);
        assert_eq!(out["invalid"].as_array().unwrap().len(), 1);
        assert_eq!(out["ttlMs"], 9);
        assert!(
            out.get("nextCursor").is_none(),
            "a walked listing has no cursor"
        );
        assert_eq!(held.len(), 2);

        let one = listing(&page, true, true, &mut held).unwrap();
        assert_eq!(one["nextCursor"], "c", "one page keeps its cursor");
        assert_eq!(held.len(), 2, "listing again replaces, never duplicates");
        assert!(listing(&json!({}), true, false, &mut held).is_err());
    }

    #[test]
    fn got_checks_the_uri_asked_for_and_holds_it() {
        let mut held = Vec::new();
        let result = json!({ "skill": entry("a"), "cacheScope": "session", "other": 1 });
        let out = got("SKILL://a/./SKILL.md", &result, &mut held).unwrap();
        assert_eq!(out["cacheScope"], "session");
        assert!(out.get("other").is_none());
        assert_eq!(held.len(), 1);
        let e = got("skill://b/SKILL.md", &result, &mut held).unwrap_err();
        assert!(
            e.message.contains("returned skill://a/SKILL.md"),
            "{}",
            e.message
        );
        let e = got(
            "skill://a/SKILL.md",
            &json!({ "skill": { "uri": 1 } }),
            &mut held,
        )
        .unwrap_err();
        assert!(e.message.contains("invalid entry"), "{}", e.message);
    }

    #[test]
    fn the_holder_is_the_innermost_skill_listing_the_file() {
        let mut held = Vec::new();
        hold(&mut held, &[entry::check(&entry("a")).unwrap()]);
        assert_eq!(
            holder(&held, "skill://a/SKILL.md").unwrap().root,
            "skill://a"
        );
        let e = holder(&held, "skill://a/other.md").unwrap_err();
        assert_eq!(e.data_json().unwrap()["reason"], "unlisted");
    }

    #[test]
    fn a_directory_keeps_its_resources_and_cache_fields_only() {
        let all = json!({ "resources": [{ "uri": "skill://a/x" }], "ttlMs": 5, "extra": true });
        assert_eq!(
            directory(&all),
            json!({ "resources": [{ "uri": "skill://a/x" }], "ttlMs": 5 })
        );
        assert_eq!(directory(&json!({})), json!({ "resources": [] }));
        assert_eq!(unsupported("skills/get").kind, Some(ErrorKind::Unsupported));
    }
}
