// The dialogue of one app shown by <mcp-app-frame> (app-frame.js imports this file when it shows
// its first app). It renders a tool's `ui://` resource the way the MCP Apps specification's web
// hosts do: a proxy page on another origin (mcp-app-sandbox.html, served as a static file) inside
// the element's shadow root, the app inside the proxy's sandboxed srcdoc iframe under a CSP built
// from the resource's `_meta.ui.csp`. It speaks the host side of the JSON-RPC dialogue over
// postMessage and the proxy's MessageChannel: ui/initialize, the tool notifications, the app's
// requests proxied to the app's own server (tools/call only for tools whose visibility includes
// "app"), the app's wishes (message, open-link, model context, display mode) as cancelable DOM
// events on the element, sizing, logging and teardown; the tool's input streamed as partial
// arguments, the app's downloads (app-download.js, imported when first asked), its sampling requests
// (the client's samplingCallback) and the tools it registers (listed and called by the host). Every
// window message is checked for its source window and origin.
import { allowAttribute, grantCsp, grantPermissions, readAppResource, toolResourceUri, visibleTo } from './app-resource.js';
import { MAX_PARTIAL_JSON, parsePartialJson } from './partial-json.js';
import { appResource, appTarget, sandboxUrl } from './app-target.js';

export { readAppResource, toolResourceUri, visibleTo };
export { appResource, appTarget, callAppTool, sandboxUrl } from './app-target.js';

/**
 * <mcp-app-frame>'s mount (app-frame.js: `frame`, its state `s`, its error maker `mkErr`): the
 * tool's app in a new view (tearing down the previous one; `stream`: show()'s partial input), or
 * `args` given to its shown view whose input streams. Resolves with the view.
 */
export async function mount(frame, s, tool, args, signal, stream, mkErr) {
  const proxy = sandboxUrl(s.sandbox, mkErr);
  const target = await appTarget(s.client, tool, signal, mkErr);
  if (args !== undefined) {
    await s.streaming?.catch(() => {});
    const shown = s.view;
    if (shown && !shown.inputSent && shown.client === target.client && shown.toolName === target.toolName) {
      shown.input(args);
      return shown;
    }
  }
  const { uri, resource } = await appResource(target, signal, mkErr);
  await frame.teardown({ reason: 'replaced by another tool call' });
  const view = new ViewSession(frame, { ...target, uri, resource, sandboxUrl: proxy, args });
  s.view = view;
  view.mount();
  if (stream && s.stream === stream) {
    s.stream = undefined; // from now on partial input goes to the view itself
    if (stream.partial) view.partial(stream.partial);
    if (stream.text) view.feed(stream.text);
  }
  return view;
}

const APPS_VERSION = '2026-01-26';
const TEARDOWN_WAIT_MS = 3000;
/** How long the host waits for the app's answer to its tools/list, and by default to its tools/call. */
const APP_TOOLS_WAIT_MS = 10_000;
const APP_CALL_WAIT_MS = 60_000;
const PARTIAL = 'ui/notifications/tool-input-partial';
const DISPLAY_MODES = ['inline', 'fullscreen', 'pip'];
const CONTENT_KINDS = { text: {}, image: {}, audio: {}, resource: {}, resourceLink: {}, structuredContent: {} };
const PROXIED = ['resources/read', 'resources/list', 'resources/templates/list', 'prompts/list'];
/** Resolves after `ms`. */
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The app frame's sandbox flags: scripts and forms, never allow-same-origin. */
const INNER_SANDBOX = 'allow-scripts allow-forms';
/** The proxy frame's flags, as the specification gives them (its own origin is the isolation). */
const OUTER_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

/** Whether two JSON-like values are equal. */
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A JSON-RPC message's shape: a request, a notification, a response or undefined (malformed). */
function classify(msg) {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg) || msg.jsonrpc !== '2.0') return undefined;
  const idOk = typeof msg.id === 'string' || (typeof msg.id === 'number' && Number.isFinite(msg.id));
  const paramsOk = msg.params === undefined || (msg.params !== null && typeof msg.params === 'object');
  if (typeof msg.method === 'string') {
    if (!paramsOk) return undefined;
    if ('id' in msg) return idOk ? 'request' : undefined;
    return 'notification';
  }
  if (idOk && ('result' in msg || (msg.error && typeof msg.error === 'object'))) return 'response';
  return undefined;
}

/** Dispatches a bubbling, composed event on the element; true unless a listener called preventDefault(). */
function fire(target, type, detail, cancelable = true) {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
}

