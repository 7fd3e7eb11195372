//! The extension's messages as they arrive (serde models over `protocol::model::Field`, so
//! the checks in `entry` and `results` still name each problem): a skill entry, one file of
//! its `resources`, the frontmatter fields the Agent Skills rules read, a `skills/list` page's
//! entries and a `skills/get` result. The entries themselves are passed to JS as sent.

use crate::json::{Map, Value};
use crate::protocol::model::{view, Field};
use serde::Deserialize;

/// The server's declaration of the extension (`capabilities.extensions[…/skills]`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Declaration {
    /// The server serves `resources/directory/read`.
    pub directory_read: Field<bool>,
}

/// A skill entry (`skills/list`'s items, `skills/get`'s `skill`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SkillEntry {
    /// The URI of the skill's `SKILL.md`.
    pub uri: Field<String>,
    /// The frontmatter (kept whole: it is compared with the file's).
    pub frontmatter: Field<Map<String, Value>>,
    /// The files (an array of [`ResourceEntry`]) or `"dynamic"`.
    pub resources: Field<Value>,
}

impl SkillEntry {
    /// Reads an entry (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }
}

/// An entry's `uri` alone (the other fields skipped unread): what a listing's repeated-uri
/// rule and its refusals name.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct EntryUri {
    /// The URI of the skill's `SKILL.md`.
    pub uri: Field<String>,
}

impl EntryUri {
    /// The entry's `uri`, when it is an object with a string `uri`.
    pub fn of(v: &Value) -> Option<String> {
        view::<EntryUri>(v)?.uri.into_ok()
    }
}

/// One file of an entry's `resources`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ResourceEntry {
    /// The file's URI.
    pub uri: Field<String>,
    /// `sha256:` and 64 lowercase hex digits.
    pub digest: Field<String>,
    /// The byte length: an integer ≥ 0 (a fraction or a negative number is wrong).
    pub size: Field<u64>,
}

impl ResourceEntry {
    /// Reads a file entry (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }
}

/// The frontmatter fields the Agent Skills rules check (the rest is compared, not read).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct FrontmatterFields {
    /// The skill's name.
    pub name: Field<String>,
    /// What it does.
    pub description: Field<String>,
    /// Its environment requirements.
    pub compatibility: Field<String>,
    /// String-to-string metadata.
    pub metadata: Field<Map<String, Value>>,
}

impl FrontmatterFields {
    /// Reads the fields of a frontmatter object.
    pub fn read(fm: &Map<String, Value>) -> Self {
        FrontmatterFields::deserialize(fm).unwrap_or_default()
    }
}

/// A `skills/list` page: its entries (read one by one, so one bad entry does not hide the rest).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SkillsPage {
    /// The entries as sent.
    pub skills: Field<Vec<Value>>,
}

/// A `skills/get` result.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct GetSkillResult {
    /// The entry as sent.
    pub skill: Field<Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn an_entry_and_its_files() {
        let e = SkillEntry::read(
            &json!({"uri": "skill://a/SKILL.md", "frontmatter": {"name": "a",
            "x": 1}, "resources": "dynamic", "other": true}),
        )
        .unwrap();
        assert_eq!(e.uri.ok().map(String::as_str), Some("skill://a/SKILL.md"));
        assert_eq!(
            e.frontmatter.ok().unwrap()["x"],
            1,
            "the frontmatter is kept whole"
        );
        assert_eq!(e.resources, Field::Is(json!("dynamic")));
        let f =
            ResourceEntry::read(&json!({"uri": "u", "digest": "sha256:00", "size": 3})).unwrap();
        assert_eq!((f.uri.ok().is_some(), f.size), (true, Field::Is(3)));
        for bad in [json!(-1), json!(1.5), json!("3")] {
            let f = ResourceEntry::read(&json!({"size": bad})).unwrap();
            assert!(matches!(f.size, Field::Wrong(_)), "{:?}", f.size);
        }
        assert!(SkillEntry::read(&json!(["skill://a/SKILL.md"])).is_none());
        assert_eq!(
            EntryUri::of(&json!({"uri": "u", "resources": [1]})).as_deref(),
            Some("u")
        );
        assert_eq!(EntryUri::of(&json!({"uri": 1})), None);
    }

    #[test]
    fn frontmatter_fields_absent_null_or_wrong() {
        let fm = json!({"name": "a", "compatibility": null, "metadata": {"k": 1}});
        let f = FrontmatterFields::read(fm.as_object().unwrap());
        assert_eq!(f.name.ok().map(String::as_str), Some("a"));
        assert_eq!(
            (f.description, f.compatibility),
            (Field::Absent, Field::Null)
        );
        assert!(f.metadata.ok().is_some());
        let f = FrontmatterFields::read(json!({"name": 5}).as_object().unwrap());
        assert_eq!(f.name, Field::Wrong(json!(5)));
    }

    #[test]
    fn pages_and_get_results() {
        let p: SkillsPage = view(&json!({"skills": [1, {}], "nextCursor": "c"})).unwrap();
        assert_eq!(p.skills.ok().map(Vec::len), Some(2));
        let p: SkillsPage = view(&json!({"skills": {}})).unwrap();
        assert!(matches!(p.skills, Field::Wrong(_)));
        let g: GetSkillResult = view(&json!({"skill": null})).unwrap();
        assert_eq!(g.skill, Field::Null);
        let d: Declaration = view(&json!({"directoryRead": true})).unwrap();
        assert_eq!(d.directory_read, Field::Is(true));
        let d: Declaration = view(&json!({"directoryRead": "yes"})).unwrap();
        assert!(matches!(d.directory_read, Field::Wrong(_)));
    }
}
