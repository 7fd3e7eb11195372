//! Validators of what a server sends against a schema it declared: a tool's `outputSchema`
//! and an elicitation's `requestedSchema`. Pure; beside `session`, which applies them.

pub mod elicitation;
pub mod output_schema;
