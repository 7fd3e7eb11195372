// ClientGroup's merged lists and the calls routed by them, and the list_changed subscription of a
// 2026 session (group.js has the class, its options, clients, connections and statuses). group.js
// imports this module when the first group is made; each function takes the group's state object
// `s` (group.js describes it).
import { LIST_CHANGED, changed, input, set, stop, tag } from "./group.js";

const SEP = "__";
const LISTEN = { tools: "toolsListChanged", prompts: "promptsListChanged", resources: "resourcesListChanged" };

/**
 * The merged tool list: `lists` is [[server, tools], ...] in server order; `rule` is "prefix"
 * (`server__tool`), "bare" (the tool's own name; every name two or more servers share gets the
 * prefix) or (server, toolName) => name. A name made twice is kept for the first tool only.
 * (Prompts are named by the same rule.)
 */
export function nameTools(lists, rule = "prefix") {
  const shared = new Map();
  for (const [, tools] of lists)
    for (const n of new Set(tools.map((t) => t.name))) shared.set(n, (shared.get(n) ?? 0) + 1);
  const out = [];
  const taken = new Set();
  for (const [server, tools] of lists)
    for (const tool of tools) {
      const own = tool.name;
      const name =
        typeof rule === "function"
          ? String(rule(server, own))
          : rule === "bare" && shared.get(own) < 2
            ? own
            : server + SEP + own;
      if (taken.has(name)) continue;
      taken.add(name);
      out.push({ ...tool, name, server, originalName: own });
    }
  return out;
}

/** A 2026 session's list changes, through subscriptions/listen (group.js calls this once it is connected). */
export async function listen(s, e, client) {
  const caps = client.serverCapabilities;
  const filter = {};
  for (const [kind, key] of Object.entries(LISTEN)) if (caps?.[kind]?.listChanged) filter[key] = true;
  if (!Object.keys(filter).length) return;
  try {
    const sub = await client.listen(filter);
    if (e.client !== client || e.status !== "connected") return sub.close(); // closed meanwhile
    e.sub = sub;
    for await (const n of sub) {
      const kind = LIST_CHANGED[n?.method];
      if (kind && e.client === client && e.status === "connected") changed(s, e, kind);
    }
  } catch {
    // the session ended or the server refused: nothing to watch
  }
}

// A call's failure: a broken connection marks the server failed (connect() tries again).
function failed(s, e, err) {
  const kind = err?.data?.kind;
  const tagged = tag(s, err, e.name);
  if ((kind === "network" || kind === "transport_closed") && e.status === "connected" && !e.gone) {
    set(s, e, "failed", tagged);
    stop(e);
  }
  return tagged;
}

// Runs `call` with the client of server `e`, a routed call: its failure is `failed`'s.
async function onServer(s, e, call) {
  try {
    return await call(e.client);
  } catch (err) {
    throw failed(s, e, err);
  }
}

// Each connected server's `kind` listing by `method` ([entry, items] in server order), from the
// cache unless `fresh` or stale; servers that do not declare `cap` list nothing.
async function gather(s, kind, method, options, cap = kind, fresh = false) {
  const live = [...s.servers.values()].filter((e) => e.status === "connected");
  const got = new Map();
  const fetchOne = async (e) => {
    const { client, version } = e;
    const caps = client.serverCapabilities;
    let items = fresh ? undefined : e.lists[kind];
    if (!items && (!caps || caps[cap])) {
      try {
        items = (await client[method]({ ...options, all: true }))[kind];
      } catch (err) {
        return void failed(s, e, err);
      }
      if (!fresh && e.client === client && e.version === version) e.lists[kind] = items;
    }
    if (Array.isArray(items)) got.set(e, items);
  };
  await Promise.all(live.map(fetchOne));
  return live.filter((e) => got.has(e) && e.status === "connected").map((e) => [e, got.get(e)]);
}

// Merged names (the toolNames rule) over gathered lists, remembered for routing.
function named(s, kind, lists) {
  const merged = nameTools(lists.map(([e, items]) => [e.name, items]), s.rule);
  const byName = new Map(lists.map(([e]) => [e.name, e]));
  s.routes[kind] = new Map(merged.map((x) => [x.name, [byName.get(x.server), x.originalName]]));
  return merged;
}

// The route of a merged name (or URI), listing once more when it is unknown or its server left.
async function route(s, kind, key, list) {
  const found = s.routes[kind].get(key);
  if (found && !found[0].gone) return found;
  await list(s);
  return s.routes[kind].get(key);
}

export async function listTools(s, options) {
  return { tools: named(s, "tools", await gather(s, "tools", "listTools", options)) };
}

export async function callTool(s, name, args, options) {
  const found = await route(s, "tools", name, listTools);
  if (!found)
    throw new s.Err(-32602, `Unknown tool: ${name} (no server of the group lists it)`, {
      local: true,
      kind: "unknown_tool",
      tool: name,
    });
  const [e, tool] = found;
  return onServer(s, e, (client) => client.callTool(tool, args, options));
}

export async function listPrompts(s, options) {
  return { prompts: named(s, "prompts", await gather(s, "prompts", "listPrompts", options)) };
}

export async function getPrompt(s, name, args, options) {
  const found = await route(s, "prompts", name, listPrompts);
  if (!found) throw input(s, `Unknown prompt: ${name} (no server of the group lists it)`, { prompt: name });
  const [e, prompt] = found;
  return onServer(s, e, (client) => client.getPrompt(prompt, args, options));
}

export async function listResources(s, options) {
  const lists = await gather(s, "resources", "listResources", options);
  const routes = new Map();
  const resources = [];
  for (const [e, items] of lists)
    for (const r of items) {
      if (!routes.has(r?.uri)) routes.set(r?.uri, [e, r?.uri]); // the first server listing a URI reads it
      resources.push({ ...r, server: e.name });
    }
  s.routes.resources = routes;
  return { resources };
}

export async function listResourceTemplates(s, options) {
  const lists = await gather(s, "resourceTemplates", "listResourceTemplates", options, "resources", true);
  return { resourceTemplates: lists.flatMap(([e, items]) => items.map((t) => ({ ...t, server: e.name }))) };
}

export async function readResource(s, uri, options) {
  const { server, ...callOptions } = options ?? {};
  let e;
  if (server !== undefined) {
    e = s.servers.get(server);
    if (!e) throw input(s, `readResource: no server named ${JSON.stringify(server)} in the group`, { server: String(server) });
  } else {
    e = (await route(s, "resources", uri, listResources))?.[0];
    if (!e) throw input(s, `Unknown resource: ${uri} (no server of the group lists it; pass { server } to read it from one)`, { uri: String(uri) });
  }
  return onServer(s, e, (client) => client.readResource(uri, callOptions));
}
