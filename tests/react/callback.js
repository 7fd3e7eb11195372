// The sign-in popup's callback page (callback.html): hands the URL to the opener and closes.
import { completeAuthorizationPopup } from "mcp-wasm-client";

completeAuthorizationPopup();
