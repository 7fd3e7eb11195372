//! The connect results as the client reads them: `initialize` (2025 era) and `server/discover`
//! (2026 era), with the server's identity ([`Implementation`]) and its capabilities (kept as the
//! object the server sent: the session stores it and JS sees it unchanged).

use super::{view, Field, Seen};
use crate::json::{Map, Value};
use serde::Deserialize;

/// `_meta` key of the server's identity in a 2026 `server/discover` result.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The server's identity (`serverInfo`): the fields the client names, and the object as sent
/// (`title`, `icons`, `websiteUrl`, … included), which is what the session keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct Implementation {
    /// `name`, when a string.
    pub name: Option<String>,
    /// `version`, when a string.
    pub version: Option<String>,
    /// The object as the server sent it.
    pub raw: Map<String, Value>,
}

impl<'de> Deserialize<'de> for Implementation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Map::deserialize(d)?;
        let text = |k: &str| raw.get(k).and_then(Value::as_str).map(str::to_string);
        Ok(Implementation {
            name: text("name"),
            version: text("version"),
            raw,
        })
    }
}

/// An `initialize` result.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct InitializeResult {
    /// The revision the server chose.
    pub protocol_version: Field<String>,
    /// The server's capabilities.
    pub capabilities: Field<Map<String, Value>>,
    /// Who the server is.
    pub server_info: Field<Implementation>,
    /// Instructions for the model.
    pub instructions: Field<String>,
}

impl InitializeResult {
    /// Reads a result (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }
}

/// A `server/discover` result's `_meta`: the server's identity.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct DiscoverMeta {
    /// `io.modelcontextprotocol/serverInfo`.
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    pub server_info: Field<Implementation>,
}

/// A `server/discover` result (2026).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DiscoverResult {
    /// The revisions the server speaks (`supportedVersions`): each string kept, anything
    /// else in the array skipped.
    pub supported_versions: Field<Vec<Value>>,
    /// The server's capabilities.
    pub capabilities: Field<Map<String, Value>>,
    /// Instructions for the model.
    pub instructions: Field<String>,
    /// `_meta` (the server's identity).
    #[serde(rename = "_meta")]
    pub meta: Field<DiscoverMeta>,
    /// How long the result may be reused, in ms (`CacheableResult`).
    pub ttl_ms: Field<f64>,
    /// `"public"` or `"private"` (`CacheableResult`).
    pub cache_scope: Field<String>,
}

impl DiscoverResult {
    /// Reads a result (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }

    /// The strings of `supportedVersions` (none when it is not an array).
    pub fn versions(&self) -> Vec<String> {
        supported_strings(&self.supported_versions)
    }

    /// The server's identity from `_meta`, when it is an object.
    pub fn server_info(&self) -> Option<&Implementation> {
        self.meta.ok()?.server_info.ok()
    }
}

/// The strings of a version list (`supportedVersions`, an error's `data.supported`): anything
/// that is not a string is skipped, a list that is not an array is empty.
pub fn supported_strings(list: &Field<Vec<Value>>) -> Vec<String> {
    list.ok()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The server's capabilities as the client reads them (the object itself is kept as sent:
/// the session stores it and JS sees it).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ServerCapabilities {
    /// `tools` (`listChanged`).
    pub tools: Field<ListCapability>,
    /// `prompts` (`listChanged`).
    pub prompts: Field<ListCapability>,
    /// `resources` (`listChanged`, `subscribe`).
    pub resources: Field<ListCapability>,
    /// 2025-11-25 `tasks`.
    pub tasks: Field<ServerTasks>,
    /// Extension id → the server's declaration.
    pub extensions: Field<Map<String, Value>>,
}

impl ServerCapabilities {
    /// Reads capabilities (default when absent or not an object).
    pub fn read(v: Option<&Value>) -> Self {
        v.and_then(view).unwrap_or_default()
    }

    /// `listChanged: true` under `cap` (`"tools"`, `"prompts"` or `"resources"`).
    pub fn list_changed(&self, cap: &str) -> bool {
        let list = match cap {
            "tools" => &self.tools,
            "prompts" => &self.prompts,
            "resources" => &self.resources,
            _ => return false,
        };
        list.ok().and_then(|l| l.list_changed.ok()) == Some(&true)
    }

    /// 2025-11-25: `tasks.requests.tools.call` is declared (any value).
    pub fn runs_tool_tasks(&self) -> bool {
        let call = || Some(self.tasks.ok()?.requests.ok()?.tools.ok()?.call.0);
        call() == Some(true)
    }
}

/// A list's capability (`tools`, `prompts`, `resources`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ListCapability {
    /// The server sends `notifications/…/list_changed`.
    pub list_changed: Field<bool>,
    /// `resources`: the server takes `resources/subscribe`.
    pub subscribe: Field<bool>,
}

