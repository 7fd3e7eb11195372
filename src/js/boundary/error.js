// McpError, the class every rejection and throw of the package uses: a real Error subclass whose
// `code`, `message` and `data` are own, enumerable properties (so JSON.stringify, util.inspect,
// logging libraries and structured clone see them; no wasm pointer, no free()). error.rs exports
// a class of the same name from the glue and hands it to `adopt`, which makes it answer for this
// one (instanceof, `from`, its prototype without free()); the wasm builds every error with
// `makeError`.

/** `Number(code)` without throwing; NaN (or a Symbol, or a throwing conversion) is -32603. */
function toCode(code) {
  let n = NaN;
  try {
    if (typeof code !== "symbol") n = Number(code);
  } catch {
    // stays NaN
  }
  return Number.isNaN(n) ? -32603 : n;
}

/** `String(message)` as Error does (empty when absent); an unprintable value is "[unprintable]". */
function toMessage(message) {
  if (message === undefined) return "";
  try {
    return String(message);
  } catch {
    return "[unprintable]";
  }
}

const own = (value) => ({ value, writable: true, enumerable: true, configurable: true });

export class McpError extends Error {
  /** `new McpError(code, message, data?)`: `code` as by Number(), `message` as by String(). */
  constructor(code, message, data) {
    const text = toMessage(message);
    super(text);
    Object.defineProperties(this, { code: own(toCode(code)), message: own(text), data: own(data) });
  }

  /**
   * An McpError from what is left of one after structured clone or postMessage (an Error that
   * kept only `message`, or a plain `{ code, message, data }` object, e.g. JSON.parse of one);
   * an McpError is returned as it is.
   */
  static from(value) {
    if (value instanceof McpError) return value;
    const v = value !== null && typeof value === "object" ? value : { message: value };
    const e = new McpError(v.code, v.message, v.data);
    if (typeof v.stack === "string") e.stack = v.stack;
    return e;
  }
}
Object.defineProperty(McpError, "name", { value: "McpError" });
Object.defineProperty(McpError.prototype, "name", { value: "McpError", writable: true, configurable: true });

/** Makes the glue's exported class stand for McpError: instanceof, `from`, no free(). */
export function adopt(Exported) {
  if (Exported === McpError || Exported[ADOPTED]) return;
  Object.defineProperty(Exported, ADOPTED, { value: true });
  Object.defineProperty(Exported, Symbol.hasInstance, { value: (v) => v instanceof McpError, configurable: true });
  Object.defineProperty(Exported, "from", { value: McpError.from, writable: true, configurable: true });
  const proto = Exported.prototype;
  for (const key of Reflect.ownKeys(proto)) if (key !== "constructor") delete proto[key];
  Object.setPrototypeOf(proto, McpError.prototype);
  Object.defineProperty(McpError.prototype, "constructor", { value: Exported, writable: true, configurable: true });
}
const ADOPTED = Symbol("mcp-wasm-client:adopted");

// How many frames of the package itself (this file's, the wasm's, the glue's) a call site holds
// above the caller's: counted once on the first site taken from a caller (see `callSite`).
let ownCount = -1; // -1: not counted yet

/**
 * Where a call was made: taken when a method starts, so its later rejection can point there. It
 * holds the package's own frames and then the caller's `Error.stackTraceLimit`: a capture costs
 * per frame (30 extra frames were ~55 µs a call more at a 40-frame-deep caller), so once the own
 * frames were counted only those and a margin are taken.
 */
export function callSite() {
  if (presetSite !== undefined) return presetSite;
  const limit = Error.stackTraceLimit;
  if (typeof limit !== "number") return new Error();
  Error.stackTraceLimit = limit + (ownCount >= 0 ? ownCount + 8 : 30);
  const site = new Error();
  Error.stackTraceLimit = limit;
  if (ownCount < 0) ownCount = ownFrames(frames(site));
  return site;
}

// The site `atCallSite` took for the call it runs (undefined outside one).
let presetSite;

/**
 * Runs `f` (a synchronous call into the wasm) with `site`, a call site the facade took in JS
 * (`callSite()`): a capture that holds wasm frames costs far more (V8 maps each wasm frame's code
 * position back to a byte offset as it captures it: ~15 µs of a ~60 µs callTool in Node), so a
 * facade takes the site before it enters the wasm, and `callSite()` in there answers it. The
 * facade takes it in the method the caller called, before anything else: a capture costs per
 * frame above the caller's, and most for optimized frames with much inlined (V8 decodes each
 * one's deoptimization data), so the capture from inside the facade's call path (five frames
 * deep) cost 7–8 µs more of a call's synchronous part, 12–19 µs more of the whole call, than
 * from the method itself (docs/benchmarks.md, Node 20).
 */
export function atCallSite(site, f) {
  const outer = presetSite;
  presetSite = site;
  try {
    return f();
  } finally {
    presetSite = outer;
  }
}

