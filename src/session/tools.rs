//! Tools the client has seen in listings: what a later `tools/call` needs from them (2026
//! `Mcp-Param-*` headers) and which tools a listing must drop (invalid `x-mcp-header`).

use crate::json::Value;
use crate::parts::output_schemas::OutputSchemas;
use crate::protocol::error::McpError;
use crate::protocol::model::list::items;
use crate::protocol::model::tool::Tool;
use crate::protocol::model::Field;
use crate::protocol::tool_headers::{filter_tools, param_headers, validate_tool, ParamHeader};
use crate::protocol::version::Era;
use crate::session::results::{result_kind, ResultKind};
use crate::util::small_map::SmallMap;
use crate::validate::output_schema::{OutputValidator, PatternMatcher};

/// What the client remembers of one listed tool.
#[derive(Debug, Clone, Default)]
pub struct KnownTool {
    /// 2026 `Mcp-Param-*` headers its arguments map to.
    pub param_headers: Vec<ParamHeader>,
    /// Its `outputSchema`, if it declared one.
    pub output_schema: Option<Value>,
    /// The compiled `outputSchema` (or why it could not be compiled), once a result needed it.
    pub output: Option<Result<OutputValidator, String>>,
    /// 2025-11-25 `execution.taskSupport: "required"`: a call must ask for a task.
    pub task_required: bool,
}

/// The tools of the latest listings, by name.
#[derive(Debug, Default)]
pub struct ToolRegistry {
    tools: SmallMap<String, KnownTool>,
    pattern: Option<PatternMatcher>,
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty registry whose output schemas check `pattern` with `matcher`.
    pub fn with_pattern_matcher(matcher: PatternMatcher) -> Self {
        ToolRegistry {
            tools: SmallMap::new(),
            pattern: Some(matcher),
        }
    }

    /// Whether a `method` call with `params` may have its result checked against an
    /// `outputSchema` (a listing showed one for the tool), so needs the output-schema part.
    pub fn checks_output(&self, method: &str, params: &Value) -> bool {
        method == "tools/call"
            && params
                .get("name")
                .and_then(Value::as_str)
                .and_then(|name| self.tools.get(name))
                .is_some_and(|t| t.output_schema.is_some())
    }

    /// Checks a `tools/call` result against the tool's `outputSchema` when a listing showed
    /// one (compiled by `schemas` with the first result). `Ok(Some(warning))` when the schema
    /// itself could not be compiled (not checked).
    pub fn check_output(
        &mut self,
        schemas: &dyn OutputSchemas,
        name: &str,
        result: &Value,
    ) -> Result<Option<String>, McpError> {
        let pattern = self.pattern;
        let Some(tool) = self.tools.get_mut(name) else {
            return Ok(None);
        };
        let Some(schema) = &tool.output_schema else {
            return Ok(None);
        };
        match tool
            .output
            .get_or_insert_with(|| schemas.compile(schema, pattern))
        {
            Ok(v) => schemas.check(name, v, result),
            Err(why) => Ok(Some(
                [
                    "tool ",
                    &crate::util::quote::quoted(name),
                    ": result not checked, ",
                    why,
                ]
                .concat(),
            )),
        }
    }

    /// Reads a `tools/list` page: in the 2026 era drops tools with invalid `x-mcp-header`
    /// annotations (returning one warning per dropped tool), and remembers every tool kept.
    pub fn absorb(&mut self, era: Era, result: &mut Value) -> Vec<String> {
        let warnings = if era == Era::Modern {
            filter_tools(result)
        } else {
            Vec::new()
        };
        for tool in items(result, "tools").into_iter().flatten() {
            let Some(read) = Tool::read(tool) else {
                continue;
            };
            let task_required = read.task_required();
            let Field::Is(name) = read.name else {
                continue;
            };
            let param_headers = if era == Era::Modern {
                validate_tool(tool).unwrap_or_default()
            } else {
                Vec::new()
            };
            let output_schema = read.output_schema.into_ok().map(Value::Object);
            self.tools.insert(
                name,
                KnownTool {
                    param_headers,
                    output_schema,
                    output: None,
                    task_required,
                },
            );
        }
        warnings
    }

    /// The tool, if a listing showed it.
    pub fn get(&self, name: &str) -> Option<&KnownTool> {
        self.tools.get(name)
    }

    /// The `Mcp-Param-*` headers of a call to `name` with `arguments` (none for unlisted tools).
    pub fn call_headers(&self, name: &str, arguments: &Value) -> Vec<(String, String)> {
        self.tools
            .get(name)
            .map(|t| param_headers(&t.param_headers, arguments))
            .unwrap_or_default()
    }

