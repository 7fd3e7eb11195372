//! Parts of the crate that the default web entry's lean module loads when first used.
//!
//! A part is a trait object: its methods are the only way in, so after linking, the code and data
//! only they reach can leave the module. With the `lazy-parts` feature (the `lean` build of
//! scripts/build-wasm.sh) each part's getter is a `#[wasm_split]` point: its first call fetches
//! the part's own `.wasm` (which shares the module's memory, table, std and serde) and later
//! calls answer at once. Without the feature (every other build, and native tests) a part is the
//! same code linked in, ready at once. A part of the wasm layer alone is declared beside its code
//! with the same macro: `js::http::http_sse::part` (the HTTP+SSE fallback), `js::host::challenges`
//! (the 401 challenge reader) and `js::host::auth_part`'s `stored_token` (a returning user's seam).

pub mod answers;
pub mod cache_store;
pub mod forms;
pub mod legacy;
pub mod listen;
pub mod output_schemas;
pub mod tasks;

use crate::json::json;
use crate::protocol::error::{ErrorKind, McpError, INTERNAL_ERROR};

/// Why a part's `.wasm` could not be loaded: its URL and the reason (what the loader caught).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The `.wasm` (or a module it needed) that failed.
    pub url: String,
    /// What fetching or instantiating it threw, or its HTTP status.
    pub cause: String,
}

/// The error of a call that needed the part `part` (its name, e.g. `"output_schemas"`, named in
/// the message by `what`, e.g. `"the output-schema part"`) when its `.wasm` could not be fetched
/// or instantiated, as a JS module's is (`moduleLoadError`): kind `module_load`, `data.part`,
/// and `data.url` and `data.cause` when the loader said them.
/// The client keeps working, and a later call that needs the part tries again.
pub fn load_error(part: &str, what: &str, failure: Option<Failure>) -> McpError {
    match failure {
        Some(Failure { url, cause }) => McpError::local(
            INTERNAL_ERROR,
            ErrorKind::ModuleLoad,
            [
                "mcp-wasm-client: ",
                what,
                " (",
                &url,
                ") could not be loaded: ",
                &cause,
            ]
            .concat(),
            json!({ "part": part, "url": url, "cause": cause }),
        ),
        None => McpError::local(
            INTERNAL_ERROR,
            ErrorKind::ModuleLoad,
            ["mcp-wasm-client: ", what, " could not be loaded"].concat(),
            json!({ "part": part }),
        ),
    }
}

/// The error of a call that needed the split-off part `part` when its `.wasm` could not be
/// loaded: [`load_error`] with what the loader recorded (one function every part's `get()` calls,
/// not a copy in each).
#[cfg(all(feature = "lazy-parts", target_arch = "wasm32"))]
#[inline(never)]
pub fn not_loaded(part: &str, what: &str) -> McpError {
    let failure = crate::js::host::parts::failure(part).map(|(url, cause)| Failure { url, cause });
    load_error(part, what, failure)
}

/// A part's `.wasm` could not be loaded (the `lazy-parts` build's loader said so).
#[derive(Debug)]
pub struct Missing;

/// A part's getters, for a part `$name` (its `.wasm` is `split_$name.wasm`) whose methods are the
/// trait `$trait`, implemented by the unit struct `$part`, named `$what` in errors:
/// `get()` (async: loads it on first use where it is split off) and `linked()` (where it is
/// linked into the module, every build but the split one; native tests use it).
macro_rules! part {
    ($name:ident, $what:literal, $trait:path, $part:ident) => {
        #[cfg(all(feature = "lazy-parts", target_arch = "wasm32"))]
        #[wasm_split_helpers::wasm_split($name, fallible)]
        fn $name() -> Result<&'static dyn $trait, $crate::parts::Missing> {
            Ok(&$part)
        }

        /// The part where it is linked into the module.
        #[cfg(not(all(feature = "lazy-parts", target_arch = "wasm32")))]
        pub fn linked() -> &'static dyn $trait {
            &$part
        }

        /// The part, loaded on first use where it is split off.
        pub async fn get() -> Result<&'static dyn $trait, $crate::protocol::error::McpError> {
            #[cfg(all(feature = "lazy-parts", target_arch = "wasm32"))]
            return $name()
                .await
                .map_err(|_| $crate::parts::not_loaded(stringify!($name), $what));
            #[cfg(not(all(feature = "lazy-parts", target_arch = "wasm32")))]
            Ok(linked())
        }
    };
}
pub(crate) use part;

#[cfg(all(feature = "lazy-parts", target_arch = "wasm32"))]
impl From<wasm_split_helpers::SplitLoaderError> for Missing {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        Missing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_error_names_the_part_the_url_and_the_cause() {
        let failure = Failure {
            url: "https://app.example/dist/part.wasm".into(),
            cause: "HTTP 404".into(),
        };
        let e = load_error("output-schema", "the output-schema part", Some(failure));
        assert_eq!(e.kind(), Some(ErrorKind::ModuleLoad));
        assert_eq!(
            e.message,
            "mcp-wasm-client: the output-schema part (https://app.example/dist/part.wasm) could not be loaded: HTTP 404"
        );
        let data = e.data.as_ref().unwrap();
        assert_eq!(data["part"], "output-schema");
        assert_eq!(data["url"], "https://app.example/dist/part.wasm");
        assert_eq!(data["cause"], "HTTP 404");
        let bare = load_error("output-schema", "the output-schema part", None);
        assert_eq!(bare.data.as_ref().unwrap()["part"], "output-schema");
    }
}
