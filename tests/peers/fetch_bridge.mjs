// Runs a Fetch-API handler (the TypeScript SDK 2.x `createMcpHandler(...).fetch`) behind
// node:http: the peers that serve that SDK over a plain Node server share this bridge.

/** Answers the node:http request `req` on `res` with `handler(request)`, the request rebuilt as a Fetch Request for `url`; `extraHeaders` (e.g. CORS) are added to the response's. */
export async function serveFetch(handler, req, res, url, extraHeaders = {}) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === "string") headers.set(k, v);
    else if (Array.isArray(v)) for (const one of v) headers.append(k, one);
  }
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
  const response = await handler(new Request(url, { method: req.method, headers, body }));
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...extraHeaders });
  if (response.body) for await (const c of response.body) res.write(c);
  res.end();
}
