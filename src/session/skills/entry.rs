//! Skill entries (`skills/list`, `skills/get`): the shape, the Agent Skills rules, and a
//! listing split into valid skills and refused entries (every copy of a repeated `uri`
//! refused), as the TypeScript SDK 2.x `SkillsClient` checks them.

use super::uri;
use super::wire::{EntryUri, FrontmatterFields, ResourceEntry, SkillEntry};
use super::LIMITS;
use crate::json::{Map, Value};
use crate::protocol::model::Field;

/// One file of a skill as its entry lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillResource {
    /// The file's URI as the entry spells it.
    pub uri: String,
    /// `sha256:` and 64 lowercase hex digits.
    pub digest: String,
    /// The byte length.
    pub size: u64,
}

/// A skill's files: listed (with size and digest) or generated on demand.
#[derive(Debug, Clone, PartialEq)]
pub enum Resources {
    /// Every file, each with its size and digest.
    Listed(Vec<SkillResource>),
    /// `"dynamic"`: no digests; reads are not content-bound.
    Dynamic,
}

/// A valid skill entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Skill {
    /// The URI of the skill's `SKILL.md`.
    pub uri: String,
    /// The skill root: `uri` without `/SKILL.md`, canonical.
    pub root: String,
    /// The entry's frontmatter (the JSON rendering of the file's YAML).
    pub frontmatter: Map<String, Value>,
    /// The files.
    pub resources: Resources,
}

/// An entry refused: where it was in the listing, its `uri` when it had one, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidEntry {
    /// Its index across every page walked.
    pub index: usize,
    /// Its `uri`, when a string.
    pub uri: Option<String>,
    /// The problems, joined with `; `.
    pub reason: String,
}

fn is_skill_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

fn is_digest(d: &str) -> bool {
    d.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64
            && hex
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
    })
}

fn resource_of(v: &Value, at: usize, problems: &mut Vec<String>) -> Option<SkillResource> {
    let r = ResourceEntry::read(v).unwrap_or_default();
    match (r.uri, r.digest, r.size) {
        (Field::Is(uri), Field::Is(digest), Field::Is(size)) if is_digest(&digest) => {
            Some(SkillResource { uri, digest, size })
        }
        _ => {
            problems.push(format!(
                "resources[{at}]: needs a string uri, a sha256: digest (64 lowercase hex) and an integer size >= 0"
            ));
            None
        }
    }
}

fn resources_of(v: Field<Value>, problems: &mut Vec<String>) -> Option<Resources> {
    match v {
        Field::Is(Value::String(s)) if s == "dynamic" => Some(Resources::Dynamic),
        Field::Is(Value::Array(items)) => {
            let listed: Vec<_> = (items.iter().enumerate())
                .filter_map(|(i, r)| resource_of(r, i, problems))
                .collect();
            Some(Resources::Listed(listed))
        }
        _ => {
            problems.push("resources must be an array of files or \"dynamic\"".into());
            None
        }
    }
}

fn check_frontmatter(fm: &Map<String, Value>, root: &str, problems: &mut Vec<String>) {
    let fm = FrontmatterFields::read(fm);
    match fm.name.ok().map(String::as_str) {
        Some(name) if !is_skill_name(name) => problems.push(format!(
            "frontmatter name {name:?} must be 1-64 lowercase letters, digits and single hyphens"
        )),
        Some(name) if uri::last_segment(root) != name => problems.push(format!(
            "frontmatter name {name:?} must match the last path segment {:?}",
            uri::last_segment(root)
        )),
        Some(_) => {}
        None => problems.push("frontmatter name must be a string".into()),
    }
    match fm.description.ok() {
        Some(d) if !d.is_empty() && d.chars().count() <= 1024 => {}
        _ => problems.push("frontmatter description must be a string of 1-1024 characters".into()),
    }
    if fm.compatibility.is_present()
        && !(fm.compatibility.ok()).is_some_and(|c| !c.is_empty() && c.chars().count() <= 500)
    {
        problems.push("frontmatter compatibility must be a string of 1-500 characters".into());
    }
    if fm.metadata.is_present()
        && !(fm.metadata.ok()).is_some_and(|m| m.values().all(Value::is_string))
    {
        problems.push("frontmatter metadata must map strings to strings".into());
    }
}

