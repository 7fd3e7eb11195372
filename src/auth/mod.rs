//! OAuth authorization for MCP, client side, as pure rules (no I/O): the HTTP layer above
//! fetches what these functions name and feeds the answers back. Identifiers (issuers,
//! resources, `iss`) are kept as the exact strings received; URLs are split by [`url`], never
//! normalized. May import `protocol` and `session` only.
//!
//! The flow, file by file: a 401/403's `WWW-Authenticate` ([`challenge`]) → where to look
//! ([`discovery`]) → what was found ([`metadata`]) → who the client is ([`registration`],
//! [`client`]) → which scopes ([`scopes`]) → the authorization URL ([`authorize`], [`pkce`])
//! → its callback ([`callback`]) → tokens and what to do with them ([`tokens`]). Errors are
//! `McpError`s with the auth kinds ([`errors`]); credentials are [`crate::util::secret::Secret`]s.
//! What one request may spend recovering from refusals is [`budget`]'s.
//! [`flow`] sequences all of it over an `AuthHost` (fetch, storage, crypto, the page);
//! [`seam`] is where the HTTP layer meets it: the loop that sends a request with credentials
//! and recovers from a 401/403, between a `Request` the HTTP layer implements and the flow;
//! [`store`] is what it keeps in the application's storage; `crate::util::lock` is the lock that
//! lets one request at a time obtain or refresh tokens.

pub mod authorize;
pub mod budget;
pub mod callback;
pub mod challenge;
pub mod client;
pub mod discovery;
pub mod errors;
pub mod flow;
pub mod form;
pub mod jose;
pub mod metadata;
pub mod pkce;
pub mod registration;
pub mod scopes;
pub mod seam;
pub mod store;
pub mod tokens;
pub mod url;
