//! The integration tests, each file a module of this one binary: one build and link instead of
//! one a file, and the test threads share out every file's tests at once (a file's one long
//! test no longer runs while the other core waits for the next binary).

mod canonical;
mod count_last;
mod cube3;
mod disk;
mod distributed;
mod half_depth;
mod levels;
