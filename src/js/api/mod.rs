//! The exported API: `Client` (its methods; `new_client` reads its arguments; `sign_in` holds
//! the authorization methods, or `without_auth` in a build without the `auth` feature, where
//! `js::host::auth_part` sends a stored token and hands the rest to `authorization_part`),
//! `ClientGroup`, the elicitation form helpers, `listen()`'s async iterable, `settle` (the one
//! shape of a method's promise), the TypeScript declarations, and `lazy` (the snippets loaded
//! only when used, named so that wasm-bindgen writes them).

#[cfg(feature = "auth")]
pub mod authorization_part;
pub mod client;
pub mod forms;
pub mod group;
pub mod lazy;
pub mod listen;
pub mod new_client;
pub mod settle;
#[cfg(feature = "auth")]
pub mod sign_in;
#[cfg(feature = "skills")]
pub mod skills;
pub mod tasks;
#[cfg(feature = "test-panic")]
pub mod test_panic;
pub mod types;
#[cfg(not(feature = "auth"))]
pub mod without_auth;
#[cfg(not(feature = "skills"))]
pub mod without_skills;
