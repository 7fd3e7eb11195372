// ClientGroup: several MCP servers behind one object, built on the exported Client (client.js;
// group.rs hands this module what it cannot import from the glue: a Client factory, the McpError
// class and the exported ClientGroup class). Tools are merged under names made by nameTools();
// calls are routed to the server that listed the tool; callbacks learn which server asked
// (ctx.server, or { server } as a second argument).
//
// This module is the group's synchronous half, which every page of the default entry fetches (the
// lean glue imports makeGroup): the options checked, the clients made, connecting and closing the
// servers and their statuses and events (`status` changes at once when connect() or close() is
// called). The merged lists and the calls routed by them are group-calls.js's, imported when the
// first group is made (a page that never makes one never fetches it) and awaited by the methods
// that need it. Both work on one state object per group (`s` below), which the class keeps private.
import { moduleLoadError } from "../boundary/error.js";

const CALLBACKS = ["elicitationCallback", "samplingCallback", "listRootsCallback"];
const HTTP_ONLY = ["headers", "fetch", "auth", "reconnection", "middleware"];
// A server's list_changed notification -> the listing it makes stale (and the group event it fires).
export const LIST_CHANGED = {
  "notifications/tools/list_changed": "tools",
  "notifications/prompts/list_changed": "prompts",
  "notifications/resources/list_changed": "resources",
};

// group-calls.js: its import (once; after a failure, a later call tries again), and the module
// once it has arrived (then the methods call it without waiting).
let calls;
let loading;
function load() {
  loading ??= import("./group-calls.js").then(
    (m) => (calls = m),
    (e) => {
      loading = undefined;
      throw moduleLoadError("the ClientGroup module", new URL("./group-calls.js", import.meta.url).href, e, { part: "group" });
    },
  );
  return loading;
}

// A CustomEvent (an Event with `detail` where a runtime has no CustomEvent).
function event(type, detail) {
  if (typeof CustomEvent === "function") return new CustomEvent(type, { detail });
  const e = new Event(type);
  Object.defineProperty(e, "detail", { value: detail ?? null, enumerable: true });
  return e;
}

// The exported class (group.rs) answers instanceof for the objects built here.
let exported;
export function makeGroup(options, newClient, McpError, Exported) {
  if (Exported && exported !== Exported) {
    exported = Exported;
    Object.defineProperty(Exported, Symbol.hasInstance, { value: (v) => v instanceof ClientGroup, configurable: true });
  }
  return new ClientGroup(options, newClient, McpError);
}

export function input(s, message, data) {
  return new s.Err(-32602, message, { local: true, kind: "input", ...data });
}

// An McpError of one server, with data.server added (a new McpError when data is no object).
export function tag(s, err, server) {
  if (!(err instanceof s.Err)) return err;
  const data = err.data;
  if (data && typeof data === "object" && !Object.isFrozen(data)) {
    data.server = server;
    return err;
  }
  return new s.Err(err.code, err.message, data === undefined ? { server } : { server, value: data });
}

function add(s, name, config) {
  if (typeof name !== "string" || !name) throw input(s, "ClientGroup: a server name must be a non-empty string");
  if (s.servers.has(name)) throw input(s, `ClientGroup: a server named "${name}" is already in the group`, { server: name });
  if (!config || typeof config !== "object" || (config.url == null) === (config.transport == null))
    throw input(s, `ClientGroup: server "${name}" needs either { url } or { transport }`, { server: name });
  const e = { name, config, client: undefined, status: "closed", lists: {}, version: 0, sub: undefined, gone: false };
  e.client = make(s, e); // throws the Client's own error for a bad option
  s.servers.set(name, e);
  s.status = undefined;
  return e;
}

// A server's client, made with the group's options under its own.
function make(s, e) {
  const { name, config } = e;
  const base = { ...s.options };
  if (config.transport != null) for (const k of HTTP_ONLY) delete base[k];
  const merged = { ...base, ...config };
  // The group lists a server's tools again when asked after its list_changed, not before.
  merged.listChanged ??= { autoRefresh: false };
  for (const k of CALLBACKS) {
    const f = merged[k];
    if (typeof f === "function") merged[k] = (ctx, ...rest) => f({ ...ctx, server: name }, ...rest);
  }
  const log = merged.loggingCallback;
  if (typeof log === "function") merged.loggingCallback = (params) => log(params, { server: name });
  const handler = merged.messageHandler;
  merged.messageHandler = (message) => {
    const kind = LIST_CHANGED[message?.method];
    if (kind && !e.gone && e.status === "connected") changed(s, e, kind);
    if (typeof handler === "function") return handler(message, { server: name });
  };
  try {
    if (config.transport != null) return s.newClient(merged, undefined);
    const { url, ...rest } = merged;
    return s.newClient(url, rest);
  } catch (err) {
    throw tag(s, err, name);
  }
}

