// Fault comparison: our Rust/WASM client (pkg/nodejs) vs the official TypeScript SDK 1.x client,
// against the same test peers. Prints a Markdown table and writes docs/FAULTS.md.
//
// Start the peers first (ports below are this script's defaults; override with FAULTS_* env vars):
//   PEERS_RUN_DIR=/tmp/peers-h6 PEERS_PYTHON_PORT=18401 PEERS_TS_PORT=18402 PEERS_EVERYTHING_PORT=18403 \
//   PEERS_MISBEHAVE_PORT=18404 PEERS_PYTHON_SSE_PORT=18405 tests/peers/peers.sh start
//   node tests/compare/faults.mjs
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const { Client: Ours, McpError: OursMcpError } = require(path.join(root, 'pkg/nodejs'));
const SDK_ROOT = path.join(root, 'tests/peers/node_modules/@modelcontextprotocol/sdk');
const SDK = path.join(SDK_ROOT, 'dist/esm');
const { Client: TsClient } = await import(path.join(SDK, 'client/index.js'));
const { StreamableHTTPClientTransport } = await import(path.join(SDK, 'client/streamableHttp.js'));
const { SSEClientTransport } = await import(path.join(SDK, 'client/sse.js'));
const { LoggingMessageNotificationSchema } = await import(path.join(SDK, 'types.js'));

const MIS = `http://127.0.0.1:${process.env.FAULTS_MISBEHAVE_PORT ?? 18404}`;
const PY = `http://127.0.0.1:${process.env.FAULTS_PYTHON_PORT ?? 18401}/mcp`;
const PY_SSE = `http://127.0.0.1:${process.env.FAULTS_PYTHON_SSE_PORT ?? 18405}/sse`;
const REFUSED = `http://127.0.0.1:${process.env.FAULTS_REFUSED_PORT ?? 18499}/mcp`;
const GUARD_MS = 5000;
const fault = (f) => `${MIS}/${f}/mcp`;

// ---------------------------------------------------------------- helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const GUARD = Symbol('guard');
function guard(p, ms = GUARD_MS) {
  let t;
  return Promise.race([
    Promise.resolve(p).finally(() => clearTimeout(t)),
    new Promise((r) => { t = setTimeout(() => r(GUARD), ms); }),
  ]);
}
const trim = (s, n = 120) => {
  s = String(s ?? '').replace(/\s+/g, ' ').trim();
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
};
function fmtErr(e) {
  if (e === GUARD) return 'no settle within 5 s guard';
  if (e == null || typeof e !== 'object') return `thrown ${typeof e}: ${trim(e)}`;
  const cls = e.constructor?.name ?? 'Object';
  const code = e.code !== undefined ? ` ${e.code}` : '';
  let kind = '';
  try { if (e.data && e.data.local) kind = ` [${e.data.kind}]`; } catch {}
  let cause = '';
  if (e.cause) cause = ` (cause: ${e.cause.code ?? ''} ${trim(e.cause.message ?? e.cause, 60)})`;
  return `${cls}${code}${kind}: ${trim(e.message)}${cause}`;
}
const textOf = (r) => {
  if (!r || !Array.isArray(r.content)) return trim(JSON.stringify(r), 80);
  return trim(r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' '), 80) + (r.isError ? ' (isError)' : '');
};
// Runs op under the guard and times it. Returns a one-line outcome.
async function timed(op, ms = GUARD_MS) {
  const t0 = performance.now();
  let out;
  try {
    const v = await guard(op(), ms);
    out = v === GUARD ? fmtErr(GUARD) : `"${textOf(v)}"`;
  } catch (e) {
    out = fmtErr(e);
  }
  return `${out} (${Math.round(performance.now() - t0)} ms)`;
}
async function http(method, url) {
  try {
    const r = await fetch(url, { method, signal: AbortSignal.timeout(1500) });
    const t = await r.text();
    try { return JSON.parse(t); } catch { return t; }
  } catch (e) { return `fetch failed: ${e.message}`; }
}

