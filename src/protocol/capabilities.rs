//! Client capabilities: registering a callback is declaring the capability, per era.

use super::version::Era;
use crate::json::{json, Map, Value};

/// Which server→client callbacks the user registered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Registered {
    /// An elicitation callback is registered.
    pub elicitation: bool,
    /// A sampling callback is registered.
    pub sampling: bool,
    /// Extra sampling sub-capabilities (e.g. `{"tools": {}}`), used only with `sampling`.
    pub sampling_capabilities: Option<Value>,
    /// A list-roots callback is registered.
    pub roots: bool,
    /// The `tasks` option: the tasks extension (2026) / the `tasks` capability (2025-11-25).
    pub tasks: bool,
}

/// The 2026 tasks extension's id (declared under `extensions`).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Adds `extensions["io.modelcontextprotocol/tasks"] = {}` to a 2026 capabilities object.
pub fn declare_tasks_extension(caps: &mut Map<String, Value>) {
    let extensions = caps.entry("extensions").or_insert_with(|| json!({}));
    if let Value::Object(e) = extensions {
        e.insert(TASKS_EXTENSION.into(), json!({}));
    }
}

impl Registered {
    /// The `ClientCapabilities` object to declare in the given era.
    pub fn capabilities(&self, era: Era) -> Value {
        let mut caps = Map::new();
        if self.elicitation {
            caps.insert("elicitation".into(), json!({ "form": {}, "url": {} }));
        }
        if self.sampling {
            let sampling = match &self.sampling_capabilities {
                Some(Value::Object(o)) => Value::Object(o.clone()),
                _ => json!({}),
            };
            caps.insert("sampling".into(), sampling);
        }
        if self.roots {
            let roots = match era {
                Era::Legacy => json!({ "listChanged": true }),
                Era::Modern => json!({}),
            };
            caps.insert("roots".into(), roots);
        }
        // 2025-11-25: `tasks: {}` says the client knows tasks and hosts none (no `list`,
        // `cancel` or `requests.*`: it serves no task requests of the server's).
        match (self.tasks, era) {
            (false, _) => {}
            (true, Era::Legacy) => {
                caps.insert("tasks".into(), json!({}));
            }
            (true, Era::Modern) => declare_tasks_extension(&mut caps),
        }
        Value::Object(caps)
    }
}

/// The MCP Apps extension id, declared by the `apps` option.
pub const APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an MCP App's HTML, listed in the Apps declaration.
pub const APPS_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The capabilities a callback stands behind: declaring one without its callback would invite
/// requests nobody answers.
const NEED_A_CALLBACK: [(&str, &str); 3] = [
    ("elicitation", "elicitationCallback"),
    ("sampling", "samplingCallback"),
    ("roots", "listRootsCallback"),
];

/// What the caller declares beyond its callbacks: the `capabilities`, `extensions` and `apps`
/// options as one `ClientCapabilities` object, merged into the callbacks' on both eras.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Declared(Map<String, Value>);

impl Declared {
    /// Joins the options: `capabilities` (any object), `extensions` (its `extensions` key) and
    /// `apps` (the MCP Apps extension). A key given by two of them is an error naming both.
    pub fn new(
        capabilities: Option<Value>,
        extensions: Option<Value>,
        apps: bool,
    ) -> Result<Declared, String> {
        let mut caps = match capabilities {
            Some(Value::Object(o)) => o,
            _ => Map::new(),
        };
        let mut joined = match caps.remove("extensions") {
            None => Map::new(),
            Some(Value::Object(o)) => o,
            Some(_) => return Err("capabilities.extensions must be an object".into()),
        };
        if let Some(Value::Object(more)) = extensions {
            for (id, settings) in more {
                if joined.contains_key(&id) {
                    return Err(format!(
                        "extension {} is declared twice (in capabilities.extensions and in extensions); declare it once",
                        crate::util::quote::quoted(&id)
                    ));
                }
                joined.insert(id, settings);
            }
        }
        if apps {
            if joined.contains_key(APPS_EXTENSION) {
                return Err(format!(
                    "apps: true declares the extension {}, which extensions declares too; declare it once",
                    crate::util::quote::quoted(APPS_EXTENSION)
                ));
            }
            joined.insert(
                APPS_EXTENSION.into(),
                json!({ "mimeTypes": [APPS_MIME_TYPE] }),
            );
        }
        for (id, settings) in &joined {
            if id.is_empty() || !settings.is_object() {
                return Err(format!(
                    "extensions[{}] must be an object (the extension's settings; {{}} for none)",
                    crate::util::quote::quoted(id)
                ));
            }
        }
        if !joined.is_empty() {
            caps.insert("extensions".into(), Value::Object(joined));
        }
        Ok(Declared(caps))
    }

