//! The integration tests, each file a module of this one binary: one build and link instead of
//! one a file, and the test threads share out every file's tests at once (a file's one long
//! test no longer runs while the other core waits for the next binary).
//!
//! The run-time registry test is a binary of its own (`tests/registry.rs`): the puzzle it
//! registers would join every catalog these tests read.

mod batch;
mod definitions;
mod entries;
mod messages;
mod pancake;
mod schema;
