// <mcp-elicitation-form>'s drawing: the form (or the URL consent) for one request, what people
// type converted into the validator's input, and the validator's errors mapped back to the fields.
// elicitation-form.js (the element: its state, answer and checks) imports this file when the first
// form is drawn, so a page that never shows one never fetches it. The fields come from the
// package's form model (wasm.elicitationForm) and every error from its validator
// (wasm.validateElicitation): this file only draws them. Shadow DOM with a constructable
// stylesheet, so a page whose CSP has no 'unsafe-inline' shows it styled.

/** The element's tag (elicitation-form.js defines it; askIn defines it when nothing has). */
const TAG = "mcp-elicitation-form";

/** Single-select fields with this many options or fewer are radio buttons, more a <select>. */
const MAX_RADIOS = 4;

const CSS = `
:host { display: block; font: var(--mcp-form-font, 14px/1.45 system-ui, sans-serif);
  color: var(--mcp-form-fg, #1d2330); }
:host([hidden]) { display: none; }
form { display: grid; gap: var(--mcp-form-gap, 12px); margin: 0; padding: var(--mcp-form-padding, 14px);
  background: var(--mcp-form-bg, #fff); border: 1px solid var(--mcp-form-border, #d5d9e2);
  border-radius: var(--mcp-form-radius, 8px); }
.message { margin: 0; font-weight: 600; white-space: pre-wrap; }
.field { display: grid; gap: 4px; margin: 0; padding: 0; border: 0; min-width: 0; }
.label, legend { font-weight: 600; padding: 0; }
.req { color: var(--mcp-form-error, #b3261e); }
.help, .hint { color: var(--mcp-form-muted, #5b6475); font-size: 0.9em; }
.hint { font-weight: 400; }
input:not([type=checkbox]):not([type=radio]), select { font: inherit; color: inherit;
  background: var(--mcp-form-input-bg, #fff); border: 1px solid var(--mcp-form-border, #b9c0cc);
  border-radius: calc(var(--mcp-form-radius, 8px) / 2); padding: 6px 8px; min-width: 0; }
input[type=checkbox], input[type=radio] { accent-color: var(--mcp-form-accent, #3657d6); margin: 0; }
:focus-visible { outline: 2px solid var(--mcp-form-focus, var(--mcp-form-accent, #3657d6)); outline-offset: 2px; }
.choices { display: flex; flex-wrap: wrap; gap: 6px 16px; }
.choice, .check { display: inline-flex; align-items: center; gap: 6px; font-weight: 400; }
.check { font-weight: 600; }
[aria-invalid=true]:not([type=checkbox]):not([type=radio]) { border-color: var(--mcp-form-error, #b3261e); }
.error { color: var(--mcp-form-error, #b3261e); font-size: 0.9em; }
.error[hidden], .form-error[hidden], .url-error[hidden], .warning[hidden] { display: none; }
.form-error, .url-error { color: var(--mcp-form-error, #b3261e); margin: 0; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; }
button { font: inherit; cursor: pointer; padding: 6px 14px; border-radius: calc(var(--mcp-form-radius, 8px) / 2);
  border: 1px solid var(--mcp-form-accent, #3657d6); background: transparent; color: var(--mcp-form-accent, #3657d6); }
button.primary { background: var(--mcp-form-accent, #3657d6); color: var(--mcp-form-accent-fg, #fff); }
button:disabled { opacity: 0.5; cursor: default; }
.domain-line { margin: 0; }
.domain { font-size: 1.25em; font-weight: 700; color: var(--mcp-form-domain, inherit); }
.url-full { display: block; overflow-wrap: anywhere; font: var(--mcp-form-mono-font, 0.9em ui-monospace, monospace);
  color: var(--mcp-form-muted, #5b6475); }
.url-full mark { background: var(--mcp-form-mark-bg, #fff2a8); color: var(--mcp-form-mark-fg, #1d2330); }
.warning { color: var(--mcp-form-warning, #8a5a00); margin: 0; }
`;

// ------------------------------------------------------------------------------ DOM helpers

/** Builds an element: attributes (null, undefined and false skipped; true → ""), then children (strings as text). */
function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== "") node.append(c);
  return node;
}

/** The ids one field's nodes use inside the shadow root (index-based: a property name may hold any character). */
function idsOf(index) {
  const id = `f${index}`;
  return { id, label: `${id}-label`, help: `${id}-help`, error: `${id}-error` };
}

