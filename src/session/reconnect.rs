//! When and how often to reconnect a broken SSE stream: the server's `retry:` first, then a
//! bounded exponential backoff; and which errors are a broken stream at all.

use crate::protocol::error::{ErrorKind, McpError};

/// Delay before the first reconnect when the server gave no `retry:`.
pub const BASE_DELAY_MS: u64 = 1000;
/// Longest delay between two reconnects.
pub const MAX_DELAY_MS: u64 = 30_000;
/// A GET stream open at least this long counts as healthy: the next reconnect starts the
/// schedule over (short-lived streams keep backing off).
pub const HEALTHY_STREAM_MS: f64 = 30_000.0;
/// Attempts to resume a request's stream before the request fails.
pub const RESUME_ATTEMPTS: u32 = 5;

/// The client's `reconnection` option: the backoff's first delay and cap (the server's
/// `retry:` still comes first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Delay before the first reconnect when the server gave no `retry:` (`initialDelayMs`).
    pub initial_delay_ms: u64,
    /// Longest delay between two reconnects (`maxDelayMs`).
    pub max_delay_ms: u64,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            initial_delay_ms: BASE_DELAY_MS,
            max_delay_ms: MAX_DELAY_MS,
        }
    }
}

impl Backoff {
    /// The backoff from `initialDelayMs` and `maxDelayMs` (each defaulted when absent); an
    /// initial delay over the cap is refused, naming both.
    pub fn new(initial_delay_ms: Option<u64>, max_delay_ms: Option<u64>) -> Result<Self, McpError> {
        let b = Backoff {
            initial_delay_ms: initial_delay_ms.unwrap_or(BASE_DELAY_MS),
            max_delay_ms: max_delay_ms.unwrap_or(MAX_DELAY_MS),
        };
        if b.initial_delay_ms > b.max_delay_ms {
            return Err(McpError::input(format!(
                "options.reconnection.initialDelayMs ({}) is larger than options.reconnection.maxDelayMs ({})",
                b.initial_delay_ms, b.max_delay_ms
            )));
        }
        Ok(b)
    }
}

/// The longest `initialDelayMs` or `maxDelayMs` the `reconnection` option takes: one hour (a
/// longer wait is a mistake, and past 2^31 ms a JS timer fires at once).
pub const MAX_OPTION_DELAY_MS: u64 = 3_600_000;

impl Backoff {
    /// The `reconnection` option from its two fields as read from JS (`None`: absent, NaN: not
    /// a number): each a number of milliseconds from 1 to [`MAX_OPTION_DELAY_MS`], the first
    /// delay not over the cap; an error names the field.
    pub fn from_option(
        initial_delay_ms: Option<f64>,
        max_delay_ms: Option<f64>,
    ) -> Result<Self, McpError> {
        let initial = option_delay(initial_delay_ms, "initialDelayMs")?;
        let max = option_delay(max_delay_ms, "maxDelayMs")?;
        Backoff::new(initial, max)
    }
}

/// One delay field of the `reconnection` option: absent, or whole milliseconds in range (NaN,
/// ±Infinity, negative, zero and over an hour are refused).
fn option_delay(v: Option<f64>, key: &str) -> Result<Option<u64>, McpError> {
    match v {
        None => Ok(None),
        Some(n) if (1.0..=MAX_OPTION_DELAY_MS as f64).contains(&n) => Ok(Some(n.ceil() as u64)),
        Some(_) => Err(McpError::input(
            [
                "options.reconnection.",
                key,
                " must be a number of milliseconds from 1 to 3600000",
            ]
            .concat(),
        )),
    }
}

/// Reconnect schedule of one stream.
#[derive(Debug, Clone)]
pub struct Reconnect {
    attempt: u32,
    max_attempts: Option<u32>,
    backoff: Backoff,
}

impl Reconnect {
    /// At most `max_attempts` reconnects in a row (`None`: no limit, as for the GET stream).
    pub fn new(max_attempts: Option<u32>) -> Self {
        Self::with_backoff(max_attempts, Backoff::default())
    }

    /// As [`Reconnect::new`], with the client's `backoff` in place of the defaults.
    pub fn with_backoff(max_attempts: Option<u32>, backoff: Backoff) -> Self {
        Reconnect {
            attempt: 0,
            max_attempts,
            backoff,
        }
    }

    /// The delay before the next attempt: `retry` (the server's `retry:`, which the client MUST
    /// wait) or the base, doubled per consecutive failure, capped; `None` when attempts ran out.
    pub fn next_delay(&mut self, server_retry_ms: Option<u64>) -> Option<u64> {
        if self.max_attempts.is_some_and(|max| self.attempt >= max) {
            return None;
        }
        let base = server_retry_ms.unwrap_or(self.backoff.initial_delay_ms);
        let delay = base
            .saturating_mul(1u64 << self.attempt.min(16))
            .min(self.backoff.max_delay_ms.max(base));
        self.attempt += 1;
        Some(delay)
    }

