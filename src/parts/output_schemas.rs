//! The output-schema part: compiling a tool's `outputSchema` and checking a result against it
//! (`validate::output_schema`), loaded with the first result of a tool that declared one.

use crate::json::Value;
use crate::protocol::error::McpError;
use crate::validate::output_schema::{check_result, OutputValidator, PatternMatcher};

/// What the part does.
pub trait OutputSchemas {
    /// [`OutputValidator::compile_with`].
    fn compile(
        &self,
        schema: &Value,
        pattern: Option<PatternMatcher>,
    ) -> Result<OutputValidator, String>;
    /// [`check_result`].
    fn check(
        &self,
        tool: &str,
        validator: &OutputValidator,
        result: &Value,
    ) -> Result<Option<String>, McpError>;
}

struct Part;

impl OutputSchemas for Part {
    fn compile(
        &self,
        schema: &Value,
        pattern: Option<PatternMatcher>,
    ) -> Result<OutputValidator, String> {
        OutputValidator::compile_with(schema, pattern)
    }

    fn check(
        &self,
        tool: &str,
        validator: &OutputValidator,
        result: &Value,
    ) -> Result<Option<String>, McpError> {
        check_result(tool, validator, result)
    }
}

super::part!(
    output_schemas,
    "the output-schema part",
    OutputSchemas,
    Part
);