/** Reflects a shown view's display mode as the `display-mode` attribute (absent for inline). */
function reflectMode(frame, mode) {
  if (mode && mode !== 'inline' && DISPLAY_MODES.includes(mode)) frame.setAttribute('display-mode', mode);
  else frame.removeAttribute('display-mode');
}

/** A JSON-RPC error thrown by a handler, answered to the app as `{ code, message }`. */
class RpcError extends Error {
  /** Builds the error the app will receive. */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * One mounted view: the proxy iframe, the handshake, the held notifications, the app's requests.
 * Internal to AppFrame (one per shown tool); it never throws into the page.
 */
export class ViewSession {
  /** Builds the session for `frame` and a target `{ client, server, toolName, tool, uri, resource, sandboxUrl, args }`. */
  constructor(frame, target) {
    Object.assign(this, target);
    this.frame = frame;
    this.origin = target.sandboxUrl.origin;
    this.held = [];
    this.pending = new Map();
    this.nextId = 1;
    this.state = 'loading'; // loading → resource-sent → answered → initialized → closed
    this.viewContext = undefined;
    this.appCapabilities = {};
    const csp = grantCsp(this.resource.ui.csp);
    if (csp.refused.length) console.warn(`mcp-app-frame: ${this.uri}: CSP domains refused: ${csp.refused.join(', ')}`);
    this.csp = csp.granted;
    this.declared = Boolean(this.resource.ui.csp); // absent: the proxy applies the specification's default
    this.permissions = grantPermissions(this.resource.ui.permissions);
    this.onMessage = (e) => this.receive(e);
    this.started = new Promise((resolve) => (this.markStarted = resolve)); // true once initialized, false if closed first
    this.size = { pending: undefined, frame: 0 };
    this.inputSent = false; // tool-input sent (or held): partial arguments are dropped from then on
    this.partialSent = undefined; // the last partial arguments feed() sent
    this.appTools = []; // the tools the app registered (tools/list), as frame.appTools shows them
    this.running = new Map(); // the app's requests the host works on (sampling, download): id -> AbortController
  }

  /** The tool as the app's hostContext.toolInfo and frame.tool show it. */
  get toolInfo() { return { tool: this.tool }; }

  /** Creates the proxy iframe in the frame's shadow root and starts listening. */
  mount() {
    const iframe = document.createElement('iframe');
    const src = new URL(this.sandboxUrl);
    src.searchParams.set('host', location.origin);
    iframe.setAttribute('sandbox', OUTER_SANDBOX);
    const allow = allowAttribute(this.permissions);
    if (allow) iframe.setAttribute('allow', allow);
    iframe.setAttribute('part', 'iframe');
    iframe.setAttribute('title', this.tool.title ?? this.tool.annotations?.title ?? `MCP App: ${this.toolName}`);
    iframe.src = src.href;
    this.iframe = iframe;
    this.frame.toggleAttribute('bordered', this.resource.ui.prefersBorder === true);
    reflectMode(this.frame, this.frame.hostContext.displayMode);
    window.addEventListener('message', this.onMessage);
    this.frame.shadowRoot.replaceChildren(iframe);
    if (this.args !== undefined) this.input(this.args);
  }

  /** Sends the tool's complete arguments (ui/notifications/tool-input), once; partial arguments stop here. */
  input(args) {
    if (this.inputSent) return;
    this.inputSent = true;
    this.notify('ui/notifications/tool-input', { arguments: args ?? {} });
  }

  /**
   * Sends partial arguments (ui/notifications/tool-input-partial) while the input is still to
   * come: in order, before tool-input; held ones coalesce to the latest. False once the input was
   * sent (or the view closed): dropped.
   */
  partial(args) {
    if (this.inputSent || this.state === 'closed') return false;
    const msg = { jsonrpc: '2.0', method: PARTIAL, params: { arguments: args } };
    if (this.state === 'initialized') this.post(msg);
    else if (this.held.at(-1)?.method === PARTIAL) this.held[this.held.length - 1] = msg;
    else this.held.push(msg);
    return true;
  }

  /** A text delta of the arguments' streamed JSON: the text so far, read as partial arguments, is sent when they changed. */
  feed(delta) {
    if (this.inputSent || this.state === 'closed') return false;
    const text = (this.text ?? '') + delta;
    if (text.length > MAX_PARTIAL_JSON) return false; // over the size read: the last reading stands
    this.text = text;
    const args = parsePartialJson(text);
    if (args === undefined || same(args, this.partialSent)) return true;
    this.partialSent = args;
    return this.partial(args);
  }