// ---------------------------------------------------------------- adapters
// Both adapters expose: connect(), call(name, args, timeoutMs?), close(), info(), logs[], notes[].
function ours(url, opts = {}) {
  const logs = [], notes = [], errs = [];
  const c = new Ours(url, {
    ...opts,
    loggingCallback: (p) => logs.push(trim(p?.data, 40)),
    messageHandler: (m) => {
      if (m instanceof OursMcpError || (m && m.code !== undefined && !m.method)) errs.push(fmtErr(m));
      else if (m?.method) notes.push(m.method);
    },
  });
  return {
    logs, notes, errs,
    connect: () => c.connect(),
    call: (name, args, timeoutMs) => c.callTool(name, args, timeoutMs ? { timeoutMs } : {}),
    close: () => guard(c.close(), 1500).catch(() => {}),
    info: () => `era=${c.era} pv=${c.protocolVersion} transport=${c.transport}`,
  };
}
function ts(url, { sseFallback = false } = {}) {
  const logs = [], notes = [], errs = [];
  let client, transport, usedSse = false;
  const mk = () => {
    const cl = new TsClient({ name: 'faults-compare', version: '0.0.0' }, { capabilities: {} });
    cl.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(trim(n.params?.data, 40)); });
    cl.fallbackNotificationHandler = async (n) => { notes.push(n.method); };
    cl.onerror = (e) => errs.push(fmtErr(e));
    return cl;
  };
  return {
    logs, notes, errs,
    async connect() {
      client = mk();
      transport = new StreamableHTTPClientTransport(new URL(url));
      if (!sseFallback) return client.connect(transport);
      // What the TS SDK docs recommend for backwards compatibility: try Streamable HTTP, and on
      // failure fall back to SSEClientTransport by hand (a new Client).
      try {
        await client.connect(transport);
      } catch (e) {
        errs.push(`streamable-http failed: ${fmtErr(e)}`);
        await guard(client.close(), 1000).catch(() => {});
        client = mk();
        transport = new SSEClientTransport(new URL(url));
        usedSse = true;
        await client.connect(transport);
      }
    },
    call: (name, args, timeoutMs) =>
      client.callTool({ name, arguments: args }, undefined, timeoutMs ? { timeout: timeoutMs } : undefined),
    close: () => (client ? guard(client.close(), 1500).catch(() => {}) : Promise.resolve()),
    info: () => `pv=${transport?.protocolVersion ?? transport?._protocolVersion ?? 'n/a'} transport=${usedSse ? 'sse' : 'streamable-http'}`,
  };
}

// connect + call, everything under one 5 s overall guard; returns the outcome line.
async function connectAndCall(cl, name, args, { timeoutMs } = {}) {
  const t0 = performance.now();
  let stage = 'connect';
  const body = (async () => {
    await cl.connect();
    stage = 'call';
    return cl.call(name, args, timeoutMs);
  })();
  let out;
  try {
    const v = await guard(body);
    out = v === GUARD ? `${stage}: ${fmtErr(GUARD)}` : `"${textOf(v)}"`;
  } catch (e) {
    out = `${stage === 'connect' ? 'connect failed: ' : ''}${fmtErr(e)}`;
  }
  return `${out} (${Math.round(performance.now() - t0)} ms)`;
}
const extra = (cl, { logs = true, errs = true } = {}) => {
  const parts = [];
  if (logs && cl.logs.length) parts.push(`logs: ${cl.logs.length}×`);
  if (errs && cl.errs.length) parts.push(`transport errors: ${cl.errs.length} (first: ${trim(cl.errs[0], 90)})`);
  return parts.length ? '; ' + parts.join('; ') : '';
};

// ---------------------------------------------------------------- situations
const rows = [];
const both = [['ours', (u, o) => ours(u, o)], ['ts', (u, o) => ts(u, o)]];

async function resumeCase(f) {
  const r = {};
  for (const [who, make] of both) {
    await http('DELETE', `${MIS}/${f}/resume-log`);
    const cl = make(fault(f));
    const out = await connectAndCall(cl, 'echo', { text: 'hi' });
    await sleep(300);
    const log = await http('GET', `${MIS}/${f}/resume-log`);
    const short = Array.isArray(log) ? JSON.stringify(log.map((id) => id.replace(/^.*-(\d+)$/, 'S-$1'))) : trim(JSON.stringify(log), 60);
    r[who] = `${out}; resume-log ${short}${extra(cl)}`;
    await cl.close();
  }
  return r;
}

async function simpleCase(f, args = { text: 'hi' }, opts = {}) {
  const r = {};
  for (const [who, make] of both) {
    const cl = make(fault(f));
    r[who] = `${await connectAndCall(cl, 'echo', args, opts)}${extra(cl, { logs: true })}`;
    await cl.close();
  }
  return r;
}

