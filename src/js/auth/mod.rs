//! Authorization in JS hosts: the `auth` option, the flow's host (fetch, crypto, storage, the
//! authorization page); the exported builders are plain JS
//! (builders.js; exports.rs puts them on the glue too). The flow itself is `crate::auth::flow`; the
//! HTTP layer reaches it only through `crate::auth::seam` ([`for_http`]).

pub mod exports;
pub mod host;
pub mod options;
pub mod outcome;
pub mod part;

pub use options::JsAuthorizer;

use crate::auth::seam::Authorize;
use std::rc::Rc;

/// The flow as the HTTP layer holds it: behind the authorization seam.
pub fn for_http(auth: Rc<JsAuthorizer>) -> Rc<dyn Authorize> {
    auth
}
