// <mcp-app-frame>: an MCP Apps host (io.modelcontextprotocol/ui, specification 2026-01-26) as a
// framework-free custom element beside the wasm. This file holds the element: its properties, its
// checks and how it finds a tool; the dialogue with a shown app (the proxy iframe, the handshake,
// the app's requests, teardown) is view-session.js's, imported when the first app is shown, so a
// page that only calls tools never downloads it.
//
// Surface (docs/elements.md): properties client, sandbox, hostContext, hostInfo, loggingCallback,
// downloadLimits, modelContext (read), tool (read), appTools (read); methods callTool(name, args,
// options), show(tool, args, result) (args omitted: the input streams in later),
// sendToolInputPartial(args), feedToolInput(jsonDelta), callAppTool(name, args, options),
// teardown({ reason }); events (bubbling, composed; cancelable ones refused by preventDefault()):
// mcp-app-message, mcp-app-open-link, mcp-app-context, mcp-app-display-mode,
// mcp-app-request-teardown, mcp-app-download, mcp-app-sampling (cancelable), mcp-app-log,
// mcp-app-size, mcp-app-tools. A second callTool or show tears the shown view down first (a view
// whose input still streams, of the same tool, takes the input instead); removing the element
// ends the view without a teardown request (its iframe is already gone).

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

  #client;
  #sandbox;
  #hostContext = {};
  #view; // the mounted view's state (ViewSession)
  #stream; // while show(tool) without args mounts: the partial input to hand the view ({ partial, text })
  #streaming; // that show()'s promise (a callTool waits for it before deciding to reuse its view)
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
  get client() { return this.#client; }
  set client(value) { this.#client = value; }

  /** The proxy page's URL (mcp-app-sandbox.html on another origin than the page). */
  get sandbox() { return this.#sandbox; }
  set sandbox(value) { this.#sandbox = value == null ? undefined : String(value); }

  /** The host context the app sees; setting it after init sends only the changed fields. */
  get hostContext() { return { ...this.#hostContext }; }
  set hostContext(value) {
    this.#hostContext = value && typeof value === 'object' ? { ...value } : {};
    this.#view?.contextChanged();
  }

  /** The tool whose app is shown (`{ name, server? }`), or undefined. */
  get tool() { return this.#view?.tool; }

  /** The tools the shown app registered (its tools/list), `[]` without one; `mcp-app-tools` tells a change. */
  get appTools() { return [...(this.#view?.appTools ?? [])]; }

  /**
   * Sends the app partial arguments (`ui/notifications/tool-input-partial`) while the tool's
   * input streams (after `show(tool)` without args): in order, before the input; true when sent
   * or held, false when dropped (the input was sent, or nothing streams).
   */
  sendToolInputPartial(args) {
    if (!args || typeof args !== 'object' || Array.isArray(args)) {
      throw this.#err(-32602, 'mcp-app-frame: sendToolInputPartial(args) takes the partial arguments as an object', 'input');
    }
    return this.#toView('partial', args);
  }

  /**
   * Appends a text delta of the arguments' JSON as a model streams it (the AI SDK's
   * `tool-input-delta`): the object it reads as so far goes out as partial arguments when it
   * changed. True when taken, false when dropped (as sendToolInputPartial).
   */
  feedToolInput(delta) {
    if (typeof delta !== 'string') throw this.#err(-32602, 'mcp-app-frame: feedToolInput(delta) takes a string (a piece of the arguments\' JSON text)', 'input');
    return this.#toView('feed', delta);
  }

  /** Partial input to the mount under way (kept, the latest partial only), else to the shown view while its input streams. */
  #toView(kind, value) {
    const stream = this.#stream;
    if (stream) {
      if (kind === 'partial') stream.partial = value;
      else stream.text += value;
      return true;
    }
    const view = this.#view;
    if (!view || view.inputSent) return false;
    return kind === 'partial' ? view.partial(value) : view.feed(value);
  }

  /**
   * Calls a tool the shown app registered (`tools/call` to the app) and resolves with its
   * CallToolResult; `options`: `{ signal, timeoutMs }` (default 60 s). Rejects with an McpError.
   */
  async callAppTool(name, args = {}, options = {}) {
    const view = this.#view;
    if (typeof name !== 'string' || !name) throw this.#err(-32602, 'mcp-app-frame: callAppTool(name, args): name must be a non-empty string', 'input');
    if (!args || typeof args !== 'object' || Array.isArray(args)) throw this.#err(-32602, 'mcp-app-frame: callAppTool(name, args): args must be an object', 'input');
    if (view?.state !== 'initialized') throw this.#err(-32602, `mcp-app-frame: callAppTool(${JSON.stringify(name)}): no initialized app is shown`, 'input');
    if (!view.appTools.some((t) => t.name === name)) {
      const listed = view.appTools.map((t) => t.name).join(', ') || 'none';
      throw this.#err(-32602, `mcp-app-frame: the app has no tool ${JSON.stringify(name)} (frame.appTools: ${listed})`, 'input');
    }
    try {
      return await view.callAppTool(name, args, options);
    } catch (e) {
      if (Number.isInteger(e.code)) throw new this.constructor.McpError(e.code, e.message, e.data);
      const kind = e.kind ?? 'closed';
      throw this.#err({ timeout: -32001, aborted: -32010 }[kind] ?? -32000, `mcp-app-frame: ${e.message}`, kind);
    }
  }

  /**
   * Calls a tool whose `_meta.ui.resourceUri` names an app: reads and mounts the app (any view
   * shown before is torn down), sends it the input, calls the tool and sends it the result
   * (`tool-cancelled` when the call is aborted or fails). Resolves with the CallToolResult.
   * `options` are the client's call options (signal, onProgress, timeoutMs, task, …), passed on.
   */
  async callTool(name, args = {}, options = {}) {
    const signal = options?.signal;
    const target = await this.#resolve(name, signal);
    const session = await this.#mount(target, args, signal);
    let result;
    try {
      result = await target.client.callTool(target.toolName, args, options);
    } catch (e) {
      session.notify('ui/notifications/tool-cancelled', { reason: signal?.aborted ? 'aborted' : String(e?.message ?? e) });
      throw e;
    }
    session.notify('ui/notifications/tool-result', result);
    return result;
  }

  /**
   * Mounts the app of a tool whose result arrived elsewhere (`tool` is the Tool object as listed,
   * or its name) and gives it `args` and `result`. Without `args` the input is still to come:
   * partial arguments (sendToolInputPartial, feedToolInput) go to the app, then callTool or show
   * of the same tool with the arguments continues this view. Resolves once the app is mounted.
   */
  show(tool, args, result = undefined, options = {}) {
    if (args !== undefined) return this.#show(tool, args, result, options);
    const stream = { partial: undefined, text: '' };
    this.#stream = stream;
    const shown = this.#show(tool, undefined, undefined, options, stream).finally(() => {
      if (this.#stream === stream) this.#stream = undefined;
    });
    this.#streaming = shown;
    return shown;
  }

  /** show()'s work: resolve the tool, mount (or continue) its view, give it the result. */
  async #show(tool, args, result, options, stream) {
    const target = typeof tool === 'string' ? await this.#resolve(tool, options?.signal) : this.#fromTool(tool);
    const session = await this.#mount(target, args, options?.signal, stream);
    if (result !== undefined) session.notify('ui/notifications/tool-result', result);
  }

  /**
   * Sends the app `ui/resource-teardown` `{ reason }` (after its initialization; waits for the
   * reply up to 3 s), then removes the iframes. Resolves when they are gone; harmless when nothing
   * is shown.
   */
  async teardown(options = {}) {
    const view = this.#view;
    this.#view = undefined;
    if (view) await view.teardown(options?.reason ?? 'host closed the view');
  }

  /** Removing the element stops the dialogue (its iframes are already gone: call teardown() first to let the app clean up). */
  disconnectedCallback() {
    const view = this.#view;
    this.#view = undefined;
    view?.dispose();
  }

  /** Rejects when the element cannot mount (no DOM, no client, a same-origin or missing sandbox). */
  #check() {
    if (!globalThis.document || !this.shadowRoot) {
      throw this.#err(-32602, 'mcp-app-frame needs a page (DOM): it cannot render an MCP App in Node, Deno or a worker', 'unsupported');
    }
    const c = this.#client;
    if (!c || typeof c.callTool !== 'function' || typeof c.listTools !== 'function') {
      throw this.#err(-32602, 'mcp-app-frame: set frame.client to a connected Client or ClientGroup first', 'input');
    }
    if (!this.#sandbox) throw this.#err(-32602, 'mcp-app-frame: set frame.sandbox to the URL of mcp-app-sandbox.html on another origin', 'input');
    let url;
    try { url = new URL(this.#sandbox, location.href); } catch {
      throw this.#err(-32602, `mcp-app-frame: frame.sandbox ${JSON.stringify(this.#sandbox)} is not a URL`, 'input');
    }
    if (!/^https?:$/.test(url.protocol)) throw this.#err(-32602, `mcp-app-frame: frame.sandbox must be an http(s) URL, not ${url.protocol}`, 'input');
    if (url.origin === location.origin) {
      throw this.#err(-32602, `mcp-app-frame: frame.sandbox must be served from another origin than the page (${url.origin} is the page's own)`, 'input');
    }
    return url;
  }

  /** Finds the tool by name on the client (for a group: its server's client and the tool's own name). */
  async #resolve(name, signal) {
    this.#check();
    if (typeof name !== 'string' || !name) throw this.#err(-32602, 'mcp-app-frame: the tool name must be a non-empty string', 'input');
    const c = this.#client;
    const group = typeof c.client === 'function' && typeof c.addServer === 'function';
    const { tools } = group ? await c.listTools(signal ? { signal } : undefined) : await c.listTools({ all: true, ...(signal ? { signal } : {}) });
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw this.#err(-32602, `mcp-app-frame: no tool named ${JSON.stringify(name)} on the client`, 'input');
    if (!group) return this.#fromTool(tool);
    const client = c.client(tool.server);
    if (!client) throw this.#err(-32602, `mcp-app-frame: the group has no server ${JSON.stringify(tool.server)} for tool ${JSON.stringify(name)}`, 'input');
    const own = { ...tool, name: tool.originalName };
    delete own.server;
    delete own.originalName;
    return { client, server: tool.server, toolName: tool.originalName, tool: own };
  }

  /** A target from a Tool object (on the frame's Client, or a group's entry with `server`/`originalName`). */
  #fromTool(tool) {
    this.#check();
    if (!tool || typeof tool !== 'object' || typeof tool.name !== 'string') {
      throw this.#err(-32602, 'mcp-app-frame: show() needs a Tool object (as listTools gives it) or a tool name', 'input');
    }
    const c = this.#client;
    if (typeof c.client === 'function' && typeof tool.server === 'string') {
      const client = c.client(tool.server);
      if (!client) throw this.#err(-32602, `mcp-app-frame: the group has no server ${JSON.stringify(tool.server)}`, 'input');
      const own = { ...tool, name: tool.originalName ?? tool.name };
      delete own.server;
      delete own.originalName;
      return { client, server: tool.server, toolName: own.name, tool: own };
    }
    return { client: c, server: undefined, toolName: tool.name, tool };
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

  /**
   * Reads the tool's UI resource and mounts it in a new view session (tearing down the previous
   * one), or gives `args` to the shown view of the same tool whose input still streams.
   */
  async #mount(target, args, signal, stream) {
    const sandboxUrl = this.#check();
    if (args !== undefined) {
      await this.#streaming?.catch(() => {});
      const shown = this.#view;
      if (shown && !shown.inputSent && shown.client === target.client && shown.toolName === target.toolName) {
        shown.input(args);
        return shown;
      }
    }
    const { ViewSession, readAppResource, toolResourceUri } = await this.#viewModule();
    const uri = toolResourceUri(target.tool);
    if (!uri) throw this.#err(-32602, `mcp-app-frame: tool ${JSON.stringify(target.toolName)} has no _meta.ui.resourceUri (a ui:// resource): it has no app to show`, 'input');
    const resource = await readAppResource(target.client, uri, signal, (...a) => this.#err(...a));
    if (signal?.aborted) throw this.#err(-32800, 'mcp-app-frame: the call was aborted before its app was shown', 'cancelled');
    await this.teardown({ reason: 'replaced by another tool call' });
    const view = new ViewSession(this, { ...target, uri, resource, sandboxUrl, args });
    this.#view = view;
    view.mount();
    if (stream && this.#stream === stream) {
      this.#stream = undefined; // from now on partial input goes to the view itself
      if (stream.partial) view.partial(stream.partial);
      if (stream.text) view.feed(stream.text);
    }
    return view;
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
