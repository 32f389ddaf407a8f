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
//!
//! Only regular files are read or replaced: a directory, a device or a FIFO given as a table
//! is refused before it is opened (opening a FIFO would wait for a writer forever).
//! Temporary files are named `.godsearch-<pid>-<random>.tmp`, so that a front end can remove
//! its own after an interrupt ([`remove_temp_files_of`]) and clear stale ones left by killed
//! runs ([`remove_stale_temp_files`]).

use crc32fast::Hasher;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use thiserror::Error;

const MAGIC: &[u8; 16] = b"godsearch-table\n";
const END_MARKER: &[u8; 4] = b"END\n";
/// Version of the layout above; bumped whenever it changes.
pub const FORMAT_VERSION: u32 = 1;
const ENDIAN_MARK: u32 = 0x0102_0304;
const ALIGN: usize = 8;
const TRAILER_LEN: usize = 8;
/// Temporary files start with this, then the writer's process id and a dash.
const TEMP_PREFIX: &str = ".godsearch-";
/// Temporary files end with this.
const TEMP_SUFFIX: &str = ".tmp";

/// How the payload's entries are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Two bits an entry: distance mod 3, or 3 for unreached (see [`crate::packed`]).
    DistanceMod3 = 1,
    /// A byte an entry (pattern databases: moves of the group's tiles).
    Bytes = 2,
    /// Sorted, repeat-free keys written as the LEB128 varints of their gaps (the first from
    /// 0): a level of a disk-backed enumeration. Its length depends on the keys, so it is the
    /// one encoding whose payload length is not a function of the entry count.
    SortedDeltas = 3,
}

impl Encoding {
    fn from_u32(v: u32) -> Option<Self> {
        [
            Encoding::DistanceMod3,
            Encoding::Bytes,
            Encoding::SortedDeltas,
        ]
        .into_iter()
        .find(|e| *e as u32 == v)
    }

    /// Bytes of payload needed for `entries` entries; `None` for [`Encoding::SortedDeltas`],
    /// whose length depends on the keys.
    pub fn payload_len(self, entries: u64) -> Option<u64> {
        match self {
            Encoding::DistanceMod3 => Some(entries.div_ceil(32) * 8),
            Encoding::Bytes => Some(entries),
            Encoding::SortedDeltas => None,
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
    /// The operating system refused. (The I/O error is part of this message, not a separate
    /// source, so that a chain of causes does not print it twice.)
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: io::Error,
    },
    /// Not a regular file (a directory, a device, a FIFO, ...).
    #[error("{path}: is {kind}, not a table file")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead, with its article ("a directory").
        kind: &'static str,
    },
    /// The folder a table is to be written in does not exist or is not a folder.
    #[error("{0}: no such folder to write the table in")]
    NoFolder(PathBuf),
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

