// A CallToolResult as a provider's tool result. The rule, the same for every provider:
//  - text is text;
//  - an image (and audio where the provider takes it) is the provider's image or file part, never
//    base64 inside text; what the provider cannot take is named in a text part instead;
//  - a resource_link is text naming its URI, name, title, MIME type and description;
//  - an embedded resource is text with its URI and MIME type, and its text when it has some; a
//    blob is an image/file part when the provider takes its MIME type, else named in text;
//  - structuredContent is given as JSON text when the result has no text content (it stays on
//    the result, for the UI);
//  - isError: true is the provider's error form (AI SDK error-text, Anthropic is_error, Gemini
//    response.error, OpenAI: the text prefixed "Error: ", its only form).
// Each mapper returns the provider's tool-result item without the call's id (the caller adds it).

/** Images each provider takes inline. */
const ANTHROPIC_IMAGES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const GEMINI_INLINE = /^(image\/(png|jpeg|webp|heic|heif)|application\/pdf|text\/plain)$/;
/** OpenAI chat's input_audio formats (a user message only). */
const CHAT_AUDIO = { "audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3" };

const bytesOf = (base64) => Math.floor((String(base64 ?? "").replace(/=+$/, "").length * 3) / 4);

/** The result's blocks as neutral parts: `{ form: "text", text }` or `{ form: "media", mime, data, what }`. */
export function parts(result) {
  const out = [];
  const content = Array.isArray(result?.content) ? result.content : [];
  for (const block of content) {
    switch (block?.type) {
      case "text":
        out.push({ form: "text", text: String(block.text ?? "") });
        break;
      case "image":
      case "audio":
        out.push({ form: "media", mime: String(block.mimeType ?? ""), data: String(block.data ?? ""), what: block.type });
        break;
      case "resource_link":
        out.push({ form: "text", text: describeLink(block) });
        break;
      case "resource": {
        const r = block.resource ?? {};
        const head = `Resource ${r.uri ?? "(no URI)"}${r.mimeType ? ` (MIME type ${r.mimeType})` : ""}`;
        if (typeof r.text === "string") out.push({ form: "text", text: `${head}:\n${r.text}` });
        else if (typeof r.blob === "string") out.push({ form: "media", mime: String(r.mimeType ?? "application/octet-stream"), data: r.blob, what: "resource", uri: r.uri });
        else out.push({ form: "text", text: `${head}: no content` });
        break;
      }
      default:
        out.push({ form: "text", text: `(a content block of type ${JSON.stringify(block?.type)} that this client does not know)` });
    }
  }
  if (!out.some((p) => p.form === "text") && result?.structuredContent !== undefined)
    out.unshift({ form: "text", text: JSON.stringify(result.structuredContent) });
  if (out.length === 0) out.push({ form: "text", text: "(the tool returned no content)" });
  return out;
}

function describeLink(b) {
  const fields = [`URI ${b.uri}`];
  if (b.name) fields.push(`name ${b.name}`);
  if (b.title) fields.push(`title ${b.title}`);
  if (b.mimeType) fields.push(`MIME type ${b.mimeType}`);
  if (b.description) fields.push(`description: ${b.description}`);
  return `Resource link: ${fields.join(", ")}`;
}

/** What the model reads instead of media it cannot take. */
function unsent(p, provider) {
  const source = p.uri ? ` ${p.uri}` : "";
  return `(${p.what === "resource" ? "a resource" : `an ${p.what}`}${source}, ${p.mime || "no MIME type"}, ${bytesOf(p.data)} bytes, that ${provider} cannot take in a tool result)`;
}

const texts = (ps) => ps.filter((p) => p.form === "text").map((p) => p.text);

/** The AI SDK's ToolResultOutput (`v7`: the tagged `file` part of AI SDK 7; else AI SDK 6's `image-data`/`file-data`). */
export function aiSdkOutput(result, v7) {
  const ps = parts(result);
  if (result?.isError === true) return { type: "error-text", value: texts(ps).join("\n") || "(the tool failed without a message)" };
  if (ps.every((p) => p.form === "text")) return { type: "text", value: texts(ps).join("\n") };
  const value = ps.map((p) => {
    if (p.form === "text") return { type: "text", text: p.text };
    if (v7) return { type: "file", mediaType: p.mime, data: { type: "data", data: p.data } };
    return p.mime.startsWith("image/") ? { type: "image-data", data: p.data, mediaType: p.mime } : { type: "file-data", data: p.data, mediaType: p.mime };
  });
  return { type: "content", value };
}

