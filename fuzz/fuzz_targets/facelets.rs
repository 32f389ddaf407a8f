//! Facelet strings: any text is refused or gives a valid cube whose stickers read back to it.
#![no_main]
use godsearch_puzzles::cube::{facelet, parse_position, Syntax, CUBE2, CUBE3};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(cube) = parse_position(CUBE3, text, Syntax::Facelets) {
        assert!(cube.check().is_ok());
        assert_eq!(facelet::parse(&facelet::format(&cube)), Ok(cube));
    }
    if let Ok(cube) = parse_position(CUBE2, text, Syntax::Facelets) {
        assert_eq!(
            facelet::parse_pocket(&facelet::format_pocket(&cube)),
            Ok(cube)
        );
    }
});