const situations = [
  ['1. `resume-with-ids`', 'POST SSE drops after ids S-0,S-1; GET Last-Event-ID resumes', () => resumeCase('resume-with-ids')],
  ['2. `resume-twice`', 'first resumed GET drops after S-2; correct log is [S-1,S-2]', () => resumeCase('resume-twice')],
  ['3. `drop-no-ids`', 'one complete notification without id, then socket destroyed', () => simpleCase('drop-no-ids')],
  ['4. `sse-cut`', 'half an SSE event, then socket destroyed', () => simpleCase('sse-cut')],
  ['5. `expire-after-one-call`', 'session 404s (-32001) after its first tools/call', async () => {
    const r = {};
    for (const [who, make] of both) {
      const cl = make(fault('expire-after-one-call'));
      const first = await connectAndCall(cl, 'echo', { text: 'a' });
      const second = await timed(() => cl.call('echo', { text: 'b' }));
      r[who] = `1st ${first}; 2nd ${second}${extra(cl, { logs: false })}`;
      await cl.close();
    }
    return r;
  }],
  ['6. `get-stream-drops`', 'GET stream: 2 events, no ids, clean end', async () => {
    const r = {};
    for (const [who, make] of both) {
      await http('DELETE', `${MIS}/get-stream-drops/get-count`);
      const cl = make(fault('get-stream-drops'));
      const con = await timed(async () => { await cl.connect(); return { content: [{ type: 'text', text: 'connected' }] }; });
      await sleep(3000);
      const a = await http('GET', `${MIS}/get-stream-drops/get-count`);
      const gaps = Array.isArray(a?.gets) ? a.gets.slice(1).map((g, i) => g.at - a.gets[i].at) : [];
      await cl.close();
      await sleep(1500);
      const b = await http('GET', `${MIS}/get-stream-drops/get-count`);
      const nA = a?.count ?? '?', nB = b?.count ?? '?';
      r[who] = `connect ${con}; GETs in 3 s: ${nA}` + (gaps.length ? ` (gaps ms ${JSON.stringify(gaps)})` : '') +
        `; GETs in 1.5 s after close: ${typeof nA === 'number' && typeof nB === 'number' ? nB - nA : '?'}` +
        `; delivered: ${cl.notes.filter((m) => m === 'notifications/tools/list_changed').length}× tools/list_changed, ${cl.logs.length}× log message${extra(cl, { logs: false })}`;
    }
    return r;
  }],
  ['7. `modern-drop-once`', '2026: first call per key drops with no event; re-issue (new id) answers `reissued <id>`', async () => {
    const r = {};
    for (const [who, make] of both) {
      const key = `faults-${who}-${process.pid}-${Date.now()}`;
      const cl = who === 'ours' ? make(fault('modern-drop-once'), { mode: 'auto' }) : make(fault('modern-drop-once'));
      const out = await connectAndCall(cl, 'echo', { text: 'hi', key });
      const ids = await http('GET', `${MIS}/modern-drop-once/ids?key=${encodeURIComponent(key)}`);
      r[who] = `${out}; ${cl.info()}; ids for key ${trim(JSON.stringify(ids), 40)}${extra(cl)}`;
      await cl.close();
    }
    return r;
  }],
  ...['garbage-sse', 'malformed-json', 'not-jsonrpc', 'wrong-content-type', '500-empty', '500-body'].map((f) =>
    [`8. \`${f}\``, '', () => simpleCase(f)]),
  ['9. `hang` (500 ms timeout)', 'never answers; per-request timeout 500 ms', () => simpleCase('hang', { text: 'hi' }, { timeoutMs: 500 })],
  ['10. refused connection', `${REFUSED}, nothing listening`, async () => {
    const r = {};
    for (const [who, make] of both) {
      const cl = make(REFUSED);
      r[who] = await connectAndCall(cl, 'echo', { text: 'hi' });
      await cl.close();
    }
    return r;
  }],
  ['11. HTTP+SSE peer `/sse`', 'deprecated 2024-11-05 transport (Python SDK); ours: plain `new Client(url)`; TS: manual StreamableHTTP→SSEClientTransport fallback', async () => {
    const r = {};
    for (const [who, make] of both) {
      const cl = who === 'ours' ? make(PY_SSE) : make(PY_SSE, { sseFallback: true });
      const out = await connectAndCall(cl, 'echo', { text: 'over sse' });
      r[who] = `${out}; ${cl.info()}${extra(cl)}`;
      await cl.close();
    }
    return r;
  }],
  ['12. Python peer `/mcp`', 'dual-era Python SDK peer; ours mode auto', async () => {
    const r = {};
    for (const [who, make] of both) {
      const cl = who === 'ours' ? make(PY, { mode: 'auto' }) : make(PY);
      const out = await connectAndCall(cl, 'echo', { text: 'hello' });
      r[who] = `${out}; ${cl.info()}${extra(cl)}`;
      await cl.close();
    }
    return r;
  }],
];

