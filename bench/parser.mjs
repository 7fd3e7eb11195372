// The JS side of the parser micro-benchmarks (next to bench/native/parsers.rs, criterion): the
// TypeScript SDK's SSE pipeline on the same bytes, in MiB/s.
//
//   node bench/parser.mjs [--json] [--quick]
//
// * sseParse: ReadableStream of 4 KiB Uint8Array chunks → TextDecoderStream →
//   EventSourceParserStream (eventsource-parser, what StreamableHTTPClientTransport uses)
// * jsonParseEvents: JSON.parse of each event's data (the same strings ours decode())
// * sseAndJsonParse: the pipeline + JSON.parse of each event
// * sseAndJsonParseZod: + JSONRPCMessageSchema.parse (TS SDK 1.x), as its transport does per message
// * jsonParseBig: JSON.parse of the 1 MiB result body
// Each: the median of N timed runs after warm-up.

import { EventSourceParserStream } from "eventsource-parser/stream";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { benchBodies } from "./server.mjs";

const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 3 : 15;
const WARM = QUICK ? 1 : 5;
const CHUNK = 4096;
const { stream, big } = benchBodies(10_000);

function chunks(buf) {
  const out = [];
  for (let i = 0; i < buf.length; i += CHUNK) out.push(new Uint8Array(buf.buffer, buf.byteOffset + i, Math.min(CHUNK, buf.length - i)));
  return out;
}
const parts = chunks(stream);

async function pipeline(onEvent) {
  let i = 0;
  const rs = new ReadableStream({
    pull(c) {
      if (i < parts.length) c.enqueue(parts[i++]);
      else c.close();
    },
  });
  const reader = rs.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  let n = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    n++;
    onEvent?.(value);
  }
  return n;
}

async function measure(fn, bytes) {
  for (let i = 0; i < WARM; i++) await fn();
  const ts = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await fn();
    ts.push(performance.now() - s);
  }
  ts.sort((a, b) => a - b);
  const ms = ts[ts.length >> 1];
  return { MBps: bytes / 1048576 / (ms / 1000), medianMs: ms };
}

const datas = [];
if ((await pipeline((e) => datas.push(e.data))) !== 10_001) throw new Error("wrong event count");
const dataBytes = datas.reduce((a, d) => a + Buffer.byteLength(d), 0);
let sink = 0;
const res = {
  sseParse: await measure(() => pipeline(), stream.length),
  jsonParseEvents: await measure(() => {
    for (const d of datas) sink += JSON.parse(d).jsonrpc.length;
  }, dataBytes),
  sseAndJsonParse: await measure(() => pipeline((e) => (sink += JSON.parse(e.data).jsonrpc.length)), stream.length),
  sseAndJsonParseZod: await measure(() => pipeline((e) => (sink += JSONRPCMessageSchema.parse(JSON.parse(e.data)).jsonrpc.length)), stream.length),
  jsonParseBig: await measure(() => {
    sink += JSON.parse(big).jsonrpc.length;
  }, Buffer.byteLength(big)),
};
res.bytes = { stream: stream.length, eventData: dataBytes, big: Buffer.byteLength(big) };
if (process.argv.includes("--json")) console.log(JSON.stringify(res));
else {
  console.log(`stream body ${stream.length} bytes (10 000 events + result), 4 KiB chunks; big body ${Buffer.byteLength(big)} bytes; median of ${RUNS}`);
  for (const [k, v] of Object.entries(res)) if (v.MBps) console.log(`  ${k.padEnd(20)} ${v.MBps.toFixed(1).padStart(8)} MiB/s  (${v.medianMs.toFixed(2)} ms)`);
}
if (sink < 0) console.log(sink);
