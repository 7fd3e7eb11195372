//! `client.skills`: the skills extension (`io.modelcontextprotocol/skills`) for JS, with the
//! semantics of the TypeScript SDK 2.x `SkillsClient`. Arguments are read and a read's file
//! resolved against its entry synchronously (an unlisted file is refused before any request);
//! the requests go through the engine; every rule (what a result means, what is held) is
//! `session::skills`.

use super::client::Client;
use crate::engine::Engine;
use crate::js::api::settle::{settle, Call};
use crate::js::boundary::interop;
use crate::js::boundary::options::{self, non_empty};
use crate::json::{json, Value};
use crate::protocol::error::McpError;
use crate::session::skills as rules;
use crate::session::skills::entry::{self, Skill};
use crate::session::skills::results::{self, unsupported, DEFAULT_MAX_PAGES, DIRECTORY_METHOD};
use crate::session::skills::verify::{self, SkillFile, Target};
use js_sys::{Promise, Reflect, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The skills this client has listed or got, newest first: what `read(fileUri)` searches.
pub type Held = Rc<RefCell<Vec<Skill>>>;

/// The skills a server serves (`client.skills`): list, get, read (verified against the entry)
/// and readDirectory. (Its TypeScript declaration is hand-written in `api::types`.)
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Skills {
    engine: Rc<Engine>,
    held: Held,
}

impl Skills {
    /// `client.skills` over the client's engine and its held entries.
    pub fn new(engine: Rc<Engine>, held: Held) -> Skills {
        Skills { engine, held }
    }
}

fn max_pages(options: &JsValue) -> Result<u32, McpError> {
    Ok(options::positive_number(options, "maxPages", "options")?
        .map_or(DEFAULT_MAX_PAGES, |n| n.min(u32::MAX as u64) as u32))
}

/// A read file as JS: the JSON fields, and `bytes` as a `Uint8Array`.
fn file_to_js(file: SkillFile) -> JsValue {
    let mut out = json!({ "uri": file.uri, "verified": file.verified });
    let fields = [
        ("mimeType", file.mime_type.map(Value::String)),
        ("text", file.text.map(Value::String)),
        ("frontmatter", file.frontmatter.map(Value::Object)),
        ("body", file.body.map(Value::String)),
    ];
    for (key, value) in fields {
        if let Some(v) = value {
            out[key] = v;
        }
    }
    let js = interop::to_js(&out);
    // A fresh plain object: setting a property cannot fail.
    let _ = Reflect::set(&js, &"bytes".into(), &Uint8Array::from(&file.bytes[..]));
    js
}

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// `client.skills`: the skills extension.
    #[wasm_bindgen(getter)]
    pub fn skills(&self) -> Skills {
        Skills::new(self.engine.clone(), self.skills.clone())
    }
}

#[wasm_bindgen]
impl Skills {
    /// The server declared the extension (`false` before connect).
    #[wasm_bindgen(getter)]
    pub fn supported(&self) -> bool {
        rules::declared(self.engine.state.borrow().server_capabilities.as_ref()).is_some()
    }

    /// The server declared `directoryRead: true` (it serves `resources/directory/read`).
    #[wasm_bindgen(getter, js_name = directoryRead)]
    pub fn directory_read(&self) -> bool {
        rules::directory_read(self.engine.state.borrow().server_capabilities.as_ref())
    }

    /// `list({ cursor, skipInvalid, maxPages, signal, timeoutMs })` → `{ skills, invalid,
    /// nextCursor?, ttlMs?, cacheScope? }`: every page unless given a cursor; an invalid entry
    /// throws unless `skipInvalid`; a server without the extension lists none.
    pub fn list(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillsListOptions")] options: JsValue,
    ) -> Promise {
        let read = || -> Result<_, McpError> {
            let cursor = options::string(&options, "cursor", "options")?;
            let skip = options::boolean(&options, "skipInvalid", "options")?.unwrap_or(false);
            let pages = max_pages(&options)?;
            Ok((cursor, skip, pages, self.call(&options)?))
        };
        let ready = read().map(|(cursor, skip, pages, call)| ((cursor, skip, pages), call));
        let (engine, held, supported) = (self.engine.clone(), self.held.clone(), self.supported());
        settle(ready, move |(cursor, skip, pages), opts| async move {
            engine.ensure_connected()?;
            if !supported {
                return Ok(interop::to_js(&json!({ "skills": [], "invalid": [] })));
            }
            let one_page = cursor.is_some();
            let params = cursor.map(|c| json!({ "cursor": c }));
            let walk = (!one_page).then_some(("skills", pages));
            let page = engine
                .request_pages("skills/list", params, walk, &opts)
                .await?;
            results::listing(&page, skip, one_page, &mut held.borrow_mut())
                .map(|v| interop::to_js(&v))
        })
    }

