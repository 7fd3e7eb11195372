// MCP WASM client demo: a chat-style page in plain ES modules, no framework, no CDN.
// Serve the repository root and open /www/ (the wasm package lives in ../pkg/web).
//
// Query parameters: ?url=<mcp url>  &mode=auto|legacy|2026-07-28  &autoconnect=1
//                   &call=<tool>  &args=<JSON object>
import init, { Client, McpError, elicitationForm, validateElicitation } from "../pkg/web/mcp_wasm_client.js";

const DEFAULT_URL = "http://127.0.0.1:8081/mcp"; // scripts/demo.sh starts demo/server.py there
const DEFAULT_ROOTS = [{ uri: "file:///home/demo/projects/mcp-wasm-client", name: "mcp-wasm-client" }];

const $ = (sel) => document.querySelector(sel);
const el = {
  form: $("#connect-form"),
  url: $("#url"),
  mode: $("#mode"),
  connect: $("#connect"),
  disconnect: $("#disconnect"),
  status: $("#status"),
  instructions: $("#instructions"),
  tools: $("#tools"),
  toolTitle: $("#tool-title"),
  toolDescription: $("#tool-description"),
  args: $("#args"),
  fields: $("#fields"),
  call: $("#call"),
  transcript: $("#transcript"),
  clear: $("#clear"),
  roots: $("#roots"),
  rootForm: $("#root-form"),
  rootUri: $("#root-uri"),
  rootName: $("#root-name"),
  rootError: $("#root-error"),
  samplingDialog: $("#sampling-dialog"),
  samplingRequest: $("#sampling-request"),
  samplingReply: $("#sampling-reply"),
  samplingModel: $("#sampling-model"),
  samplingError: $("#sampling-error"),
  samplingApprove: $("#sampling-approve"),
  samplingReject: $("#sampling-reject"),
  urlDialog: $("#url-dialog"),
  urlMessage: $("#url-message"),
  urlDomain: $("#url-domain"),
  urlFull: $("#url-full"),
  urlWarning: $("#url-warning"),
  urlOpen: $("#url-open"),
  urlDecline: $("#url-decline"),
  urlCancel: $("#url-cancel"),
};

let client = null;
let tools = [];
let selected = null;
let busy = false;
let roots = DEFAULT_ROOTS.map((r) => ({ ...r }));
let callSeq = 0;

// ---------------------------------------------------------------------------- helpers

/** Creates an element: h("div", { class: "x", text: "hi" }, child, ...). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null && c !== false) node.append(c);
  return node;
}

const pretty = (v) => JSON.stringify(v, null, 2);
const firstLine = (s) => String(s).trim().split("\n")[0];
const isMcpError = (err) => err instanceof McpError || err?.name === "McpError";

function errorNode(err, context) {
  const box = h("div", { class: "error-box", "data-test": "error" });
  box.append(h("strong", { text: `${context} failed` }));
  if (isMcpError(err)) {
    box.append(h("div", {}, h("span", { class: "code", text: `McpError ${err.code}` }), " ", err.message));
    if (err.data !== undefined && err.data !== null) box.append(h("pre", { class: "json", text: pretty(err.data) }));
  } else {
    box.append(h("div", { text: String(err?.message ?? err) }));
  }
  return box;
}

function setStatus(state, ...parts) {
  el.status.dataset.state = state;
  el.status.replaceChildren(...parts);
  document.body.dataset.state = state;
}

function updateButtons() {
  el.connect.disabled = busy;
  el.disconnect.disabled = busy || !client;
  el.call.disabled = busy || !client || !selected;
}

// ---------------------------------------------------------------------------- transcript

const ICON = { user: "You", server: "Server", system: "·", log: "log" };

/** Appends a message to the transcript; returns its body element. */
function addMessage(kind, { test, label, dataset } = {}, ...children) {
  const body = h("div", { class: "bubble" }, ...children);
  const li = h(
    "li",
    { class: `msg ${kind}`, "data-test": test ?? `msg-${kind}`, dataset },
    label !== null ? h("div", { class: "who", text: label ?? ICON[kind] ?? kind }) : null,
    body,
  );
  el.transcript.append(li);
  scrollToEnd();
  return li;
}