// A server's `kind` listing is stale: fetched again by the next list call.
export function changed(s, e, kind) {
  e.lists[kind] = undefined;
  e.version++;
  s.group.dispatchEvent(event(`${kind}change`, { server: e.name }));
}

// A list event for each listing a server declares (it joined or left the connected ones).
function listsChanged(s, e) {
  const caps = e.client?.serverCapabilities;
  for (const kind of ["tools", "prompts", "resources"])
    if (caps?.[kind]) s.group.dispatchEvent(event(`${kind}change`, { server: e.name }));
}

// Sets a server's status; a change makes a new `status` object and fires statuschange (and a
// list event for each listing the server declares when it joins or leaves the connected ones).
export function set(s, e, status, error) {
  const previous = e.status;
  e.status = status;
  if (status !== "closed") e.error = error; // closing keeps the last connection error
  if (previous === status || e.gone) return;
  s.status = undefined;
  s.group.dispatchEvent(event("statuschange", { server: e.name, status, previous, ...(error ? { error } : {}) }));
  if ((previous === "connected") !== (status === "connected")) listsChanged(s, e);
}

// Connects one server (unless connected or connecting); resolves when it has settled.
async function connectServer(s, e) {
  if (e.status === "connected" || e.status === "connecting") return e.settled;
  if (e.status !== "closed" || e.used) {
    await stop(e);
    if (e.gone || e.status === "connected" || e.status === "connecting") return e.settled; // removed or connected meanwhile
    e.client = make(s, e);
  }
  e.used = true;
  const client = e.client;
  // `settled` is in place before statuschange fires: a listener may close the group at once
  e.settled = (async () => {
    try {
      await client.connect();
    } catch (err) {
      if (e.client !== client || e.status !== "connecting") return; // closed or removed meanwhile
      set(s, e, err?.data?.kind === "unauthorized" ? "unauthorized" : "failed", tag(s, err, e.name));
      return;
    }
    if (e.client !== client || e.status !== "connecting") return void client.close().catch(() => {}); // closed meanwhile
    set(s, e, "connected");
    // 2026 sessions announce list changes only through subscriptions/listen (group-calls.js)
    if (client.era === "modern" && e.status === "connected") {
      if (calls) calls.listen(s, e, client);
      else load().then((m) => m.listen(s, e, client), () => {});
    }
  })();
  const settled = e.settled;
  set(s, e, "connecting");
  return settled;
}

// Closes a server: a connect under way settles first (a client is not closed mid-handshake).
async function settle(s, e) {
  const pending = e.status === "connecting" ? e.settled : undefined;
  set(s, e, "closed");
  await pending;
  await stop(e);
}

export async function stop(e) {
  const { client, sub } = e;
  e.sub = undefined;
  e.lists = {};
  e.version++;
  try {
    await sub?.close();
  } catch {}
  try {
    await client?.close();
  } catch {}
}

// ClientGroup: an EventTarget. `statuschange` ({ server, status, previous, error? }) whenever a
// server's status changes, `status` one frozen object until then; `toolschange` / `promptschange` /
// `resourceschange` ({ server }) when a server's part of a merged list may have changed (its
// list_changed, or it connected or left); `close` after close(). Prompts are merged under the
// toolNames rule; resources keep their URIs and are read from the first server that listed one.
class ClientGroup extends EventTarget {
  // { group, Err, newClient, options, rule, servers: name -> { name, config, client, status, error,
  // lists, version, sub, gone }, routes: { tools, prompts, resources } (merged name or URI ->
  // [entry, own name]), connected, status (the frozen object `status` returns until a change) }
  #s;

