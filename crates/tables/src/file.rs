//! The table file: header, payload, checksum.
//!
//! ```text
//! magic        16 bytes  "godsearch-table\n"
//! version      u32       FORMAT_VERSION
//! endianness   u32       0x01020304 as written by the producing machine
//! encoding     u32       Encoding (entry layout of the payload)
//! entries      u64       number of entries
//! payload_len  u64       bytes of payload
//! puzzle       u32 length + UTF-8   which puzzle and goal the table belongs to
//! params       u32 length + UTF-8   how positions are ranked and anything else that matters
//! levels       u32 count + u64 each positions at each distance (may be empty)
//! padding      to a multiple of 8 bytes
//! payload      payload_len bytes
//! checksum     u32       CRC-32 of every byte before it
//! end marker   4 bytes   "END\n"
//! ```
//! All integers are little-endian. Files are written to a temporary file in the destination
//! folder and renamed into place, so a reader never sees half a table. Loading checks every
//! field and the checksum before handing out the payload; the caller then checks that the
//! puzzle and parameters are the ones it wants ([`TableHeader::expect`]).

use crc32fast::Hasher;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use thiserror::Error;

const MAGIC: &[u8; 16] = b"godsearch-table\n";
const END_MARKER: &[u8; 4] = b"END\n";
/// Version of the layout above; bumped whenever it changes.
pub const FORMAT_VERSION: u32 = 1;
const ENDIAN_MARK: u32 = 0x0102_0304;
const ALIGN: usize = 8;
const TRAILER_LEN: usize = 8;

/// How the payload's entries are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Two bits an entry: distance mod 3, or 3 for unreached (see [`crate::packed`]).
    DistanceMod3 = 1,
    /// A byte an entry (pattern databases: moves of the group's tiles).
    Bytes = 2,
}

impl Encoding {
    fn from_u32(v: u32) -> Option<Self> {
        [Encoding::DistanceMod3, Encoding::Bytes]
            .into_iter()
            .find(|e| *e as u32 == v)
    }

    /// Bytes of payload needed for `entries` entries.
    pub fn payload_len(self, entries: u64) -> u64 {
        match self {
            Encoding::DistanceMod3 => entries.div_ceil(32) * 8,
            Encoding::Bytes => entries,
        }
    }
}

/// What a table is: the self-description stored at the front of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableHeader {
    /// The puzzle and goal, e.g. `tiles 3x3 goal 1,2,3,4,5,6,7,8,0`.
    pub puzzle: String,
    /// The ranking and other parameters the entries depend on.
    pub params: String,
    /// Entry layout.
    pub encoding: Encoding,
    /// Number of entries.
    pub entries: u64,
    /// Positions at each distance, as counted when the table was built.
    pub levels: Vec<u64>,
}

/// A table file could not be written, read, or trusted.
#[derive(Debug, Error)]
pub enum TableError {
    /// The operating system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The file does not start with the table magic.
    #[error("{0}: not a godsearch table file")]
    NotATable(PathBuf),
    /// Written by another version of the format.
    #[error("{path}: table format version {found}, this godsearch reads version {FORMAT_VERSION}; rebuild the table")]
    Version {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
    },
    /// Written on a machine of the other byte order.
    #[error("{0}: written on a machine with a different byte order")]
    Endianness(PathBuf),
    /// Shorter or longer than its header says.
    #[error("{path}: the file is {found} bytes but its header says {expected}; it is truncated or damaged")]
    Length {
        /// The file.
        path: PathBuf,
        /// Bytes the header implies.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// The checksum does not match the contents.
    #[error("{0}: checksum mismatch; the file is damaged")]
    Checksum(PathBuf),
    /// The header is malformed.
    #[error("{path}: damaged header ({what})")]
    Header {
        /// The file.
        path: PathBuf,
        /// Which part.
        what: &'static str,
    },
    /// A valid table, but for something else.
    #[error("{path}: this table is for {found}, not {expected}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What the caller needs.
        expected: String,
        /// What the file holds.
        found: String,
    },
}