function scrollToEnd() {
  requestAnimationFrame(() => el.transcript.lastElementChild?.scrollIntoView({ block: "end", behavior: "instant" }));
}

function systemNote(text, test = "msg-system") {
  return addMessage("system", { test, label: null }, text);
}

function logLine(level, text, logger) {
  const li = addMessage(
    "log",
    { test: "log", label: null, dataset: { level } },
    h("span", { class: `level level-${level}`, text: level }),
    logger ? h("span", { class: "logger", text: logger }) : null,
    h("span", { class: "log-text", text }),
  );
  return li;
}

function contentBlock(block) {
  switch (block?.type) {
    case "text":
      return h("div", { class: "block text", "data-test": "content-text" }, h("pre", { class: "plain", text: block.text ?? "" }));
    case "image":
      return h("div", { class: "block image", "data-test": "content-image" },
        h("img", { src: `data:${block.mimeType};base64,${block.data}`, alt: "image from the tool" }),
        h("div", { class: "block-label", text: block.mimeType }));
    case "audio":
      return h("div", { class: "block" }, h("audio", { controls: true, src: `data:${block.mimeType};base64,${block.data}` }));
    case "resource_link":
      return h("div", { class: "block" }, h("div", { class: "block-label", text: "resource link" }),
        h("code", { text: block.uri }), block.name ? ` ${block.name}` : null);
    case "resource": {
      const r = block.resource ?? {};
      return h("div", { class: "block" }, h("div", { class: "block-label", text: `resource ${r.uri ?? ""}` }),
        h("pre", { class: "plain", text: r.text ?? `(${r.mimeType ?? "binary"} blob)` }));
    }
    default:
      return h("div", { class: "block" }, h("pre", { class: "json", text: pretty(block) }));
  }
}

function renderResult(li, name, result, ms) {
  const isError = result?.isError === true;
  li.dataset.state = isError ? "tool-error" : "ok";
  const bubble = li.querySelector(".bubble");
  const parts = [h("div", { class: "result-head" },
    h("span", { class: isError ? "badge bad" : "badge good", text: isError ? "isError" : "ok" }),
    h("span", { class: "ms", text: `${name} · ${ms.toFixed(0)} ms` }))];
  const content = Array.isArray(result?.content) ? result.content : [];
  for (const block of content) parts.push(contentBlock(block));
  const sc = result?.structuredContent;
  const scIsEcho = sc && Object.keys(sc).length === 1 && "result" in sc &&
    content.length === 1 && content[0]?.text === sc.result;
  if (sc !== undefined && !scIsEcho) {
    parts.push(h("details", { class: "block structured", "data-test": "structured", open: true },
      h("summary", { class: "block-label", text: "structuredContent" }),
      h("pre", { class: "json", text: pretty(sc) })));
  }
  if (content.length === 0 && sc === undefined) parts.push(h("pre", { class: "json", text: pretty(result) }));
  bubble.replaceChildren(...parts);
  scrollToEnd();
}

// ---------------------------------------------------------------------------- connection

function clientOptions() {
  return {
    mode: el.mode.value,
    clientInfo: { name: "mcp-wasm-demo", version: "0.2.0" },
    logLevel: "info",
    elicitationCallback: onElicitation,
    samplingCallback: onSampling,
    listRootsCallback: onListRoots,
    loggingCallback: (p) => logLine(p?.level ?? "info", typeof p?.data === "string" ? p.data : pretty(p?.data), p?.logger),
    messageHandler: onMessage,
  };
}

