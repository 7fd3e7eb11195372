// What the test peers written on node:http share.

/**
 * The request's body as UTF-8 text. With `maxBytes`, a longer body destroys the request and
 * rejects ("body too large") instead of being buffered.
 */
export function readBody(req, { maxBytes = Infinity } = {}) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size > maxBytes) {
        req.destroy();
        reject(new Error("body too large"));
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
