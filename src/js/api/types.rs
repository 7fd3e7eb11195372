//! The package's TypeScript declarations, written as TypeScript: `types.d.ts` (options, callback
//! signatures, the protocol's params and results, wire shape, camelCase, the Client), `group.d.ts`
//! (ClientGroup) and `skills.d.ts` (the skills extension), each appended to the .d.ts
//! wasm-bindgen writes for the glue.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = include_str!("types.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TS_GROUP: &str = include_str!("group.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TS_SKILLS: &str = include_str!("skills.d.ts");
