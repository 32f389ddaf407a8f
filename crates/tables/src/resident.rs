//! Tables read at random, kept in anonymous memory that the kernel is asked to back with huge
//! pages (2 MiB on x86-64, through `madvise`; the default Linux setting honours the request).
//!
//! A search that reads a gigabyte table at random misses the TLB on nearly every read when the
//! table lies in 4 KiB pages; in huge pages the page walk mostly hits the cache. A mapped
//! table file lies in huge pages when the kernel holds the file in its cache in huge pages,
//! which it does for a file read back into the cache (Linux 6 with large folios; not for one
//! cached as it was written, hence [`crate::file::save`] drops a new file from the cache).
//! Otherwise the table is copied: a second a gigabyte, and its size in memory.

use crate::LoadedTable;
use rayon::prelude::*;
use std::io;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicU64;

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

impl AsRef<[u8]> for TableBytes {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
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

    /// The same bytes in huge pages, for a table read at random: bytes already there (resident,
    /// or a mapped file the kernel maps in huge pages: a table file read back after
    /// [`crate::file::save`] dropped it from the cache) are left as they are, anything else is
    /// copied; left where they are when the memory for a copy cannot be had.
    pub fn resident(self) -> Self {
        match &self {
            TableBytes::Resident(_) => return self,
            TableBytes::Mapped(table) if in_huge_pages(table.payload()) => return self,
            TableBytes::Mapped(_) | TableBytes::Owned(_) => {}
        }
        match ResidentBytes::copy_of(self.as_slice()) {
            Ok(copy) => TableBytes::Resident(copy),
            Err(_) => self,
        }
    }
}

/// Share of a mapping that must lie in huge pages for a copy to gain nothing.
const HUGE_ENOUGH_PERCENT: u64 = 90;

/// Whether the kernel maps the file mapping that holds `bytes` in huge pages, nearly all of
/// it ([`HUGE_ENOUGH_PERCENT`]): the mapping's `FilePmdMapped` against its `Size` in
/// `/proc/self/smaps`. `false` where that cannot be read (and on other systems).
fn in_huge_pages(bytes: &[u8]) -> bool {
    #[cfg(target_os = "linux")]
    {
        let Ok(smaps) = std::fs::read_to_string("/proc/self/smaps") else {
            return false;
        };
        huge_share(&smaps, bytes.as_ptr() as usize)
            .is_some_and(|(size, huge)| huge * 100 >= size * HUGE_ENOUGH_PERCENT && size > 0)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = bytes;
        false
    }
}

/// The `Size` and `FilePmdMapped` (kB) of the mapping holding `address`, from the text of
/// `/proc/PID/smaps`: a line `start-end perms ...` (hexadecimal) opens each mapping, and its
/// fields follow as `Name:   value kB`.
fn huge_share(smaps: &str, address: usize) -> Option<(u64, u64)> {
    let mut inside = false;
    let (mut size, mut huge) = (None, None);
    for line in smaps.lines() {
        let range = line.split_once(' ').and_then(|(range, _)| {
            let (start, end) = range.split_once('-')?;
            Some((
                usize::from_str_radix(start, 16).ok()?,
                usize::from_str_radix(end, 16).ok()?,
            ))
        });
        if let Some((start, end)) = range {
            if inside {
                break;
            }
            inside = (start..end).contains(&address);
            continue;
        }
        if !inside {
            continue;
        }
        let field = |name: &str| {
            let value = line.strip_prefix(name)?.trim().strip_suffix("kB")?;
            value.trim().parse::<u64>().ok()
        };
        size = size.or_else(|| field("Size:"));
        huge = huge.or_else(|| field("FilePmdMapped:"));
    }
    Some((size?, huge?))
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
        let mut map = huge_anonymous(len)?;
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

    /// `len` zero bytes in huge pages, to be written in place ([`bytes_mut`](Self::bytes_mut));
    /// an error when the memory cannot be had.
    pub fn zeroed(len: usize) -> io::Result<Self> {
        Ok(ResidentBytes {
            map: huge_anonymous(len)?,
            len,
        })
    }

    /// `copies` copies of `pattern` one after another, written by all threads (a table of
    /// gigabytes takes seconds to write alone); an error when the memory cannot be had.
    pub fn tiled(pattern: &[u8], copies: usize) -> io::Result<Self> {
        let len = pattern
            .len()
            .checked_mul(copies)
            .ok_or_else(|| io::Error::new(io::ErrorKind::OutOfMemory, "too many bytes"))?;
        let mut map = huge_anonymous(len)?;
        if !pattern.is_empty() {
            map[..len]
                .par_chunks_mut(pattern.len() * FILL_COPIES_PER_TASK)
                .for_each(|chunk| {
                    for copy in chunk.chunks_exact_mut(pattern.len()) {
                        copy.copy_from_slice(pattern);
                    }
                });
        }
        Ok(ResidentBytes { map, len })
    }

    /// The bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map[..self.len]
    }

    /// The bytes, to change in place (a table built where it will be read).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}

/// `len` bytes (at least one) of anonymous memory, zeroed, advised for huge pages before it is
/// touched (the advice only counts for pages not yet faulted in).
fn huge_anonymous(len: usize) -> io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapMut::map_anon(len.max(1))?;
    #[cfg(target_os = "linux")]
    {
        // Advice only: a kernel that declines it leaves ordinary pages, still correct.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    Ok(map)
}

/// Words filled in parallel at a time: 8 MiB, so both threads fault their own huge pages in.
const FILL_WORDS_PER_TASK: usize = 1 << 20;
/// Copies of a pattern written at a time by [`ResidentBytes::tiled`]: of a 16-byte block, 8
/// MiB.
const FILL_COPIES_PER_TASK: usize = 1 << 19;

