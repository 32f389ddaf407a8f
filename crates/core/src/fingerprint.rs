//! Short stable fingerprints: FNV-1a (32 bits), the same in every build and on every machine,
//! for names and checks that must match across runs (a cache file's name, a resumed search's
//! split). Not a checksum against corruption: files carry a CRC-32 for that.

/// FNV-1a over the bytes written so far (32 bits).
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u32);

impl Fnv1a {
    const OFFSET: u32 = 0x811c_9dc5;
    const PRIME: u32 = 0x0100_0193;

    /// Adds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        self.0 = bytes
            .iter()
            .fold(self.0, |h, &b| (h ^ u32::from(b)).wrapping_mul(Self::PRIME));
    }

    /// The fingerprint of what was written.
    pub fn finish(&self) -> u32 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(Self::OFFSET)
    }
}

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash = Fnv1a::default();
    hash.write(bytes);
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_test_vectors() {
        // From the FNV reference (Fowler, Noll, Vo): the empty string, "a" and "foobar".
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(b"foobar"), 0xbf9c_f968);
        let mut parts = Fnv1a::default();
        parts.write(b"foo");
        parts.write(b"bar");
        assert_eq!(parts.finish(), fnv1a(b"foobar"));
    }
}