    /// A stream delivered events again: the next failure starts the schedule over.
    pub fn reset(&mut self) {
        self.attempt = 0;
    }

    /// Attempts made so far.
    pub fn attempts(&self) -> u32 {
        self.attempt
    }
}

/// True when `e` says a response stream broke or ended before its response (not a refusal,
/// a timeout or bad data), so resuming (legacy) or re-issuing (2026) may help.
pub fn is_stream_break(e: &McpError) -> bool {
    matches!(e.kind(), Some(ErrorKind::StreamEnded { .. }))
}

/// A broken-stream error as the transport reports one (for tests of the rules that read it).
#[cfg(test)]
pub(crate) fn broken_stream(mid_event: bool) -> McpError {
    McpError::local(
        crate::protocol::error::CONNECTION_CLOSED,
        ErrorKind::StreamEnded { mid_event },
        "SSE stream ended without a response",
        crate::json::Value::Null,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn honours_retry_then_backs_off_to_a_cap() {
        let mut r = Reconnect::new(Some(3));
        assert_eq!(r.next_delay(Some(200)), Some(200));
        assert_eq!(r.next_delay(Some(200)), Some(400));
        assert_eq!(r.next_delay(None), Some(4000));
        assert_eq!(r.next_delay(None), None, "attempts exhausted");
        r.reset();
        assert_eq!(r.next_delay(None), Some(1000));
        let mut unlimited = Reconnect::new(None);
        for _ in 0..40 {
            assert!(unlimited.next_delay(None).unwrap() <= MAX_DELAY_MS);
        }
        assert_eq!(unlimited.attempts(), 40);
    }

    #[test]
    fn a_server_retry_longer_than_the_cap_is_still_honoured() {
        assert_eq!(Reconnect::new(None).next_delay(Some(60_000)), Some(60_000));
    }

    #[test]
    fn a_backoff_option_sets_the_first_delay_and_cap_but_retry_is_still_waited() {
        let b = Backoff::new(Some(5), Some(20)).unwrap();
        let mut r = Reconnect::with_backoff(None, b);
        let delays: Vec<_> = (0..5).map(|_| r.next_delay(None).unwrap()).collect();
        assert_eq!(delays, [5, 10, 20, 20, 20]);
        let mut r = Reconnect::with_backoff(None, b);
        assert_eq!(
            r.next_delay(Some(50)),
            Some(50),
            "retry: over the cap is still waited"
        );
        assert_eq!(Backoff::new(None, None).unwrap(), Backoff::default());
        let text = Backoff::new(Some(100), Some(20)).unwrap_err().to_string();
        assert!(text.contains("initialDelayMs (100)"), "{text}");
        assert!(text.contains("maxDelayMs (20)"), "{text}");
    }

    #[test]
    fn the_reconnection_option_is_checked_naming_the_field() {
        let read = Backoff::from_option;
        assert_eq!(
            read(Some(5.0), Some(20.0)).unwrap(),
            Backoff {
                initial_delay_ms: 5,
                max_delay_ms: 20
            }
        );
        assert_eq!(read(None, None).unwrap(), Backoff::default());
        assert_eq!(read(None, Some(2000.0)).unwrap().initial_delay_ms, 1000);
        assert_eq!(read(Some(2.5), None).unwrap().initial_delay_ms, 3);
        assert_eq!(
            read(None, Some(3_600_000.0)).unwrap().max_delay_ms,
            3_600_000
        );
        let refused = |initial: Option<f64>, max: Option<f64>, says: &str| {
            let e = read(initial, max).unwrap_err();
            assert_eq!(e.kind(), Some(ErrorKind::Input));
            assert!(e.message.contains(says), "{:?} lacks {says}", e.message);
        };
        let range = " must be a number of milliseconds from 1 to 3600000";
        let initial = ["options.reconnection.initialDelayMs", range].concat();
        let max = ["options.reconnection.maxDelayMs", range].concat();
        refused(Some(f64::NAN), None, &initial); // not a number (a string, an object, NaN)
        refused(None, Some(-1.0), &max);
        refused(Some(0.0), None, &initial);
        refused(None, Some(f64::INFINITY), &max);
        refused(None, Some(3_600_001.0), &max);
        refused(Some(1e12), Some(1e12), &initial);
        refused(
            Some(50.0),
            Some(20.0),
            "initialDelayMs (50) is larger than options.reconnection.maxDelayMs (20)",
        );
        refused(
            Some(50_000.0),
            None,
            "initialDelayMs (50000) is larger than options.reconnection.maxDelayMs (30000)",
        );
    }

    #[test]
    fn which_errors_are_stream_breaks() {
        assert!(is_stream_break(&broken_stream(true)));
        assert!(is_stream_break(&broken_stream(false)));
        assert!(!is_stream_break(&McpError::timeout("m", 5)));
        assert!(!is_stream_break(&McpError::new(-32000, "server said so")));
    }
}
