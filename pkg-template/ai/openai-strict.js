// OpenAI's strict mode (Structured Outputs, `strict: true` on a function tool): every object has
// `additionalProperties: false` and lists every property in `required`, a property the tool
// treats as optional becomes nullable (the model sends null for "not given", which clean()
// removes again before the server sees the arguments), and only the keywords strict mode
// supports are sent. Annotations (title, default, examples…) are dropped; a validation keyword
// strict mode lacks (minLength, an unsupported format…) is dropped and said in the description,
// the server still checks it. A schema whose meaning strict mode cannot keep (an open object, a
// map, allOf/oneOf/not/if, a subschema without a type) is not made strict: strictSchema returns
// null and the tool is sent with `strict: false`.

import { addHints } from "./hints.js";

/** The string formats strict mode supports. */
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
/** What strict mode keeps as it is. */
const KEEP = new Set(["type", "description", "enum", "const", "pattern", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems"]);
/** Annotations: no meaning for validation, dropped. */
const DROP = new Set(["title", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "nullable"]);
/** Validation keywords strict mode lacks, said in the description instead. */
const HINT = new Set(["minLength", "maxLength", "minProperties", "maxProperties", "uniqueItems", "minContains", "maxContains"]);

/** Thrown inside the walk when strict mode cannot keep the schema's meaning. */
class NotStrict extends Error {}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const typesOf = (node) => (Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]);

/** `node` that also accepts null (a property made required that the tool treats as optional). */
function nullable(node) {
  const types = typesOf(node);
  if (types.includes("null") || (Array.isArray(node.enum) && node.enum.includes(null))) return node;
  if (node.anyOf) return { ...node, anyOf: [...node.anyOf, { type: "null" }] };
  if ("const" in node || types.length === 0) return { anyOf: [node, { type: "null" }] };
  const out = { ...node, type: [...types, "null"] };
  if (Array.isArray(node.enum)) out.enum = [...node.enum, null];
  return out;
}

/**
 * One subschema in strict form, and its cleaner: `{ schema, clean }` where `clean(value)` removes
 * the nulls standing for absent optional properties (null when there is nothing to clean).
 */
function convert(node, where) {
  if (!isObject(node)) throw new NotStrict(`${where} is not a schema object`);
  const out = {};
  const hints = [];
  let clean = null;
  for (const [k, v] of Object.entries(node)) {
    if (KEEP.has(k)) out[k] = v;
    else if (DROP.has(k) || k.startsWith("x-")) continue;
    else if (HINT.has(k)) hints.push(`${k}: ${JSON.stringify(v)}`);
    else if (k === "format") {
      if (FORMATS.has(v)) out.format = v;
      else hints.push(`format: ${v}`);
    } else if (!["properties", "required", "additionalProperties", "items", "anyOf"].includes(k))
      throw new NotStrict(`${where} uses ${k}`);
  }
  const types = typesOf(node);
  if (types.length === 0 && !node.anyOf && !("const" in node) && !Array.isArray(node.enum))
    throw new NotStrict(`${where} has no type`);
  if (node.anyOf) {
    if (!Array.isArray(node.anyOf)) throw new NotStrict(`${where}.anyOf is not an array`);
    const branches = node.anyOf.map((b, i) => convert(b, `${where}.anyOf[${i}]`));
    out.anyOf = branches.map((b) => b.schema);
    const cleaners = branches.map((b) => b.clean);
    if (cleaners.some(Boolean)) clean = cleanAnyOf(node.anyOf, cleaners);
  }
  if (types.includes("object") || node.properties) {
    if (node.additionalProperties !== undefined && node.additionalProperties !== false)
      throw new NotStrict(`${where} is an open object (additionalProperties ${JSON.stringify(node.additionalProperties)})`);
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const properties = {};
    const cleaners = {};
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const c = convert(child, `${where}.properties.${name}`);
      properties[name] = required.has(name) ? c.schema : nullable(c.schema);
      const optional = !required.has(name) && !typesOf(child).includes("null");
      if (optional || c.clean) cleaners[name] = { optional, clean: c.clean };
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
    if (Object.keys(cleaners).length) clean = cleanObject(cleaners);
  }
  if (node.items !== undefined) {
    if (!isObject(node.items)) throw new NotStrict(`${where}.items is not one schema`);
    const c = convert(node.items, `${where}.items`);
    out.items = c.schema;
    if (c.clean) clean = (value) => (Array.isArray(value) ? value.map(c.clean) : value);
  }
  addHints(out, hints);
  return { schema: out, clean };
}

/** A cleaner for an object: drops the nulls of optional properties, cleans the others. */
function cleanObject(cleaners) {
  return (value) => {
    if (!isObject(value)) return value;
    const out = { ...value };
    for (const [name, { optional, clean }] of Object.entries(cleaners)) {
      if (!(name in out)) continue;
      if (optional && out[name] === null) delete out[name];
      else if (clean) out[name] = clean(out[name]);
    }
    return out;
  };
}

/** A cleaner for anyOf: the first object branch whose properties hold every key of the value. */
function cleanAnyOf(branches, cleaners) {
  return (value) => {
    if (!isObject(value)) return value;
    for (let i = 0; i < branches.length; i++) {
      const props = branches[i].properties;
      if (cleaners[i] && isObject(props) && Object.keys(value).every((k) => k in props)) return cleaners[i](value);
    }
    return value;
  };
}

/**
 * The strict form of a prepared object schema (refs already inlined): `{ schema, clean }`, or
 * null when strict mode cannot keep its meaning.
 */
export function strictSchema(schema) {
  try {
    const { schema: out, clean } = convert(schema, "inputSchema");
    return { schema: out, clean: clean ?? ((args) => args) };
  } catch (e) {
    if (e instanceof NotStrict) return null;
    throw e;
  }
}