    /// `get(skillMdUri, { signal, timeoutMs })` → `{ skill, ttlMs?, cacheScope? }`; refuses an
    /// invalid entry or one for another URI.
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let ready =
            non_empty(&uri, "skills.get", "uri").and_then(|u| Ok((u, self.call(&options)?)));
        let (engine, held, supported) = (self.engine.clone(), self.held.clone(), self.supported());
        settle(ready, move |uri, opts| async move {
            engine.ensure_connected()?;
            if !supported {
                return Err(unsupported("skills/get"));
            }
            let result = engine
                .request("skills/get", Some(json!({ "uri": uri })), &opts)
                .await?;
            results::got(&uri, &result, &mut held.borrow_mut()).map(|v| interop::to_js(&v))
        })
    }

    /// `read(skill, ref?, options?)` or `read(fileUri, options?)` → `{ uri, mimeType?, bytes,
    /// text?, verified, frontmatter?, body? }`, checked against the skill's entry.
    pub fn read(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SkillEntry | string")] skill: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | CallOptions")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let ready = self.read_target(&skill, &reference, &options);
        let ready = ready.map(|(skill, target, call)| ((skill, target), call));
        let (engine, supported) = (self.engine.clone(), self.supported());
        settle(ready, move |(skill, target), opts| async move {
            engine.ensure_connected()?;
            if !supported {
                return Err(unsupported("resources/read"));
            }
            let params = json!({ "uri": target.uri });
            let result = engine
                .request("resources/read", Some(params), &opts)
                .await?;
            verify::verify(&skill, &target, &result).map(file_to_js)
        })
    }

    /// `readDirectory(uri, { maxPages, signal, timeoutMs })` → `{ resources, ttlMs?,
    /// cacheScope? }`: the direct children, every page; needs `directoryRead`.
    #[wasm_bindgen(js_name = readDirectory)]
    pub fn read_directory(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SkillsListOptions")] options: JsValue,
    ) -> Promise {
        let ready = non_empty(&uri, "skills.readDirectory", "uri")
            .and_then(|u| Ok((u, max_pages(&options)?, self.call(&options)?)));
        let ready = ready.map(|(uri, pages, call)| ((uri, pages), call));
        let (engine, directory_read) = (self.engine.clone(), self.directory_read());
        settle(ready, move |(uri, pages), opts| async move {
            engine.ensure_connected()?;
            if !directory_read {
                return Err(unsupported(
                    "resources/directory/read with directoryRead: true",
                ));
            }
            let params = Some(results::directory_params(&uri));
            let walk = Some(("resources", pages));
            let all = engine
                .request_pages(DIRECTORY_METHOD, params, walk, &opts)
                .await?;
            Ok(interop::to_js(&results::directory(&all)))
        })
    }
}

impl Skills {
    /// The per-call options (`signal`, `timeoutMs`, ...); list-only keys are read elsewhere.
    fn call(&self, options: &JsValue) -> Result<Call, McpError> {
        options::call_options(options, self.engine.limits.timeout_ms)
    }

    /// `read`'s arguments: the skill (an entry, or the held skill listing a file URI), the file
    /// it names (refused here when unlisted) and the call options.
    fn read_target(
        &self,
        skill: &JsValue,
        reference: &JsValue,
        options: &JsValue,
    ) -> Result<(Skill, Target, Call), McpError> {
        if let Some(file_uri) = skill.as_string() {
            let held = self.holder(&file_uri)?;
            let target = verify::target(&held, Some(&file_uri))?;
            return Ok((held, target, self.call(reference)?));
        }
        let value = interop::from_js(skill)
            .map_err(|e| McpError::input(format!("skills.read: skill {e}")))?;
        let skill = entry::check(&value).map_err(|problems| {
            McpError::input(format!(
                "skills.read: not a valid skill entry: {}",
                problems.join("; ")
            ))
        })?;
        let reference = match reference.as_string() {
            Some(r) => Some(r),
            None if reference.is_undefined() => None,
            None => return Err(McpError::input("skills.read: ref must be a string")),
        };
        let target = verify::target(&skill, reference.as_deref())?;
        Ok((skill, target, self.call(options)?))
    }

    /// The held skill whose entry lists `file_uri` (the innermost, for nested skills).
    fn holder(&self, file_uri: &str) -> Result<Skill, McpError> {
        results::holder(&self.held.borrow(), file_uri)
    }
}
