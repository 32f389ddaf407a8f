//! scratch
use godsearch_puzzles::tiles::DuplicateAutomaton;
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let t = std::time::Instant::now();
    let a = DuplicateAutomaton::new(n).unwrap();
    println!(
        "{} moves: {} rules, {} states, {:.2} s",
        n,
        a.rules(),
        a.states(),
        t.elapsed().as_secs_f64()
    );
}
