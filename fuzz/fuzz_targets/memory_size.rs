//! `--memory` sizes: any text is a size or a one-line error.
#![no_main]
use godsearch::units::parse_size;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match parse_size(text, 24 << 30) {
        Ok(_) => {}
        Err(message) => assert!(!message.contains('\n')),
    }
});
