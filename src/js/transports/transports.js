// The transports this package ships, built the way the TypeScript SDK builds its own: objects
// with start(), send(message), close() (each returns a promise) and the onmessage, onclose,
// onerror properties their user sets, so they work with this client and with the TS SDK alike.
// The Rust exports in transports.rs check the arguments; the client's side of any such object
// is js_transport.rs.

// error.code of a message a transport refused (js_transport.rs reports it as data.kind "dropped").
const DROPPED = "MCP_MESSAGE_DROPPED";

function failure(name, message) {
  const e = new Error(message);
  e.name = name;
  return e;
}

function dropped(message, origin, reason) {
  const e = failure("DroppedMessage", message);
  e.code = DROPPED;
  e.origin = origin;
  e.reason = reason;
  return e;
}

const copy = (message) =>
  typeof structuredClone === "function" ? structuredClone(message) : JSON.parse(JSON.stringify(message));

// The object both transports below return: start() runs `open` once, send() `post`s, close()
// runs `shut` (if any); `finish` (also called when the other end goes away) runs `stop` if started
// and reports onclose once.
function endpoint(label, closedText, { open, post, shut, stop }) {
  let started = false;
  let closed = false;
  const t = {
    onmessage: undefined,
    onclose: undefined,
    onerror: undefined,
    async start() {
      if (started) return;
      if (closed) throw failure("TransportClosed", `${label}: start() after close()`);
      started = true;
      open();
    },
    async send(message) {
      if (closed) throw failure("TransportClosed", `${label}: ${closedText}`);
      post(message);
    },
    async close() {
      if (closed) return;
      shut?.();
      finish();
    },
  };
  function finish() {
    if (closed) return;
    closed = true;
    if (started) stop();
    t.onclose?.();
  }
  return [t, finish];
}

// A MessagePort, BroadcastChannel or Worker (browser or node:worker_threads). close() closes a port
// or channel, never a Worker: ending a worker is the application's choice.
export function portTransport(port) {
  const isWorker = typeof port.terminate === "function";
  // Browsers and Node's MessagePort are EventTargets; Node's Worker is an EventEmitter.
  const eventTarget = typeof port.addEventListener === "function";
  const [t, finish] = endpoint("messagePortTransport", "the port is closed", {
    open() {
      listen(true);
      if (typeof port.start === "function") port.start();
    },
    post: (message) => port.postMessage(message),
    shut() {
      if (!isWorker && typeof port.close === "function") port.close();
    },
    stop: () => listen(false),
  });
  const onMessage = eventTarget ? (event) => t.onmessage?.(event.data) : (data) => t.onmessage?.(data);
  const onMessageError = () =>
    t.onerror?.(failure("DataCloneError", "messagePortTransport: a message could not be deserialized (messageerror)"));
  const onError = (event) =>
    t.onerror?.(event instanceof Error ? event : (event?.error ?? failure("WorkerError", event?.message ?? "worker error")));
  const events = { message: onMessage, messageerror: onMessageError, error: onError, close: finish, exit: finish };
  function listen(on) {
    for (const [name, handler] of Object.entries(events)) {
      if (eventTarget) {
        if (name === "exit") continue;
        if (on) port.addEventListener(name, handler);
        else port.removeEventListener(name, handler);
      } else if (on) port.on(name, handler);
      else port.off(name, handler);
    }
  }
  return t;
}

// The other window (an iframe's contentWindow, an opener, a popup): every message must come from
// `target` and `targetOrigin` (an origin, never "*": checked in transports.rs); others are dropped
// and reported through onerror.
export function windowTransport(target, targetOrigin) {
  const here = globalThis;
  const [t] = endpoint("windowTransport", "the transport is closed", {
    open: () => here.addEventListener("message", onMessage),
    post: (message) => target.postMessage(message, targetOrigin),
    stop: () => here.removeEventListener("message", onMessage),
  });
  function onMessage(event) {
    const origin = typeof event.origin === "string" ? event.origin : "";
    if (origin !== targetOrigin) {
      t.onerror?.(
        dropped(`windowTransport dropped a message from origin ${JSON.stringify(origin)}: only ${targetOrigin} is accepted`, origin, "origin"),
      );
    } else if (event.source !== target) {
      t.onerror?.(
        dropped(`windowTransport dropped a message from ${origin}: it came from another window than the target`, origin, "source"),
      );
    } else {
      t.onmessage?.(event.data);
    }
  }
  return t;
}

// Two linked transports: what one sends, the other receives (a copy, asynchronously); closing
// either closes both. Messages sent before the other side started wait for its start().
export function memoryPair() {
  const a = memorySide();
  const b = memorySide();
  a.peer = b;
  b.peer = a;
  return [a.transport, b.transport];
}

function memorySide() {
  const side = { started: false, closed: false, queue: [], peer: null, transport: null };
  const deliver = (message) => {
    if (!side.closed) side.transport.onmessage?.(message);
  };
  side.receive = (message) => {
    if (side.started) queueMicrotask(() => deliver(message));
    else side.queue.push(message);
  };
  side.end = () => {
    if (side.closed) return;
    side.closed = true;
    side.transport.onclose?.();
  };
  side.transport = {
    onmessage: undefined,
    onclose: undefined,
    onerror: undefined,
    async start() {
      if (side.started) return;
      if (side.closed) throw failure("TransportClosed", "inMemoryPair: start() after close()");
      side.started = true;
      for (const m of side.queue.splice(0)) queueMicrotask(() => deliver(m));
    },
    async send(message) {
      if (side.closed) throw failure("TransportClosed", "inMemoryPair: this side is closed");
      if (side.peer.closed) throw failure("TransportClosed", "inMemoryPair: the other side is closed");
      side.peer.receive(copy(message));
    },
    async close() {
      side.end();
      side.peer.end();
    },
  };
  return side;
}
