//! Transports written in JavaScript: any object of the TypeScript SDK's `Transport` shape as an
//! engine transport (the `js-transport` feature: every build but the default entry's lean module,
//! whose facade makes a client over a transport in the full module), and the exported
//! `messagePortTransport`, `windowTransport`, `inMemoryPair`.

pub mod exports;
#[cfg(feature = "js-transport")]
pub mod js_transport;
