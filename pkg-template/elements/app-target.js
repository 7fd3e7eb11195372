// Where a call of <mcp-app-frame> goes, found when it first shows an app (view-session.js imports
// this, so a page that never shows one never fetches it): the sandbox proxy's URL checked; the
// tool by name on a Client or a ClientGroup (its server's client and the tool's own name), or a
// Tool object as listed; its `ui://` resource read and checked; and the host's calls of the tools
// the shown app registered.
import { readAppResource, toolResourceUri } from './app-resource.js';

/** The proxy page's URL from `frame.sandbox`: an McpError (kind "input") when missing, not http(s), or on the page's own origin. */
export function sandboxUrl(sandbox, mkErr) {
  if (!sandbox) throw mkErr(-32602, 'mcp-app-frame: set frame.sandbox to the URL of mcp-app-sandbox.html on another origin', 'input');
  let url;
  try { url = new URL(sandbox, location.href); } catch {
    throw mkErr(-32602, `mcp-app-frame: frame.sandbox ${JSON.stringify(sandbox)} is not a URL`, 'input');
  }
  if (!/^https?:$/.test(url.protocol)) throw mkErr(-32602, `mcp-app-frame: frame.sandbox must be an http(s) URL, not ${url.protocol}`, 'input');
  if (url.origin === location.origin) {
    throw mkErr(-32602, `mcp-app-frame: frame.sandbox must be served from another origin than the page (${url.origin} is the page's own)`, 'input');
  }
  return url;
}

/** A target `{ client, server, toolName, tool }` from a Tool object (on the frame's Client, or a group's entry with `server`/`originalName`). */
function fromTool(c, tool, mkErr) {
  if (!tool || typeof tool !== 'object' || typeof tool.name !== 'string') {
    throw mkErr(-32602, 'mcp-app-frame: show() needs a Tool object (as listTools gives it) or a tool name', 'input');
  }
  if (typeof c.client === 'function' && typeof tool.server === 'string') {
    const client = c.client(tool.server);
    if (!client) throw mkErr(-32602, `mcp-app-frame: the group has no server ${JSON.stringify(tool.server)}`, 'input');
    const own = { ...tool, name: tool.originalName ?? tool.name };
    delete own.server;
    delete own.originalName;
    return { client, server: tool.server, toolName: own.name, tool: own };
  }
  return { client: c, server: undefined, toolName: tool.name, tool };
}

/**
 * The target of `tool` (a name, looked up with listTools, or a Tool object) on `c`, the frame's
 * Client or ClientGroup; an McpError (kind "input") when there is none.
 */
export async function appTarget(c, tool, signal, mkErr) {
  if (typeof tool !== 'string') return fromTool(c, tool, mkErr);
  if (!tool) throw mkErr(-32602, 'mcp-app-frame: the tool name must be a non-empty string', 'input');
  const group = typeof c.client === 'function' && typeof c.addServer === 'function';
  const { tools } = group ? await c.listTools(signal ? { signal } : undefined) : await c.listTools({ all: true, ...(signal ? { signal } : {}) });
  const found = tools.find((t) => t.name === tool);
  if (!found) throw mkErr(-32602, `mcp-app-frame: no tool named ${JSON.stringify(tool)} on the client`, 'input');
  if (!group) return fromTool(c, found, mkErr);
  if (!c.client(found.server)) throw mkErr(-32602, `mcp-app-frame: the group has no server ${JSON.stringify(found.server)} for tool ${JSON.stringify(tool)}`, 'input');
  return fromTool(c, found, mkErr);
}

/** The target's `ui://` resource `{ uri, resource }`, read; an McpError when the tool has none or it is not an app. */
export async function appResource(target, signal, mkErr) {
  const uri = toolResourceUri(target.tool);
  if (!uri) throw mkErr(-32602, `mcp-app-frame: tool ${JSON.stringify(target.toolName)} has no _meta.ui.resourceUri (a ui:// resource): it has no app to show`, 'input');
  const resource = await readAppResource(target.client, uri, signal, mkErr);
  if (signal?.aborted) throw mkErr(-32800, 'mcp-app-frame: the call was aborted before its app was shown', 'cancelled');
  return { uri, resource };
}

/**
 * frame.callAppTool: a tools/call to `view` (the shown ViewSession) for a tool it registered,
 * resolving with its CallToolResult; an McpError otherwise (kind "input", "aborted", "timeout",
 * "closed", or the app's own error with its code).
 */
export async function callAppTool(view, name, args, options, mkErr, McpError) {
  if (typeof name !== 'string' || !name) throw mkErr(-32602, 'mcp-app-frame: callAppTool(name, args): name must be a non-empty string', 'input');
  if (!args || typeof args !== 'object' || Array.isArray(args)) throw mkErr(-32602, 'mcp-app-frame: callAppTool(name, args): args must be an object', 'input');
  if (view?.state !== 'initialized') throw mkErr(-32602, `mcp-app-frame: callAppTool(${JSON.stringify(name)}): no initialized app is shown`, 'input');
  if (!view.appTools.some((t) => t.name === name)) {
    const listed = view.appTools.map((t) => t.name).join(', ') || 'none';
    throw mkErr(-32602, `mcp-app-frame: the app has no tool ${JSON.stringify(name)} (frame.appTools: ${listed})`, 'input');
  }
  try {
    return await view.callAppTool(name, args, options);
  } catch (e) {
    if (Number.isInteger(e.code)) throw new McpError(e.code, e.message, e.data);
    const kind = e.kind ?? 'closed';
    throw mkErr({ timeout: -32001, aborted: -32010 }[kind] ?? -32000, `mcp-app-frame: ${e.message}`, kind);
  }
}
