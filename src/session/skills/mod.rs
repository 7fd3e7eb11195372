//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640) without I/O: entries
//! checked as the TypeScript SDK 2.x `SkillsClient` checks them, skill URIs, the frontmatter
//! of a `SKILL.md`, the verification of every file read against its entry, and what a listing,
//! a get or a directory read gives the caller (`results`). The JS surface (`client.skills`) is
//! `js::api::skills`; it reads the arguments, sends the requests and applies these rules.

pub mod entry;
pub mod frontmatter;
pub mod results;
pub mod uri;
pub mod verify;
pub mod wire;

#[cfg(test)]
mod tests;

use crate::json::Value;
use crate::protocol::model::view;

/// The extension's id in `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/skills";

/// Per-skill limits a host must accept (and this client refuses beyond): files and bytes.
#[derive(Debug)]
pub struct Limits {
    /// Most `resources` entries.
    pub files: usize,
    /// Most bytes in all (the sum of `size`).
    pub bytes: u64,
}

/// 512 files, 16 MiB.
pub const LIMITS: Limits = Limits {
    files: 512,
    bytes: 16 * 1024 * 1024,
};

/// The server's declaration of the extension (`{ directoryRead? }`), when it made one.
pub fn declared(server_capabilities: Option<&Value>) -> Option<&Value> {
    server_capabilities?.get("extensions")?.get(EXTENSION_ID)
}

/// The server serves `resources/directory/read`.
pub fn directory_read(server_capabilities: Option<&Value>) -> bool {
    let declaration = declared(server_capabilities).and_then(view::<wire::Declaration>);
    declaration.and_then(|d| d.directory_read.into_ok()) == Some(true)
}