  constructor(options, newClient, McpError) {
    super();
    const s = (this.#s = { group: this, Err: McpError, newClient, servers: new Map(), connected: false });
    s.routes = { tools: new Map(), prompts: new Map(), resources: new Map() };
    if (!options || typeof options !== "object") throw input(s, "ClientGroup: options must be an object");
    const { servers = {}, toolNames = "prefix", ...clientOptions } = options;
    if (toolNames !== "prefix" && toolNames !== "bare" && typeof toolNames !== "function")
      throw input(s, 'ClientGroup: toolNames must be "prefix", "bare" or a function (server, toolName) => name');
    if (!servers || typeof servers !== "object") throw input(s, "ClientGroup: servers must be an object");
    s.rule = toolNames;
    s.options = clientOptions;
    for (const [name, config] of Object.entries(servers)) add(s, name, config);
    load().catch(() => {}); // what connect() will need (a failure is reported by the call that needs it)
  }

  /** Connects every server not yet connected, concurrently; resolves when all have settled. */
  async connect() {
    const s = this.#s;
    s.connected = true;
    await Promise.all([...s.servers.values()].map((e) => connectServer(s, e)));
  }

  /** { name: "connecting" | "connected" | "unauthorized" | "failed" | "closed" }: one frozen object until a status changes. */
  get status() {
    const s = this.#s;
    return (s.status ??= Object.freeze(Object.fromEntries([...s.servers].map(([n, e]) => [n, e.status]))));
  }

  /** The last connection error of each server that has one (an McpError with data.server). */
  get errors() {
    return Object.fromEntries([...this.#s.servers].filter(([, e]) => e.error).map(([n, e]) => [n, e.error]));
  }

  /** name -> Client, in the order the servers were added. */
  get clients() {
    return new Map([...this.#s.servers].map(([n, e]) => [n, e.client]));
  }

  client(name) {
    return this.#s.servers.get(name)?.client;
  }

  /** Adds a server (statuschange with `previous: undefined`); connects it when the group is connected. */
  async addServer(name, config) {
    const s = this.#s;
    const e = add(s, name, config);
    this.dispatchEvent(event("statuschange", { server: name, status: e.status, previous: undefined }));
    if (s.connected) await connectServer(s, e);
  }

  /** Closes and removes a server (statuschange with `removed: true`). */
  async removeServer(name) {
    const s = this.#s;
    const e = s.servers.get(name);
    if (!e) return;
    s.servers.delete(name);
    s.status = undefined;
    const previous = e.status;
    e.gone = true;
    this.dispatchEvent(event("statuschange", { server: name, status: "closed", previous, removed: true }));
    if (previous === "connected") listsChanged(s, e);
    await settle(s, e);
  }

  /** Closes every server, then fires `close`. */
  async close() {
    const s = this.#s;
    s.connected = false;
    await Promise.all([...s.servers.values()].map((e) => settle(s, e)));
    this.dispatchEvent(event("close"));
  }

  /** `await using group = new ClientGroup(…)`: close(). */
  [Symbol.asyncDispose]() {
    return this.close();
  }

  /** Every connected server's tools (each listing refetched only after its list_changed). */
  async listTools(options) {
    const s = this.#s;
    return (calls ?? (await load())).listTools(s, options);
  }

  /** Calls a tool by its merged name on the server that listed it; options pass through. */
  async callTool(name, args, options) {
    const s = this.#s;
    return (calls ?? (await load())).callTool(s, name, args, options);
  }

  /** Every connected server's prompts, named by the toolNames rule (refetched after a list_changed). */
  async listPrompts(options) {
    const s = this.#s;
    return (calls ?? (await load())).listPrompts(s, options);
  }

  /** Gets a prompt by its merged name from the server that listed it. */
  async getPrompt(name, args, options) {
    const s = this.#s;
    return (calls ?? (await load())).getPrompt(s, name, args, options);
  }

  /** Every connected server's resources with `server` added; a URI two servers list is there twice. */
  async listResources(options) {
    const s = this.#s;
    return (calls ?? (await load())).listResources(s, options);
  }

  /** Every connected server's resource templates with `server` added (read one with `{ server }`). */
  async listResourceTemplates(options) {
    const s = this.#s;
    return (calls ?? (await load())).listResourceTemplates(s, options);
  }

  /** Reads a URI from the first server that listed it, or from `options.server`. */
  async readResource(uri, options) {
    const s = this.#s;
    return (calls ?? (await load())).readResource(s, uri, options);
  }
}
