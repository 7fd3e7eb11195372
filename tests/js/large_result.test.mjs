// A large tool result (its long content strings held in JS, never in wasm memory) arrives exactly:
// 1 MiB of non-ASCII text, in content and in structuredContent, the tool's outputSchema checked,
// whether the server declares the body's length or streams it in chunks; and the size cap still
// refuses a body larger than maxMessageBytes while it is read.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { pkg, fault, rejection } from "./peers.mjs";

const MiB = 1 << 20;
// Two-, three- and four-byte UTF-8, a quote, a backslash, control characters, U+2028.
const unit = 'é"\\\n\t😀<\u2028x€\u0001';
const big = unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);

async function connected(options = {}) {
  const c = new pkg.Client(fault("large-result"), { mode: "legacy", ...options });
  await c.connect();
  await c.listTools(); // the outputSchema is known from here on
  return c;
}

describe("a 1 MiB tool result", () => {
  for (const chunked of [false, true]) {
    const how = chunked ? "streamed in chunks" : "of declared length";
    test(`arrives exactly, ${how}, in content and structuredContent`, async () => {
      const c = await connected();
      const r = await c.callTool("big", { text: big, chunked });
      assert.equal(r.content.length, 1);
      assert.equal(r.content[0].type, "text");
      assert.equal(r.content[0].text.length, big.length);
      assert.ok(r.content[0].text === big, "content text round-trips exactly");
      assert.ok(r.structuredContent.text === big, "structuredContent text round-trips exactly");
      // A second call: nothing held from the first one leaks into it.
      const again = await c.callTool("big", { text: big.slice(1), chunked });
      assert.ok(again.content[0].text === big.slice(1));
      await c.close();
    });

    test(`still has its structuredContent checked against the outputSchema, ${how}`, async () => {
      const c = await connected();
      const e = await rejection(c.callTool("big", { text: big, chunked, structured: { text: "" } }));
      assert.match(e.message, /does not match its outputSchema/);
      assert.doesNotMatch(e.message, /mcp-wasm-client:held/);
      await c.close();
    });
  }

  test("a content text that looks like a held mark is just text", async () => {
    const c = await connected();
    const forged = "\u0000mcp-wasm-client:held:0:0";
    const r = await c.callTool("big", { text: forged + big });
    assert.ok(r.content[0].text === forged + big);
    const short = await c.callTool("big", { text: forged });
    assert.equal(short.content[0].text, forged);
    await c.close();
  });

  for (const chunked of [false, true]) {
    test(`over maxMessageBytes is refused naming the cap (${chunked ? "streamed" : "declared"})`, async () => {
      const c = await connected({ maxMessageBytes: 512 * 1024 });
      const e = await rejection(c.callTool("big", { text: big, chunked }));
      assert.match(e.message, /larger than 524288 bytes/);
      assert.equal(e.data.maxMessageBytes, 524288);
      await c.close();
    });
  }
});
