// A tool's inputSchema made fit for a model provider: the steps every provider shares (a copy,
// local $refs resolved, $schema/$id/$comment removed, an object root) and the hand-off to the
// provider's own rules (openai-strict.js, gemini-schema.js). A schema that cannot be made fit
// throws SchemaError, whose message says why; the caller reports the tool (kind tool_schema) and
// leaves it out.

import { strictSchema } from "./openai-strict.js";
import { geminiSchema } from "./gemini-schema.js";

/** Why a schema cannot be given to a provider (its message names the place and the reason). */
export class SchemaError extends Error {}

// The keywords whose value is one subschema, an array of them, or a map name → subschema.
const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"];
const MANY = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
/** Keywords that never reach a provider: they name the document, not the arguments. */
const DOCUMENT = ["$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "$vocabulary"];

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** Calls `f(child, set)` for each direct subschema of `node`; `set(v)` replaces it. */
export function eachChild(node, f) {
  for (const k of ONE) if (isObject(node[k])) f(node[k], (v) => (node[k] = v));
  for (const k of MANY)
    if (Array.isArray(node[k])) node[k].forEach((c, i) => isObject(c) && f(c, (v) => (node[k][i] = v)));
  if (Array.isArray(node.items)) node.items.forEach((c, i) => isObject(c) && f(c, (v) => (node.items[i] = v)));
  for (const k of MAP)
    if (isObject(node[k])) for (const [name, c] of Object.entries(node[k])) if (isObject(c)) f(c, (v) => (node[k][name] = v));
}

/** The schema a JSON pointer (`#/$defs/Thing`) names inside `root`. */
function pointer(root, ref) {
  let node = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = node?.[key];
  }
  if (!isObject(node)) throw new SchemaError(`$ref ${ref} names nothing in the schema`);
  return node;
}

/**
 * `root` with every local `$ref` replaced by a copy of its target (siblings of the `$ref` kept
 * over it) and `$defs`/`definitions` dropped; `{ cyclic: true }` when a `$ref` leads back into
 * itself (then nothing is inlined: the caller keeps the refs, or gives up). A `$ref` outside the
 * document is a SchemaError.
 */
export function inlineRefs(root) {
  let cyclic = false;
  const walk = (node, stack) => {
    if (typeof node.$ref === "string") {
      const ref = node.$ref;
      if (!ref.startsWith("#")) throw new SchemaError(`$ref ${ref} points outside the schema (only local refs are resolved)`);
      if (stack.includes(ref)) {
        cyclic = true;
        return node;
      }
      const siblings = { ...node };
      delete siblings.$ref;
      const target = walk(structuredClone(ref === "#" ? root : pointer(root, ref)), [...stack, ref]);
      return { ...target, ...siblings };
    }
    eachChild(node, (child, set) => {
      if (child !== node.$defs && child !== node.definitions) set(walk(child, stack));
    });
    return node;
  };
  const copy = structuredClone(root);
  const out = walk(copy, []);
  if (cyclic) return { schema: root, cyclic: true };
  const strip = (node) => {
    delete node.$defs;
    delete node.definitions;
    eachChild(node, strip);
  };
  strip(out);
  return { schema: out, cyclic: false };
}

/** Removes the document keywords (`$schema`, `$id`, …) at every level, in place. */
function dropDocumentKeywords(node) {
  for (const k of DOCUMENT) delete node[k];
  eachChild(node, dropDocumentKeywords);
}

/**
 * The shared steps: a JSON copy of `inputSchema` with an object root (`type: "object"` added when
 * it only has properties; a missing schema is `{ type: "object", properties: {} }`), the document
 * keywords removed, local refs inlined unless cyclic. Throws SchemaError for what no provider takes.
 */
export function prepare(inputSchema) {
  if (inputSchema === undefined || inputSchema === null) return { schema: { type: "object", properties: {} }, cyclic: false };
  if (!isObject(inputSchema)) throw new SchemaError(`inputSchema is ${Array.isArray(inputSchema) ? "an array" : typeof inputSchema}, not a JSON Schema object`);
  let copy;
  try {
    copy = JSON.parse(JSON.stringify(inputSchema));
  } catch (e) {
    throw new SchemaError(`inputSchema is not JSON (${e.message})`);
  }
  if (copy.type === undefined && !("anyOf" in copy) && !("oneOf" in copy) && !("allOf" in copy)) copy.type = "object";
  if (copy.type !== "object")
    throw new SchemaError(`the root is ${JSON.stringify(copy.type ?? "a composition (anyOf/oneOf/allOf)")}, not an object: tool arguments are an object`);
  copy.properties ??= {};
  const { schema, cyclic } = inlineRefs(copy);
  dropDocumentKeywords(schema);
  return { schema, cyclic };
}

/**
 * The tool definition's schema for `provider`:
 *  - `ai-sdk`, `anthropic`: the prepared JSON Schema (cyclic refs kept with their $defs);
 *  - `openai-chat`, `openai-responses`: strict when it can be (`strict: true`, `clean(args)`
 *    removes the nulls the model sends for optional properties), else the JSON Schema with
 *    `strict: false`;
 *  - `gemini`: the OpenAPI subset of `parameters` when it can be, else `parametersJsonSchema`.
 */
export function toolSchema(inputSchema, provider) {
  const { schema, cyclic } = prepare(inputSchema);
  const none = (args) => args;
  if (provider === "openai-chat" || provider === "openai-responses") {
    const strict = cyclic ? null : strictSchema(schema);
    return strict ? { schema: strict.schema, strict: true, clean: strict.clean } : { schema, strict: false, clean: none };
  }
  if (provider === "gemini") {
    const parameters = cyclic ? null : geminiSchema(schema);
    if (parameters) return { parameters: parameters.schema, empty: parameters.empty, clean: none };
    return { jsonSchema: schema, clean: none };
  }
  return { schema, clean: none };
}
