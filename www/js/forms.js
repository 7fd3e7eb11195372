// Form fields: the tool-arguments form (from a tool's JSON Schema inputSchema) and the rows of
// an elicitation form (from the package's elicitationForm() fields). The two stay separate
// builders: the arguments form reads values back by JSON type and accepts raw JSON for objects
// and arrays, while elicitation rows follow the package's field kinds and are checked by
// validateElicitation(); they share the field title.
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
      try { args[name] = JSON.parse(raw); } catch (e) { throw new Error(`Argument ${name}: invalid JSON (${e.message})`); }
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

// ---------------------------------------------------------------------------- elicitation rows

/** One elicitation form row for an elicitationForm() field: { field, get(), wrap, error }. */
export function elicitationRow(formId, field) {
  const id = `${formId}-${field.name}`;
  const c = field.constraints ?? {};
  const error = h("div", { class: "field-error", id: `${id}-error`, "data-test": `field-error-${field.name}`, hidden: true, role: "alert" });
  const wrap = h("div", { class: `efield kind-${field.kind}`, dataset: { field: field.name, kind: field.kind }, "data-test": `field-${field.name}` });
  const title = fieldTitle(field.title ?? field.name, field.required);
  const desc = field.description ? h("small", { text: field.description }) : "";
  const common = { id, name: field.name, "aria-describedby": `${id}-error`, "data-test": `input-${field.name}` };
  let get;
  const str = (input) => () => (input.value === "" ? undefined : input.value);

  switch (field.kind) {
    case "boolean": {
      const input = h("input", { ...common, type: "checkbox", checked: field.default === true });
      wrap.append(h("label", { class: "check", for: id }, input, title), desc, error);
      get = () => input.checked;
      break;
    }
    case "single-select": {
      const opts = field.options ?? [];
      if (opts.length <= 3) {
        const group = h("div", { class: "choices", role: "radiogroup", "aria-labelledby": `${id}-label` });
        for (const o of opts) {
          group.append(h("label", { class: "choice" },
            h("input", { type: "radio", name: `${id}`, value: o.value, checked: field.default === o.value, "data-test": `input-${field.name}-${o.value}` }),
            h("span", { text: o.label ?? o.value })));
        }
        wrap.append(h("div", { class: "label", id: `${id}-label` }, title), desc, group, error);
        get = () => group.querySelector("input:checked")?.value;
      } else {
        const input = h("select", common, h("option", { value: "", text: "Choose…" }),
          ...opts.map((o) => h("option", { value: o.value, text: o.label ?? o.value, selected: field.default === o.value })));
        wrap.append(h("label", { for: id }, title), desc, input, error);
        get = str(input);
      }
      break;
    }
    case "multi-select": {
      const defaults = new Set(Array.isArray(field.default) ? field.default : []);
      const group = h("div", { class: "choices", role: "group", "aria-labelledby": `${id}-label` });
      for (const o of field.options ?? []) {
        group.append(h("label", { class: "choice" },
          h("input", { type: "checkbox", value: o.value, checked: defaults.has(o.value), "data-test": `input-${field.name}-${o.value}` }),
          h("span", { text: o.label ?? o.value })));
      }
      wrap.append(h("div", { class: "label", id: `${id}-label` }, title), desc, group, error);
      get = () => {
        const v = [...group.querySelectorAll("input:checked")].map((i) => i.value);
        return v.length === 0 && !field.required ? undefined : v;
      };
      break;
    }
    case "date-time": {
      const input = h("input", { ...common, type: "datetime-local", step: "1" });
      if (typeof field.default === "string") input.value = field.default.replace(/(Z|[+-]\d\d:\d\d)$/, "").slice(0, 19);
      wrap.append(h("label", { for: id }, title, h("span", { class: "field-type", text: " your local time" })), desc, input, error);
      // datetime-local has no zone: send RFC 3339 in UTC.
      get = () => {
        if (input.value === "") return undefined;
        const d = new Date(input.value);
        return Number.isNaN(d.getTime()) ? input.value : d.toISOString().replace(".000Z", "Z");
      };
      break;
    }
    default: {
      const type = { email: "email", uri: "url", date: "date", number: "number", integer: "number" }[field.kind] ?? "text";
      const input = h("input", {
        ...common, type,
        step: field.kind === "integer" ? "1" : field.kind === "number" ? "any" : undefined,
        min: c.minimum, max: c.maximum,
        placeholder: field.kind === "email" ? "name@example.com" : field.kind === "uri" ? "https://…" : undefined,
      });
      if (field.default !== undefined) input.value = String(field.default);
      const hint = [
        c.minLength !== undefined ? `min ${c.minLength} chars` : null,
        c.maxLength !== undefined ? `max ${c.maxLength} chars` : null,
        c.minimum !== undefined ? `≥ ${c.minimum}` : null,
        c.maximum !== undefined ? `≤ ${c.maximum}` : null,
      ].filter(Boolean).join(", ");
      wrap.append(h("label", { for: id }, title, hint ? h("span", { class: "field-type", text: ` ${hint}` }) : null), desc, input, error);
      get = str(input); // validateElicitation coerces numbers/integers from these strings
    }
  }
  return { field, get, wrap, error };
}
