//! What can go wrong in the application layer, typed, with the one rule front ends need: was it
//! the request (bad input) or the work?

pub use godsearch_core::name_options;
use godsearch_enumerate::half_depth::HalfDepthError;
use godsearch_enumerate::pattern_db::PatternDbError;
use godsearch_enumerate::EnumerateError;
use godsearch_puzzles::tiles::{BoardError, PartitionError, SpaceError};
use godsearch_search::tiles::SearchError;
use godsearch_search::{DescentError, IdaError};
use godsearch_subgoal::{PlanError, SubgoalError};
use godsearch_tables::TableError;
use thiserror::Error;

/// An application-layer failure.
#[derive(Debug, Error)]
pub enum AppError {
    /// The request cannot be done as given (an option combination, a size no engine takes).
    #[error("{0}")]
    Input(String),
    /// A board that cannot be read or cannot reach the goal, quoted.
    #[error("board '{text}': {source}")]
    Board {
        /// The board as given (cut to a readable length).
        text: String,
        /// What is wrong with it.
        source: BoardError,
    },
    /// A cube the two-phase search could not solve, quoted.
    #[error("position '{text}': {source}")]
    Cube {
        /// The position as given (cut to a readable length).
        text: String,
        /// What went wrong.
        source: godsearch_twophase::SolveError,
    },
    /// A board size that cannot be ranked.
    #[error(transparent)]
    Space(#[from] SpaceError),
    /// A partition that cannot be used for this goal.
    #[error(transparent)]
    Partition(#[from] PartitionError),
    /// A subgoal plan that cannot be used.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// A search that failed or was refused.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A staged solver whose plan does not fit the board.
    #[error(transparent)]
    Subgoal(#[from] SubgoalError),
    /// A table descent that failed.
    #[error(transparent)]
    Descent(#[from] DescentError),
    /// An enumeration that could not start.
    #[error(transparent)]
    Enumerate(#[from] EnumerateError),
    /// A pattern database that could not be built.
    #[error(transparent)]
    PatternDb(#[from] PatternDbError),
    /// A definition file that does not read.
    #[error("{file}: {source}")]
    Definition {
        /// The file.
        file: String,
        /// What is wrong, and where in it.
        source: godsearch_orbit::DefinitionError,
    },
    /// A definition's space that cannot be made (an unknown generator, too many moves).
    #[error(transparent)]
    OrbitSpace(#[from] godsearch_orbit::SpaceError),
    /// A table file that could not be read or written, or belongs to something else.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A run that could not go on through no fault of the request (a process of a distributed
    /// run lost); what it saved is kept.
    #[error("{0}")]
    Run(String),
    /// A solution that does not pass its replay, or an engine that broke its promise: a bug.
    #[error("internal error: {0}")]
    Check(String),
}

impl AppError {
    /// `true` when a search refused the finished subtrees it was given to skip
    /// (`resume_subtrees`): they were recorded by another search, or by another build whose
    /// iterations split otherwise.
    pub fn refused_resume_subtrees(&self) -> bool {
        matches!(self, AppError::Search(SearchError::ResumeMismatch(_)))
    }

    /// `true` when the request itself is at fault (front ends answer "bad input": exit code 2,
    /// HTTP 400); `false` when the work failed (exit code 1, HTTP 500).
    pub fn is_bad_input(&self) -> bool {
        match self {
            AppError::Input(_)
            | AppError::Board { .. }
            | AppError::Space(_)
            | AppError::Partition(_)
            | AppError::Plan(_)
            | AppError::Enumerate(_)
            | AppError::Definition { .. }
            | AppError::OrbitSpace(_) => true,
            AppError::PatternDb(e) => !matches!(e, PatternDbError::Cancelled),
            AppError::Search(e) => search_refused(e),
            AppError::Cube { source, .. } => crate::registry::cubes::is_invalid_cube(source),
            AppError::Descent(_)
            | AppError::Subgoal(_)
            | AppError::Table(_)
            | AppError::Run(_)
            | AppError::Check(_) => false,
        }
    }
}

/// Whether `err`, one cause in a front end's error chain, says the request is at fault (bad
/// input: exit code 2, HTTP 400) rather than the work: an [`AppError`] that
/// [`is_bad_input`](AppError::is_bad_input), or any of the engines' and puzzles' own errors that
/// only a bad request raises (an unreadable board, cube or move, an unknown puzzle, a partition
/// or plan that does not fit, a search refused as asked). Front ends test each cause of a chain
/// with it, so they need not know the crates below this one.
pub fn is_bad_input_cause(err: &(dyn std::error::Error + 'static)) -> bool {
    use godsearch_puzzles::cube::{CubieError, FaceletError, NotationError, PositionError};
    use godsearch_puzzles::tiles::{MoveParseError, PatternError, ShapeError};
    if let Some(app) = err.downcast_ref::<AppError>() {
        return app.is_bad_input();
    }
    if let Some(search) = err.downcast_ref::<SearchError>() {
        return search_refused(search);
    }
    err.is::<BoardError>()
        || err.is::<ShapeError>()
        || err.is::<SpaceError>()
        || err.is::<MoveParseError>()
        || err.is::<NotationError>()
        || err.is::<FaceletError>()
        || err.is::<CubieError>()
        || err.is::<PositionError>()
        || err.is::<PatternError>()
        || err.is::<PartitionError>()
        || err.is::<PlanError>()
        || err.is::<EnumerateError>()
        || err.is::<PatternDbError>()
}

/// Why the goal's positions for a half-depth search could not be held, as the front ends say
/// it: too many for the memory (the request's to change), or a cancel.
pub(crate) fn ball_error(e: HalfDepthError) -> AppError {
    match e {
        HalfDepthError::TooLarge { .. } => {
            AppError::Input(format!("{e}; lower «depth» or raise «memory»"))
        }
        HalfDepthError::Cancelled => AppError::Run(e.to_string()),
    }
}

/// `message` (an error's text, from this crate or the ones below) with each option it names
/// (`«max_length»`, see [`godsearch_core::text::OPTION_OPEN`]) written as the request's field,
/// `max_length`: the words of the HTTP API and of Python's keyword arguments. Each front end
/// writes options in its own words through [`name_options`]; this is the request's.
pub fn options_as_fields(message: &str) -> String {
    name_options(message, str::to_string)
}

/// Whether a tile search's error refuses the request (a board too large, options it does not
/// take) rather than reports where the work stopped (a timeout with its bound, no solution).
fn search_refused(e: &SearchError) -> bool {
    !matches!(e, SearchError::Timeout { .. } | SearchError::Exhausted)
}

/// Shorthand for the results of this crate.
pub type AppResult<T> = Result<T, AppError>;

/// A generic IDA* that returned no path, as the error a front end shows: stopped (its time
/// limit or a cancel) with the bound it proved, counted in `unit` (`moves`, `flips`), or out of
/// positions, which `exhausted` words for the puzzle.
pub(crate) fn ida_stopped(
    e: IdaError,
    unit: &str,
    exhausted: impl FnOnce() -> AppError,
) -> AppError {
    match e {
        IdaError::Timeout {
            lower_bound,
            expanded,
        } => AppError::Input(format!(
            "no solution before the search was stopped (its time limit, or a cancel): every solution has at least {lower_bound} {unit} ({expanded} nodes expanded)"
        )),
        IdaError::Exhausted => exhausted(),
    }
}

/// Loads or builds `what` with `build`, shown to `progress` as tables (not charged to a job's
/// time, [`godsearch_core::progress::on_tables`]); a build that `progress` cancels is an error
/// naming `what`, and nothing of it is kept.
pub(crate) fn build_tables<T>(
    progress: &dyn godsearch_core::Progress,
    what: &str,
    build: impl FnOnce() -> Result<T, godsearch_core::Cancelled>,
) -> AppResult<T> {
    godsearch_core::progress::on_tables(progress, what, build)
        .map_err(|e| AppError::Run(format!("{what}: {e}")))
}
