// Spans for a Client given a `tracer` (an @opentelemetry/api Tracer, or anything with its
// startSpan shape). Loaded by client.js only when a client has a tracer. One span per call, named
// and attributed by the OpenTelemetry MCP semantic conventions ("{mcp.method.name} {target}",
// kind CLIENT, mcp.method.name, mcp.session.id, mcp.protocol.version, gen_ai.tool.name,
// rpc.jsonrpc.error_code); its W3C trace context goes in the request's params._meta
// (traceparent, tracestate: SEP-414), the caller's own _meta keys winning. The steps inside a
// request the core reports as `trace` events (a retry, an input_required round, authorization, a
// stream reconnect) become child spans of the request's span, found by that traceparent.

// @opentelemetry/api's context key of the active span (createContextKey uses Symbol.for).
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");
const KIND_INTERNAL = 0;
const KIND_CLIENT = 2;
const STATUS_ERROR = 2;

// Client method -> [MCP method (or a function of the arguments), index of its options argument,
// attributes of its target (a function of the arguments), the target's name in the span name].
const text = (v) => (v instanceof URL ? v.href : String(v));
const METHODS = {
  listTools: ["tools/list", 0],
  listPrompts: ["prompts/list", 0],
  listResources: ["resources/list", 0],
  listResourceTemplates: ["resources/templates/list", 0],
  callTool: ["tools/call", 2, (a) => ({ "gen_ai.tool.name": text(a[0]), "gen_ai.operation.name": "execute_tool" }), (a) => text(a[0])],
  getPrompt: ["prompts/get", 2, (a) => ({ "gen_ai.prompt.name": text(a[0]) }), (a) => text(a[0])],
  readResource: ["resources/read", 1, (a) => ({ "mcp.resource.uri": text(a[0]) }), (a) => text(a[0])],
  subscribeResource: ["resources/subscribe", 1, (a) => ({ "mcp.resource.uri": text(a[0]) }), (a) => text(a[0])],
  unsubscribeResource: ["resources/unsubscribe", 1, (a) => ({ "mcp.resource.uri": text(a[0]) }), (a) => text(a[0])],
  complete: ["completion/complete", 3],
  ping: ["ping", 0],
  setLoggingLevel: ["logging/setLevel", 1],
  listen: ["subscriptions/listen", 1],
  request: [(a) => text(a[0]), 2],
  connect: ["connect", 0],
};