    /// The exact size of the file [`save_bytes`] writes from this header and a payload of
    /// `payload_len` bytes: the header, the payload, the checksum and the end marker.
    pub fn file_len(&self, payload_len: u64) -> u64 {
        let checksum = std::mem::size_of::<u32>() as u64;
        self.encode(payload_len).len() as u64 + payload_len + checksum + END_MARKER.len() as u64
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

/// The CRC-32 of `bytes`, the checksum table files carry: for identities that must change
/// whenever what they describe does (a definition's moves, in a table's header).
pub fn checksum_of(bytes: &[u8]) -> u32 {
    let mut hasher = Hasher::new();
    hasher.update(bytes);
    hasher.finalize()
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
/// the finished file onto `path`. For an encoding of variable length use [`save_bytes`].
pub fn save(
    path: &Path,
    header: &TableHeader,
    write_payload: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), TableError> {
    let payload_len =
        header
            .encoding
            .payload_len(header.entries)
            .ok_or_else(|| TableError::Header {
                path: path.to_path_buf(),
                what: "an encoding of variable length is saved from its bytes",
            })?;
    write_atomically(path, header, payload_len, write_payload).map(|_| ())
}

/// Writes a table atomically, as [`save`] does, from a payload already in memory (any
/// encoding; a fixed-length one must get exactly its length). Returns the file's checksum,
/// the one [`LoadedTable::checksum`] reads back.
pub fn save_bytes(path: &Path, header: &TableHeader, payload: &[u8]) -> Result<u32, TableError> {
    write_atomically(path, header, payload.len() as u64, |out| {
        out.write_all(payload)
    })
}

fn write_atomically(
    path: &Path,
    header: &TableHeader,
    payload_len: u64,
    write_payload: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<u32, TableError> {
    let io_err = |error| TableError::Io {
        path: path.to_path_buf(),
        error,
    };
    // Saving onto a symbolic link replaces the file it points to, not the link.
    let path = &follow_links(path).map_err(io_err)?;
    check_target(path)?;
    if header
        .encoding
        .payload_len(header.entries)
        .is_some_and(|fixed| fixed != payload_len)
    {
        return Err(io_err(io::Error::other(format!(
            "a payload of {payload_len} bytes for {} entries of this encoding",
            header.entries
        ))));
    }
    let tmp = temp_file_in(folder_of(path)).map_err(io_err)?;
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
    release_cache(tmp.as_file());
    tmp.persist(path).map_err(|e| io_err(e.error))?;
    Ok(checksum)
}

/// Asks the kernel to drop a written and synced file's pages from its cache. Pages cached as
/// they were written are small; read back through [`load`]'s mapping (advised for huge
/// pages), a file comes into the cache in huge pages that the mapping uses directly, so a
/// table read at random is as fast mapped as copied into huge pages. Advice only: nothing
/// is lost if the kernel ignores it.
fn release_cache(file: &File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: the descriptor is open for the call's duration; the call only gives advice
        // about its cached pages.
        #[allow(unsafe_code)]
        unsafe {
            libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
}

/// How many symbolic links [`follow_links`] follows before it gives up (Linux's own limit).
const MAX_LINKS_FOLLOWED: usize = 40;

/// `path` with every symbolic link at its end followed, to the file they lead to, which need
/// not exist yet (a dangling link names where the file is to be made). A path that is no link
/// is returned as it is. A loop of links is an error.
pub fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS_FOLLOWED {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = folder_of(&current).join(target);
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS_FOLLOWED} symbolic links in a row (a loop?)"
    )))
}

/// The folder `path` is in (`.` for a bare file name): where its temporary file is written.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The mode table files are created with: readable by everyone, writable by the owner, as
/// any file a Unix tool writes. The process's umask still applies (so a front end that wants
/// private files sets the umask to 077).
pub const TABLE_FILE_MODE: u32 = 0o644;

fn temp_file_in(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}{}-", std::process::id()))
        .suffix(TEMP_SUFFIX)
        .permissions(std::fs::Permissions::from_mode(TABLE_FILE_MODE))
        .tempfile_in(dir)
}

/// What a path that exists but is no regular file is, for messages ("a directory", "a FIFO",
/// "a device", "a socket").
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Refuses `path` unless it is a regular file (symbolic links followed).
fn check_regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), TableError> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(TableError::NotAFile {
            path: path.to_path_buf(),
            kind: kind_of(meta),
        })
    }
}

/// Checks, before any work, that a table could be saved at `path` (symbolic links followed):
/// its folder exists and takes new files, and `path` is absent or a regular file ([`save`] will not replace a directory,
/// a device or a FIFO). Creates and removes one empty temporary file to find out.
pub fn check_target(path: &Path) -> Result<(), TableError> {
    let io_err = |error| TableError::Io {
        path: path.to_path_buf(),
        error,
    };
    let target = follow_links(path).map_err(io_err)?;
    let path = &target;
    let dir = folder_of(path);
    if !dir.is_dir() {
        return Err(TableError::NoFolder(dir.to_path_buf()));
    }
    match std::fs::metadata(path) {
        Ok(meta) => check_regular(path, &meta)?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_err(e)),
    }
    temp_file_in(dir).map_err(|error| TableError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    Ok(())
}

