//! Tables read at random, kept in anonymous memory that the kernel is asked to back with huge
//! pages (2 MiB on x86-64, through `madvise`; the default Linux setting honours the request).
//!
//! A search that reads a gigabyte table at random misses the TLB on nearly every read when the
//! table lies in 4 KiB pages (a memory-mapped file); in huge pages the page walk mostly hits
//! the cache. Copying the table in costs a fraction of a second and its size in memory.

use crate::LoadedTable;
use std::io;

/// A table's bytes wherever they live: built in this process, memory-mapped from a validated
/// table file, or copied into huge pages ([`ResidentBytes`]).
#[derive(Debug)]
pub enum TableBytes {
    /// Built in this process.
    Owned(Vec<u8>),
    /// The payload of a validated table file.
    Mapped(LoadedTable),
    /// Copied into memory advised for huge pages.
    Resident(ResidentBytes),
}

impl TableBytes {
    /// The bytes. Inlined: searches call it for every table read.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        match self {
            TableBytes::Owned(v) => v,
            TableBytes::Mapped(t) => t.payload(),
            TableBytes::Resident(r) => r.bytes(),
        }
    }

    /// `len` bytes written by `write`, in huge pages where the memory can be had, else in a
    /// vector: a table built in another form (a 2-bit BFS table), copied once rather than
    /// twice. Fails only when `write` does, or writes other than `len` bytes.
    pub fn written(
        len: usize,
        write: &dyn Fn(&mut dyn io::Write) -> io::Result<()>,
    ) -> io::Result<Self> {
        let short = || io::Error::new(io::ErrorKind::InvalidData, "wrote other than the length");
        match ResidentBytes::filled(len, write) {
            Ok(resident) => Ok(TableBytes::Resident(resident)),
            Err(e) if e.kind() == io::ErrorKind::InvalidData => Err(e),
            Err(_) => {
                let mut bytes = Vec::with_capacity(len);
                write(&mut bytes)?;
                if bytes.len() != len {
                    return Err(short());
                }
                Ok(TableBytes::Owned(bytes))
            }
        }
    }

    /// The same bytes copied into huge pages, for a table read at random; left where they
    /// are when the memory cannot be had.
    pub fn resident(self) -> Self {
        match ResidentBytes::copy_of(self.as_slice()) {
            Ok(copy) => TableBytes::Resident(copy),
            Err(_) => self,
        }
    }
}

/// Bytes copied into memory advised for huge pages (plain anonymous memory where the platform
/// has no such advice).
#[derive(Debug)]
pub struct ResidentBytes {
    map: memmap2::MmapMut,
    len: usize,
}

impl ResidentBytes {
    /// A copy of `bytes`; an error when the memory cannot be had.
    pub fn copy_of(bytes: &[u8]) -> io::Result<Self> {
        Self::filled(bytes.len(), &|out| out.write_all(bytes))
    }

    /// `len` bytes written by `write` into huge pages. An error of kind `InvalidData` when
    /// `write` writes other than `len` bytes; any other error is `write`'s, or the mapping's.
    pub fn filled(
        len: usize,
        write: &dyn Fn(&mut dyn io::Write) -> io::Result<()>,
    ) -> io::Result<Self> {
        let mut map = memmap2::MmapMut::map_anon(len.max(1))?;
        #[cfg(target_os = "linux")]
        {
            // Advice only: a kernel that declines it leaves ordinary pages, still correct.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        let mut rest: &mut [u8] = &mut map[..len];
        write(&mut rest)?;
        if !rest.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "wrote fewer bytes than the length",
            ));
        }
        Ok(ResidentBytes { map, len })
    }

    /// The bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

/// Asks the processor to bring `bytes[at]` into the cache, without waiting for it: a search
/// that knows which entries it will read next issues their fetches together, and from
/// independent searches, so that their latencies overlap. Only a hint: nothing is read, an
/// index out of range is ignored, and on other processors it does nothing.
#[inline(always)]
pub fn prefetch(bytes: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(byte) = bytes.get(at) {
        // SAFETY: `prefetch` is a hint that never faults and has no effect the program can
        // observe; the address is a valid reference besides. SSE is part of every x86-64.
        #[allow(unsafe_code)]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, at);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefetch_is_only_a_hint() {
        let bytes = vec![7u8; 100];
        for at in [0, 99, 100, usize::MAX] {
            prefetch(&bytes, at);
        }
        prefetch(&[], 0);
        assert_eq!(bytes, vec![7u8; 100]);
    }

    #[test]
    fn a_copy_holds_the_same_bytes() {
        let bytes: Vec<u8> = (0..5000u32).map(|i| (i * 7) as u8).collect();
        assert_eq!(ResidentBytes::copy_of(&bytes).unwrap().bytes(), &bytes[..]);
        assert!(ResidentBytes::copy_of(&[]).unwrap().bytes().is_empty());
    }
}
