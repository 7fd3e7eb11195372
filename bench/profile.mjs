// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time by category and the top
// functions by self time.   node bench/profile.mjs FILE.cpuprofile [top]

import fs from "node:fs";
import { pathToFileURL } from "node:url";

// `llhttp`: the wasm modules undici runs (its HTTP parser), told from ours by who calls them.
export function category(url, name, llhttp = new Set()) {
  if (name === "(garbage collector)") return "GC";
  if (name === "(idle)") return "idle (waiting for the network)";
  if (name === "(program)") return "V8/native (program)";
  if (url.startsWith("wasm://")) return llhttp.has(url) ? "undici (fetch)" : "wasm (our Rust code)";
  if (/mcp_wasm_client\.js/.test(url)) return "wasm-bindgen JS glue";
  if (/\/snippets\//.test(url)) return "our JS (facade, boundary snippets)";
  if (url === "" && (name === "parse" || name === "stringify")) return "JSON.parse / stringify";
  if (/undici/.test(url)) return "undici (fetch)";
  if (/zod/.test(url)) return "zod (validation)";
  if (/ajv/.test(url)) return "ajv";
  if (/eventsource-parser/.test(url)) return "eventsource-parser";
  if (/@modelcontextprotocol/.test(url)) return "TS SDK";
  if (/web\/streams|webstreams|streams\//.test(url)) return "node web streams";
  if (url.startsWith("node:") || url === "") return name.startsWith("(") ? name : "node internals / builtins";
  if (/\/bench\//.test(url)) return "bench harness";
  return "other JS";
}

export function summarize(file, top = 15) {
  const prof = JSON.parse(fs.readFileSync(file, "utf8"));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const llhttp = new Set();
  for (const n of prof.nodes)
    for (const c of n.children ?? []) {
      const child = byId.get(c).callFrame.url;
      if (child.startsWith("wasm://") && /undici/.test(n.callFrame.url)) llhttp.add(child);
    }
  const self = new Map();
  let total = 0;
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i] ?? 0;
    total += dt;
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
  }
  const fnTime = new Map();
  const catTime = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = functionName || "(anonymous)";
    const short = url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\//, "");
    const key = `${name} ${short}${url.startsWith("wasm://") ? "" : `:${lineNumber + 1}`}`;
    fnTime.set(key, (fnTime.get(key) ?? 0) + us);
    const c = category(url, name, llhttp);
    catTime.set(c, (catTime.get(c) ?? 0) + us);
  }
  const busy = total - (catTime.get("idle (waiting for the network)") ?? 0);
  const rows = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .map(([k, us]) => ({ name: k, ms: us / 1000, pctBusy: k.startsWith("idle") ? null : (100 * us) / busy }));
  return { totalMs: total / 1000, busyMs: busy / 1000, categories: rows(catTime), top: rows(fnTime).filter((r) => !r.name.startsWith("(idle)")).slice(0, top) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const s = summarize(process.argv[2], Number(process.argv[3] ?? 20));
  console.log(`total ${s.totalMs.toFixed(0)} ms, busy ${s.busyMs.toFixed(0)} ms`);
  for (const c of s.categories) console.log(`  ${c.pctBusy === null ? "   -  " : c.pctBusy.toFixed(1).padStart(5) + "%"} ${c.ms.toFixed(1).padStart(8)} ms  ${c.name}`);
  console.log("top self time:");
  for (const c of s.top) console.log(`  ${c.pctBusy.toFixed(1).padStart(5)}% ${c.ms.toFixed(1).padStart(8)} ms  ${c.name}`);
}
