//! `--timeout` durations: any text is a time from a millisecond to a year, or a one-line error.
#![no_main]
use godsearch::units::{parse_seconds, MAX_TIMEOUT, MIN_TIMEOUT};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match parse_seconds(text) {
        Ok(d) => assert!(MIN_TIMEOUT <= d && d <= MAX_TIMEOUT),
        Err(message) => assert!(!message.contains('\n')),
    }
});