  /** Posts one message to the proxy: on the channel once the proxy took it, else to its window with the sandbox's exact origin. */
  post(msg) {
    if (this.port) this.port.postMessage(msg);
    else this.iframe?.contentWindow?.postMessage(msg, this.origin);
  }

  /** Sends a notification to the view, held until it has sent `ui/notifications/initialized`. */
  notify(method, params) {
    if (this.state === 'closed') return;
    const msg = { jsonrpc: '2.0', method, params };
    if (this.state === 'initialized') this.post(msg);
    else this.held.push(msg);
  }

  /**
   * Sends the view a request; resolves with its result, rejects with its error (`code`, `data`),
   * after `ms` (`kind` "timeout") or once `signal` aborts (`kind` "aborted": the view is sent
   * notifications/cancelled).
   */
  request(method, params, ms, signal) {
    const id = `host-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const error = (kind, message) => Object.assign(new Error(`${method}: ${message}`), { kind });
      const reason = () => `aborted: ${signal.reason?.message ?? signal.reason ?? 'aborted'}`;
      if (signal?.aborted) return reject(error('aborted', reason()));
      let timer = 0;
      const aborted = () => {
        this.pending.delete(id);
        clearTimeout(timer);
        this.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the host aborted it' } });
        reject(error('aborted', reason()));
      };
      const done = (settle) => (v) => { signal?.removeEventListener('abort', aborted); settle(v); };
      timer = setTimeout(() => { this.pending.delete(id); done(reject)(error('timeout', `no reply within ${ms} ms`)); }, ms);
      signal?.addEventListener('abort', aborted, { once: true });
      this.pending.set(id, { resolve: done(resolve), reject: done(reject), timer });
      this.post({ jsonrpc: '2.0', id, method, params });
    });
  }

  /**
   * One message event: dropped unless it comes from the proxy window with the sandbox's origin,
   * or on the channel given to the proxy with the resource (engines whose sandboxed-frame proxy
   * reports a wrong event.source still reach this view, and only this one).
   */
  receive(event) {
    if (!this.iframe) return;
    const fromChannel = this.port !== undefined && event.target === this.port;
    if (!fromChannel && (event.source !== this.iframe.contentWindow || event.origin !== this.origin)) return;
    const msg = event.data;
    const kind = classify(msg);
    if (!kind) {
      console.warn('mcp-app-frame: dropped a malformed message from the app', msg);
      return;
    }
    if (kind === 'response') this.settle(msg);
    else if (kind === 'notification') this.onNotification(msg.method, msg.params ?? {});
    else this.answer(msg);
  }

  /** Settles one of the host's own requests with the view's response. */
  settle(msg) {
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id);
    clearTimeout(waiter.timer);
    if (msg.error) waiter.reject(Object.assign(new Error(String(msg.error.message)), { code: msg.error.code, data: msg.error.data }));
    else waiter.resolve(msg.result);
  }

  /** The view's notifications: proxy ready, initialized, size, logging, teardown wish. */
  onNotification(method, params) {
    switch (method) {
      case 'ui/notifications/sandbox-proxy-ready': return this.sendResource();
      case 'ui/notifications/initialized': return this.initialized();
      case 'ui/notifications/size-changed': return this.resize(params);
      case 'notifications/message': return this.log(params);
      case 'ui/notifications/request-teardown':
        if (fire(this.frame, 'mcp-app-request-teardown', {})) this.frame.teardown({ reason: 'the app asked to close' });
        return undefined;
      case 'notifications/tools/list_changed': return this.listAppTools();
      case 'notifications/cancelled': return this.running.get(params.requestId)?.abort(params.reason ?? 'the app cancelled');
      default: return undefined; // unknown notifications are ignored, as JSON-RPC allows
    }
  }

  /** Answers the proxy's readiness with the HTML, the sandbox flags, the granted CSP and permissions (once). */
  sendResource() {
    if (this.state !== 'loading') return;
    this.state = 'resource-sent';
    const msg = {
      jsonrpc: '2.0',
      method: 'ui/notifications/sandbox-resource-ready',
      params: { html: this.resource.html, sandbox: INNER_SANDBOX, csp: this.declared ? this.csp : undefined, permissions: this.permissions },
    };
    // The view's channel goes with it; mcp-app-sandbox.html relays over it from then on (a proxy
    // that ignores it keeps using window messages, checked by source and origin).
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = this.onMessage;
    this.iframe?.contentWindow?.postMessage(msg, this.origin, [channel.port2]);
  }

  /** The view is initialized: the held notifications go out in order. */
  initialized() {
    if (this.state !== 'answered') return;
    this.state = 'initialized';
    this.markStarted(true);
    for (const msg of this.held.splice(0)) this.post(msg);
    if (this.appCapabilities.tools) this.listAppTools();
  }

  /** Answers a request from the view: the result or a JSON-RPC error, never a throw into the page. */
  async answer(msg) {
    let reply;
    try {
      reply = { jsonrpc: '2.0', id: msg.id, result: (await this.handle(msg.method, msg.params ?? {}, msg.id)) ?? {} };
    } catch (e) {
      const code = Number.isInteger(e?.code) ? e.code : -32603;
      reply = { jsonrpc: '2.0', id: msg.id, error: { code, message: String(e?.message ?? e) } };
    }
    if (this.state !== 'closed') this.post(reply);
  }

  /** Routes one of the view's requests (`id`: its JSON-RPC id, which a notifications/cancelled names). */
  handle(method, params, id) {
    switch (method) {
      case 'ui/initialize': return this.initialize(params);
      case 'ping': return {};
      case 'tools/call': return this.callTool(params);
      case 'tools/list': return this.listTools(params);
      case 'ui/message': return this.message(params);
      case 'ui/open-link': return this.openLink(params);
      case 'ui/update-model-context': return this.updateContext(params);
      case 'ui/request-display-mode': return this.displayMode(params);
      case 'ui/download-file': return this.cancellable(id, (signal) => this.download(params, signal));
      case 'sampling/createMessage': return this.cancellable(id, (signal) => this.sample(params, id, signal));
      default:
        if (PROXIED.includes(method)) return this.client.request(method, params);
        throw new RpcError(-32601, `Method not found: ${method}`);
    }
  }

  /** The `ui/initialize` result: version, host info, what the host grants, the host context with toolInfo. */
  initialize(params) {
    if (this.state === 'closed') throw new RpcError(-32603, 'the view was torn down');
    this.appCapabilities = params.appCapabilities && typeof params.appCapabilities === 'object' ? params.appCapabilities : {};
    this.viewContext = { ...this.frame.hostContext, toolInfo: this.toolInfo };
    if (this.state !== 'initialized') this.state = 'answered';
    return {
      protocolVersion: APPS_VERSION,
      hostInfo: this.frame.hostInfo,
      hostCapabilities: {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        downloadFile: {},
        ...(typeof this.client.samplingCallback === 'function' ? { sampling: {} } : {}),
        sandbox: { csp: this.csp, permissions: this.permissions },
        message: CONTENT_KINDS,
        updateModelContext: CONTENT_KINDS,
      },
      hostContext: this.viewContext,
    };
  }

  /** The frame's hostContext changed: the display-mode attribute follows it; the view gets only the fields that differ from what it knows. */
  contextChanged() {
    reflectMode(this.frame, this.frame.hostContext.displayMode);
    if (!this.viewContext) return; // not answered yet: ui/initialize will carry the current context
    const next = { ...this.frame.hostContext, toolInfo: this.toolInfo };
    const changed = {};
    for (const [k, v] of Object.entries(next)) if (!same(v, this.viewContext[k])) changed[k] = v;
    this.viewContext = next;
    if (Object.keys(changed).length) this.notify('ui/notifications/host-context-changed', changed);
  }

  /** The app's tools/call, proxied to its own server only for a tool whose visibility includes "app". */
  async callTool(params) {
    const name = params.name;
    if (typeof name !== 'string') throw new RpcError(-32602, 'tools/call: params.name must be a string');
    const tools = await this.serverTools();
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new RpcError(-32602, `tools/call: no tool ${JSON.stringify(name)} on this app's server`);
    if (!visibleTo(tool, 'app')) throw new RpcError(-32602, `tools/call: tool ${JSON.stringify(name)} is not visible to apps (_meta.ui.visibility lacks "app")`);
    return this.client.callTool(name, params.arguments ?? {});
  }