/// Whether a file name is that of a temporary table file (one being written, or left by a
/// killed run).
pub fn is_temp_file_name(name: &str) -> bool {
    temp_file_owner(name).is_some()
}

/// The process id a temporary table file's name says wrote it, if it is one of ours.
fn temp_file_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(TEMP_PREFIX)?.strip_suffix(TEMP_SUFFIX)?;
    rest.split_once('-')?.0.parse().ok()
}

/// Removes the temporary table files in `dir` that match `doomed` (given the writer's process
/// id and the file's metadata); returns how many went. Files that vanish meanwhile are skipped.
fn remove_temp_files(
    dir: &Path,
    doomed: impl Fn(u32, &std::fs::Metadata) -> bool,
) -> io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Some(owner) = entry.file_name().to_str().and_then(temp_file_owner) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_file() && doomed(owner, &meta) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Removes the temporary table files that process `pid` was writing in `dir` (a front end calls
/// this for itself when interrupted; the renamed, finished tables are never touched).
pub fn remove_temp_files_of(dir: &Path, pid: u32) -> io::Result<usize> {
    remove_temp_files(dir, |owner, _| owner == pid)
}

/// Removes temporary table files in `dir` that nobody has written to for `older_than`: the
/// remains of runs killed while saving. A live writer touches its file continuously, so any
/// age of minutes is safe.
pub fn remove_stale_temp_files(dir: &Path, older_than: Duration) -> io::Result<usize> {
    let now = SystemTime::now();
    remove_temp_files(dir, |_, meta| {
        meta.modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age >= older_than)
    })
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

    /// The payload bytes, checked against the checksum at load. Inlined: searches read a
    /// mapped table through it.
    #[inline]
    pub fn payload(&self) -> &[u8] {
        &self.map[self.payload.clone()]
    }

    /// The file's checksum (CRC-32 of every byte before it), as [`save_bytes`] returned it.
    pub fn checksum(&self) -> u32 {
        let at = self.payload.end;
        u32::from_le_bytes(self.map[at..at + 4].try_into().expect("4 bytes"))
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
    let io_err = |error| TableError::Io {
        path: path.to_path_buf(),
        error,
    };
    check_regular(path, &std::fs::metadata(path).map_err(io_err)?)?;
    let file = File::open(path).map_err(io_err)?;
    // SAFETY: the map is read-only. Another process truncating or rewriting the file while it is
    // mapped could change what we read; godsearch itself only ever replaces table files by
    // rename, which leaves this mapping intact, and the checksum below is verified first.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io_err)?;
    // Pages the checksum below brings into the cache come in huge pages where the kernel can
    // ([`release_cache`]): fewer TLB misses for the searches that read tables at random.
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    let (header, payload) = validate(&map, path)?;
    Ok(LoadedTable {
        header,
        map,
        payload,
    })
}

/// Validates the bytes of a whole table file (as [`load`] does after mapping it) and returns
/// its header and where the payload lies. `path` only names the file in errors. Never panics,
/// whatever the bytes.
pub fn validate(bytes: &[u8], path: &Path) -> Result<(TableHeader, Range<usize>), TableError> {
    let p = path.to_path_buf();
    let (header, start, payload_len) = decode_header(bytes, path)?;
    let expected = file_len(start, payload_len);
    if expected != bytes.len() as u64 {
        return Err(TableError::Length {
            path: p,
            expected,
            found: bytes.len() as u64,
        });
    }
    let end = start + payload_len as usize;
    let stored = u32::from_le_bytes(bytes[end..end + 4].try_into().expect("4 bytes"));
    if &bytes[end + 4..] != END_MARKER || crc32fast::hash(&bytes[..end]) != stored {
        return Err(TableError::Checksum(p));
    }
    Ok((header, start..end))
}

/// The length of a table file whose payload of `payload_len` bytes starts at `start`.
fn file_len(start: usize, payload_len: u64) -> u64 {
    (start as u64)
        .saturating_add(payload_len)
        .saturating_add(TRAILER_LEN as u64)
}

/// Bytes read from the front of a file for [`read_header`]: far more than any header takes.
const HEADER_READ_LIMIT: u64 = 1 << 20;

/// The header of the table file at `path`, read from its first bytes, and the file's length;
/// the length is checked against the header, the checksum is not (that needs every byte:
/// [`load`] checks it). For listing a folder of tables quickly.
pub fn read_header(path: &Path) -> Result<(TableHeader, u64), TableError> {
    use std::io::Read;
    let io_err = |error| TableError::Io {
        path: path.to_path_buf(),
        error,
    };
    let meta = std::fs::metadata(path).map_err(io_err)?;
    check_regular(path, &meta)?;
    let mut front = Vec::new();
    File::open(path)
        .map_err(io_err)?
        .take(HEADER_READ_LIMIT)
        .read_to_end(&mut front)
        .map_err(io_err)?;
    let (header, start, payload_len) = decode_header(&front, path)?;
    let expected = file_len(start, payload_len);
    if expected != meta.len() {
        return Err(TableError::Length {
            path: path.to_path_buf(),
            expected,
            found: meta.len(),
        });
    }
    Ok((header, meta.len()))
}

/// Whether the file at `path` is a regular file that starts with the table magic: one that
/// godsearch wrote, whether or not the rest of it is intact. `false` for anything else,
/// including a file that cannot be read.
pub fn has_table_magic(path: &Path) -> bool {
    use std::io::Read;
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if check_regular(path, &meta).is_err() {
        return false;
    }
    let mut front = [0u8; MAGIC.len()];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut front))
        .is_ok_and(|()| &front == MAGIC)
}