impl TableHeader {
    fn encode(&self, payload_len: u64) -> Vec<u8> {
        let mut h = Vec::new();
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.extend_from_slice(&ENDIAN_MARK.to_ne_bytes());
        h.extend_from_slice(&(self.encoding as u32).to_le_bytes());
        h.extend_from_slice(&self.entries.to_le_bytes());
        h.extend_from_slice(&payload_len.to_le_bytes());
        for s in [&self.puzzle, &self.params] {
            h.extend_from_slice(&(s.len() as u32).to_le_bytes());
            h.extend_from_slice(s.as_bytes());
        }
        h.extend_from_slice(&(self.levels.len() as u32).to_le_bytes());
        for l in &self.levels {
            h.extend_from_slice(&l.to_le_bytes());
        }
        h.resize(h.len().next_multiple_of(ALIGN), 0);
        h
    }

    /// Refuses the table unless it belongs to `puzzle` with `params`.
    pub fn expect(&self, path: &Path, puzzle: &str, params: &str) -> Result<(), TableError> {
        if self.puzzle != puzzle || self.params != params {
            return Err(TableError::Mismatch {
                path: path.to_path_buf(),
                expected: format!("{puzzle} ({params})"),
                found: format!("{} ({})", self.puzzle, self.params),
            });
        }
        Ok(())
    }
}

struct ChecksumWriter<W: Write> {
    inner: W,
    hasher: Hasher,
    written: u64,
}

impl<W: Write> Write for ChecksumWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes a table atomically: header, the payload produced by `write_payload` (which must
/// write exactly `header.encoding.payload_len(header.entries)` bytes), checksum; then renames
/// the finished file onto `path`.
pub fn save(
    path: &Path,
    header: &TableHeader,
    write_payload: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), TableError> {
    let io_err = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let payload_len = header.encoding.payload_len(header.entries);
    let tmp = tempfile::Builder::new()
        .prefix(".godsearch-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io_err)?;
    let mut out = ChecksumWriter {
        inner: BufWriter::new(tmp.as_file()),
        hasher: Hasher::new(),
        written: 0,
    };
    out.write_all(&header.encode(payload_len)).map_err(io_err)?;
    let start = out.written;
    write_payload(&mut out).map_err(io_err)?;
    if out.written - start != payload_len {
        return Err(io_err(io::Error::other(format!(
            "wrote {} payload bytes, expected {payload_len}",
            out.written - start
        ))));
    }
    let checksum = out.hasher.clone().finalize();
    out.inner
        .write_all(&checksum.to_le_bytes())
        .map_err(io_err)?;
    out.inner.write_all(END_MARKER).map_err(io_err)?;
    out.inner.flush().map_err(io_err)?;
    drop(out);
    tmp.as_file().sync_all().map_err(io_err)?;
    tmp.persist(path).map_err(|e| io_err(e.error))?;
    Ok(())
}

/// A validated table file, memory-mapped.
#[derive(Debug)]
pub struct LoadedTable {
    header: TableHeader,
    map: memmap2::Mmap,
    payload: Range<usize>,
}

impl LoadedTable {
    /// The header.
    pub fn header(&self) -> &TableHeader {
        &self.header
    }

    /// The payload bytes, checked against the checksum at load.
    pub fn payload(&self) -> &[u8] {
        &self.map[self.payload.clone()]
    }
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], TableError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| TableError::Header {
            path: self.path.to_path_buf(),
            what,
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, TableError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, TableError> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }

    fn string(&mut self, what: &'static str) -> Result<String, TableError> {
        let len = self.u32(what)? as usize;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| TableError::Header {
            path: self.path.to_path_buf(),
            what,
        })
    }
}

