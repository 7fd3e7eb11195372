//! OAuth authorization for MCP, client side, as pure rules (no I/O): parsing challenges,
//! the discovery order, validating metadata, choosing scopes, PKCE, the authorization
//! request and its callback, registration and token lifecycle decisions. The HTTP layer
//! (a later floor) fetches what these functions name and feeds the answers back.
//!
//! Identifiers (issuers, resources, `iss`) are kept as the exact strings received; URLs are
//! split by [`url`], never normalized.

pub mod authorize;
pub mod callback;
pub mod challenge;
pub mod client;
pub mod discovery;
pub mod errors;
pub mod form;
pub mod metadata;
pub mod pkce;
pub mod scopes;
pub mod secret;
pub mod tokens;
pub mod url;