// ---------------------------------------------------------------- run
const tStart = performance.now();
for (const [name, note, fn] of situations) {
  let r;
  try {
    const v = await guard(fn(), 20000);
    r = v === GUARD ? { ours: 'situation guard (20 s) hit', ts: 'situation guard (20 s) hit' } : v;
  } catch (e) {
    r = { ours: `script error: ${fmtErr(e)}`, ts: '' };
  }
  rows.push([name, r.ours, r.ts, note]);
  process.stderr.write(`done ${name} (${Math.round(performance.now() - tStart)} ms)\n`);
}

// ---------------------------------------------------------------- report
const sh = (cmd, args) => { try { return execFileSync(cmd, args, { timeout: 5000, encoding: 'utf8' }).trim(); } catch { return 'unknown'; } };
const pkgVer = (p) => { try { return JSON.parse(readFileSync(p, 'utf8')).version; } catch { return 'unknown'; } };
const date = sh('date', ['-u']);
const pyMcp = sh(process.env.PEERS_PYTHON ?? 'python3', ['-c', "import importlib.metadata as m; print(m.version('mcp'))"]);
const sdkVer = pkgVer(path.join(SDK_ROOT, 'package.json'));
const oursVer = pkgVer(path.join(root, 'pkg/nodejs/package.json'));
const esc = (s) => String(s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = [
  `| situation | ours (pkg/nodejs ${oursVer}) | TS SDK ${sdkVer} | note |`,
  '|---|---|---|---|',
  ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
].join('\n');

const md = `# Fault behaviour: our client vs the TypeScript SDK ${sdkVer}

Generated by \`tests/compare/faults.mjs\` on ${date}, Node ${process.version}.
Peers: misbehave (\`tests/peers/misbehave.mjs\`, fault paths \`${MIS}/<fault>/mcp\`), Python SDK \`mcp\` ${pyMcp}
(\`python_server.py\` at \`${PY}\`, \`python_sse_server.py\` at \`${PY_SSE}\`).

Each cell: the result text, or the error's class, code (\`[kind]\` for our local errors), and message (trimmed),
then the elapsed ms for connect + call. Every client runs under a ${GUARD_MS / 1000} s overall guard;
"no settle within 5 s guard" means the call was still pending when the guard fired (the TS SDK's default
request timeout is 60 s, ours is 60 s too; neither was shortened except in row 9).
Our client uses its defaults (\`mode: "auto"\`, so misbehave's 400 to \`server/discover\` falls back to \`initialize\`)
unless the row says otherwise; the TS SDK uses \`Client\` + \`StreamableHTTPClientTransport\` with default options
(reconnection: 1000 ms initial, ×1.5, 2 retries; a server \`retry:\` overrides the delay).
"logs: N×" counts \`notifications/message\` delivered to the client; "transport errors" are what our
\`messageHandler\` received as \`McpError\` / what the TS \`Client.onerror\` received.

To rerun: start the peers (see \`tests/peers/README.md\`; the ports used here are
\`PEERS_PYTHON_PORT=18401 PEERS_MISBEHAVE_PORT=18404 PEERS_PYTHON_SSE_PORT=18405\`, override with
\`FAULTS_PYTHON_PORT\`, \`FAULTS_MISBEHAVE_PORT\`, \`FAULTS_PYTHON_SSE_PORT\`), then \`node tests/compare/faults.mjs\`.

${table}
`;
console.log(table);
// The hand-written part (from HAND_WRITTEN on: rows measured by other suites) is kept.
const HAND_WRITTEN = '<!-- hand-written below: kept by tests/compare/faults.mjs -->';
let kept = '';
try {
  const old = readFileSync(path.join(root, 'docs/FAULTS.md'), 'utf8');
  if (old.includes(HAND_WRITTEN)) kept = `\n${old.slice(old.indexOf(HAND_WRITTEN))}`;
} catch {}
writeFileSync(path.join(root, 'docs/FAULTS.md'), md + kept);
process.stderr.write(`total ${Math.round(performance.now() - tStart)} ms\n`);
process.exit(0);