/**
 * OpenAI Chat Completions: a `tool` message (`{ role, content }`, text parts only: that is all a
 * tool message takes). Images and wav/mp3 audio go in `attachments` (non-enumerable, so the
 * message sent stays exact): parts for a `user` message after the turn's tool messages.
 */
function openAiChat(result) {
  const ps = parts(result);
  const content = [];
  const attachments = [];
  for (const p of ps) {
    if (p.form === "text") content.push({ type: "text", text: p.text });
    else if (p.mime.startsWith("image/")) {
      attachments.push({ type: "image_url", image_url: { url: `data:${p.mime};base64,${p.data}` } });
      content.push({ type: "text", text: `(image ${attachments.length}, ${p.mime}: in the user message after the tool results)` });
    } else if (CHAT_AUDIO[p.mime]) {
      attachments.push({ type: "input_audio", input_audio: { data: p.data, format: CHAT_AUDIO[p.mime] } });
      content.push({ type: "text", text: `(audio ${attachments.length}, ${p.mime}: in the user message after the tool results)` });
    } else content.push({ type: "text", text: unsent(p, "OpenAI chat") });
  }
  if (result?.isError === true) content[0].text = `Error: ${content[0].text}`;
  const message = { role: "tool", content };
  Object.defineProperty(message, "attachments", { value: attachments, enumerable: false });
  return message;
}

/** OpenAI Responses: a `function_call_output` item, `output` a list of input_text / input_image / input_file. */
function openAiResponses(result) {
  const output = parts(result).map((p) => {
    if (p.form === "text") return { type: "input_text", text: p.text };
    const url = `data:${p.mime};base64,${p.data}`;
    if (p.mime.startsWith("image/")) return { type: "input_image", image_url: url, detail: "auto" };
    if (p.mime === "application/pdf") return { type: "input_file", file_data: url, filename: fileName(p) };
    return { type: "input_text", text: unsent(p, "OpenAI Responses") };
  });
  if (result?.isError === true && output[0].type === "input_text") output[0].text = `Error: ${output[0].text}`;
  else if (result?.isError === true) output.unshift({ type: "input_text", text: "Error:" });
  return { type: "function_call_output", output };
}

const fileName = (p) => (p.uri ? String(p.uri).split(/[/?#]/).filter(Boolean).pop() : undefined) || "file.pdf";

/** Anthropic: a `tool_result` block (`is_error` for an error), content text / image / document blocks. */
function anthropic(result) {
  const content = parts(result).map((p) => {
    if (p.form === "text") return { type: "text", text: p.text };
    if (ANTHROPIC_IMAGES.has(p.mime)) return { type: "image", source: { type: "base64", media_type: p.mime, data: p.data } };
    if (p.mime === "application/pdf") return { type: "document", source: { type: "base64", media_type: "application/pdf", data: p.data } };
    return { type: "text", text: unsent(p, "Anthropic") };
  });
  return result?.isError === true ? { type: "tool_result", content, is_error: true } : { type: "tool_result", content };
}

/** Gemini: a `functionResponse` part: the text as `response.output` (or `response.error`), media as its `parts`. */
function gemini(result, name) {
  const ps = parts(result);
  const media = [];
  const lines = [];
  for (const p of ps) {
    if (p.form === "text") lines.push(p.text);
    else if (GEMINI_INLINE.test(p.mime)) {
      media.push({ inlineData: { mimeType: p.mime, data: p.data } });
      lines.push(`(${p.what === "resource" ? "resource" : p.what} ${media.length}, ${p.mime}: in this response's parts)`);
    } else lines.push(unsent(p, "Gemini"));
  }
  const text = lines.join("\n");
  const response = result?.isError === true ? { error: text } : { output: text };
  return { functionResponse: { name, response, ...(media.length ? { parts: media } : {}) } };
}

/** The providers toModelContent and toolsFor know. */
export const PROVIDERS = ["openai-chat", "openai-responses", "anthropic", "gemini"];

/** `result` as `provider`'s tool-result item (`name`: the tool's model name, which Gemini's item carries). */
export function mapResult(result, provider, name) {
  switch (provider) {
    case "openai-chat":
      return openAiChat(result);
    case "openai-responses":
      return openAiResponses(result);
    case "anthropic":
      return anthropic(result);
    case "gemini":
      return gemini(result, name);
  }
  throw new TypeError(`unknown provider ${JSON.stringify(provider)}: one of ${PROVIDERS.join(", ")}`);
}
