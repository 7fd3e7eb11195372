// Preload (`node -r ./listen-localhost.cjs ...`) that pins servers which pass no host to 127.0.0.1.
//
// @modelcontextprotocol/server-everything calls `app.listen(PORT, cb)` with no host, which would
// listen on every interface. This patches net.Server.prototype.listen (http.Server inherits it):
//   listen(port[, backlog][, cb])          -> listen(port, HOST[, backlog][, cb])
//   listen() / listen(cb)                  -> listen(0, HOST[, cb])
//   listen({port, ...}) without host       -> listen({port, host: HOST, ...})
// Calls that name a host, a unix socket path, or a handle are left alone.
// HOST is $LISTEN_HOST or 127.0.0.1.
"use strict";

const net = require("node:net");

const HOST = process.env.LISTEN_HOST || "127.0.0.1";
const original = net.Server.prototype.listen;

function isPort(v) {
  return (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && /^\d+$/.test(v));
}

net.Server.prototype.listen = function patchedListen(...args) {
  const [first, second] = args;
  if (args.length === 0 || typeof first === "function") {
    return original.call(this, 0, HOST, ...args);
  }
  if (isPort(first) && typeof second !== "string") {
    return original.call(this, Number(first), HOST, ...args.slice(1));
  }
  if (
    first !== null &&
    typeof first === "object" &&
    !(first instanceof net.Server) &&
    first.path === undefined &&
    first.fd === undefined &&
    first._handle === undefined &&
    first.handle === undefined &&
    !first.host
  ) {
    return original.call(this, { ...first, host: HOST }, ...args.slice(1));
  }
  return original.apply(this, args);
};
