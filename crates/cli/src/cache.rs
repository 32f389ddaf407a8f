//! Where the command keeps its table cache (`--cache`, else the default folder), and what it
//! says on stderr when the application layer built or fell back on something ([`Notice`]).

use crate::output::errln;
use godsearch_app::cache::TableCache;
use godsearch_app::progress::Notice;
use godsearch_app::units::format_count;
use std::path::{Path, PathBuf};

/// The cache in `dir` (`--cache`), or in the default folder
/// ([`godsearch_app::defaults::cache_folder`]).
pub fn open(dir: Option<&Path>) -> TableCache {
    TableCache::new(dir.map_or_else(godsearch_app::defaults::cache_folder, Path::to_path_buf))
}

/// Tells stderr that `what` was built in `seconds`, and whether it was saved.
fn tell_built(what: &str, seconds: f64, replaced: Option<String>, saved: Result<PathBuf, String>) {
    let why = replaced.map_or(String::new(), |r| {
        format!(" (replacing a cached file: {r})")
    });
    match saved {
        Ok(dir) => errln!(
            "built {what} in {seconds:.1} s and saved it to {}{why}",
            dir.display()
        ),
        Err(not_saved) => errln!(
            "warning: built {what} in {seconds:.1} s but could not cache it ({not_saved}); it is built again next time"
        ),
    }
}

/// Tells stderr what a heuristic choice did: databases built (and cached or not), or the
/// `godsearch pdb build` command that would make long boards far faster; tables a cube solver
/// built; what half-depth search holds.
pub fn print_notice(notice: Notice, cache_flag: Option<&Path>) {
    match notice {
        Notice::Rebuilding { why } => {
            errln!("note: rebuilding a cached pattern database ({why})")
        }
        Notice::Built {
            tiles,
            entries,
            seconds,
            saved,
        } => {
            let kept = match saved {
                Ok(dir) => format!("cached in {}", dir.display()),
                Err(why) => format!("not cached ({why}), so it is built again next time"),
            };
            errln!(
                "built pattern database for tiles {tiles:?}: {} entries in {seconds:.2} s, {kept}",
                format_count(entries),
            );
        }
        Notice::StagesBuilt {
            plan,
            seconds,
            saved,
        } => {
            let kept = match saved {
                Ok(dir) => format!("cached in {}", dir.display()),
                Err(why) => format!("not cached ({why}), so they are built again next time"),
            };
            let plan = godsearch_app::units::excerpt(&plan);
            errln!("built the subgoal stage tables of plan {plan} in {seconds:.2} s, {kept}");
        }
        Notice::TablesBuilt {
            what,
            seconds,
            replaced,
            saved,
        } => tell_built(&what, seconds, replaced, saved),
        Notice::HalfDepthHeld {
            positions,
            depth,
            all,
        } => errln!(
            "{}",
            godsearch_app::request::half_depth_text(positions, depth, all)
        ),
        Notice::NothingCached {
            partition,
            puzzle,
            goal,
        } => {
            let mut command = format!("godsearch pdb build {puzzle} --pdb {partition}");
            if let Some(goal) = goal {
                command += &format!(" --goal {goal}");
            }
            if let Some(dir) = cache_flag {
                command += &format!(" --cache {}", dir.display());
            }
            errln!(
                "note: no pattern database is cached for this board size and goal; \
                 `{command}` builds {partition} once (under a minute here), after which long \
                 boards solve far faster"
            );
        }
    }
}
