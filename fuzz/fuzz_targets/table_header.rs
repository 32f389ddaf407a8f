//! Table files: any bytes are refused or validate to a header whose payload lies inside them.
#![no_main]
use godsearch_tables::file::validate;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|bytes: &[u8]| {
    if let Ok((header, payload)) = validate(bytes, Path::new("fuzz.tbl")) {
        assert!(payload.end <= bytes.len());
        // A fixed-length encoding's payload is exactly its length (sorted deltas vary).
        if let Some(expected) = header.encoding.payload_len(header.entries) {
            assert_eq!((payload.end - payload.start) as u64, expected);
        }
    }
});