/// Maps a table file and validates magic, version, byte order, length and checksum.
pub fn load(path: &Path) -> Result<LoadedTable, TableError> {
    let io_err = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io_err)?;
    // SAFETY: the map is read-only. Another process truncating or rewriting the file while it is
    // mapped could change what we read; godsearch itself only ever replaces table files by
    // rename, which leaves this mapping intact, and the checksum below is verified first.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io_err)?;
    let p = path.to_path_buf();
    if map.len() < MAGIC.len() || &map[..MAGIC.len()] != MAGIC {
        return Err(TableError::NotATable(p));
    }
    let mut c = Cursor {
        bytes: &map,
        at: MAGIC.len(),
        path,
    };
    let version = c.u32("version")?;
    if version != FORMAT_VERSION {
        return Err(TableError::Version {
            path: p,
            found: version,
        });
    }
    if c.take(4, "byte order")? != ENDIAN_MARK.to_le_bytes() {
        return Err(TableError::Endianness(p));
    }
    let encoding = Encoding::from_u32(c.u32("encoding")?).ok_or(TableError::Header {
        path: p.clone(),
        what: "unknown entry encoding",
    })?;
    let entries = c.u64("entry count")?;
    let payload_len = c.u64("payload length")?;
    if payload_len != encoding.payload_len(entries) {
        return Err(TableError::Header {
            path: p,
            what: "payload length does not match the entry count",
        });
    }
    let puzzle = c.string("puzzle")?;
    let params = c.string("parameters")?;
    let level_count = c.u32("level count")? as usize;
    let levels = (0..level_count)
        .map(|_| c.u64("levels"))
        .collect::<Result<Vec<_>, _>>()?;
    let start = c.at.next_multiple_of(ALIGN);
    let expected = (start as u64)
        .saturating_add(payload_len)
        .saturating_add(TRAILER_LEN as u64);
    if expected != map.len() as u64 {
        return Err(TableError::Length {
            path: p,
            expected,
            found: map.len() as u64,
        });
    }
    let end = start + payload_len as usize;
    let stored = u32::from_le_bytes(map[end..end + 4].try_into().expect("4 bytes"));
    if &map[end + 4..] != END_MARKER || crc32fast::hash(&map[..end]) != stored {
        return Err(TableError::Checksum(p));
    }
    let header = TableHeader {
        puzzle,
        params,
        encoding,
        entries,
        levels,
    };
    Ok(LoadedTable {
        header,
        map,
        payload: start..end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (TableHeader, Vec<u8>) {
        let header = TableHeader {
            puzzle: "tiles 2x2 goal 1,2,3,0".into(),
            params: "test".into(),
            encoding: Encoding::DistanceMod3,
            entries: 100,
            levels: vec![1, 2, 3],
        };
        let payload = (0..Encoding::DistanceMod3.payload_len(100))
            .map(|i| i as u8)
            .collect();
        (header, payload)
    }

    fn write(dir: &Path) -> PathBuf {
        let (header, payload) = sample();
        let path = dir.join("t.tbl");
        save(&path, &header, |w| w.write_all(&payload)).unwrap();
        path
    }

    #[test]
    fn round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path());
        let t = load(&path).unwrap();
        let (header, payload) = sample();
        assert_eq!(t.header(), &header);
        assert_eq!(t.payload(), &payload[..]);
        assert!(header
            .expect(&path, "tiles 2x2 goal 1,2,3,0", "test")
            .is_ok());
        let err = header
            .expect(&path, "tiles 3x3 goal 1,2,3,4,5,6,7,8,0", "test")
            .unwrap_err();
        assert!(matches!(err, TableError::Mismatch { .. }), "{err}");
        // Only the final file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn damaged_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path());
        let good = std::fs::read(&path).unwrap();
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (good[..good.len() - 5].to_vec(), "truncated"),
            (
                {
                    let mut b = good.clone();
                    b[good.len() - 20] ^= 1;
                    b
                },
                "checksum",
            ),
            (
                {
                    let mut b = good.clone();
                    b[0] = b'X';
                    b
                },
                "not a godsearch table",
            ),
            (
                {
                    let mut b = good.clone();
                    b[16] = 9;
                    b
                },
                "version 9",
            ),
            (b"hello".to_vec(), "not a godsearch table"),
            (good[..40].to_vec(), "truncated"),
        ];
        for (bytes, expect) in cases {
            std::fs::write(&path, &bytes).unwrap();
            let err = load(&path).unwrap_err().to_string();
            assert!(
                err.contains(expect) || err.contains("damaged"),
                "{expect}: {err}"
            );
        }
    }
}
