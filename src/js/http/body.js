// A response body read whole as text by the host, its size cap enforced while reading: the
// chunks never enter wasm memory, and a body over the cap is cancelled as soon as it passes it.

const decoder = new TextDecoder();

/** `{ text }`, or `{ tooLarge: true }` once more than `maxBytes` bytes arrived. A failed read
 *  rejects with the stream's error. */
export async function readCappedText(stream, maxBytes) {
  if (!stream) return { text: "" };
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  // One decode of the whole body (a string decoded in pieces and joined is a rope that
  // JSON.parse must flatten first).
  let bytes = chunks.length === 1 ? chunks[0] : new Uint8Array(total);
  if (chunks.length !== 1) {
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
  }
  return { text: decoder.decode(bytes) };
}
