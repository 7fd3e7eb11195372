// `ui/download-file` for <mcp-app-frame> (view-session.js imports this the first time an app asks
// for a download). The app's files (embedded text or base64 resources, or http(s) resource links
// the host fetches without credentials) are checked and turned into Blobs within the frame's limits
// (count, total size), named safely (no path, no control, reserved or bidi characters, no device
// names), typed by a valid MIME type (a type a browser would run, such as HTML or SVG, is saved as
// application/octet-stream). Unless the page refuses the `mcp-app-download` event, the frame then
// offers them in a small prompt over the app: each file is saved only when the person clicks its
// button (a Blob URL on an anchor with `download`, never a navigation; a `data:` or `javascript:`
// URL is never opened).

/** The limits a frame applies unless `frame.downloadLimits` says otherwise. */
export const DOWNLOAD_LIMITS = { maxFiles: 10, maxBytes: 10 * 1024 * 1024 };
/** MIME types a browser renders as active documents: such files are saved as plain bytes. */
const ACTIVE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|(text|application)\/(x-)?(java|ecma)script)$/;
const TOKEN = "[!#$%&'*+.^_`|~0-9a-z-]+";
const MIME = new RegExp(`^(${TOKEN}/${TOKEN})\\s*(;.*)?$`, 'i');
const CSS = `
.dl { position: absolute; left: 0; right: 0; bottom: 0; margin: .5rem; padding: .6rem .75rem; display: grid; gap: .4rem;
  font: var(--mcp-app-download-font, 14px/1.4 system-ui, sans-serif); color: var(--mcp-app-download-fg, CanvasText);
  background: var(--mcp-app-download-bg, Canvas); border: var(--mcp-app-download-border, 1px solid #8888);
  border-radius: var(--mcp-app-download-radius, 8px); box-shadow: 0 2px 10px #0003; }
.dl ul { list-style: none; margin: 0; padding: 0; display: grid; gap: .3rem; }
.dl li, .dl .row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.dl .name { font-weight: 600; overflow-wrap: anywhere; }
.dl .size { color: var(--mcp-app-download-muted, GrayText); }
.dl button { font: inherit; padding: .2rem .7rem; border-radius: 6px; cursor: pointer; border: 1px solid currentColor;
  background: var(--mcp-app-download-button-bg, ButtonFace); color: var(--mcp-app-download-button-fg, ButtonText); }
.dl button:focus-visible { outline: 2px solid var(--mcp-app-download-focus, Highlight); outline-offset: 2px; }
.dl button:disabled { opacity: .6; cursor: default; }
`;

let sheet;
let prompts = 0; // ids of the prompts' headings
/** The prompt's constructable stylesheet (CSP-safe), built once per page. */
function styles() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  return sheet;
}

/** An error the app receives as `{ code: -32602, message }`. */
const invalid = (message) => Object.assign(new Error(`ui/download-file: ${message}`), { code: -32602 });

/** `frame.downloadLimits` read over the defaults (a bad value is the default). */
function limitsOf(given) {
  const out = { ...DOWNLOAD_LIMITS };
  for (const key of Object.keys(out)) {
    const v = given?.[key];
    if (Number.isSafeInteger(v) && v >= 0) out[key] = v;
  }
  return out;
}

/**
 * A file name safe on every system: the last path segment only, without control, reserved
 * (`<>:"/\|?*`) or bidi-override characters, leading or trailing dots and spaces, Windows device
 * names; at most 120 characters (the extension kept); `fallback` when nothing is left.
 */
export function safeFileName(raw, fallback = 'download') {
  let name = String(raw ?? '').normalize('NFC');
  name = name.split(/[/\\]/).pop();
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  name = name.replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '_');
  name = name.replace(/^[\s.]+|[\s.]+$/g, '');
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(name)) name = `_${name}`;
  if (name.length > 120) {
    const ext = /\.[^.]{1,16}$/.exec(name)?.[0] ?? '';
    name = name.slice(0, 120 - ext.length) + ext;
  }
  return name || fallback;
}

/** The name a URI suggests: its last path segment, decoded, or undefined. */
function nameFromUri(uri) {
  try {
    const segment = new URL(uri).pathname.split('/').filter(Boolean).pop();
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return undefined;
  }
}

/** The MIME type as given (lower case, parameters dropped), or `fallback` when absent; invalid → an error. */
function mimeOf(given, fallback, where) {
  if (given === undefined || given === null || given === '') return fallback;
  const m = typeof given === 'string' ? MIME.exec(given.trim()) : null;
  if (!m) throw invalid(`${where}: mimeType ${JSON.stringify(given)} is not a MIME type (type/subtype)`);
  return m[1].toLowerCase();
}

/** Decodes standard base64 (whitespace allowed) to bytes; an error naming `where` when it is not base64. */
function base64Bytes(text, where) {
  try {
    const bin = atob(text.replace(/\s+/g, ''));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    throw invalid(`${where}: blob is not base64`);
  }
}

/** Reads an http(s) resource link without credentials, at most `room` bytes. */
async function fetchLink(link, room, where, signal) {
  let url;
  try { url = new URL(String(link.uri)); } catch { throw invalid(`${where}: uri ${JSON.stringify(link.uri)} is not a URL`); }
  if (!/^https?:$/.test(url.protocol)) throw invalid(`${where}: only http(s) links are fetched, not ${url.protocol}`);
  let response;
  try {
    response = await fetch(url.href, { credentials: 'omit', redirect: 'follow', signal });
  } catch (e) {
    throw invalid(`${where}: fetching ${url.href} failed: ${e?.message ?? e}`);
  }
  if (!response.ok) throw invalid(`${where}: ${url.href} answered ${response.status}`);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > room) {
    await response.body?.cancel().catch(() => {});
    throw invalid(`${where}: ${url.href} is ${declared} bytes, over the frame's download limit`);
  }
  const chunks = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > room) {
      await reader.cancel().catch(() => {});
      throw invalid(`${where}: ${url.href} is over the frame's download limit`);
    }
    chunks.push(value);
  }
  return { bytes: new Blob(chunks), name: nameFromUri(url.href) ?? link.name, type: link.mimeType ?? response.headers.get('content-type') };
}