/// Decodes the header at the front of `bytes` (the whole file or its first bytes): the header,
/// where the payload starts, and the payload's length. Never panics, whatever the bytes.
fn decode_header(bytes: &[u8], path: &Path) -> Result<(TableHeader, usize, u64), TableError> {
    let p = path.to_path_buf();
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(TableError::NotATable(p));
    }
    let mut c = Cursor {
        bytes,
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
    if encoding
        .payload_len(entries)
        .is_some_and(|fixed| fixed != payload_len)
    {
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
    let header = TableHeader {
        puzzle,
        params,
        encoding,
        entries,
        levels,
    };
    Ok((header, start, payload_len))
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
        let payload = (0..Encoding::DistanceMod3.payload_len(100).unwrap())
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
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(header.file_len(payload.len() as u64), size);
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

    #[test]
    fn only_regular_files_are_read_or_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let err = load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("is a directory"), "{err}");
        let err = load(Path::new("/dev/null")).unwrap_err().to_string();
        assert!(err.contains("is a device"), "{err}");
        let (header, payload) = sample();
        let err = save(Path::new("/dev/null"), &header, |w| w.write_all(&payload));
        assert!(matches!(err, Err(TableError::NotAFile { .. })), "{err:?}");
        let err = check_target(&dir.path().join("missing").join("t.tbl")).unwrap_err();
        assert!(matches!(err, TableError::NoFolder(_)), "{err}");
        assert!(check_target(&dir.path().join("t.tbl")).is_ok());
        // The check leaves nothing behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // An I/O error is said once.
        let err = load(&dir.path().join("absent.tbl")).unwrap_err();
        assert!(std::error::Error::source(&err).is_none());
    }

    #[test]
    fn saving_onto_a_symbolic_link_replaces_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let targets = dir.path().join("targets");
        std::fs::create_dir(&targets).unwrap();
        let header = TableHeader {
            puzzle: "p".into(),
            params: "q".into(),
            encoding: Encoding::Bytes,
            entries: 3,
            levels: vec![],
        };
        let check = |link: &Path, target: &Path, payload: &[u8]| {
            save_bytes(link, &header, payload).unwrap();
            assert!(std::fs::symlink_metadata(link)
                .unwrap()
                .file_type()
                .is_symlink());
            assert_eq!(load(target).unwrap().payload(), payload);
        };
        // A link to an existing table, relative, through a second link.
        let target = targets.join("table.tbl");
        std::fs::write(&target, b"old").unwrap();
        let first = dir.path().join("first.tbl");
        std::os::unix::fs::symlink("targets/table.tbl", &first).unwrap();
        let second = dir.path().join("second.tbl");
        std::os::unix::fs::symlink(&first, &second).unwrap();
        check(&second, &target, &[1, 2, 3]);
        assert!(std::fs::symlink_metadata(&first)
            .unwrap()
            .file_type()
            .is_symlink());
        // A dangling link: the table is made where it points.
        let fresh = targets.join("fresh.tbl");
        let dangling = dir.path().join("dangling.tbl");
        std::os::unix::fs::symlink(&fresh, &dangling).unwrap();
        check(&dangling, &fresh, &[4, 5, 6]);
        // A link into a folder that does not exist is refused before any work, and a loop too.
        let nowhere = dir.path().join("nowhere.tbl");
        std::os::unix::fs::symlink(dir.path().join("none/t.tbl"), &nowhere).unwrap();
        assert!(matches!(
            check_target(&nowhere),
            Err(TableError::NoFolder(_))
        ));
        let a = dir.path().join("a.tbl");
        let b = dir.path().join("b.tbl");
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let refused = check_target(&a).unwrap_err().to_string();
        assert!(refused.contains("symbolic links"), "{refused}");
    }

    #[test]
    fn temporary_files_are_found_by_owner_and_age() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path());
        let mine = temp_file_in(dir.path()).unwrap().keep().unwrap().1;
        let other = dir.path().join(format!("{TEMP_PREFIX}1-abc{TEMP_SUFFIX}"));
        std::fs::write(&other, b"partial").unwrap();
        let unrelated = dir.path().join(".godsearch-notes.txt");
        std::fs::write(&unrelated, b"keep").unwrap();
        assert_eq!(
            remove_stale_temp_files(dir.path(), Duration::from_secs(3600)).unwrap(),
            0
        );
        assert_eq!(
            remove_temp_files_of(dir.path(), std::process::id()).unwrap(),
            1
        );
        assert!(!mine.exists() && other.exists());
        assert_eq!(
            remove_stale_temp_files(dir.path(), Duration::ZERO).unwrap(),
            1
        );
        assert!(!other.exists() && unrelated.exists() && path.exists());
    }

    mod fuzz {
        use super::*;
        use proptest::prelude::*;

        fn good_file() -> Vec<u8> {
            let dir = tempfile::tempdir().unwrap();
            std::fs::read(write(dir.path())).unwrap()
        }

        proptest! {
            /// Any bytes: an error or a table, never a panic.
            #[test]
            fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
                let _ = validate(&bytes, Path::new("fuzz"));
            }

            /// A valid file with bytes changed, cut or added: refused (the checksum covers
            /// every byte), never accepted with other contents and never a panic.
            #[test]
            fn damaged_files_are_refused(
                edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
                cut in proptest::option::of(any::<prop::sample::Index>()),
            ) {
                let good = good_file();
                let mut bytes = good.clone();
                for (at, value) in &edits {
                    let i = at.index(bytes.len());
                    bytes[i] = *value;
                }
                if let Some(c) = cut {
                    bytes.truncate(c.index(bytes.len()));
                }
                match validate(&bytes, Path::new("fuzz")) {
                    Ok(_) => prop_assert_eq!(&bytes, &good),
                    Err(_) => prop_assert_ne!(&bytes, &good),
                }
            }
        }
    }
}