// A frame of the package itself: the wasm, the glue, these snippets (the directory holding
// snippets/; string work, not `new URL(…, import.meta.url)`, which bundlers take for an asset).
const [base, basePath] = (() => {
  try {
    const url = String(import.meta.url);
    const at = url.lastIndexOf("/snippets/");
    if (at < 0) return [null, null];
    const dir = url.slice(0, at + 1);
    return [dir, dir.startsWith("file:") ? decodeURIComponent(new URL(dir).pathname) : null];
  } catch {
    return [null, null];
  }
})();
const inside = (frame) =>
  frame.includes("wasm://") ||
  frame.includes("wasm-function") ||
  (base !== null && frame.includes(base)) ||
  (basePath !== null && frame.includes(basePath));

/** The frame lines of `site`'s stack (V8 writes a header line first, other engines only frames). */
function frames(site) {
  const lines = (typeof site?.stack === "string" ? site.stack : "").split("\n");
  return lines[0] && !/^\s+at /.test(lines[0]) && !lines[0].includes("@") ? lines.slice(1) : lines;
}

/** How many frames come before the first outside the package; -1 when all are inside. */
const ownFrames = (lines) => lines.findIndex((frame) => !inside(frame));

/** The stack `e` gets: its header, then the frames of `site` from the first outside the package. */
function relocate(e, site) {
  const lines = frames(site);
  const start = ownFrames(lines);
  if (start < 0) {
    // only the package's own frames: if the capture cut the caller off, count them again
    if (lines.length >= ownCount + 8) ownCount = -1;
    return;
  }
  const kept = lines.slice(start, start + (typeof Error.stackTraceLimit === "number" ? Error.stackTraceLimit : 10));
  const v8 = /^\s+at /.test(kept[0]);
  e.stack = v8 ? `${e.name}: ${e.message}\n${kept.join("\n")}` : kept.join("\n");
}

/**
 * The McpError of a part of the package loaded on first use that could not be loaded: `what`
 * (e.g. "the tracing module") from `url`, `error` what the import threw; kind module_load, with
 * `data` added to its data (e.g. `part`).
 */
export function moduleLoadError(what, url, error, data) {
  const cause = String(error?.message ?? error);
  return makeError(-32603, `mcp-wasm-client: ${what} (${url}) could not be loaded: ${cause}`, {
    local: true,
    kind: "module_load",
    url,
    cause,
    ...data,
  });
}

/** An McpError made by the wasm; with `site` (a `callSite()`), its stack is the caller's. */
export function makeError(code, message, data, site) {
  const e = new McpError(code, message, data);
  relocate(e, site ?? callSite());
  return e;
}

// A Rust panic is a WebAssembly trap (release builds: -Cpanic=immediate-abort), and a trap, or any
// exception thrown through the wasm, leaves the instance inconsistent (a RefCell borrowed, a future
// half done). Every poll of a method's or a background task's future, every message a JS
// transport delivers and a synchronous export that asks for it run inside `guard`, so the first
// trap poisons the instance: the call it happened in and every call in flight (`track`) reject
// with kind "internal", and every later call is refused at once (methods check before they build
// their future), never entering the wasm again (no hang, no second trap).
let poisoned = false;
let trap;
const calls = new Set(); // [reject, site] of each method's promise not yet settled

