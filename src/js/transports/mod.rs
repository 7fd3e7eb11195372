//! Transports written in JavaScript: any object of the TypeScript SDK's `Transport` shape as an
//! engine transport, and the exported `messagePortTransport`, `windowTransport`, `inMemoryPair`.

pub mod exports;
pub mod js_transport;