// ------------------------------------------------------------------------------ typed input

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** "+02:00", "-05:30" or "Z": the page's UTC offset at `date`. */
function offsetOf(date) {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0) return "Z";
  const abs = Math.abs(minutes);
  const pad = (n) => String(n).padStart(2, "0");
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A native datetime-local value ("2026-09-15T10:30", local wall time, no zone) as RFC 3339 with
 * the user's UTC offset ("2026-09-15T10:30:00+02:00"); any other text is returned as typed (the
 * validator then names what is wrong with it).
 */
export function localDateTimeToRfc3339(value) {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return value;
  const [, y, mo, d, hh, mm, ss = "00"] = m;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mm), Number(ss));
  if (Number.isNaN(date.getTime())) return value;
  return `${y}-${mo}-${d}T${hh}:${mm}:${ss}${offsetOf(date)}`;
}

/** An RFC 3339 instant as a datetime-local value in the user's zone ("" when it is not one). */
function rfc3339ToLocalInput(value) {
  const date = typeof value === "string" ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** What a text-like input holds, undefined when empty. */
const textValue = (input) => (input.value.trim() === "" ? undefined : input.value.trim());

/** Splits a URL around its host so the domain can be shown apart; null when it does not parse. */
function splitUrl(raw) {
  let url;
  try { url = new URL(raw); } catch { return null; }
  const i = url.host ? url.href.indexOf(url.host, url.protocol.length) : -1;
  if (i < 0) return { url, before: url.href, host: "", after: "" };
  return { url, before: url.href.slice(0, i), host: url.host, after: url.href.slice(i + url.host.length) };
}

/** Warnings about a URL a person should read before opening it. */
function urlWarnings(url) {
  const out = [];
  if (url.protocol === "http:" && !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) out.push("Not encrypted (http:).");
  if (url.username || url.password) out.push("The URL contains a user name: the real domain is the one shown above.");
  if (/(^|\.)xn--/.test(url.hostname)) out.push("The domain uses international characters (punycode).");
  return out;
}

// ------------------------------------------------------------------------------ field rows

/** The field's label text: its title (the model gives the property name when there is none). */
const titleOf = (field) => field.title ?? field.name;

/** The bounds hint of a text or number field ("2–60 characters", "0 to 2000"), or "". */
function hintOf(field) {
  const c = field.constraints ?? {};
  const range = (lo, hi, unit) => {
    const of = (n) => (unit ? ` ${unit}${n === 1 ? "" : "s"}` : "");
    if (lo !== undefined && hi !== undefined) return `${lo} to ${hi}${of(hi)}`;
    if (lo !== undefined) return `at least ${lo}${of(lo)}`;
    return hi !== undefined ? `at most ${hi}${of(hi)}` : "";
  };
  if (field.kind === "number" || field.kind === "integer") return range(c.minimum, c.maximum, "");
  if (field.kind === "multi-select") return range(c.minItems, c.maxItems, "choice");
  return range(c.minLength, c.maxLength, "character");
}

/** The label content: title, a required mark, a bounds hint. */
function labelContent(field) {
  const hint = hintOf(field);
  return [titleOf(field),
    field.required ? h("span", { class: "req", part: "required", "aria-hidden": "true" }, " *") : null,
    hint ? h("span", { class: "hint", part: "hint" }, ` (${hint})`) : null];
}

/** The common frame of a row: help text and the (hidden) error text. */
function rowParts(field, ids) {
  const help = field.description ? h("div", { class: "help", part: "help", id: ids.help }, String(field.description)) : null;
  const error = h("div", { class: "error", part: "error", id: ids.error, "data-test": `field-error-${field.name}`, hidden: true });
  return { help, error };
}

/** aria attributes every control of a field carries. */
function ariaOf(field, ids, help) {
  return { "aria-describedby": [help ? ids.help : null, ids.error].filter(Boolean).join(" "), "aria-required": field.required ? "true" : null };
}

/** The attributes of the input a text-like kind needs. */
function inputTypeOf(field) {
  switch (field.kind) {
    case "email": return { type: "email", autocomplete: "email", inputmode: "email" };
    case "uri": return { type: "url", inputmode: "url", placeholder: "https://…" };
    case "date": return { type: "date" };
    case "date-time": return { type: "datetime-local", step: "1" };
    case "number": return { type: "text", inputmode: "decimal" };
    case "integer": return { type: "text", inputmode: "numeric" };
    default: return { type: "text" };
  }
}

/** A row with one <input>: text, email, uri, date, date-time, number, integer. */
function inputRow(field, ids) {
  const { help, error } = rowParts(field, ids);
  const input = h("input", { ...inputTypeOf(field), id: ids.id, name: field.name, part: "input", "data-test": `input-${field.name}`, ...ariaOf(field, ids, help) });
  if (field.kind === "date-time") input.value = rfc3339ToLocalInput(field.default);
  else if (field.default !== undefined) input.value = String(field.default);
  const wrap = h("div", { class: "field", part: "field" }, h("label", { class: "label", part: "label", for: ids.id, id: ids.label }, ...labelContent(field)), help, input, error);
  const read = field.kind === "date-time"
    ? () => (input.value === "" ? undefined : localDateTimeToRfc3339(input.value))
    : () => textValue(input);
  return { wrap, controls: [input], read, error };
}

/** A row with one checkbox: a boolean is always answered (true or false). */
function booleanRow(field, ids) {
  const { help, error } = rowParts(field, ids);
  const input = h("input", { type: "checkbox", id: ids.id, name: field.name, part: "input", "data-test": `input-${field.name}`, ...ariaOf(field, ids, help) });
  input.checked = field.default === true;
  const wrap = h("div", { class: "field", part: "field" },
    h("label", { class: "check", part: "label", for: ids.id, id: ids.label }, input, ...labelContent(field)), help, error);
  return { wrap, controls: [input], read: () => input.checked, error };
}

/** A <fieldset> of radios (single) or checkboxes (multi), labelled by its <legend>. */
function choicesRow(field, ids, multi) {
  const { help, error } = rowParts(field, ids);
  const options = field.options ?? [];
  const defaults = multi ? (Array.isArray(field.default) ? field.default : []) : [field.default];
  const controls = options.map((o, i) => {
    const input = h("input", { type: multi ? "checkbox" : "radio", name: ids.id, value: String(i), part: "input",
      "data-test": `input-${field.name}-${String(o.value)}`, ...ariaOf(field, ids, help) });
    input.checked = defaults.some((d) => d !== undefined && JSON.stringify(d) === JSON.stringify(o.value));
    return input;
  });
  const group = h("div", { class: "choices" }, ...controls.map((c, i) => h("label", { class: "choice", part: "choice" }, c, String(options[i].label ?? options[i].value))));
  const wrap = h("fieldset", { class: "field", part: "field", id: ids.id, "aria-describedby": ariaOf(field, ids, help)["aria-describedby"] },
    h("legend", { part: "label", id: ids.label }, ...labelContent(field)), help, group, error);
  const picked = () => controls.filter((c) => c.checked).map((c) => options[Number(c.value)].value);
  const read = multi ? () => (picked().length ? picked() : undefined) : () => picked()[0];
  return { wrap, controls, read, error };
}

/** A <select> for a single choice among many options ("Choose…" first: no answer). */
function selectRow(field, ids) {
  const { help, error } = rowParts(field, ids);
  const options = field.options ?? [];
  const select = h("select", { id: ids.id, name: field.name, part: "input", "data-test": `input-${field.name}`, ...ariaOf(field, ids, help) },
    h("option", { value: "" }, "Choose…"),
    ...options.map((o, i) => h("option", { value: String(i), selected: JSON.stringify(o.value) === JSON.stringify(field.default) }, String(o.label ?? o.value))));
  const wrap = h("div", { class: "field", part: "field" }, h("label", { class: "label", part: "label", for: ids.id, id: ids.label }, ...labelContent(field)), help, select, error);
  const read = () => (select.value === "" ? undefined : options[Number(select.value)].value);
  return { wrap, controls: [select], read, error };
}

/** The row of one form-model field: { wrap, controls, read(), error }. */
function fieldRow(field, index) {
  const ids = idsOf(index);
  let row;
  if (field.kind === "boolean") row = booleanRow(field, ids);
  else if (field.kind === "multi-select") row = choicesRow(field, ids, true);
  else if (field.kind === "single-select") row = (field.options ?? []).length <= MAX_RADIOS ? choicesRow(field, ids, false) : selectRow(field, ids);
  else row = inputRow(field, ids);
  row.wrap.classList.add("efield", `kind-${field.kind}`);
  row.wrap.dataset.field = field.name;
  row.wrap.dataset.kind = field.kind;
  row.wrap.dataset.test = `field-${field.name}`;
  return { field, ...row };
}

/** Shows (or clears, when `message` is undefined) a field's inline error. */
function showFieldError(row, message) {
  row.error.textContent = message ? `${titleOf(row.field)} ${message}` : "";
  row.error.hidden = !message;
  row.wrap.classList.toggle("invalid", Boolean(message));
  for (const c of row.controls) {
    if (message) c.setAttribute("aria-invalid", "true");
    else c.removeAttribute("aria-invalid");
  }
}

// ------------------------------------------------------------------------------ the drawn form

let sheet = null;
/** The one constructable stylesheet every form shares (CSP-safe: no <style> element). */
const styles = () => {
  if (!sheet) { sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); }
  return sheet;
};