/** The operation a call site went through: the package's last frame before the caller's. */
function opOf(site) {
  let op = "a client task";
  for (const frame of frames(site)) {
    if (!inside(frame)) break;
    const name = /(?:at |^)(?:[\w$]+\.)*([\w$]+)(?: \[.*\])? ?[(@]/.exec(frame.trim());
    if (name) op = name[1];
  }
  return op;
}

/** An `internal` McpError at `site`, its `cause` the trap. */
function internal(site, text) {
  const e = makeError(-32603, text, { local: true, kind: "internal" }, site);
  Object.defineProperty(e, "cause", { value: trap, writable: true, configurable: true });
  return e;
}

const what = () => {
  try {
    return `${trap instanceof WebAssembly.RuntimeError ? "WebAssembly trap" : trap?.name} '${trap?.message ?? trap}'`;
  } catch {
    return "an exception";
  }
};
const failed = (site, op = opOf(site)) => internal(site, `${op} failed inside the client (a bug: ${what()})`);
const unusable = (site, op = opOf(site)) =>
  internal(
    site,
    `${op} failed: the client's WebAssembly instance stopped at a bug (${what()}) and cannot be used any more; ` +
      "create the clients again in a new instance of the package (reload the page, or a new process or worker)",
  );

/**
 * Runs `f` (a wasm closure) unless the instance is poisoned; whatever it throws poisons it.
 * Returns undefined when `f` returned, else the McpError of the call begun at `site` (undefined:
 * here, a synchronous call), which is rejected with every other call in flight.
 */
export function guard(f, site) {
  if (poisoned) return unusable(site ?? callSite());
  try {
    f();
    return undefined;
  } catch (e) {
    poison(e, site);
    return failed(site ?? callSite());
  }
}

/** Poisons the instance at trap `e`: every call in flight rejects (the one begun at `site`: failed). */
function poison(e, site) {
  poisoned = true;
  trap = e;
  for (const [reject, s] of calls) reject(s && s === site ? failed(s) : unusable(s));
  calls.clear();
}

/** Whether a trap poisoned the instance: the one flag, which error.rs `poisoned()` reads. */
export const isPoisoned = () => poisoned;

/**
 * The facade's (client.js) synchronous Client method, getter or constructor `op` threw `e`: a
 * WebAssembly trap poisons the instance as in `guard`, and the `internal` McpError naming `op` is
 * returned; anything else (an McpError for bad input) is returned as it is, poisoning nothing.
 */
export function trapped(e, op) {
  if (!(e instanceof WebAssembly.RuntimeError)) return e;
  if (poisoned) return unusable(callSite(), op);
  poison(e);
  return failed(callSite(), op);
}

/** The McpError refusing `op` on a poisoned instance (at once, never entering the wasm); else undefined. */
export const refusal = (op) => (poisoned ? unusable(callSite(), op) : undefined);

/**
 * Hands `promise`'s outcome to `settle(id, fulfilled, value)`, the one closure awaited.rs made,
 * inside `guard` (a trap there poisons the instance as in a poll): one call per promise the
 * wasm awaits on a call's path, where a wasm-bindgen JsFuture makes two closures.
 */
export function settleInto(promise, id, settle) {
  Promise.resolve(promise).then(
    (value) => {
      guard(() => settle(id, true, value));
    },
    (error) => {
      guard(() => settle(id, false, error));
    },
  );
}

/** A method's promise `p` (begun at `site`), rejected at once should the instance be poisoned. */
export function track(p, site) {
  return new Promise((resolve, reject) => {
    const call = [reject, site];
    calls.add(call);
    const settle = (to) => (v) => {
      calls.delete(call);
      to(v);
    };
    p.then(settle(resolve), settle(reject));
  });
}

// The text of an unknown option's refusal, made here for new Client's options (client.js) and the
// core's call options (options.rs) alike: the closest known name, quoted as the core quotes names.

// `s` in double quotes, `"`, `\` and control characters (U+0000–U+001F, U+007F–U+009F: all but
// ' '–'~' and U+00A0 on) escaped as the core quotes a name (Rust's `{:?}` of a string).
const ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0" };
export const quoted = (s) => `"${s.replace(/["\\]|[^ -~\xa0-\uffff]/g, (c) => ESCAPES[c] ?? `\\u{${c.charCodeAt(0).toString(16)}}`)}"`;
const lower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase()); // ASCII only, as Rust's to_ascii_lowercase

// Jaro-Winkler similarity of two strings, by code point (strsim 0.11's jaro_winkler).
function jaroWinkler(a, b) {
  [a, b] = [[...a], [...b]];
  const [m, n] = [a.length, b.length];
  if (!m || !n) return m === n ? 1 : 0;
  const range = Math.max((Math.max(m, n) >> 1) - 1, 0);
  const [af, bf] = [[], []];
  let matches = 0;
  for (let i = 0; i < m; i++)
    for (let j = Math.max(i - range, 0); j < Math.min(n, i + range + 1); j++)
      if (a[i] === b[j] && !bf[j]) {
        af[i] = bf[j] = true;
        matches++;
        break;
      }
  if (!matches) return 0;
  let t = 0;
  for (let i = 0, j = 0; i < m; i++) {
    if (!af[i]) continue;
    while (!bf[j]) j++;
    if (a[i] !== b[j++]) t++;
  }
  const sim = (matches / m + matches / n + (matches - (t >> 1)) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < m && a[prefix] === b[prefix]) prefix++;
  return sim > 0.7 ? sim + 0.1 * prefix * (1 - sim) : sim;
}

/**
 * The name of `known` (ASCII names) that `word` most likely meant, if any is close: the same name
 * in another case, the shortest name `word` starts (3 characters or more: `timeout` →
 * `timeoutMs`), or the most similar by Jaro-Winkler at 0.8 or more (`timeot` → `timeoutMs`).
 * Ties go to the earlier name.
 */
function closest(word, known) {
  const w = lower(word);
  let best = known.find((k) => lower(k) === w);
  if (!best && w.length >= 3)
    for (const k of known) if (lower(k).startsWith(w) && !(best?.length <= k.length)) best = k;
  let score = 0.8;
  if (!best)
    for (const k of known) {
      const s = jaroWinkler(w, lower(k));
      if (s >= score && !(best && s === score)) [best, score] = [k, s];
    }
  return best;
}

/**
 * The error text refusing `key`, an own key of an options object no name of `known` (an array,
 * or the names comma-separated: the core's call options) has: `options.timeout is not an option
 * of new Client(): did you mean timeoutMs?`, or the known names when none is close.
 */
export function unknownOption(scope, key, known, of) {
  if (typeof known === "string") known = known.split(",");
  const near = closest(key, known);
  const at = /^[\w$]+$/.test(key) ? `.${key}` : `[${quoted(key)}]`;
  return `${scope}${at} is not an option of ${of}${near ? `: did you mean ${near}?` : ` (its options: ${known.join(", ")})`}`;
}