fn check_files(uri_: &str, root: &str, files: &[SkillResource], problems: &mut Vec<String>) {
    let own = uri::canonical(uri_);
    let mut seen = std::collections::BTreeSet::new();
    let mut has_self = false;
    let mut total: u64 = 0;
    for r in files {
        total = total.saturating_add(r.size);
        let Some(c) = uri::canonical(&r.uri) else {
            problems.push(format!("resource {:?} is not a valid URI", r.uri));
            continue;
        };
        if uri::has_query_or_fragment(&r.uri) {
            problems.push(format!(
                "resource {:?} must not have a query or fragment",
                r.uri
            ));
            continue;
        }
        if !seen.insert(uri::file_key(root, &c).unwrap_or_else(|| c.clone())) {
            problems.push(format!("resource {:?} is listed more than once", r.uri));
        }
        if Some(&c) == own.as_ref() {
            has_self = true;
        } else if !uri::is_within(root, &r.uri) {
            problems.push(format!(
                "resource {:?} is outside the skill directory {root}",
                r.uri
            ));
        }
    }
    if !has_self {
        problems.push(format!("resources must include {uri_}"));
    }
    if files.len() > LIMITS.files || total > LIMITS.bytes {
        problems.push(format!(
            "the skill has {} files of {total} bytes in all, over the limits ({} files, {} bytes)",
            files.len(),
            LIMITS.files,
            LIMITS.bytes
        ));
    }
}

/// Checks one entry received from a server: the skill, or every problem found.
pub fn check(value: &Value) -> Result<Skill, Vec<String>> {
    let mut problems = Vec::new();
    let entry = SkillEntry::read(value).unwrap_or_default();
    let Some(uri_) = entry.uri.ok().map(String::as_str) else {
        return Err(vec!["uri must be a string".into()]);
    };
    let Some(root) = uri::skill_root(uri_) else {
        return Err(vec![format!(
            "uri {uri_:?} must be a URI ending in /SKILL.md inside a named directory"
        )]);
    };
    let frontmatter = match entry.frontmatter {
        Field::Is(fm) => fm,
        _ => {
            problems.push("frontmatter must be an object".into());
            Map::new()
        }
    };
    check_frontmatter(&frontmatter, &root, &mut problems);
    let resources = resources_of(entry.resources, &mut problems);
    if let Some(Resources::Listed(files)) = &resources {
        check_files(uri_, &root, files, &mut problems);
    }
    match resources {
        Some(resources) if problems.is_empty() => Ok(Skill {
            uri: uri_.into(),
            root,
            frontmatter,
            resources,
        }),
        _ => Err(problems),
    }
}

/// Splits a listing into valid skills and refused entries; every copy of a repeated `uri`
/// (by canonical form) is refused.
pub fn partition(values: &[Value]) -> (Vec<Skill>, Vec<InvalidEntry>) {
    let key = |v: &Value| {
        let u = EntryUri::of(v)?;
        Some(uri::canonical(&u).unwrap_or(u))
    };
    let mut counts = std::collections::BTreeMap::new();
    for v in values {
        if let Some(k) = key(v) {
            *counts.entry(k).or_insert(0) += 1;
        }
    }
    let (mut skills, mut invalid) = (Vec::new(), Vec::new());
    for (index, v) in values.iter().enumerate() {
        let repeated = key(v).is_some_and(|k| counts.get(&k).copied().unwrap_or(0) > 1);
        let mut result = check(v);
        if repeated {
            let mut problems = result.err().unwrap_or_default();
            problems.push("the same uri is listed more than once".into());
            result = Err(problems);
        }
        match result {
            Ok(skill) => skills.push(skill),
            Err(problems) => invalid.push(InvalidEntry {
                index,
                uri: EntryUri::of(v),
                reason: problems.join("; "),
            }),
        }
    }
    (skills, invalid)
}