  /** The app's tools/list: its server's tools an app may call. */
  async listTools() {
    return { tools: (await this.serverTools()).filter((t) => visibleTo(t, 'app')) };
  }

  /** Every tool of the app's own server (fresh, so visibility is as the server lists it now). */
  async serverTools() {
    const { tools } = await this.client.listTools({ all: true });
    return Array.isArray(tools) ? tools : [];
  }

  /** `ui/message` as the `mcp-app-message` event (content always an array); refused → `{ isError: true }`. */
  message(params) {
    const content = Array.isArray(params.content) ? params.content : params.content ? [params.content] : [];
    const detail = { ...params, role: params.role ?? 'user', content };
    return fire(this.frame, 'mcp-app-message', detail) ? {} : { isError: true };
  }

  /** `ui/open-link` as `mcp-app-open-link`; unrefused http(s) links open with noopener. */
  openLink(params) {
    let url;
    try { url = new URL(String(params.url)); } catch { throw new RpcError(-32602, `ui/open-link: ${JSON.stringify(params.url)} is not a URL`); }
    if (!fire(this.frame, 'mcp-app-open-link', { url: url.href })) return { isError: true };
    if (!/^https?:$/.test(url.protocol)) return { isError: true };
    window.open(url.href, '_blank', 'noopener,noreferrer');
    return {};
  }

