//! Authorization in JS hosts: the `auth` option, the flow's host (fetch, crypto, storage, the
//! authorization page) and the exported helpers. The flow itself is `crate::auth::flow`.

pub mod exports;
pub mod host;
pub mod options;
pub mod outcome;

pub use options::JsAuthorizer;
