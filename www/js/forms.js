// The tool-arguments form (from a tool's JSON Schema inputSchema): it reads values back by JSON
// type and accepts raw JSON for objects and arrays. (Elicitation forms are the package's
// <mcp-elicitation-form>: see elicitation.js.)
import { el, h } from "./dom.js";

/** The field title: name, a red star when required, then any extra nodes (type hint). */
function fieldTitle(text, required, ...extra) {
  return h("span", { class: "field-name" }, text,
    required ? h("span", { class: "req", title: "required", text: " *" }) : null, ...extra);
}

// ---------------------------------------------------------------------------- tool arguments

/** The schema type of a property: handles `type: [..., "null"]` and `anyOf` (Optional[...]). */
function propType(prop) {
  let t = prop?.type;
  if (Array.isArray(t)) t = t.find((x) => x !== "null");
  if (!t && Array.isArray(prop?.anyOf)) {
    for (const alt of prop.anyOf) {
      const at = propType(alt);
      if (at && at !== "null") return at;
    }
  }
  return t ?? "string";
}

/** One labelled input for an inputSchema property. */
function argField(name, prop, req) {
  const type = propType(prop);
  const id = `arg-${name}`;
  let input;
  if (type === "boolean") {
    input = h("input", { id, type: "checkbox", name, checked: prop.default === true });
  } else if (Array.isArray(prop.enum)) {
    input = h("select", { id, name, required: req },
      req ? null : h("option", { value: "", text: "—" }),
      ...prop.enum.map((v) => h("option", { value: String(v), text: String(v), selected: v === prop.default })));
  } else if (type === "integer" || type === "number") {
    input = h("input", { id, type: "number", name, required: req, step: type === "integer" ? "1" : "any", value: prop.default ?? undefined });
  } else if (type === "object" || type === "array") {
    input = h("textarea", { id, name, required: req, rows: "3", placeholder: type === "array" ? "[ … ] (JSON)" : "{ … } (JSON)" });
    if (prop.default !== undefined) input.value = JSON.stringify(prop.default);
  } else {
    input = h("input", { id, type: "text", name, required: req, value: prop.default ?? undefined });
  }
  input.dataset.type = type;
  input.dataset.test = `arg-${name}`;
  const label = h("label", { for: id, class: type === "boolean" ? "field check" : "field" },
    fieldTitle(prop.title ?? name, req, h("span", { class: "field-type", text: ` ${type}` })));
  if (type === "boolean") label.prepend(input);
  else label.append(input);
  if (prop.description) label.append(h("small", { text: prop.description }));
  return label;
}

/** Shows the arguments form of `tool` (or a hint when none is selected) in the call card. */
export function renderArgsForm(tool, connected) {
  el.fields.replaceChildren();
  if (!tool) {
    el.toolTitle.textContent = "Call a tool";
    el.toolDescription.textContent = connected ? "Select a tool above." : "";
    return;
  }
  el.toolTitle.textContent = tool.name;
  el.toolDescription.textContent = tool.description ?? "";
  const schema = tool.inputSchema ?? {};
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(props);
  if (names.length === 0) el.fields.append(h("p", { class: "empty", text: "No arguments." }));
  for (const name of names) el.fields.append(argField(name, props[name] ?? {}, required.has(name)));
}

/** Reads the arguments form into an object; throws on invalid JSON in an object/array field. */
export function readArgs() {
  const args = {};
  for (const input of el.fields.querySelectorAll("input, textarea, select")) {
    const { name } = input;
    const type = input.dataset.type;
    if (type === "boolean") { args[name] = input.checked; continue; }
    const raw = input.value;
    if (raw === "") continue;
    if (type === "integer" || type === "number") args[name] = Number(raw);
    else if (type === "object" || type === "array") {
      try { args[name] = JSON.parse(raw); } catch (e) { throw new Error(`Argument ${name}: invalid JSON (${e.message})`, { cause: e }); }
    } else args[name] = raw;
  }
  return args;
}

/** Puts values into the arguments form (unknown names are skipped). */
export function fillArgs(values) {
  for (const [name, value] of Object.entries(values ?? {})) {
    const input = el.fields.querySelector(`[name="${CSS.escape(name)}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = typeof value === "object" ? JSON.stringify(value) : String(value);
  }
}