  /** `ui/update-model-context` as `mcp-app-context`; kept as frame.modelContext unless refused (then -32000). */
  updateContext(params) {
    if (!fire(this.frame, 'mcp-app-context', params)) throw new RpcError(-32000, 'ui/update-model-context: the host refused the update');
    this.frame.modelContext = params;
    return {};
  }

  /** `ui/request-display-mode` as `mcp-app-display-mode`; answers the mode in effect. */
  displayMode(params) {
    const current = this.frame.hostContext.displayMode ?? 'inline';
    const mode = params.mode;
    if (!DISPLAY_MODES.includes(mode)) throw new RpcError(-32602, `ui/request-display-mode: unknown mode ${JSON.stringify(mode)}`);
    const offered = this.appCapabilities.availableDisplayModes;
    if (Array.isArray(offered) && !offered.includes(mode)) return { mode: current };
    if (mode === current || !fire(this.frame, 'mcp-app-display-mode', { mode, current })) return { mode: current };
    this.frame.hostContext = { ...this.frame.hostContext, displayMode: mode }; // reflected as the display-mode attribute
    return { mode };
  }

  /** Runs `work(signal)` for the app's request `id`; a notifications/cancelled naming it, or teardown, aborts the signal. */
  async cancellable(id, work) {
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      return await work(controller.signal);
    } finally {
      this.running.delete(id);
    }
  }

  /**
   * `ui/download-file`: the files checked within frame.downloadLimits (app-download.js), then the
   * `mcp-app-download` event; unrefused, the frame offers them and each is saved when the person
   * clicks it. `{}` once one was saved; `{ isError: true }` when refused or closed unsaved.
   */
  async download(params, signal) {
    const { prepareDownload, offerDownload } = await import('./app-download.js');
    const files = await prepareDownload(params, this.frame.downloadLimits, signal);
    if (this.state === 'closed' || !fire(this.frame, 'mcp-app-download', { files, tool: this.toolName, server: this.server })) return { isError: true };
    return (await offerDownload(this.frame, files, signal)) ? {} : { isError: true };
  }

  /**
   * The app's `sampling/createMessage`, after the `mcp-app-sampling` event: answered by the
   * client's samplingCallback with `{ app: { tool, server }, requestId, meta, signal }` as its
   * context (in a ClientGroup, `server` too, from the group); refused with an error when the
   * client has none, the page refuses, or the app asks for tools.
   */
  async sample(params, id, signal) {
    const callback = this.client.samplingCallback;
    const app = { tool: this.toolName, server: this.server };
    if (typeof callback !== 'function') throw new RpcError(-32601, 'sampling/createMessage: the host\'s client has no samplingCallback (the host does not declare sampling)');
    if (!Array.isArray(params.messages)) throw new RpcError(-32602, 'sampling/createMessage: params.messages must be an array');
    if (params.tools !== undefined) throw new RpcError(-32602, 'sampling/createMessage: tools in an app\'s sampling request are not supported (the host does not declare sampling.tools)');
    if (!fire(this.frame, 'mcp-app-sampling', { ...params, app })) throw new RpcError(-32000, 'sampling/createMessage: the host refused the request');
    let result;
    try {
      result = await callback({ app, requestId: id, meta: params._meta ?? null, signal }, params);
    } catch (e) {
      throw new RpcError(Number.isInteger(e?.code) ? e.code : -32603, `sampling/createMessage: ${e?.message ?? e}`);
    }
    if (!result || typeof result !== 'object') throw new RpcError(-32603, 'sampling/createMessage: the samplingCallback returned no result object');
    return result;
  }

