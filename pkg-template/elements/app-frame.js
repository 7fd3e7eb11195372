// <mcp-app-frame>: an MCP Apps host (io.modelcontextprotocol/ui, 2026-01-26) as a custom element
// (docs/elements.md): its properties, and the partial input it keeps while an app mounts. The rest
// is view-session.js's, imported when the first app is shown (a page that never shows one never
// fetches it).

const CSS = `
:host { display: block; position: relative; box-sizing: border-box; max-width: 100%; }
:host([hidden]) { display: none; }
:host([bordered]) { border: var(--mcp-app-frame-border, 1px solid #8884);
  border-radius: var(--mcp-app-frame-radius, 8px); background: var(--mcp-app-frame-background, transparent); }
:host([display-mode="fullscreen"]) { position: fixed !important; inset: 0 !important; width: auto !important;
  height: auto !important; z-index: var(--mcp-app-frame-z-index, 1000); background: var(--mcp-app-frame-background, Canvas); }
:host([display-mode="pip"]) { position: fixed !important; right: 1rem; bottom: 1rem;
  width: var(--mcp-app-frame-pip-width, 360px) !important; height: var(--mcp-app-frame-pip-height, 240px) !important;
  z-index: var(--mcp-app-frame-z-index, 1000); box-shadow: var(--mcp-app-frame-pip-shadow, 0 4px 16px #0004); }
iframe { display: block; width: 100%; height: 100%; min-height: var(--mcp-app-frame-min-height, 0); border: 0; }
`;

let sheet;
/** The element's constructable stylesheet, built once per page (CSP-safe: no <style> element). */
function styles() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  return sheet;
}

/** The base of the element classes: HTMLElement in a page, a plain class in Node, Deno and workers. */
const Base = globalThis.HTMLElement ?? class {};

/**
 * `<mcp-app-frame>`: renders an MCP App for a tool call and hosts its dialogue. Each entry gets its
 * own subclass from appFrameClass(wasm), which names the entry's McpError.
 */
