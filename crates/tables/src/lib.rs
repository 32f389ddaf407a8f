//! Tables: packed arrays indexed by rank, and the file format that stores them.
//!
//! - [`packed`]: the 2-bit "distance mod 3" table, shared safely between threads while a BFS
//!   fills it, and a read-only view of the same layout over any bytes (a memory-mapped file).
//! - [`blocked`]: two bits an entry above a base with a minimum a block, a table of lower
//!   bounds whose entries are read alone (the optimal cube solver's, after nxopt).
//! - [`level`]: the entry encodings the table engine fills ([`LevelTable`]: 2-bit mod 3, or a
//!   byte of exact distance with its read-only [`ByteView`]).
//! - [`resident`]: tables in memory backed by huge pages, for random reads and marks (a copy of
//!   a table's bytes, or a 2-bit table's words while a BFS fills it), and [`prefetch`] for
//!   reads known ahead.
//! - [`file`](mod@file): the table file: a header naming the puzzle and parameters, the payload, and a
//!   checksum; written atomically, validated completely on load.

pub mod blocked;
pub mod file;
pub mod level;
pub mod packed;
pub mod resident;

pub use file::{Encoding, LoadedTable, TableError, TableHeader};
pub use level::{entries_per_word, ByteTable, ByteView, LevelTable};
pub use packed::{DistanceMod3, TwoBitTable, TwoBitView, UNREACHED};
pub use resident::{prefetch, ResidentBytes, ResidentWords, TableBytes};
