//! Reading a skill file: which file a reference names (refused before any request when the
//! entry does not list it), and the checks on what `resources/read` returned: byte size, the
//! `sha256:` digest and, for the skill's own `SKILL.md`, its frontmatter against the entry's.

use super::entry::{Resources, Skill, SkillResource};
use super::{frontmatter, uri};
use crate::json::{json, Map, Value};
use crate::protocol::error::{ErrorKind, McpError, INTERNAL_ERROR};
use crate::protocol::model::resource::ResourceContents;
use crate::util::base64::{self, Alphabet};
use sha2::{Digest, Sha256};

/// Why a file failed verification (`data.reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The entry does not list the file.
    Unlisted,
    /// Its byte length is not the entry's `size`.
    Size,
    /// Its SHA-256 is not the entry's `digest`.
    Digest,
    /// Its frontmatter differs from the entry's (or cannot be read).
    Frontmatter,
}

impl Reason {
    /// The `data.reason` string.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Unlisted => "unlisted",
            Reason::Size => "size",
            Reason::Digest => "digest",
            Reason::Frontmatter => "frontmatter",
        }
    }
}

/// A `skill_verification` error: `data.reason`, `data.uri` and, for frontmatter, one line per
/// differing field in `data.differences`.
pub fn failure(reason: Reason, uri: &str, message: String, differences: Vec<String>) -> McpError {
    let extra = json!({ "reason": reason.as_str(), "uri": uri, "differences": differences });
    McpError::local(INTERNAL_ERROR, ErrorKind::SkillVerification, message, extra)
}

/// The file a read names: its URI as requested, its key, its listing and whether it is the
/// skill's own `SKILL.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// The entry's spelling of a listed file; for a `"dynamic"` skill, the resolved URI.
    pub uri: String,
    key: String,
    listed: Option<SkillResource>,
    manifest: bool,
}

/// Resolves `reference` (default `SKILL.md`; relative to the skill root, or absolute) to a file
/// of `skill`; `unlisted` when the entry does not list it (no request is made then).
pub fn target(skill: &Skill, reference: Option<&str>) -> Result<Target, McpError> {
    let given = reference.unwrap_or("SKILL.md");
    let Some(resolved) = uri::resolve(&skill.root, given) else {
        let msg = format!("{given:?} is not a URI reference");
        return Err(failure(Reason::Unlisted, given, msg, vec![]));
    };
    let key = uri::file_key(&skill.root, &resolved).unwrap_or_else(|| resolved.clone());
    let manifest = Some(&key) == uri::file_key(&skill.root, &skill.uri).as_ref();
    let not_in_skill = || {
        let msg = format!("{resolved} is not a file of the skill {}", skill.uri);
        failure(Reason::Unlisted, &resolved, msg, vec![])
    };
    match &skill.resources {
        Resources::Dynamic if manifest || uri::is_within(&skill.root, &key) => Ok(Target {
            uri: resolved.clone(),
            key,
            listed: None,
            manifest,
        }),
        Resources::Dynamic => Err(not_in_skill()),
        Resources::Listed(files) => {
            let listed = files
                .iter()
                .find(|r| uri::file_key(&skill.root, &r.uri).as_ref() == Some(&key))
                .ok_or_else(not_in_skill)?;
            Ok(Target {
                uri: listed.uri.clone(),
                key,
                listed: Some(listed.clone()),
                manifest,
            })
        }
    }
}

/// True when `skill` holds `file_uri` (listed, or inside a `"dynamic"` skill's root).
pub fn holds(skill: &Skill, file_uri: &str) -> bool {
    let Some(key) = uri::file_key(&skill.root, file_uri) else {
        return false;
    };
    match &skill.resources {
        Resources::Dynamic => {
            uri::file_key(&skill.root, &skill.uri) == Some(key.clone())
                || uri::is_within(&skill.root, &key)
        }
        Resources::Listed(files) => files
            .iter()
            .any(|r| uri::file_key(&skill.root, &r.uri).as_ref() == Some(&key)),
    }
}