  /** Asks the app for its tools (tools/list); frame.appTools and the `mcp-app-tools` event follow a change. */
  async listAppTools() {
    let tools;
    try {
      const result = await this.request('tools/list', {}, APP_TOOLS_WAIT_MS);
      tools = Array.isArray(result?.tools) ? result.tools.filter((t) => t && typeof t === 'object' && typeof t.name === 'string') : [];
    } catch (e) {
      if (this.state !== 'closed') console.warn(`mcp-app-frame: ${this.uri}: the app's tools/list failed: ${e.message}`);
      return;
    }
    if (this.state === 'closed' || same(tools, this.appTools)) return;
    this.appTools = tools;
    fire(this.frame, 'mcp-app-tools', { tools, tool: this.toolName, server: this.server }, false);
  }

  /** Calls a tool the app registered (tools/call to the view); `options`: `{ signal, timeoutMs }`. */
  callAppTool(name, args, options) {
    const ms = Number.isFinite(options?.timeoutMs) && options.timeoutMs > 0 ? options.timeoutMs : APP_CALL_WAIT_MS;
    return this.request('tools/call', { name, arguments: args }, ms, options?.signal);
  }

  /** `ui/notifications/size-changed`: the latest size is applied once per animation frame. */
  resize(params) {
    const ok = (v) => v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
    if (!ok(params.width) || !ok(params.height)) return;
    this.size.pending = { ...this.size.pending, ...params };
    if (this.size.frame) return;
    this.size.frame = requestAnimationFrame(() => {
      const { width, height } = this.size.pending;
      this.size = { pending: undefined, frame: 0 };
      if (this.state === 'closed') return;
      // Height as asked; width as a floor up to the container's width (as the official host does),
      // so the element still follows its container instead of being locked to a pixel width.
      if (height !== undefined) this.frame.style.height = `${Math.ceil(height)}px`;
      if (width !== undefined) this.frame.style.minWidth = `min(${Math.ceil(width)}px, 100%)`;
      fire(this.frame, 'mcp-app-size', { width, height }, false);
    });
  }

  /**
   * The app's `notifications/message`: frame.loggingCallback when set, else the client's own
   * loggingCallback option (in a ClientGroup, the group's, told which server), then the
   * `mcp-app-log` event.
   */
  log(params) {
    const source = { server: this.server, tool: this.toolName };
    try {
      if (this.frame.loggingCallback) this.frame.loggingCallback(params, { ...source, frame: this.frame });
      else Promise.resolve(this.client.loggingCallback?.(params)).catch((e) => console.warn('mcp-app-frame: loggingCallback failed', e));
    } catch (e) {
      console.warn('mcp-app-frame: loggingCallback threw', e);
    }
    fire(this.frame, 'mcp-app-log', { ...params, ...source }, false);
  }

  /**
   * Sends `ui/resource-teardown` and waits for the view's answer, then removes the iframes. A view
   * still starting is first given the time to initialize: both waits are bounded (3 s each), so a
   * view that never answers is removed anyway, with a console warning.
   */
  async teardown(reason) {
    if (this.state === 'closed') return;
    // What is held (the input, the result) goes out first, when the view initializes: it is told
    // what it showed before it is asked to clean up, as the official AppBridge does.
    if (this.state !== 'initialized') {
      const started = await Promise.race([this.started, delay(TEARDOWN_WAIT_MS).then(() => false)]);
      if (!started) console.warn(`mcp-app-frame: ${this.uri}: the view did not initialize within ${TEARDOWN_WAIT_MS} ms; removing it without ui/resource-teardown`);
    }
    if (this.state === 'initialized') {
      try {
        await this.request('ui/resource-teardown', { reason }, TEARDOWN_WAIT_MS);
      } catch (e) {
        console.warn(`mcp-app-frame: ${this.uri}: ui/resource-teardown: ${e.message}; removing the view anyway`);
      }
    }
    this.dispose();
  }

  /** Stops listening, fails the host's pending requests, removes the iframe. */
  dispose() {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.markStarted(false);
    window.removeEventListener('message', this.onMessage);
    this.port?.close();
    this.port = undefined;
    if (this.size.frame) cancelAnimationFrame(this.size.frame);
    for (const [, w] of this.pending) { clearTimeout(w.timer); w.reject(new Error('the view was torn down')); }
    this.pending.clear();
    for (const [, c] of this.running) c.abort('the view was torn down');
    this.running.clear();
    this.iframe?.remove();
    this.iframe = undefined;
    this.frame.removeAttribute('display-mode');
  }
}