    /// The headers a 2026 request needs from what listings showed: `Mcp-Param-*` for a
    /// `tools/call`, nothing for other methods.
    pub fn request_headers(&self, method: &str, params: &Value) -> Vec<(String, String)> {
        if method != "tools/call" {
            return Vec::new();
        }
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let args = params.get("arguments").unwrap_or(&Value::Null);
        self.call_headers(name, args)
    }

    /// What a result teaches or must pass: a `tools/list` page is absorbed (2026: invalid
    /// tools dropped), a final `tools/call` result is checked against its `outputSchema` by
    /// `schemas` (the output-schema part, which the caller loaded when
    /// [`checks_output`](Self::checks_output) said so). Returns the warnings to surface; an
    /// output that fails its schema is the error.
    pub fn after_result(
        &mut self,
        era: Era,
        method: &str,
        params: &Value,
        result: &mut Value,
        schemas: Option<&dyn OutputSchemas>,
    ) -> Result<Vec<String>, McpError> {
        match method {
            "tools/list" => Ok(self.absorb(era, result)),
            // Checked on the final result, never on an interim round or a task stub.
            "tools/call"
                if !matches!(result_kind(method, result), Ok(ResultKind::InputRequired))
                    && !super::tasks::is_task_stub(result) =>
            {
                let Some(schemas) = schemas else {
                    return Ok(Vec::new());
                };
                let name = params
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                Ok(self
                    .check_output(schemas, name, result)?
                    .into_iter()
                    .collect())
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Forgets every tool (on `notifications/tools/list_changed`).
    pub fn clear(&mut self) {
        self.tools.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    fn listing() -> Value {
        json!({"tools": [
            {"name": "weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "x-mcp-header": "City"}}},
             "outputSchema": {"type": "object"}},
            {"name": "bad", "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}}},
            {"name": "plain", "inputSchema": {"type": "object"}}
        ]})
    }

    #[test]
    fn modern_listings_drop_invalid_tools_and_remember_headers() {
        let mut reg = ToolRegistry::new();
        let mut result = listing();
        let warnings = reg.absorb(Era::Modern, &mut result);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("\"bad\""), "{warnings:?}");
        let names: Vec<&str> = result["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["weather", "plain"]);
        assert_eq!(
            reg.call_headers("weather", &json!({"city": "Paris"})),
            vec![("Mcp-Param-City".to_string(), "Paris".to_string())]
        );
        assert!(reg.call_headers("plain", &json!({})).is_empty());
        assert!(reg
            .call_headers("unlisted", &json!({"city": "x"}))
            .is_empty());
        assert!(reg.get("weather").unwrap().output_schema.is_some());
        assert!(reg.get("bad").is_none());
    }

    #[test]
    fn results_are_checked_against_listed_output_schemas() {
        let mut reg = ToolRegistry::new();
        let mut result = json!({"tools": [
            {"name": "add", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}},
            {"name": "odd", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "unevaluatedProperties": false}}
        ]});
        reg.absorb(Era::Legacy, &mut result);
        assert!(reg.checks_output("tools/call", &json!({"name": "add"})));
        assert!(!reg.checks_output("tools/call", &json!({"name": "unlisted"})));
        assert!(!reg.checks_output("prompts/get", &json!({"name": "add"})));
        let part = crate::parts::output_schemas::linked();
        assert_eq!(
            reg.check_output(part, "add", &json!({"structuredContent": {"sum": 3}}))
                .unwrap(),
            None
        );
        let e = reg
            .check_output(part, "add", &json!({"structuredContent": {"sum": "3"}}))
            .unwrap_err();
        assert!(e.message.contains("/sum"), "{}", e.message);
        assert!(reg
            .check_output(part, "odd", &json!({}))
            .unwrap()
            .unwrap()
            .contains("not checked"));
        assert_eq!(
            reg.check_output(part, "unlisted", &json!({})).unwrap(),
            None
        );
    }

    #[test]
    fn legacy_listings_keep_every_tool_and_send_no_param_headers() {
        let mut reg = ToolRegistry::new();
        let mut result = listing();
        assert!(reg.absorb(Era::Legacy, &mut result).is_empty());
        assert_eq!(result["tools"].as_array().unwrap().len(), 3);
        assert!(reg
            .call_headers("weather", &json!({"city": "Paris"}))
            .is_empty());
        reg.clear();
        assert!(reg.get("weather").is_none());
    }
}