/// 64-bit words that threads may change together (atomics), in memory advised for huge pages:
/// a breadth-first build marks entries of its table at random, and in 4 KiB pages nearly every
/// mark of a table of gigabytes would also miss the TLB. Plain anonymous memory where the
/// platform has no such advice. Reads as a slice of the words.
#[derive(Debug)]
pub struct ResidentWords {
    map: memmap2::MmapMut,
    len: usize,
}

impl ResidentWords {
    /// `len` words, each `value`; an error when the memory cannot be had.
    pub fn new(len: usize, value: u64) -> io::Result<Self> {
        let bytes = len
            .checked_mul(std::mem::size_of::<u64>())
            .ok_or_else(|| io::Error::new(io::ErrorKind::OutOfMemory, "too many words"))?;
        let mut words = ResidentWords {
            map: huge_anonymous(bytes)?,
            len,
        };
        words
            .par_chunks_mut(FILL_WORDS_PER_TASK)
            .for_each(|chunk| chunk.iter_mut().for_each(|w| *w.get_mut() = value));
        Ok(words)
    }
}

impl Deref for ResidentWords {
    type Target = [AtomicU64];

    #[inline]
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: the mapping holds at least `len` 8-byte words and starts on a page boundary,
        // so the words are aligned; `AtomicU64` has `u64`'s size and bit validity, so every
        // byte pattern is a valid word; the mapping lives as long as the borrow, and is only
        // ever reached through these atomics.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.len)
        }
    }
}

impl DerefMut for ResidentWords {
    #[inline]
    fn deref_mut(&mut self) -> &mut [AtomicU64] {
        // SAFETY: as in `deref`; the exclusive borrow of `self` makes the slice exclusive.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast::<AtomicU64>(), self.len)
        }
    }
}

/// Asks the processor to bring `items[at]` into the cache, without waiting for it: a search
/// that knows which entries it will read next issues their fetches together, and from
/// independent searches, so that their latencies overlap. Only a hint: nothing is read, an
/// index out of range is ignored, and on other processors it does nothing.
#[inline(always)]
pub fn prefetch<T>(items: &[T], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(at) {
        // SAFETY: `prefetch` is a hint that never faults and has no effect the program can
        // observe; the address is a valid reference besides. SSE is part of every x86-64.
        #[allow(unsafe_code)]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, at);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiled_bytes_repeat_their_pattern() {
        let tiled = ResidentBytes::tiled(&[1, 2, 3], 5).unwrap();
        assert_eq!(tiled.bytes(), [1, 2, 3].repeat(5));
        assert!(ResidentBytes::tiled(&[], 5).unwrap().bytes().is_empty());
        assert!(ResidentBytes::tiled(&[1], 0).unwrap().bytes().is_empty());
    }

    #[test]
    fn resident_words_start_at_their_value_and_change_alone() {
        use std::sync::atomic::Ordering;
        let mut words = ResidentWords::new(3, u64::MAX).unwrap();
        assert!(words.iter().all(|w| w.load(Ordering::Relaxed) == u64::MAX));
        words[1].fetch_and(7, Ordering::Relaxed);
        *words[2].get_mut() = 5;
        let seen: Vec<u64> = words.iter().map(|w| w.load(Ordering::Relaxed)).collect();
        assert_eq!(seen, [u64::MAX, 7, 5]);
        assert!(ResidentWords::new(0, 1).unwrap().is_empty());
    }

    #[test]
    fn a_prefetch_is_only_a_hint() {
        let bytes = vec![7u8; 100];
        for at in [0, 99, 100, usize::MAX] {
            prefetch(&bytes, at);
        }
        prefetch::<u8>(&[], 0);
        assert_eq!(bytes, vec![7u8; 100]);
    }

    #[test]
    fn the_huge_share_is_read_from_the_mapping_that_holds_the_address() {
        let smaps = "\
00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/dbus-daemon
Size:                328 kB
FilePmdMapped:         0 kB
7f0000000000-7f0000600000 r--s 00000000 fd:00 42     /cache/table.tbl
Size:               6144 kB
KernelPageSize:        4 kB
FilePmdMapped:      4096 kB
7f0000600000-7f0000800000 rw-p 00000000 00:00 0
Size:               2048 kB
FilePmdMapped:         0 kB
";
        assert_eq!(huge_share(smaps, 0x7f00_0000_1000), Some((6144, 4096)));
        assert_eq!(huge_share(smaps, 0x0040_0000), Some((328, 0)));
        assert_eq!(huge_share(smaps, 0x7f00_0060_0000), Some((2048, 0)));
        assert_eq!(huge_share(smaps, 0x10), None);
        assert_eq!(huge_share("", 0x10), None);
    }

    #[test]
    fn a_copy_holds_the_same_bytes() {
        let bytes: Vec<u8> = (0..5000u32).map(|i| (i * 7) as u8).collect();
        assert_eq!(ResidentBytes::copy_of(&bytes).unwrap().bytes(), &bytes[..]);
        assert!(ResidentBytes::copy_of(&[]).unwrap().bytes().is_empty());
    }

    /// Bytes already resident are kept where they are; a vector's are copied into huge pages.
    #[test]
    fn resident_bytes_are_not_copied_again() {
        let bytes: Vec<u8> = (0..5000u32).map(|i| (i * 3) as u8).collect();
        let resident = TableBytes::Owned(bytes.clone()).resident();
        assert!(matches!(resident, TableBytes::Resident(_)));
        let at = resident.as_slice().as_ptr();
        let again = resident.resident();
        assert_eq!(again.as_slice().as_ptr(), at);
        assert_eq!(again.as_slice(), &bytes[..]);
    }
}