/**
 * The files of a `ui/download-file` request as `{ name, mimeType, size, blob }` (the Blob typed
 * for saving), within `limits`; an error (code -32602) naming what is wrong otherwise.
 */
export async function prepareDownload(params, givenLimits, signal) {
  const limits = limitsOf(givenLimits);
  const contents = params?.contents;
  if (!Array.isArray(contents) || contents.length === 0) throw invalid('params.contents must be a non-empty array');
  if (contents.length > limits.maxFiles) throw invalid(`${contents.length} files asked, the frame allows ${limits.maxFiles}`);
  const files = [];
  let total = 0;
  for (const [i, item] of contents.entries()) {
    const where = `contents[${i}]`;
    const room = limits.maxBytes - total;
    let source;
    if (item?.type === 'resource' && item.resource && typeof item.resource === 'object') {
      const r = item.resource;
      if (typeof r.text === 'string') {
        if (r.text.length > room) throw invalid(`${where}: over the frame's download limit of ${limits.maxBytes} bytes`);
        source = { bytes: new Blob([r.text]), type: r.mimeType, text: true };
      } else if (typeof r.blob === 'string') {
        if (Math.floor((r.blob.length * 3) / 4) > room + 3) throw invalid(`${where}: over the frame's download limit of ${limits.maxBytes} bytes`);
        source = { bytes: new Blob([base64Bytes(r.blob, where)]), type: r.mimeType };
      } else {
        throw invalid(`${where}: an embedded resource needs text or blob`);
      }
      source.name = nameFromUri(r.uri) ?? r.name;
    } else if (item?.type === 'resource_link') {
      source = await fetchLink(item, room, where, signal);
    } else {
      throw invalid(`${where}: type must be "resource" or "resource_link", not ${JSON.stringify(item?.type)}`);
    }
    const size = source.bytes.size;
    if (size > room) throw invalid(`${where}: over the frame's download limit of ${limits.maxBytes} bytes`);
    total += size;
    const mimeType = mimeOf(source.type, source.text ? 'text/plain' : 'application/octet-stream', where);
    const saveAs = ACTIVE.test(mimeType) ? 'application/octet-stream' : mimeType;
    files.push({ name: safeFileName(source.name, `download-${i + 1}`), mimeType, size, blob: new Blob([source.bytes], { type: saveAs }) });
  }
  return files;
}

/** "1.2 KB", "3 MB", "12 bytes". */
function sizeText(n) {
  if (n < 1024) return `${n} bytes`;
  const [v, u] = n < 1024 * 1024 ? [n / 1024, 'KB'] : [n / (1024 * 1024), 'MB'];
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${u}`;
}

/** Saves one file: a Blob URL on an anchor with `download`, clicked (inside the person's click). */
function save(root, file) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(file.blob);
  a.download = file.name;
  a.rel = 'noopener';
  a.hidden = true;
  root.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 30_000);
}

/**
 * Shows the prompt offering `files` in the frame's shadow root; resolves true once the person
 * saved at least one and the prompt closed (every file saved, or Close), false when closed with
 * none saved (Close, Escape, or `signal` aborted: the view went away).
 */
export function offerDownload(frame, files, signal) {
  const root = frame.shadowRoot;
  if (!root.adoptedStyleSheets.includes(styles())) root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles()];
  return new Promise((resolve) => {
    let saved = 0;
    const box = document.createElement('div');
    box.className = 'dl';
    box.setAttribute('part', 'download');
    box.setAttribute('role', 'dialog');
    const heading = document.createElement('div');
    heading.id = `mcp-download-${++prompts}`;
    heading.setAttribute('part', 'download-title');
    heading.textContent = files.length === 1 ? 'The app offers a file to download' : `The app offers ${files.length} files to download`;
    box.setAttribute('aria-labelledby', heading.id);
    const list = document.createElement('ul');
    const close = (ok) => {
      signal?.removeEventListener('abort', aborted);
      box.remove();
      resolve(ok);
    };
    const aborted = () => close(saved > 0);
    for (const file of files) {
      const li = document.createElement('li');
      const name = Object.assign(document.createElement('span'), { className: 'name', textContent: file.name });
      const size = Object.assign(document.createElement('span'), { className: 'size', textContent: `${file.mimeType}, ${sizeText(file.size)}` });
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Download';
      button.setAttribute('part', 'download-button');
      button.setAttribute('aria-label', `Download ${file.name}`);
      button.addEventListener('click', () => {
        save(root, file);
        button.disabled = true;
        button.textContent = 'Saved';
        if (++saved === files.length) close(true);
      });
      li.append(name, size, button);
      list.append(li);
    }
    const row = document.createElement('div');
    row.className = 'row';
    const dismiss = document.createElement('button');
    dismiss.type = 'button';
    dismiss.textContent = 'Close';
    dismiss.setAttribute('part', 'download-close');
    dismiss.addEventListener('click', () => close(saved > 0));
    row.append(dismiss);
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') close(saved > 0);
    });
    box.append(heading, list, row);
    signal?.addEventListener('abort', aborted, { once: true });
    root.append(box);
    box.querySelector('button')?.focus();
  });
}
