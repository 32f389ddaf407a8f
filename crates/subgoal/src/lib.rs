//! Subgoal solvers: a board is solved in stages, each placing a few more tiles while the tiles
//! already placed stay put. Solutions are not optimal, but each stage is solved optimally over
//! its own abstraction, so they are short, and they come in milliseconds on boards far beyond
//! the reach of optimal search (10x10, 20x20, 30x30).
//!
//! A stage is a small puzzle of its own (DESIGN.md): its positions are where its tiles and the
//! blank stand among the cells not yet fixed; every move costs one. Small stage spaces get a
//! distance table, built once by a breadth-first search backwards from the stage's goals and
//! then descended; larger ones are searched with A* under an admissible heuristic (Manhattan
//! distance of the stage's tiles plus the blank's distance to the nearest of them). The solver
//! is a list of stages ([`Plan`]), data rather than code: [`Plan::default_for`] peels rows and
//! columns off the board until a final sub-board of at most 3x3 is solved in one stage.

mod plan;
mod stage;

pub use plan::{
    remove_loops, Plan, PlanError, Portfolio, SubgoalError, SubgoalSolver, DEFAULT_EFFORT,
};
pub use stage::{Stage, StageMethod};