    /// An error when a capability is declared that only a callback can stand behind.
    pub fn check_against(&self, registered: &Registered) -> Result<(), String> {
        let has = |key: &str| match key {
            "elicitation" => registered.elicitation,
            "sampling" => registered.sampling,
            _ => registered.roots,
        };
        match NEED_A_CALLBACK
            .iter()
            .find(|(key, _)| self.0.contains_key(*key) && !has(key))
        {
            Some((key, callback)) => Err(format!(
                "capabilities.{key} is declared without {callback}: register the callback, which declares the capability"
            )),
            None => Ok(()),
        }
    }

    /// `callbacks` (what the callbacks declare) with these capabilities merged in: objects
    /// merge key by key, and a value declared here wins over the callbacks' at the same place.
    pub fn merged_into(&self, callbacks: Value) -> Value {
        let mut caps = match callbacks {
            Value::Object(o) => o,
            _ => Map::new(),
        };
        for (key, value) in &self.0 {
            merge(&mut caps, key, value);
        }
        Value::Object(caps)
    }
}

/// Puts `value` at `key`, merging into an object already there.
fn merge(into: &mut Map<String, Value>, key: &str, value: &Value) {
    match (into.get_mut(key), value) {
        (Some(Value::Object(old)), Value::Object(new)) => {
            for (k, v) in new {
                merge(old, k, v);
            }
        }
        _ => {
            into.insert(key.to_string(), value.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_registered_declares_nothing() {
        assert_eq!(Registered::default().capabilities(Era::Legacy), json!({}));
        assert_eq!(Registered::default().capabilities(Era::Modern), json!({}));
    }

    #[test]
    fn each_callback_declares_its_capability() {
        let all = Registered {
            elicitation: true,
            sampling: true,
            sampling_capabilities: Some(json!({"tools": {}})),
            roots: true,
            tasks: false,
        };
        assert_eq!(
            all.capabilities(Era::Legacy),
            json!({"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}, "roots": {"listChanged": true}})
        );
        assert_eq!(all.capabilities(Era::Modern)["roots"], json!({}));
        let sampling_caps_alone = Registered {
            sampling_capabilities: Some(json!({"tools": {}})),
            ..Default::default()
        };
        assert_eq!(sampling_caps_alone.capabilities(Era::Modern), json!({}));
    }

    #[test]
    fn declared_capabilities_join_the_options() {
        let d = Declared::new(
            Some(json!({"experimental": {"x-demo": {}}, "extensions": {"a.b/c": {}}})),
            Some(json!({"io.example/thing": {"level": 2}})),
            true,
        )
        .unwrap();
        assert_eq!(
            d.merged_into(json!({"roots": {"listChanged": true}})),
            json!({
                "roots": {"listChanged": true},
                "experimental": {"x-demo": {}},
                "extensions": {
                    "a.b/c": {},
                    "io.example/thing": {"level": 2},
                    "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}
                }
            })
        );
        assert_eq!(Declared::default().merged_into(json!({})), json!({}));
    }

    #[test]
    fn declared_merges_into_a_callbacks_capability() {
        let d = Declared::new(Some(json!({"sampling": {"context": {}}})), None, false).unwrap();
        let registered = Registered {
            sampling: true,
            ..Default::default()
        };
        assert_eq!(d.check_against(&registered), Ok(()));
        assert_eq!(
            d.merged_into(registered.capabilities(Era::Modern)),
            json!({"sampling": {"context": {}}})
        );
    }

    #[test]
    fn declared_errors_name_what_was_wrong() {
        let twice = Declared::new(
            Some(json!({"extensions": {"x/y": {}}})),
            Some(json!({"x/y": {}})),
            false,
        );
        assert!(twice.unwrap_err().contains("\"x/y\" is declared twice"));
        let apps_twice = Declared::new(None, Some(json!({APPS_EXTENSION: {}})), true);
        assert!(apps_twice.unwrap_err().contains("declare it once"));
        let not_object = Declared::new(None, Some(json!({"x/y": true})), false);
        assert!(not_object
            .unwrap_err()
            .contains("extensions[\"x/y\"] must be an object"));
        let bad = Declared::new(Some(json!({"extensions": []})), None, false);
        assert!(bad
            .unwrap_err()
            .contains("capabilities.extensions must be an object"));
        let orphan = Declared::new(Some(json!({"elicitation": {}})), None, false).unwrap();
        assert!(orphan
            .check_against(&Registered::default())
            .unwrap_err()
            .contains("without elicitationCallback"));
    }

    #[test]
    fn the_tasks_option_declares_the_capability_or_the_extension() {
        let tasks = Registered {
            tasks: true,
            ..Default::default()
        };
        assert_eq!(tasks.capabilities(Era::Legacy), json!({"tasks": {}}));
        assert_eq!(
            tasks.capabilities(Era::Modern),
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
        );
        let mut caps = Map::new();
        caps.insert("extensions".into(), json!({"x/other": {"a": 1}}));
        declare_tasks_extension(&mut caps);
        assert_eq!(
            Value::Object(caps),
            json!({"extensions": {"x/other": {"a": 1}, "io.modelcontextprotocol/tasks": {}}})
        );
    }
}