/// 2025-11-25 `capabilities.tasks`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ServerTasks {
    /// Which requests may be task-augmented.
    pub requests: Field<TaskRequests>,
}

/// `capabilities.tasks.requests`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct TaskRequests {
    /// `tools` requests.
    pub tools: Field<ToolTaskRequests>,
}

/// `capabilities.tasks.requests.tools`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ToolTaskRequests {
    /// `tools/call` may be task-augmented (present, whatever its value).
    pub call: Seen,
}

/// The `data` of a `-32022` (unsupported protocol version) error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct UnsupportedVersionData {
    /// The revisions the server speaks.
    pub supported: Field<Vec<Value>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn an_initialize_result_is_read_leniently() {
        let r = InitializeResult::read(&json!({"protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1", "title": "S"},
            "instructions": "hi", "extra": 1}))
        .unwrap();
        assert_eq!(
            r.protocol_version.ok().map(String::as_str),
            Some("2025-06-18")
        );
        assert_eq!(r.capabilities.ok(), json!({"tools": {}}).as_object());
        let info = r.server_info.ok().unwrap();
        assert_eq!(
            (info.name.as_deref(), info.version.as_deref()),
            (Some("s"), Some("1"))
        );
        assert_eq!(info.raw["title"], "S", "unknown fields are kept");
        assert_eq!(r.instructions.ok().map(String::as_str), Some("hi"));
        let r = InitializeResult::read(&json!({"protocolVersion": 5, "capabilities": [],
            "serverInfo": "x", "instructions": {}}))
        .unwrap();
        assert_eq!(r.protocol_version, Field::Wrong(json!(5)));
        assert_eq!(r.capabilities, Field::Wrong(json!([])));
        assert!(r.server_info.ok().is_none() && r.instructions.ok().is_none());
        assert!(InitializeResult::read(&json!("x")).is_none());
    }

    #[test]
    fn a_discover_result_is_read_leniently() {
        let r = DiscoverResult::read(&json!({"supportedVersions": ["2026-07-28", 5],
            "capabilities": {}, "ttlMs": 0, "cacheScope": "private",
            "_meta": {META_SERVER_INFO: {"name": "srv"}}}))
        .unwrap();
        assert_eq!(r.versions(), ["2026-07-28"]);
        assert_eq!(r.server_info().unwrap().name.as_deref(), Some("srv"));
        assert_eq!(
            (r.ttl_ms.ok(), r.cache_scope.ok().map(String::as_str)),
            (Some(&0.0), Some("private"))
        );
        let r =
            DiscoverResult::read(&json!({"supportedVersions": "2026-07-28", "_meta": 1})).unwrap();
        assert!(r.versions().is_empty() && r.server_info().is_none());
        assert!(matches!(r.supported_versions, Field::Wrong(_)));
        let r = DiscoverResult::read(&json!({"_meta": {META_SERVER_INFO: []}})).unwrap();
        assert!(r.server_info().is_none());
        let r = DiscoverResult::read(&json!({"_meta": [{"name": "srv"}]})).unwrap();
        assert!(
            r.server_info().is_none(),
            "a _meta array is not read by position"
        );
    }

    #[test]
    fn server_capabilities_as_read() {
        let caps = json!({"tools": {"listChanged": true}, "prompts": {"listChanged": "yes"},
            "resources": {"subscribe": true}, "tasks": {"requests": {"tools": {"call": null}}},
            "extensions": {"io.example/x": {}}, "logging": {}});
        let c = ServerCapabilities::read(Some(&caps));
        assert!(c.list_changed("tools"));
        assert!(!c.list_changed("prompts"), "a non-boolean is not true");
        assert!(!c.list_changed("resources") && !c.list_changed("logging"));
        assert_eq!(c.resources.ok().unwrap().subscribe, Field::Is(true));
        assert!(
            c.runs_tool_tasks(),
            "a declared call counts, whatever its value"
        );
        assert!(c.extensions.ok().unwrap().contains_key("io.example/x"));
        let c = ServerCapabilities::read(Some(&json!({"tasks": {"requests": {"tools": []}}})));
        assert!(!c.runs_tool_tasks());
        assert_eq!(
            ServerCapabilities::read(None),
            ServerCapabilities::default()
        );
        assert_eq!(
            ServerCapabilities::read(Some(&json!([]))),
            ServerCapabilities::default()
        );
    }

    #[test]
    fn unsupported_version_data_lists_strings() {
        let d: UnsupportedVersionData = view(&json!({"supported": ["a", 1, "b"]})).unwrap();
        assert_eq!(supported_strings(&d.supported), ["a", "b"]);
    }
}