// A Context holding `span` as the active one, for tracer.startSpan's third argument: the
// caller's context when one was captured, else a minimal one of @opentelemetry/api's shape.
class SpanContext {
  #values;
  constructor(values = new Map()) {
    this.#values = values;
  }
  getValue(key) {
    return this.#values.get(key);
  }
  setValue(key, value) {
    return new SpanContext(new Map(this.#values).set(key, value));
  }
  deleteValue(key) {
    const values = new Map(this.#values);
    values.delete(key);
    return new SpanContext(values);
  }
}
function withSpan(context, span) {
  return typeof context?.setValue === "function" ? context.setValue(SPAN_KEY, span) : new SpanContext().setValue(SPAN_KEY, span);
}

/** The W3C `traceparent` and `tracestate` of `span`, or undefined for a span without a valid context. */
export function traceContext(span) {
  const sc = span?.spanContext?.();
  if (!sc || !/^[0-9a-f]{32}$/.test(sc.traceId) || !/^[0-9a-f]{16}$/.test(sc.spanId)) return undefined;
  if (/^0+$/.test(sc.traceId) || /^0+$/.test(sc.spanId)) return undefined;
  const flags = (Number(sc.traceFlags) & 0xff).toString(16).padStart(2, "0");
  const out = { traceparent: `00-${sc.traceId}-${sc.spanId}-${flags}` };
  const state = sc.traceState?.serialize?.();
  if (state) out.tracestate = state;
  return out;
}

// Sets what the client knows now about its session.
function sessionAttributes(span, client) {
  try {
    const session = client.sessionId;
    const version = client.protocolVersion;
    if (session) span.setAttribute("mcp.session.id", session);
    if (version) span.setAttribute("mcp.protocol.version", version);
  } catch {} // a closed or poisoned client: nothing more to say
}

// Marks `span` failed: error.type is `type`, else the McpError's data.kind, its code or its name;
// an exception is recorded only for a thrown error (not for a tool's isError result).
function failed(span, error, type) {
  const code = error?.code;
  if (typeof code === "number") span.setAttribute("rpc.jsonrpc.error_code", code);
  span.setAttribute("error.type", type ?? error?.data?.kind ?? (typeof code === "number" ? String(code) : error?.name ?? "Error"));
  if (!type) {
    try {
      span.recordException?.(error);
    } catch {}
  }
  span.setStatus?.({ code: STATUS_ERROR, message: String(error?.message ?? error) });
}

/** One client's tracing: `call` wraps a method call in its span, `step` turns a `trace` event into a child span. */
export class Tracing {
  #tracer;
  #client;
  #requests = new Map(); // traceparent -> { span, context, open: Map(step key -> [child spans]) }

  constructor(tracer, client) {
    this.#tracer = tracer;
    this.#client = client;
  }

  /**
   * Runs `run(args)` (the core's method) inside a span for Client method `name`; `context` is
   * the caller's active context captured when the call was made (undefined: the tracer's own).
   */
  call(name, args, context, run) {
    const shape = METHODS[name];
    if (!shape) return run(args);
    const [method, at, attributes, target] = shape;
    const mcpMethod = typeof method === "function" ? method(args) : method;
    const spanName = target ? `${mcpMethod} ${target(args)}` : mcpMethod;
    const attrs = { "mcp.method.name": mcpMethod, ...(attributes ? attributes(args) : {}) };
    const span = this.#tracer.startSpan(spanName, { kind: KIND_CLIENT, attributes: attrs }, context);
    sessionAttributes(span, this.#client);
    const trace = traceContext(span);
    // connect()'s handshake carries the traceparent too; a step the core reports without one
    // while it runs belongs to it
    const connecting = name === "connect" ? { span, context: withSpan(context, span), open: new Map() } : undefined;
    if (connecting) this.#connecting = connecting;
    if (trace && at >= 0) {
      const given = args[at];
      const options = given && typeof given === "object" ? given : {};
      args = [...args];
      while (args.length < at) args.push(undefined);
      args[at] = { ...options, _meta: { ...trace, ...(options._meta ?? {}) } };
      this.#requests.set(trace.traceparent, connecting ?? { span, context: withSpan(context, span), open: new Map() });
    }
    const done = () => {
      if (connecting && this.#connecting === connecting) this.#connecting = undefined;
      const request = connecting ?? (trace && this.#requests.get(trace.traceparent));
      if (!request) return;
      if (trace) this.#requests.delete(trace.traceparent);
      for (const children of request.open.values()) for (const child of children) child.end();
    };
    let out;
    try {
      out = run(args);
    } catch (error) {
      failed(span, error);
      span.end();
      done();
      throw error;
    }
    return Promise.resolve(out).then(
      (value) => {
        if (connecting) {
          const handshake = this.#client.era === "legacy" ? "initialize" : "server/discover";
          span.updateName?.(handshake);
          span.setAttribute("mcp.method.name", handshake);
        }
        // a tool's own failure (isError), as the MCP conventions name it
        if (name === "callTool" && value?.isError === true) failed(span, { name: "tool_error", message: "the tool answered isError" }, "tool_error");
        sessionAttributes(span, this.#client);
        span.end();
        done();
        return value;
      },
      (error) => {
        failed(span, error);
        sessionAttributes(span, this.#client);
        span.end();
        done();
        throw error;
      },
    );
  }

  /** A `trace` event of the core: `{ type, phase, method, traceparent?, reason?, round?, attempt?, errorCode?, error? }`. */
  step(event) {
    if (!event || typeof event !== "object") return;
    const request = event.traceparent ? this.#requests.get(event.traceparent) : this.#connecting;
    const key = `${event.type}:${event.reason ?? event.round ?? ""}`;
    const open = request?.open ?? (this.#background ??= new Map());
    if (event.phase === "start") {
      const name = [event.type, event.reason ?? (event.round !== undefined ? `round ${event.round}` : "")].filter(Boolean).join(" ");
      // an MCP method, or what the transport called the request (a handshake: "connect (…)")
      const attributes = /^[\w/.-]+$/.test(event.method ?? "") ? { "mcp.method.name": event.method } : {};
      if (event.round !== undefined) attributes["mcp.input_required.round"] = event.round;
      if (event.attempt !== undefined) attributes["mcp.reconnect.attempt"] = event.attempt;
      if (event.reason !== undefined) attributes["mcp.retry.reason"] = event.reason;
      const child = this.#tracer.startSpan(name, { kind: KIND_INTERNAL, attributes }, request?.context);
      if (!open.has(key)) open.set(key, []);
      open.get(key).push(child);
      return;
    }
    const child = open.get(key)?.shift();
    if (!child) return;
    if (event.errorCode !== undefined) failed(child, { code: event.errorCode, message: event.error });
    child.end();
  }

  #background; // steps of requests no call made (a refetch, the GET stream)
  #connecting; // the connect() under way: { span, context, open }
}