/**
 * One drawn form: `el`'s shadow root holds it. `model` is what elicitation-form.js checked
 * (`{ mode, message, schema, fields }` or `{ mode: "url", message, url }`); `finish(answer)` answers
 * (once: the element ignores later calls) and `validate(raw)` is the entry's validateElicitation
 * over the model's schema.
 */
export class FormView {
  #el;
  #model;
  #finish;
  #validate;
  #rows = [];

  /** Draws the form (or the URL consent) for `model` into `el`'s shadow root, replacing what was there. */
  constructor(el, model, { finish, validate }) {
    this.#el = el;
    this.#model = model;
    this.#finish = finish;
    this.#validate = validate;
    const root = el.shadowRoot;
    if (!root.adoptedStyleSheets.includes(styles())) root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles()];
    const message = model.message ? h("p", { class: "message", part: "message", id: "message", "data-test": "elicitation-message" }, model.message) : null;
    const form = h("form", { part: "form", novalidate: true, autocomplete: "off", "aria-labelledby": message ? "message" : null,
      "data-test": model.mode === "url" ? "elicitation-url" : "elicitation-form", "data-mode": model.mode });
    form.addEventListener("submit", (ev) => { ev.preventDefault(); el.submit(); });
    if (model.mode === "url") this.#renderUrl(form, message);
    else this.#renderFields(form, message);
    root.replaceChildren(form);
  }

  /** The form-mode body: one row per field, a general error line, Submit / Decline / Cancel. */
  #renderFields(form, message) {
    this.#rows = this.#model.fields.map(fieldRow);
    const general = h("p", { class: "form-error", part: "form-error", role: "alert", "data-test": "elicitation-errors", hidden: true });
    form.append(...[message, ...this.#rows.map((r) => r.wrap), general].filter(Boolean), this.#buttons([
      h("button", { type: "submit", class: "primary", part: "button submit", "data-test": "elicitation-accept" }, "Submit"),
      ...this.#declineCancel("elicitation"),
    ]));
    form.addEventListener("input", (ev) => this.#recheck(ev.target));
    form.addEventListener("change", (ev) => this.#recheck(ev.target));
  }

  /** The URL-mode body: the message, the target's domain, the full URL, Open / Decline / Cancel. */
  #renderUrl(form, message) {
    this.#rows = [];
    const parts = splitUrl(this.#model.url);
    const openable = parts !== null && /^https?:$/.test(parts.url.protocol);
    const full = h("code", { class: "url-full", part: "url-full", "data-test": "url-full" });
    if (parts?.host) full.append(h("span", {}, parts.before), h("mark", {}, parts.host), h("span", {}, parts.after));
    else full.textContent = this.#model.url;
    const warnings = openable ? urlWarnings(parts.url) : [];
    const refusal = parts === null ? "This is not a valid URL: it cannot be opened." : `This link cannot be opened: only http and https pages open (this one is ${parts.url.protocol}).`;
    form.append(...[message,
      h("p", { class: "domain-line", part: "url-domain-line" }, "Opens a page on ", h("strong", { class: "domain", part: "url-domain", "data-test": "url-domain" }, parts?.host || "(no domain)")),
      full,
      warnings.length ? h("p", { class: "warning", part: "url-warning", "data-test": "url-warning" }, warnings.join(" ")) : null,
      openable ? null : h("p", { class: "url-error", part: "url-error", role: "alert", "data-test": "url-error" }, refusal),
    ].filter(Boolean), this.#buttons([
      h("button", { type: "button", class: "primary", part: "button open", "data-test": "url-open", disabled: !openable }, "Open"),
      ...this.#declineCancel("url"),
    ]));
    form.querySelector('[data-test="url-open"]').addEventListener("click", () => this.#open(parts.url));
  }

  /** Decline and Cancel buttons, with `data-test="<prefix>-decline"` / `-cancel`. */
  #declineCancel(prefix) {
    const decline = h("button", { type: "button", part: "button decline", "data-test": `${prefix}-decline` }, "Decline");
    const cancel = h("button", { type: "button", part: "button cancel", "data-test": `${prefix}-cancel` }, "Cancel");
    decline.addEventListener("click", () => this.#el.decline());
    cancel.addEventListener("click", () => this.#el.cancel());
    return [decline, cancel];
  }

  /** The buttons row. */
  #buttons(buttons) {
    return h("div", { class: "buttons", part: "buttons" }, ...buttons);
  }

  /** Opens the URL in a new window without an opener (only on the person's click), then answers accept. */
  #open(url) {
    if (this.#el.answered) return;
    globalThis.open(url.href, "_blank", "noopener,noreferrer");
    this.#finish({ action: "accept" });
  }

  /** What the fields hold, converted for validateElicitation (empty fields left out). */
  collect() {
    const raw = {};
    for (const row of this.#rows) {
      const v = row.read();
      if (v !== undefined) raw[row.field.name] = v;
    }
    return raw;
  }

  /** Shows the validator's errors on their fields (the first per field) and focuses the first in form order. */
  showErrors(errors) {
    const el = this.#el;
    const byField = new Map();
    const general = [];
    for (const e of errors) {
      if (this.#rows.some((r) => r.field.name === e.field)) { if (!byField.has(e.field)) byField.set(e.field, e.message); }
      else general.push(e.field ? `${e.field}: ${e.message}` : e.message);
    }
    for (const row of this.#rows) showFieldError(row, byField.get(row.field.name));
    const box = el.shadowRoot.querySelector(".form-error");
    box.textContent = general.join("; ");
    box.hidden = general.length === 0;
    el.setAttribute("data-invalid", String(errors.length));
    if (errors.length === 0) el.removeAttribute("data-invalid");
    const first = this.#rows.find((r) => byField.has(r.field.name));
    (first?.controls[0] ?? (general.length ? el.shadowRoot.querySelector("button") : null))?.focus();
  }

  /** Re-checks the field `target` belongs to once it shows an error (the error goes as soon as it is fixed). */
  #recheck(target) {
    const row = this.#rows.find((r) => r.controls.includes(target));
    if (!row || !row.wrap.classList.contains("invalid") || this.#el.answered) return;
    const { errors } = this.#validate(this.collect());
    showFieldError(row, errors.find((e) => e.field === row.field.name)?.message);
  }

  /** Focuses the first field (form mode) or the Decline button (URL mode: a stray Enter never opens a page). */
  focusFirst() {
    const root = this.#el.shadowRoot;
    if (this.#model.mode === "url") return root.querySelector('[data-test="url-decline"]')?.focus();
    const first = this.#rows[0];
    const target = first?.controls.find((c) => c.checked) ?? first?.controls[0] ?? root.querySelector("button");
    target?.focus();
  }
}

/** ElicitationForm.ask()'s body once its arguments are checked: mount, open a closed dialog, wait, clean up (`FormClass` defines the tag if nothing has). */
export function askIn(FormClass, container, params, signal) {
  if (!customElements.get(TAG)) customElements.define(TAG, FormClass);
  const el = document.createElement(TAG);
  el.params = params;
  const dialog = container instanceof HTMLDialogElement ? container : null;
  const opened = dialog !== null && !dialog.open;
  const onDialogCancel = (ev) => { ev.preventDefault(); el.cancel(); };
  const onAbort = () => el.cancel();
  container.append(el);
  if (opened) dialog.showModal();
  dialog?.addEventListener("cancel", onDialogCancel);
  signal?.addEventListener("abort", onAbort, { once: true });
  el.focusFirst();
  return el.answer.then((answer) => {
    dialog?.removeEventListener("cancel", onDialogCancel);
    signal?.removeEventListener("abort", onAbort);
    el.remove();
    if (opened && dialog.open) dialog.close();
    return answer;
  });
}