/// A skill file read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillFile {
    /// The URI requested.
    pub uri: String,
    /// The content's `mimeType`, when sent.
    pub mime_type: Option<String>,
    /// Exactly the bytes the digest covers.
    pub bytes: Vec<u8>,
    /// The text, when the server sent text (always for the skill's own `SKILL.md`).
    pub text: Option<String>,
    /// Size and digest were checked (`false` only for `"dynamic"` skills).
    pub verified: bool,
    /// The skill's own `SKILL.md` only: its frontmatter, equal to the entry's.
    pub frontmatter: Option<Map<String, Value>>,
    /// The skill's own `SKILL.md` only: the markdown after the frontmatter.
    pub body: Option<String>,
}

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
pub fn digest_of(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut out = String::from("sha256:");
    for b in hash {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The content item of a `resources/read` result for the target, as text or bytes.
fn content_of<'a>(
    root: &str,
    target: &Target,
    result: &'a Value,
) -> Result<(ResourceContents<'a>, Vec<u8>), McpError> {
    let missing = || {
        McpError::protocol(
            INTERNAL_ERROR,
            format!("resources/read returned no contents for {}", target.uri),
        )
    };
    let contents = ResourceContents::of(result).ok_or_else(missing)?;
    let item = contents
        .into_iter()
        .find(|c| uri::file_key(root, c.uri.unwrap_or_default()).as_deref() == Some(&target.key))
        .ok_or_else(missing)?;
    let bytes = if let Some(text) = item.text {
        text.as_bytes().to_vec()
    } else {
        let blob = item.blob.ok_or_else(|| {
            McpError::protocol(
                INTERNAL_ERROR,
                format!(
                    "resources/read returned neither text nor blob for {}",
                    target.uri
                ),
            )
        })?;
        base64::decode(blob, Alphabet::Standard).ok_or_else(|| {
            McpError::protocol(
                INTERNAL_ERROR,
                format!(
                    "resources/read returned an invalid base64 blob for {}",
                    target.uri
                ),
            )
        })?
    };
    Ok((item, bytes))
}

/// Checks a `resources/read` result for `target` against `skill`'s entry.
pub fn verify(skill: &Skill, target: &Target, result: &Value) -> Result<SkillFile, McpError> {
    let (item, bytes) = content_of(&skill.root, target, result)?;
    let uri_ = target.uri.as_str();
    if let Some(listed) = &target.listed {
        if bytes.len() as u64 != listed.size {
            let msg = format!(
                "{uri_} is {} bytes; the skill entry lists {}",
                bytes.len(),
                listed.size
            );
            return Err(failure(Reason::Size, uri_, msg, vec![]));
        }
        let digest = digest_of(&bytes);
        if digest != listed.digest {
            let msg = format!(
                "{uri_} has digest {digest}; the skill entry lists {}",
                listed.digest
            );
            return Err(failure(Reason::Digest, uri_, msg, vec![]));
        }
    }
    let mut file = SkillFile {
        uri: uri_.to_string(),
        mime_type: item.mime_type.map(String::from),
        text: item.text.map(String::from),
        bytes,
        verified: target.listed.is_some(),
        frontmatter: None,
        body: None,
    };
    if target.manifest {
        check_manifest(skill, &mut file)?;
    }
    Ok(file)
}

/// The skill's own `SKILL.md`: UTF-8, a readable frontmatter equal to the entry's.
fn check_manifest(skill: &Skill, file: &mut SkillFile) -> Result<(), McpError> {
    let uri_ = file.uri.clone();
    let fail = |msg: String, diffs| failure(Reason::Frontmatter, &uri_, msg, diffs);
    let markdown = String::from_utf8(file.bytes.clone())
        .map_err(|_| fail(format!("{uri_} is not valid UTF-8"), vec![]))?;
    let parsed = frontmatter::parse(&markdown).map_err(|e| {
        fail(
            format!("the frontmatter of {uri_} cannot be read: {e}"),
            vec![],
        )
    })?;
    let entry = Value::Object(skill.frontmatter.clone());
    let got = Value::Object(parsed.frontmatter.clone());
    let diffs = frontmatter::differences(Some(&entry), Some(&got), "");
    if !diffs.is_empty() {
        let msg = format!(
            "the frontmatter of {uri_} differs from the skill entry: {}",
            diffs.join("; ")
        );
        return Err(fail(msg, diffs));
    }
    file.text = Some(markdown);
    file.frontmatter = Some(parsed.frontmatter);
    file.body = Some(parsed.body);
    Ok(())
}
