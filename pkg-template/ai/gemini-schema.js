// Gemini's `parameters`: the OpenAPI 3.0 subset of its Schema (`type` as STRING, NUMBER, INTEGER,
// BOOLEAN, ARRAY, OBJECT; `nullable` instead of a "null" type; `enum` of strings only; no $ref,
// no additionalProperties, no allOf/oneOf/not; the int64 bounds minLength, maxItems… as strings).
// Annotations it lacks are dropped and validation keywords it lacks are said in the description.
// A schema whose meaning the subset cannot keep (a free-form or open object, a non-string enum
// with no type, allOf of several, not/if…) gives null: the tool is then declared with
// `parametersJsonSchema` (the JSON Schema as it is) instead.

import { addHints } from "./hints.js";

const TYPES = { string: "STRING", number: "NUMBER", integer: "INTEGER", boolean: "BOOLEAN", array: "ARRAY", object: "OBJECT" };
/** The formats the subset names, per type. */
const FORMATS = { STRING: ["date-time", "enum"], INTEGER: ["int32", "int64"], NUMBER: ["float", "double"] };
/** Kept as they are. */
const KEEP = new Set(["description", "title", "pattern", "minimum", "maximum", "default"]);
/** int64 fields: strings in the API's JSON. */
const INT64 = new Set(["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]);
/** Annotations without a counterpart: dropped. */
const DROP = new Set(["examples", "example", "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "$defs", "definitions"]);
/** Validation keywords without a counterpart: said in the description. */
const HINT = new Set(["exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "minContains", "maxContains"]);

/** Thrown inside the walk when the subset cannot keep the schema's meaning. */
class NotSubset extends Error {}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** One subschema in the subset (`root`: the arguments object, which may have no properties). */
function convert(node, where, root = false) {
  if (!isObject(node)) throw new NotSubset(`${where} is not a schema object`);
  const out = {};
  const hints = [];
  let types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (types.includes("null")) {
    out.nullable = true;
    types = types.filter((t) => t !== "null");
  }
  if (types.length === 0 && isObject(node.properties)) types = ["object"];
  if ("const" in node) {
    if (typeof node.const !== "string") throw new NotSubset(`${where}.const is not a string`);
    types = ["string"];
    out.enum = [node.const];
  }
  if (types.length > 1) {
    // several types: anyOf one per type, the rest of the keywords on each
    const rest = { ...node };
    delete rest.type;
    return { ...(out.nullable ? { nullable: true } : {}), anyOf: types.map((t, i) => convert({ ...rest, type: t }, `${where}.type[${i}]`)) };
  }
  const type = types[0] === undefined ? undefined : TYPES[types[0]];
  if (types[0] !== undefined && !type) throw new NotSubset(`${where} has type ${JSON.stringify(types[0])}`);
  if (type) out.type = type;
  for (const [k, v] of Object.entries(node)) {
    if (KEEP.has(k)) out[k] = v;
    else if (INT64.has(k)) out[k] = String(v);
    else if (DROP.has(k) || k.startsWith("x-")) continue;
    else if (HINT.has(k)) hints.push(`${k}: ${JSON.stringify(v)}`);
    else if (k === "format") {
      if (FORMATS[type]?.includes(v)) out.format = v;
      else hints.push(`format: ${v}`);
    } else if (k === "enum") {
      if (!Array.isArray(v)) throw new NotSubset(`${where}.enum is not an array`);
      const values = v.filter((x) => x !== null);
      if (v.includes(null)) out.nullable = true;
      if (values.every((x) => typeof x === "string")) {
        out.enum = values;
        out.type ??= "STRING";
      } else if (type) hints.push(`one of ${JSON.stringify(values)}`);
      else throw new NotSubset(`${where}.enum holds values that are not strings, with no type`);
    } else if (k === "anyOf" || k === "oneOf") {
      if (!Array.isArray(v)) throw new NotSubset(`${where}.${k} is not an array`);
      const branches = v.filter((b) => !(isObject(b) && b.type === "null" && Object.keys(b).length === 1));
      if (branches.length < v.length) out.nullable = true;
      const converted = branches.map((b, i) => convert(b, `${where}.${k}[${i}]`));
      if (converted.length === 1 && !type) Object.assign(out, converted[0], out.nullable ? { nullable: true } : {});
      else out.anyOf = converted;
    } else if (k === "allOf") {
      if (!Array.isArray(v) || v.length !== 1) throw new NotSubset(`${where} uses allOf of ${Array.isArray(v) ? v.length : "?"} schemas`);
      Object.assign(out, convert(v[0], `${where}.allOf[0]`));
    } else if (k === "additionalProperties") {
      if (v !== false) throw new NotSubset(`${where} is an open object (additionalProperties ${JSON.stringify(v)})`);
    } else if (!["type", "const", "nullable", "properties", "required", "items"].includes(k))
      throw new NotSubset(`${where} uses ${k}`);
  }
  if (node.nullable === true) out.nullable = true;
  if (out.type === "OBJECT") {
    const entries = Object.entries(isObject(node.properties) ? node.properties : {});
    if (entries.length === 0 && !root) throw new NotSubset(`${where} is an object without properties`);
    out.properties = Object.fromEntries(entries.map(([name, child]) => [name, convert(child, `${where}.properties.${name}`)]));
    const required = (Array.isArray(node.required) ? node.required : []).filter((n) => n in out.properties);
    if (required.length) out.required = required;
    else delete out.required;
  }
  if (node.items !== undefined) {
    if (!isObject(node.items)) throw new NotSubset(`${where}.items is not one schema`);
    out.items = convert(node.items, `${where}.items`);
  }
  if (out.type === "ARRAY" && !out.items) throw new NotSubset(`${where} is an array without items`);
  if (!out.type && !out.anyOf) throw new NotSubset(`${where} has no type`);
  addHints(out, hints);
  return out;
}

/**
 * The subset form of a prepared object schema (refs already inlined): `{ schema, empty }`
 * (`empty`: no properties, so the declaration leaves `parameters` out), or null when the subset
 * cannot keep its meaning.
 */
export function geminiSchema(schema) {
  try {
    const out = convert(schema, "inputSchema", true);
    return { schema: out, empty: Object.keys(out.properties ?? {}).length === 0 };
  } catch (e) {
    if (e instanceof NotSubset) return null;
    throw e;
  }
}
