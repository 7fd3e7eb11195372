// Server log messages (notifications/message) as transcript lines.
import { h, pretty } from "./dom.js";
import { addMessage } from "./chat.js";

/** Appends one log line: level, optional logger name, text. */
export function logLine(level, text, logger) {
  return addMessage(
    "log",
    { test: "log", label: null, dataset: { level } },
    h("span", { class: `level level-${level}`, text: level }),
    logger ? h("span", { class: "logger", text: logger }) : null,
    h("span", { class: "log-text", text }),
  );
}

/** The client's loggingCallback: shows a notifications/message payload as a log line. */
export function onLog(p, source) {
  const logger = [source?.server, p?.logger].filter(Boolean).join(" · "); // a ClientGroup names the server
  return logLine(p?.level ?? "info", typeof p?.data === "string" ? p.data : pretty(p?.data), logger);
}
