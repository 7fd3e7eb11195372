//! `client.skills` in a build without the `skills` feature (the core entry): the same names,
//! each call refusing with an `input` error naming the full entry, the getters `false`. The
//! default entry's lean module (`lazy-parts`) keeps only the exported name: a lean client's
//! `client.skills` is its facade's (client.js declares the getter), made through a companion in
//! the full module (`CompanionSkills`), so the refusing getter and methods would never be reached.

use wasm_bindgen::prelude::*;

/// `client.skills` without the skills extension compiled in.
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Skills;

/// The core entry's `client.skills` and its refusing methods.
#[cfg(not(feature = "lazy-parts"))]
mod refusing {
    use super::Skills;
    use crate::js::api::client::Client;
    use crate::js::boundary::error as jserr;
    use crate::protocol::error::McpError;
    use js_sys::Promise;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(js_class = ClientCore)]
    impl Client {
        /// `client.skills`: refuses every call in this build.
        #[wasm_bindgen(getter)]
        pub fn skills(&self) -> Skills {
            Skills
        }
    }

    fn refuse(what: &str) -> Promise {
        Promise::reject(&jserr::to_js(McpError::input(format!(
            "skills.{what} needs the skills extension, which mcp-wasm-client/core leaves out: import from mcp-wasm-client (the full entry) instead"
        ))))
    }

    #[wasm_bindgen]
    impl Skills {
        /// Always `false` here.
        #[wasm_bindgen(getter)]
        pub fn supported(&self) -> bool {
            false
        }

        /// Always `false` here.
        #[wasm_bindgen(getter, js_name = directoryRead)]
        pub fn directory_read(&self) -> bool {
            false
        }

        /// Refuses: not in this build.
        pub fn list(&self, _options: JsValue) -> Promise {
            refuse("list")
        }

        /// Refuses: not in this build.
        pub fn get(&self, _uri: JsValue, _options: JsValue) -> Promise {
            refuse("get")
        }

        /// Refuses: not in this build.
        pub fn read(&self, _skill: JsValue, _reference: JsValue, _options: JsValue) -> Promise {
            refuse("read")
        }

        /// Refuses: not in this build.
        #[wasm_bindgen(js_name = readDirectory)]
        pub fn read_directory(&self, _uri: JsValue, _options: JsValue) -> Promise {
            refuse("readDirectory")
        }
    }
}