function onMessage(message) {
  if (isMcpError(message) || message instanceof Error) {
    const kind = message?.data?.kind;
    systemNote(`${kind ? `[${kind}] ` : ""}${message.message}`, "msg-transport");
    return;
  }
  const method = message?.method;
  if (method === "notifications/message" || method === "notifications/progress") return; // shown elsewhere
  if (method === "notifications/tools/list_changed") refreshTools();
  if (method) systemNote(`Notification ${method}`, "msg-notification");
}

async function connect() {
  if (busy) return;
  busy = true;
  updateButtons();
  if (client) await disconnect({ quiet: true, keepBusy: true });
  const url = el.url.value.trim();
  setStatus("connecting", `Connecting to ${url} (mode ${el.mode.value})…`);
  try {
    const c = new Client(url, clientOptions());
    await c.connect();
    client = c;
    if (c.era !== "modern" && c.era !== "2026-07-28") {
      try { await c.setLoggingLevel("info"); } catch { /* not every server has logging/setLevel */ }
    }
    const listed = await c.listTools({ all: true });
    tools = listed?.tools ?? [];
    showConnected(c, listed);
    renderTools();
    systemNote(`Connected to ${url}: ${tools.length} tools.`, "msg-connected");
  } catch (err) {
    client = null;
    setStatus("error", errorNode(err, "Connect"));
    renderTools();
  } finally {
    busy = false;
    updateButtons();
  }
}

function showConnected(c, listed) {
  const info = c.serverInfo ?? listed?._meta?.["io.modelcontextprotocol/serverInfo"] ?? {};
  const server = [info.name ?? "(server did not say)", info.version].filter(Boolean).join(" ");
  setStatus(
    "connected",
    h("span", { class: "dot" }),
    "Connected · era ",
    h("b", { id: "era", "data-test": "era", text: c.era ?? "?" }),
    " · protocol ",
    h("b", { id: "protocol-version", "data-test": "protocol-version", text: c.protocolVersion ?? "?" }),
    " · transport ",
    h("b", { id: "transport", text: c.transport ?? "?" }),
    " · server ",
    h("b", { id: "server-info", "data-test": "server-info", text: server }),
  );
  el.instructions.hidden = !c.instructions;
  el.instructions.textContent = c.instructions ?? "";
}

async function refreshTools() {
  if (!client) return;
  try {
    tools = (await client.listTools({ all: true, cache: false }))?.tools ?? [];
    if (selected) selected = tools.find((t) => t.name === selected.name) ?? null;
    renderTools();
    renderForm();
  } catch (err) {
    systemNote(`Could not refresh tools: ${err?.message ?? err}`);
  }
}

async function disconnect({ quiet = false, keepBusy = false } = {}) {
  const c = client;
  client = null;
  tools = [];
  selected = null;
  if (!keepBusy) { busy = true; updateButtons(); }
  let closeError = null;
  try { if (c) await c.close(); } catch (err) { closeError = err; }
  el.instructions.hidden = true;
  renderTools();
  renderForm();
  if (!quiet) {
    if (closeError) setStatus("error", errorNode(closeError, "Close"));
    else setStatus("idle", "Disconnected.");
    systemNote("Disconnected.");
  }
  if (!keepBusy) { busy = false; updateButtons(); }
}

// ---------------------------------------------------------------------------- tools + args form

function renderTools() {
  if (!client) {
    el.tools.replaceChildren(h("li", { class: "empty", text: "Connect to list tools." }));
    return;
  }
  if (tools.length === 0) {
    el.tools.replaceChildren(h("li", { class: "empty", text: "The server has no tools." }));
    return;
  }
  el.tools.replaceChildren(...tools.map((tool) => h("li", {},
    h("button", {
      type: "button",
      class: tool === selected ? "tool selected" : "tool",
      dataset: { tool: tool.name },
      "data-test": `tool-${tool.name}`,
      "aria-pressed": tool === selected ? "true" : "false",
      title: tool.description ?? "",
      onclick: () => selectTool(tool.name),
    }, h("span", { class: "tool-name", text: tool.title ?? tool.name }),
    tool.description ? h("span", { class: "tool-desc", text: firstLine(tool.description) }) : null))));
}

