// What the entry asks of a Client or a ClientGroup (their public API only): the tools listed now,
// a call routed by name, the list_changed events, and the package's McpError for the errors the
// entry makes itself.

let loading;
/** The package's McpError class, loaded on first need (never at import: a page that imports this entry but never fails loads nothing more). */
async function errorClass() {
  loading ??= import("mcp-wasm-client").then(
    (m) => m.McpError ?? m.default?.McpError ?? null, // default: a CommonJS build imported from ESM
    () => null, // not resolvable here (a page without an import map for it): a plain Error below
  );
  return loading;
}

/** An McpError (`data.local: true`, `data.kind`), or an Error with the same fields when the package cannot be loaded by name. */
export async function mcpError(code, message, data) {
  const McpError = await errorClass();
  if (McpError) return new McpError(code, message, { local: true, ...data });
  return Object.assign(new Error(message), { name: "McpError", code, data: { local: true, ...data } });
}

/** Whether `source` is a ClientGroup (it routes by its own tool names and says each tool's server). */
const isGroup = (source) => typeof source?.addServer === "function" && typeof source?.client === "function";

/** Checks `source` is a Client or a ClientGroup (duck-typed, as the React hooks do); throws a TypeError naming what it is. */
export function checkSource(source, fn) {
  if (source && typeof source.listTools === "function" && typeof source.callTool === "function") return;
  const what = source === null ? "null" : typeof source === "object" ? `an object without listTools/callTool (${Object.keys(source).slice(0, 5).join(", ")})` : typeof source;
  throw new TypeError(`${fn}(source): source must be a Client or a ClientGroup of mcp-wasm-client, got ${what}`);
}

/** Every tool the source lists now (a group: its merged list, each with `server` and `originalName`); `given`: a list already had. */
export async function listTools(source, given) {
  if (Array.isArray(given)) return given;
  const { tools } = isGroup(source) ? await source.listTools() : await source.listTools({ all: true });
  return Array.isArray(tools) ? tools : [];
}

/** Calls the tool named `name` (the group's name for a group) with the call's `signal`. */
export function callTool(source, name, args, signal) {
  return source.callTool(name, args, signal ? { signal } : undefined);
}

/**
 * Calls `listener(tools)` after each `toolschange` of the source, `tools` the Client's new
 * complete list (the event's detail) or undefined (a group: a server's part changed, list again);
 * returns the function that stops it. A Client opens its 2026 listen stream for the listener, as
 * for any `toolschange` listener. (Listing a Client again from here would fire toolschange again:
 * a complete listTools() does.)
 */
export function onToolsChange(source, listener) {
  if (typeof source.addEventListener !== "function") return () => {};
  const f = (e) => listener(!isGroup(source) && Array.isArray(e?.detail) ? e.detail : undefined);
  source.addEventListener("toolschange", f);
  return () => source.removeEventListener("toolschange", f);
}
