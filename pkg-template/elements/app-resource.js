// What <mcp-app-frame> reads from a tool and its `ui://` resource before it shows an app (imported
// with view-session.js, when the first app is shown): the resource's URI on the tool, its HTML and
// `_meta.ui`, the CSP domains and permissions the frame grants, and the visibility rule (which
// tools an app may call, which ones a model is offered).

const MIME = 'text/html;profile=mcp-app';
const PERMISSIONS = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];

/** A CSP source expression a domain list may hold: scheme://host[:port][/path], wildcard subdomains. */
const SOURCE = /^(?:(?:https?|wss?):\/\/)?(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::(?:\d{1,5}|\*))?(?:\/[a-z0-9\-._~%!$&()*+=:@/]*)?$/i;

/**
 * Keeps the domains of a `_meta.ui.csp` that are valid CSP source expressions (no `;`, quotes,
 * whitespace or keywords, never a bare `*`); what it drops is listed in `refused`.
 */
export function grantCsp(csp) {
  const granted = {};
  const refused = [];
  if (!csp || typeof csp !== 'object') return { granted, refused };
  for (const key of CSP_KEYS) {
    if (!Array.isArray(csp[key])) continue;
    granted[key] = csp[key].filter((d) => (typeof d === 'string' && SOURCE.test(d)) || (refused.push(`${key}: ${String(d)}`), false));
  }
  return { granted, refused };
}

/** Keeps the permissions the element knows how to grant (`camera`, `microphone`, `geolocation`, `clipboardWrite`). */
export function grantPermissions(permissions) {
  const granted = {};
  if (permissions && typeof permissions === 'object') {
    for (const key of Object.keys(PERMISSIONS)) if (permissions[key]) granted[key] = {};
  }
  return granted;
}

/** The iframe `allow` attribute for granted permissions ("camera; microphone"). */
export function allowAttribute(granted) {
  return Object.keys(granted).map((k) => PERMISSIONS[k]).join('; ');
}

/** The tool's UI resource URI: `_meta.ui.resourceUri`, else the deprecated `_meta["ui/resourceUri"]`. */
export function toolResourceUri(tool) {
  const meta = tool?._meta;
  const uri = meta?.ui?.resourceUri ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/**
 * Whether the tool is meant for `audience` ("app": a view may call it; "model": it belongs in the
 * model's tool list): its `_meta.ui.visibility` (default ["model", "app"]) includes it.
 */
export function visibleTo(tool, audience) {
  const vis = tool?._meta?.ui?.visibility;
  return !Array.isArray(vis) || vis.includes(audience);
}

/** Decodes a resource content's text or base64 blob as UTF-8. */
function contentHtml(content) {
  if (typeof content.text === 'string') return content.text;
  if (typeof content.blob !== 'string') return undefined;
  const bytes = Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Whether a mime type is the MCP Apps HTML profile (case and spaces aside). */
function isAppMime(mime) {
  return typeof mime === 'string' && mime.replace(/\s+/g, '').toLowerCase() === MIME;
}

/** Reads a ui:// resource: its HTML and `_meta.ui` (content item first, then the resources/list entry). */
export async function readAppResource(client, uri, signal, mkErr) {
  const read = await client.readResource(uri, signal ? { signal } : undefined);
  const contents = Array.isArray(read?.contents) ? read.contents : [];
  const content = contents.find((c) => c?.uri === uri) ?? contents[0];
  if (!content) throw mkErr(-32602, `mcp-app-frame: resource ${uri} has no contents`, 'protocol');
  if (!isAppMime(content.mimeType)) {
    throw mkErr(-32602, `mcp-app-frame: resource ${uri} is ${JSON.stringify(content.mimeType)}, not ${MIME}`, 'protocol');
  }
  const html = contentHtml(content);
  if (typeof html !== 'string') throw mkErr(-32602, `mcp-app-frame: resource ${uri} has neither text nor blob`, 'protocol');
  let ui = content._meta?.ui;
  if (!ui) ui = await listedUiMeta(client, uri, signal);
  return { html, ui: ui && typeof ui === 'object' ? ui : {} };
}

/** The `_meta.ui` of the resources/list entry for `uri`, or undefined (a failed listing is no error). */
async function listedUiMeta(client, uri, signal) {
  try {
    const { resources } = await client.listResources({ all: true, ...(signal ? { signal } : {}) });
    return resources?.find((r) => r.uri === uri)?._meta?.ui;
  } catch {
    return undefined;
  }
}
