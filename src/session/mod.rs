//! The session engine without I/O: who we are, which era we speak, how each outgoing message
//! is stamped, how the era is negotiated, and where responses go.

pub mod cache;
pub mod cache_store;
pub mod inflight;
pub mod lists;
pub mod mrtr;
pub mod negotiate;
pub mod reconnect;
pub mod results;
pub mod retry;
pub mod server_requests;
#[cfg(feature = "skills")]
pub mod skills;
pub mod stamp;
pub mod state;
pub mod subscriptions;
pub mod tasks;
pub mod tools;

pub use state::{ClientConfig, SessionState};