function selectTool(name) {
  selected = tools.find((t) => t.name === name) ?? null;
  renderTools();
  renderForm();
  updateButtons();
}

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

function renderForm() {
  el.fields.replaceChildren();
  if (!selected) {
    el.toolTitle.textContent = "Call a tool";
    el.toolDescription.textContent = client ? "Select a tool above." : "";
    return;
  }
  el.toolTitle.textContent = selected.name;
  el.toolDescription.textContent = selected.description ?? "";
  const schema = selected.inputSchema ?? {};
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(props);
  if (names.length === 0) el.fields.append(h("p", { class: "empty", text: "No arguments." }));
  for (const name of names) {
    const prop = props[name] ?? {};
    const type = propType(prop);
    const id = `arg-${name}`;
    const req = required.has(name);
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
      h("span", { class: "field-name" }, prop.title ?? name,
        req ? h("span", { class: "req", title: "required", text: " *" }) : null,
        h("span", { class: "field-type", text: ` ${type}` })));
    if (type === "boolean") label.prepend(input);
    else label.append(input);
    if (prop.description) label.append(h("small", { text: prop.description }));
    el.fields.append(label);
  }
}

function readArgs() {
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

function fillArgs(values) {
  for (const [name, value] of Object.entries(values ?? {})) {
    const input = el.fields.querySelector(`[name="${CSS.escape(name)}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = typeof value === "object" ? JSON.stringify(value) : String(value);
  }
}

// ---------------------------------------------------------------------------- calling

async function callSelected() {
  if (!client || !selected) return;
  if (!el.args.reportValidity()) return;
  const name = selected.name;
  let args;
  try {
    args = readArgs();
  } catch (err) {
    systemNote(err.message);
    return;
  }
  await callTool(name, args);
}

async function callTool(name, args) {
  const c = client;
  if (!c) return;
  const id = ++callSeq;
  addMessage("user", { test: "msg-call", dataset: { tool: name, call: String(id) } },
    h("code", { class: "call", text: `${name}(${Object.keys(args).length ? JSON.stringify(args) : ""})` }));
  const li = addMessage("server", { test: "msg-result", dataset: { tool: name, call: String(id), state: "pending" } },
    h("span", { class: "pending", text: "working…" }));
  let progressBox = null;
  const onProgress = (p) => {
    if (!progressBox) {
      progressBox = h("div", { class: "progress", "data-test": "progress" },
        h("progress", { max: "1", value: "0" }), h("span", { class: "progress-text" }));
      li.querySelector(".bubble").append(progressBox);
    }
    const bar = progressBox.querySelector("progress");
    if (p.total) { bar.max = p.total; bar.value = p.progress; } else bar.removeAttribute("value");
    progressBox.querySelector(".progress-text").textContent =
      `${p.progress}${p.total ? ` / ${p.total}` : ""}${p.message ? ` · ${p.message}` : ""}`;
    scrollToEnd();
  };
  const started = performance.now();
  try {
    const result = await c.callTool(name, args, { onProgress });
    renderResult(li, name, result, performance.now() - started);
    if (progressBox) li.querySelector(".bubble").append(progressBox);
  } catch (err) {
    li.dataset.state = "error";
    li.querySelector(".bubble").replaceChildren(errorNode(err, `Call ${name}`));
  }
  return li;
}

// ---------------------------------------------------------------------------- elicitation

function onElicitation(context, params) {
  if (params?.mode === "url") return urlConsent(context, params);
  return elicitationCard(context, params);
}

let elicitSeq = 0;

/** Builds a real form from elicitationForm(requestedSchema) inside the transcript. */
function elicitationCard(context, params) {
  const schema = params.requestedSchema ?? { type: "object", properties: {} };
  const { fields } = elicitationForm(schema);
  const formId = `el${++elicitSeq}`;
  return new Promise((resolve) => {
    const inputs = new Map(); // field name -> { field, get(), wrap, error }
    const form = h("form", { class: "elicit-form", novalidate: true, autocomplete: "off", "data-test": "elicitation-form" });
    for (const field of fields) form.append(fieldRow(formId, field, inputs));
    const buttons = h("div", { class: "buttons" },
      h("button", { type: "submit", "data-test": "elicitation-accept", text: "Submit" }),
      h("button", { type: "button", class: "secondary", "data-test": "elicitation-decline", text: "Decline", onclick: () => finish("decline") }),
      h("button", { type: "button", class: "secondary", "data-test": "elicitation-cancel", text: "Cancel", onclick: () => finish("cancel") }));
    const summary = h("div", { class: "elicit-summary", "data-test": "elicitation-summary", hidden: true });
    form.append(h("div", { class: "form-errors", "data-test": "elicitation-errors", hidden: true }), buttons);
    const li = addMessage("server", { test: "elicitation", label: "Server asks", dataset: { state: "pending" } },
      h("div", { class: "message", "data-test": "elicitation-message", text: params.message ?? "" }), form, summary);
    li.classList.add("elicitation");

    const collect = () => {
      const raw = {};
      for (const [name, entry] of inputs) {
        const v = entry.get();
        if (v !== undefined) raw[name] = v;
      }
      return raw;
    };
    const showErrors = (errors, only) => {
      const byField = new Map();
      const general = [];
      for (const e of errors) {
        if (e.field && inputs.has(e.field)) {
          if (!byField.has(e.field)) byField.set(e.field, e.message);
        } else general.push(e.field ? `${e.field}: ${e.message}` : e.message);
      }
      for (const [name, entry] of inputs) {
        if (only && name !== only) continue;
        const msg = byField.get(name);
        entry.error.textContent = msg ?? "";
        entry.error.hidden = !msg;
        entry.wrap.classList.toggle("invalid", Boolean(msg));
        for (const i of entry.wrap.querySelectorAll("input, select, textarea")) {
          if (msg) i.setAttribute("aria-invalid", "true");
          else i.removeAttribute("aria-invalid");
        }
      }
      if (!only) {
        const box = form.querySelector(".form-errors");
        box.textContent = general.join("; ");
        box.hidden = general.length === 0;
      }
      return byField;
    };
    // Re-check a field as soon as it changes, once it has shown an error.
    form.addEventListener("input", (ev) => {
      const wrap = ev.target.closest(".efield");
      if (!wrap || !wrap.classList.contains("invalid")) return;
      showErrors(validateElicitation(schema, collect()).errors, wrap.dataset.field);
    });
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const { content, errors } = validateElicitation(schema, collect());
      if (errors.length) {
        const byField = showErrors(errors);
        const first = [...byField.keys()][0];
        inputs.get(first)?.wrap.querySelector("input, select, textarea")?.focus();
        li.dataset.invalid = String(errors.length);
        return;
      }
      showErrors([]);
      finish("accept", content);
    });

    let done = false;
    function finish(action, content) {
      if (done) return;
      done = true;
      li.dataset.state = action;
      form.querySelectorAll("input, select, textarea, button").forEach((n) => { n.disabled = true; });
      form.classList.add("done");
      summary.hidden = false;
      summary.replaceChildren(h("span", { class: `badge ${action === "accept" ? "good" : "bad"}`, text: action === "accept" ? "sent" : action }),
        action === "accept" ? h("code", { text: JSON.stringify(content) }) : " nothing was sent");
      resolve(action === "accept" ? { action, content } : { action });
    }
    context?.signal?.addEventListener("abort", () => {
      if (done) return;
      systemNote("The server cancelled the form request.");
      finish("cancel");
    });
    form.querySelector("input, select, textarea")?.focus({ preventScroll: true });
  });
}

/** One form row for an elicitationForm field. */
function fieldRow(formId, field, inputs) {
  const id = `${formId}-${field.name}`;
  const c = field.constraints ?? {};
  const error = h("div", { class: "field-error", id: `${id}-error`, "data-test": `field-error-${field.name}`, hidden: true, role: "alert" });
  const wrap = h("div", { class: `efield kind-${field.kind}`, dataset: { field: field.name, kind: field.kind }, "data-test": `field-${field.name}` });
  const title = h("span", { class: "field-name" }, field.title ?? field.name,
    field.required ? h("span", { class: "req", title: "required", text: " *" }) : null);
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
  inputs.set(field.name, { field, get, wrap, error });
  return wrap;
}

// ---------------------------------------------------------------------------- modal queue

let modalChain = Promise.resolve();
/** Runs modal dialogs one at a time. */
function queueModal(fn) {
  const run = modalChain.then(fn, fn);
  modalChain = run.catch(() => {});
  return run;
}

function splitUrl(raw) {
  let u;
  try { u = new URL(raw); } catch { return null; }
  const host = u.host; // hostname[:port]
  const i = u.href.indexOf(host, u.protocol.length);
  return { url: u, before: u.href.slice(0, i), host, after: u.href.slice(i + host.length) };
}

/** URL-mode elicitation: show the full URL, highlight its domain, open only after consent. */
function urlConsent(context, params) {
  return queueModal(() => new Promise((resolve) => {
    const parts = splitUrl(params.url ?? "");
    el.urlMessage.textContent = params.message ?? "";
    el.urlFull.replaceChildren();
    const warnings = [];
    if (!parts) {
      el.urlDomain.textContent = "(invalid URL)";
      el.urlFull.textContent = String(params.url ?? "");
      warnings.push("This is not a valid URL; it cannot be opened.");
    } else {
      el.urlDomain.textContent = parts.url.hostname + (parts.url.port ? `:${parts.url.port}` : "");
      el.urlFull.append(h("span", { class: "dim", text: parts.before }), h("mark", { text: parts.host }), h("span", { class: "dim", text: parts.after }));
      if (!/^https?:$/.test(parts.url.protocol)) warnings.push(`Unusual scheme ${parts.url.protocol}`);
      else if (parts.url.protocol === "http:" && !["127.0.0.1", "localhost", "[::1]"].includes(parts.url.hostname)) warnings.push("Not encrypted (http:).");
      if (parts.url.username || parts.url.password) warnings.push("The URL contains a user name: the real domain is the highlighted one.");
      if (/^xn--|\.xn--/.test(parts.url.hostname)) warnings.push("The domain uses international characters (punycode).");
    }
    el.urlWarning.textContent = warnings.join(" ");
    el.urlWarning.hidden = warnings.length === 0;
    el.urlOpen.disabled = !parts || !/^https?:$/.test(parts.url.protocol);

    const li = addMessage("server", { test: "url-request", label: "Server asks", dataset: { state: "pending" } },
      h("div", { class: "message", text: params.message ?? "" }),
      h("div", { class: "muted" }, "wants you to open ", h("code", { text: params.url ?? "" })));
    const done = (action) => {
      cleanup();
      el.urlDialog.close();
      li.dataset.state = action;
      li.querySelector(".bubble").append(h("div", { class: "elicit-summary" },
        h("span", { class: `badge ${action === "accept" ? "good" : "bad"}`, text: action === "accept" ? "opened" : action }),
        action === "accept" ? " in a new window" : " — the page was not opened"));
      resolve({ action });
    };
    const onOpen = () => {
      window.open(parts.url.href, "_blank", "noopener,noreferrer");
      done("accept");
    };
    const onDecline = () => done("decline");
    const onCancel = (ev) => { ev?.preventDefault?.(); done("cancel"); };
    const onAbort = () => { systemNote("The server withdrew the URL request."); done("cancel"); };
    function cleanup() {
      el.urlOpen.removeEventListener("click", onOpen);
      el.urlDecline.removeEventListener("click", onDecline);
      el.urlCancel.removeEventListener("click", onCancel);
      el.urlDialog.removeEventListener("cancel", onCancel);
      context?.signal?.removeEventListener("abort", onAbort);
    }
    el.urlOpen.addEventListener("click", onOpen);
    el.urlDecline.addEventListener("click", onDecline);
    el.urlCancel.addEventListener("click", onCancel);
    el.urlDialog.addEventListener("cancel", onCancel);
    context?.signal?.addEventListener("abort", onAbort);
    el.urlDialog.showModal();
    el.urlDecline.focus();
  }));
}

// ---------------------------------------------------------------------------- sampling

function textOf(content) {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => (b?.type === "text" ? b.text : `[${b?.type ?? "?"}]`)).join("\n");
}

function draftReply(params) {
  const last = textOf(params.messages?.at(-1)?.content ?? "");
  const m = /haiku about (.+?)\.?$/i.exec(last);
  if (m) return `${m[1]} in the browser\ncompiled down to tiny bytes\nthe server listens`;
  return "";
}

function onSampling(context, params) {
  return queueModal(() => new Promise((resolve, reject) => {
    el.samplingRequest.replaceChildren(
      params.systemPrompt ? h("div", { class: "sys" }, h("b", { text: "System: " }), params.systemPrompt) : "",
      ...(params.messages ?? []).map((m) => h("div", { class: `smsg ${m.role}`, "data-test": "sampling-message" },
        h("b", { text: `${m.role}: ` }), textOf(m.content))),
      h("div", { class: "muted" }, `max tokens ${params.maxTokens ?? "?"}`,
        params.modelPreferences?.hints?.length ? ` · model hints ${params.modelPreferences.hints.map((x) => x.name).join(", ")}` : ""));
    el.samplingReply.value = draftReply(params);
    el.samplingError.hidden = true;
    const li = addMessage("server", { test: "sampling-request-msg", label: "Server asks", dataset: { state: "pending" } },
      h("div", { class: "message", text: "A completion from your model (sampling):" }),
      h("blockquote", { text: textOf(params.messages?.at(-1)?.content ?? "") }));

    const finish = (state, extra) => {
      cleanup();
      el.samplingDialog.close();
      li.dataset.state = state;
      li.querySelector(".bubble").append(extra);
    };
    const onApprove = () => {
      const text = el.samplingReply.value.trim();
      if (!text) {
        el.samplingError.textContent = "Write a reply first, or reject the request.";
        el.samplingError.hidden = false;
        el.samplingReply.focus();
        return;
      }
      const model = el.samplingModel.value.trim() || "human-in-the-loop";
      finish("approved", h("div", { class: "elicit-summary" }, h("span", { class: "badge good", text: "approved" }),
        h("pre", { class: "plain", text }), h("span", { class: "muted", text: `as model ${model}` })));
      resolve({ role: "assistant", content: { type: "text", text }, model, stopReason: "endTurn" });
    };
    const onReject = (ev) => {
      ev?.preventDefault?.();
      finish("rejected", h("div", { class: "elicit-summary" }, h("span", { class: "badge bad", text: "rejected" }), " nothing was sent"));
      reject(new Error("The user rejected the sampling request"));
    };
    const onAbort = () => { systemNote("The server withdrew the sampling request."); onReject(); };
    function cleanup() {
      el.samplingApprove.removeEventListener("click", onApprove);
      el.samplingReject.removeEventListener("click", onReject);
      el.samplingDialog.removeEventListener("cancel", onReject);
      context?.signal?.removeEventListener("abort", onAbort);
    }
    el.samplingApprove.addEventListener("click", onApprove);
    el.samplingReject.addEventListener("click", onReject);
    el.samplingDialog.addEventListener("cancel", onReject);
    context?.signal?.addEventListener("abort", onAbort);
    el.samplingDialog.showModal();
    el.samplingReply.focus();
  }));
}

// ---------------------------------------------------------------------------- roots

function onListRoots() {
  const shared = roots.map((r) => ({ ...r }));
  addMessage("server", { test: "roots-request", label: "Server asks" },
    h("div", { class: "message", text: `Your roots (roots/list): shared ${shared.length}.` }),
    shared.length ? h("ul", { class: "mini" }, ...shared.map((r) => h("li", {}, h("code", { text: r.uri }), r.name ? ` ${r.name}` : null))) : null);
  return { roots: shared };
}

function renderRoots() {
  if (roots.length === 0) {
    el.roots.replaceChildren(h("li", { class: "empty", text: "No roots: the server sees an empty list." }));
    return;
  }
  el.roots.replaceChildren(...roots.map((r, i) => h("li", { "data-test": "root", dataset: { uri: r.uri } },
    h("div", { class: "root-text" }, h("b", { text: r.name || "(unnamed)" }), h("code", { text: r.uri })),
    h("button", { type: "button", class: "link", "data-test": "root-remove", "aria-label": `Remove ${r.uri}`, text: "Remove", onclick: () => removeRoot(i) }))));
}

async function rootsChanged(what) {
  renderRoots();
  systemNote(`Roots: ${what}.`, "msg-roots");
  if (client && (client.era === "legacy")) {
    try { await client.sendRootsListChanged(); } catch { /* informational only */ }
  }
}

function addRoot(ev) {
  ev.preventDefault();
  const uri = el.rootUri.value.trim();
  const name = el.rootName.value.trim();
  let problem = null;
  let parsed = null;
  try { parsed = new URL(uri); } catch { problem = "Enter a file:// URI, e.g. file:///home/me/project"; }
  if (!problem && parsed.protocol !== "file:") problem = "Roots must be file:// URIs.";
  if (!problem && roots.some((r) => r.uri === parsed.href)) problem = "That root is already shared.";
  el.rootError.textContent = problem ?? "";
  el.rootError.hidden = !problem;
  if (problem) return;
  roots.push(name ? { uri: parsed.href, name } : { uri: parsed.href });
  el.rootUri.value = "";
  el.rootName.value = "";
  rootsChanged(`added ${parsed.href}`);
}

function removeRoot(i) {
  const [r] = roots.splice(i, 1);
  if (r) rootsChanged(`removed ${r.uri}`);
}

// ---------------------------------------------------------------------------- wiring

el.form.addEventListener("submit", (ev) => { ev.preventDefault(); connect(); });
el.disconnect.addEventListener("click", () => disconnect());
el.args.addEventListener("submit", (ev) => { ev.preventDefault(); callSelected(); });
el.rootForm.addEventListener("submit", addRoot);
el.clear.addEventListener("click", () => el.transcript.replaceChildren());

async function main() {
  const params = new URLSearchParams(location.search);
  el.url.value = params.get("url") ?? DEFAULT_URL;
  const mode = params.get("mode");
  if (mode && [...el.mode.options].some((o) => o.value === mode)) el.mode.value = mode;
  renderRoots();
  try {
    await init();
  } catch (err) {
    setStatus("error", errorNode(err, "Loading the WebAssembly module"));
    el.connect.disabled = true;
    return;
  }
  document.body.dataset.wasm = "ready";
  updateButtons();
  if (params.get("autoconnect") === "1") {
    await connect();
    const call = params.get("call");
    if (client && call && tools.some((t) => t.name === call)) {
      selectTool(call);
      let args = {};
      try { args = params.has("args") ? JSON.parse(params.get("args")) : (call === "echo" ? { text: "hello from the demo" } : {}); } catch { /* keep {} */ }
      fillArgs(args);
      await callTool(call, args);
    }
  }
}

main();
