// A JSON body's life in JS: read whole under its size cap (`readCappedBody`: the chunks stay in
// JS, a body over the cap is cancelled as soon as it passes it, and the whole body crosses into
// the wasm once, as text or, from 64 KiB to 4 MiB, as bytes), and the long content strings of a
// body of 4 MiB or more held in JS while the engine works on the rest of the message; and a body
// given up before its end cancelled quietly (`cancelQuietly`); and the init of a request's
// `fetch` (`fetchInit`). (One module for them all: the
// wasm-bindgen-test runner's page stalls loading a seventh snippet module in parallel.)
//
// The engine acts on a response's envelope (id, error, resultType, structuredContent...), never
// on the text or bytes of a result's content blocks: a 4 MiB text block need not stay in wasm
// memory, which never shrinks. `holdContent` parses such a body with the
// host's JSON.parse, puts each long `result.content[*].text` / `.blob` aside under a mark, and
// gives Rust the rest as JSON text; `restoreHeld` puts them back into the JS value built for
// the caller. A mark is a control character, a fixed prefix (held.rs's HELD_PREFIX) and a
// per-process random nonce, so a server cannot forge one to read another result's text.

const nonce = () => {
  const bytes = new Uint32Array(2);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(36)).join("");
};
// Made on first use, not when the module loads: workerd refuses random values in global scope.
let MARK = null;
const mark = () => (MARK ??= `\u0000mcp-wasm-client:held:${nonce()}:`);

// Strings put aside and not yet restored (mark → { text, at }), oldest first. A result is
// restored within a few microtasks of its arrival; one dropped before it reaches the caller (its
// request timed out or was cancelled after the answer arrived, or its structuredContent failed
// the tool's outputSchema) leaves its strings here until they are a minute old, or until more
// than 256 are held.
const MAX_HELD = 256;
const HELD_MS = 60_000;
const held = new Map();
let next = 0;

function release(now) {
  for (const [mark, { at }] of held) {
    if (held.size <= MAX_HELD && now - at < HELD_MS) break;
    held.delete(mark);
  }
}

/** `text` (a JSON-RPC body) with long content strings put aside, or `text` itself when it is not
 *  JSON or has none (Rust then reads it and names what is wrong). */
export function holdContent(text, minLength) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  let any = false;
  const now = Date.now();
  for (const message of Array.isArray(body) ? body : [body]) {
    const content = message?.result?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      for (const key of ["text", "blob"]) {
        const s = block?.[key];
        if (typeof s === "string" && s.length >= minLength) {
          const id = mark() + (next++).toString(36);
          held.set(id, { text: s, at: now });
          block[key] = id;
          any = true;
        }
      }
    }
  }
  release(now);
  return any ? JSON.stringify(body) : text;
}

/** `value` with every held string put back (and released); returns `value`. */
export function restoreHeld(value) {
  const walk = (v) => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => put(v, i, x));
    } else if (v !== null && typeof v === "object") {
      for (const k of Object.keys(v)) put(v, k, v[k]);
    } else if (typeof v === "string" && MARK !== null && v.startsWith(MARK) && held.has(v)) {
      const { text } = held.get(v);
      held.delete(v);
      return text;
    }
    return v;
  };
  // Assigned only when restored: `o["__proto__"] = x` would set the prototype, not the member.
  const put = (o, k, x) => {
    const y = walk(x);
    if (y !== x) o[k] = y;
  };
  return walk(value);
}

/**
 * A request's `fetch` init: `head`'s method and redirect mode, a copy of its headers (a `fetch`
 * option may change the init it is given: the next request's stays as made), the body when
 * given, and the signal. `head` is parsed once for every request sending the same headers
 * (js::http::fetch).
 */
export function fetchInit(head, body, signal) {
  const init = { method: head.method, headers: { ...head.headers }, redirect: head.redirect };
  if (body !== undefined) init.body = body;
  init.signal = signal;
  return init;
}

/** `reader.cancel()` with its rejection ignored (a body given up before its end, fetch.rs). */
export function cancelQuietly(reader) {
  reader.cancel().catch(() => {});
}

const decoder = new TextDecoder();

/** The body's text, or its UTF-8 bytes (copied into the wasm) when it is `from` bytes or more and
 *  under `below`, or nothing once more than `maxBytes` bytes arrived. A failed read rejects with
 *  the stream's error. */
export async function readCappedBody(stream, maxBytes, from, below) {
  if (!stream) return "";
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel().catch(() => {});
      return;
    }
    chunks.push(value);
  }
  // One decode of the whole body (a string decoded in pieces and joined is a rope that
  // JSON.parse must flatten first).
  let bytes = chunks.length === 1 ? chunks[0] : new Uint8Array(total);
  if (chunks.length !== 1) {
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
  }
  if (total < from || total >= below) return decoder.decode(bytes);
  // Without the byte order mark TextDecoder drops.
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}
