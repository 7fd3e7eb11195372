//! The protocol engine: connecting, request correlation, timeouts and progress, cancellation,
//! `input_required` rounds, the retry verdicts, server requests and notifications. It runs
//! wherever a [`Host`] and a [`Transport`] exist: in wasm over fetch, natively in tests.
//! Decisions come from `session::*`; the engine only sequences them.

pub mod answers;
pub mod cache;
pub mod cached;
pub mod connect;
pub mod core;
pub mod host;
pub mod inbound;
pub mod listen;
pub mod observe;
pub mod request;
pub mod tasks;
pub mod trace;
pub mod transport;

pub use self::core::{Engine, Limits};
pub use host::{Cancel, Host, ProgressReceiver};
pub use request::{RequestOptions, Round};
pub use tasks::{OnTask, TaskCall};
pub use transport::{Exchange, FirstReply, Inbox, Sent, Transport};
