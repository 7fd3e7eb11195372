// A large tool result arrives exactly: 1 MiB of non-ASCII text, in content and in structuredContent
// (a body of ~4.7 MiB: its long content strings held in JS, never in wasm memory), and half of it
// (a body of ~2.3 MiB, under 4 MiB: copied into the wasm as bytes and read there), the tool's
// outputSchema checked, whether the server declares the body's length or streams it in chunks; a
// body's byte order mark and malformed UTF-8 read as TextDecoder reads them, whichever way the
// body goes; and the size cap still refuses a body larger than maxMessageBytes while it is read.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { pkg, fault, rejection } from "./peers.mjs";

const MiB = 1 << 20;
// Two-, three- and four-byte UTF-8, a quote, a backslash, control characters, U+2028.
const unit = 'é"\\\n\t😀<\u2028x€\u0001';
const big = unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
const half = big.slice(0, MiB / 2);

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

  for (const chunked of [false, true]) {
    const how = chunked ? "streamed in chunks" : "of declared length";
    test(`a body under 4 MiB (read in the wasm) arrives exactly, ${how}`, async () => {
      const c = await connected();
      const r = await c.callTool("big", { text: half, chunked });
      assert.ok(r.content[0].text === half, "content text round-trips exactly");
      assert.ok(r.structuredContent.text === half, "structuredContent text round-trips exactly");
      await c.close();
    });

    // Bodies of ~14 KB (a string copied into the wasm), ~2.3 MiB (bytes copied in), ~4.7 MiB
    // (held in JS).
    for (const [size, text] of [["small", "é😀x".repeat(1000)], ["half", half], ["1 MiB", big]]) {
      test(`a ${size} result's byte order mark and malformed UTF-8 read as TextDecoder does, ${how}`, async () => {
        const c = await connected();
        const sent = `INVALID${text}INVALIDxINVALID`;
        const malformed = new TextDecoder().decode(new Uint8Array([0x80, 0xc0, 0xaf, 0xe2, 0x82, 0x41, 0xff]));
        const r = await c.callTool("big", { text: sent, chunked, bom: true });
        assert.ok(r.content[0].text === sent.replaceAll("INVALID", malformed));
        assert.ok(r.structuredContent.text === r.content[0].text);
        await c.close();
      });
    }
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
