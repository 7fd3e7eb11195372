// A static file server for the packaging pages (matrix.mjs serves its temp folder, bundlers.mjs
// each bundle's dist/ alone): no-store, a 404 for anything outside `dir`, not a file, or hidden.
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";

const MIME = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".css": "text/css", ".map": "application/json" };

/** Serves `dir` on 127.0.0.1 ("/" is index.html; a file named `hide` answers 404); { server, base }. */
export async function serveStatic(dir, { hide } = {}) {
  const server = http.createServer(async (req, res) => {
    try {
      const name = decodeURIComponent(new URL(req.url, "http://x").pathname);
      const file = path.join(dir, path.normalize(name === "/" ? "/index.html" : name));
      if (!file.startsWith(dir + path.sep) || (hide && path.basename(file) === hide) || !(await stat(file)).isFile()) throw new Error("not found");
      res.writeHead(200, { "content-type": MIME[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(await readFile(file));
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** Puts the package `source` (a packed .tgz, or a package folder) into `dir`, for a page to load. */
export async function placePackage(source, dir) {
  if (source.endsWith(".tgz")) {
    await mkdir(dir, { recursive: true });
    execFileSync("tar", ["xzf", source, "-C", dir, "--strip-components=1"]);
  } else {
    await cp(source, dir, { recursive: true });
  }
}