class AppFrameElement extends Base {
  /** An McpError of the entry this class was made for: `data` is `{ local: true, kind, ...extra }`. */
  #err(code, message, kind, extra) {
    return new this.constructor.McpError(code, message, { local: true, kind, ...extra });
  }

  // The frame's state, which view-session.js's mount() reads and sets: `client`, `sandbox`,
  // `hostContext`, `view` (the mounted view's ViewSession), `stream` (while show(tool) without args
  // mounts: the partial input for the view, { partial, text }), `streaming` (that show()'s promise:
  // a callTool waits for it before reusing its view).
  #s = { hostContext: {} };
  /** `{ name, version }` the app sees as the host (default: mcp-wasm-client). */
  hostInfo = { name: 'mcp-wasm-client', version: '0.1.0' };
  /** Called with (params, { server, frame }) for each `notifications/message` the app sends. */
  loggingCallback = undefined;
  /** The app's latest `ui/update-model-context` params (each replaces the previous), or undefined. */
  modelContext = undefined;

  /** Attaches an open shadow root with the element's stylesheet (in a page only). */
  constructor() {
    super();
    if (globalThis.HTMLElement && this instanceof globalThis.HTMLElement) {
      this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [styles()];
    }
  }

  /** The `Client` or `ClientGroup` the frame reads resources and calls tools through. */
  get client() { return this.#s.client; }
  set client(value) { this.#s.client = value; }

  /** The proxy page's URL (mcp-app-sandbox.html on another origin than the page). */
  get sandbox() { return this.#s.sandbox; }
  set sandbox(value) { this.#s.sandbox = value == null ? undefined : String(value); }

  /** The host context the app sees; setting it after init sends only the changed fields. */
  get hostContext() { return { ...this.#s.hostContext }; }
  set hostContext(value) {
    this.#s.hostContext = value && typeof value === 'object' ? { ...value } : {};
    this.#s.view?.contextChanged();
  }

  /** The tool whose app is shown (`{ name, server? }`), or undefined. */
  get tool() { return this.#s.view?.tool; }

  /** The tools the shown app registered, `[]` without one (`mcp-app-tools` tells a change). */
  get appTools() { return [...(this.#s.view?.appTools ?? [])]; }

  /**
   * Mounts the tool's app (or continues its shown view whose input streams), sends it the input,
   * calls the tool with the client's call `options` and sends it the result (`tool-cancelled` when
   * the call fails). Resolves with the CallToolResult.
   */
  async callTool(name, args = {}, options = {}) {
    const signal = options?.signal;
    const session = await this.#mount(name, args, signal);
    let result;
    try {
      result = await session.client.callTool(session.toolName, args, options);
    } catch (e) {
      session.notify('ui/notifications/tool-cancelled', { reason: signal?.aborted ? 'aborted' : String(e?.message ?? e) });
      throw e;
    }
    session.notify('ui/notifications/tool-result', result);
    return result;
  }

  /**
   * Mounts the app of a tool (a Tool object or its name) for a result that arrived elsewhere;
   * without `args` its input is still to come (partial input, then callTool or show with them).
   */
  show(tool, args, result = undefined, options = {}) {
    const s = this.#s;
    const stream = args === undefined ? { partial: undefined, text: '' } : undefined;
    if (stream) s.stream = stream;
    const shown = this.#mount(tool, args, options?.signal, stream).then((session) => {
      if (result !== undefined) session.notify('ui/notifications/tool-result', result);
    });
    if (!stream) return shown;
    s.streaming = shown.finally(() => {
      if (s.stream === stream) s.stream = undefined;
    });
    return s.streaming;
  }

  /** Sends the app partial arguments (tool-input-partial) while its input streams; false when dropped (after the input, or nothing streams). */
  sendToolInputPartial(args) {
    if (!args || typeof args !== 'object' || Array.isArray(args)) {
      throw this.#err(-32602, 'mcp-app-frame: sendToolInputPartial(args) takes the partial arguments as an object', 'input');
    }
    return this.#toView('partial', args);
  }

  /** Takes a text delta of the arguments' streamed JSON; what it reads as so far goes out as partial arguments (false when dropped). */
  feedToolInput(delta) {
    if (typeof delta !== 'string') throw this.#err(-32602, 'mcp-app-frame: feedToolInput(delta) takes a string of the arguments\' JSON', 'input');
    return this.#toView('feed', delta);
  }

  /** Partial input: kept for the mount under way, else to the shown view while its input streams. */
  #toView(kind, value) {
    const stream = this.#s.stream;
    if (stream) {
      if (kind === 'partial') stream.partial = value;
      else stream.text += value;
      return true;
    }
    const view = this.#s.view;
    if (!view || view.inputSent) return false;
    return kind === 'partial' ? view.partial(value) : view.feed(value);
  }

  /** Calls a tool the shown app registered (tools/call to the app), `options` `{ signal, timeoutMs }`; resolves with its CallToolResult. */
  async callAppTool(name, args = {}, options = {}) {
    const m = await this.#viewModule();
    return m.callAppTool(this.#s.view, name, args, options, (...a) => this.#err(...a), this.constructor.McpError);
  }

  /** Sends the app what it was held, then `ui/resource-teardown` `{ reason }` (waits up to 3 s), then removes the iframes. */
  async teardown(options = {}) {
    const view = this.#s.view;
    this.#s.view = undefined;
    if (view) await view.teardown(options?.reason ?? 'host closed the view');
  }

  /** Removing the element stops the dialogue (its iframes are already gone: call teardown() first to let the app clean up). */
  disconnectedCallback() {
    const view = this.#s.view;
    this.#s.view = undefined;
    view?.dispose();
  }

  /** Rejects when the element cannot mount: no DOM, no client (the sandbox URL is checked with the view module). */
  #check() {
    if (!globalThis.document || !this.shadowRoot) {
      throw this.#err(-32602, 'mcp-app-frame needs a page (DOM): it cannot render an MCP App in Node, Deno or a worker', 'unsupported');
    }
    const c = this.#s.client;
    if (!c || typeof c.callTool !== 'function' || typeof c.listTools !== 'function') {
      throw this.#err(-32602, 'mcp-app-frame: set frame.client to a connected Client or ClientGroup first', 'input');
    }
  }

  /** view-session.js, loaded when the first app is shown (a page that never shows one never fetches it). */
  async #viewModule() {
    try {
      return await import('./view-session.js');
    } catch (e) {
      const url = new URL('./view-session.js', import.meta.url).href;
      throw this.#err(-32603, `mcp-app-frame: its view module could not be loaded from ${url}: ${e?.message ?? e}`, 'module_load', { url, cause: String(e?.message ?? e) });
    }
  }

  /** Mounts the tool's app in a new view, or gives `args` to its shown view whose input streams (view-session.js's mount). */
  async #mount(tool, args, signal, stream) {
    this.#check();
    const m = await this.#viewModule();
    return m.mount(this, this.#s, tool, args, signal, stream, (...a) => this.#err(...a));
  }
}

/**
 * The class AppFrame over one entry's wasm exports (`McpError` for its errors). In Node, Deno and
 * workers the class still loads (it extends a plain class there); its methods reject with an
 * `unsupported` McpError.
 */
export function appFrameClass(wasm) {
  return class AppFrame extends AppFrameElement {
    /** The McpError class of this entry. */
    static McpError = wasm.McpError;
  };
}
