//! Move sequences over a definition's named moves, as cubing.js writes algorithms: names with
//! an amount (`R`, `R2`, `R'`, `R2'`), groups with a repeat (`(R U)3`), commutators
//! (`[A, B]` = `A B A' B'`), conjugates (`[A: B]` = `A B A'`) and `//` comments. A sequence is
//! expanded into a flat list of (move, signed amount), which [`to_transformation`] folds.

use super::definition::{DefinitionError, OrbitDef, Transformation};

/// One step of an expanded sequence: a move's index among the names given, and how many times
/// it is turned (negative: the other way).
pub type Step = (usize, i64);

/// The most steps one sequence may expand to (a repeat count or nested commutators could
/// otherwise ask for more than memory holds).
pub const MAX_STEPS: usize = 1 << 20;

/// Parses `text` over the move `names`, expanded to steps; the error says what does not parse.
pub fn parse(text: &str, names: &[String]) -> Result<Vec<Step>, String> {
    let mut parser = Parser {
        chars: strip_comments(text).chars().collect(),
        at: 0,
        names,
    };
    let steps = parser.sequence()?;
    parser.skip_space();
    if let Some(c) = parser.peek() {
        return Err(format!("unexpected '{c}' at character {}", parser.at + 1));
    }
    Ok(steps)
}

/// Parses `text` as [`parse`] does, with errors placed at `at` (a JSON path or a line).
pub fn parse_at(text: &str, names: &[String], at: &str) -> Result<Vec<Step>, DefinitionError> {
    parse(text, names).map_err(|why| DefinitionError::BadAlgorithm {
        at: at.into(),
        alg: text.into(),
        why,
    })
}

/// The transformation of `steps` over the `moves` they index.
pub fn to_transformation(
    steps: &[Step],
    moves: &[&Transformation],
    orbits: &[OrbitDef],
) -> Transformation {
    let mut result = Transformation::identity(orbits);
    for &(m, amount) in steps {
        let t = if amount < 0 {
            moves[m].inverse(orbits)
        } else {
            moves[m].clone()
        };
        for _ in 0..amount.unsigned_abs() {
            result = result.then(&t, orbits);
        }
    }
    result
}

fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

fn invert(steps: &[Step]) -> Vec<Step> {
    steps.iter().rev().map(|&(m, a)| (m, -a)).collect()
}

struct Parser<'a> {
    chars: Vec<char>,
    at: usize,
    names: &'a [String],
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace() || c == '.') {
            self.at += 1;
        }
    }

    fn sequence(&mut self) -> Result<Vec<Step>, String> {
        let mut steps = Vec::new();
        loop {
            self.skip_space();
            let Some(c) = self.peek() else { break };
            let atom = match c {
                '(' => {
                    self.at += 1;
                    let inner = self.sequence()?;
                    self.expect(')')?;
                    inner
                }
                '[' => self.bracket()?,
                c if is_name_char(c) => self.name()?,
                _ => break,
            };
            let amount = self.amount()?;
            let repeated = repeat(&atom, amount)?;
            steps.extend(repeated);
            if steps.len() > MAX_STEPS {
                return Err(format!("it expands to more than {MAX_STEPS} moves"));
            }
        }
        Ok(steps)
    }

    fn expect(&mut self, want: char) -> Result<(), String> {
        self.skip_space();
        match self.peek() {
            Some(c) if c == want => {
                self.at += 1;
                Ok(())
            }
            Some(c) => Err(format!(
                "expected '{want}' at character {}, found '{c}'",
                self.at + 1
            )),
            None => Err(format!("expected '{want}' before the end")),
        }
    }

    fn bracket(&mut self) -> Result<Vec<Step>, String> {
        self.at += 1;
        let a = self.sequence()?;
        self.skip_space();
        let kind = self.peek();
        match kind {
            Some(',') | Some(':') => self.at += 1,
            _ => {
                return Err(format!(
                    "expected ',' or ':' inside [ ] at character {}",
                    self.at + 1
                ))
            }
        }
        let b = self.sequence()?;
        self.expect(']')?;
        let mut out = a.clone();
        out.extend(b.iter().copied());
        out.extend(invert(&a));
        if kind == Some(',') {
            out.extend(invert(&b));
        }
        Ok(out)
    }

    fn name(&mut self) -> Result<Vec<Step>, String> {
        let start = self.at;
        while self.peek().is_some_and(is_name_char) {
            self.at += 1;
        }
        let token: String = self.chars[start..self.at].iter().collect();
        if let Some(i) = self.names.iter().position(|n| *n == token) {
            return Ok(vec![(i, 1)]);
        }
        // A count written after the name: `R2`, `BR3`.
        let base = token.trim_end_matches(|c: char| c.is_ascii_digit());
        if base.len() < token.len() && !base.is_empty() {
            if let Some(i) = self.names.iter().position(|n| n == base) {
                let count: i64 = token[base.len()..]
                    .parse()
                    .map_err(|_| format!("the count in '{token}' is too large"))?;
                return Ok(vec![(i, count)]);
            }
        }
        Err(format!("unknown move '{token}'"))
    }

    /// A count and/or a prime after an atom: 1 when none.
    fn amount(&mut self) -> Result<i64, String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        let mut amount: i64 = if digits.is_empty() {
            1
        } else {
            digits
                .parse()
                .ok()
                .filter(|&n: &i64| n as usize <= MAX_STEPS)
                .ok_or_else(|| format!("the count {digits} is too large"))?
        };
        if matches!(self.peek(), Some('\'') | Some('’')) {
            self.at += 1;
            amount = -amount;
        }
        Ok(amount)
    }
}

fn repeat(atom: &[Step], amount: i64) -> Result<Vec<Step>, String> {
    if atom.len() == 1 {
        let (m, a) = atom[0];
        return Ok(vec![(m, a * amount)]);
    }
    let one = if amount < 0 {
        invert(atom)
    } else {
        atom.to_vec()
    };
    let times = amount.unsigned_abs() as usize;
    if one.len().saturating_mul(times) > MAX_STEPS {
        return Err(format!("it expands to more than {MAX_STEPS} moves"));
    }
    Ok(one.repeat(times))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["R", "U", "x", "BR"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn algorithms_expand_as_cubers_write_them() {
        let n = names();
        assert_eq!(parse("R U' R2", &n).unwrap(), [(0, 1), (1, -1), (0, 2)]);
        assert_eq!(parse("[x: U]", &n).unwrap(), [(2, 1), (1, 1), (2, -1)]);
        assert_eq!(
            parse("[R, U]", &n).unwrap(),
            [(0, 1), (1, 1), (0, -1), (1, -1)]
        );
        assert_eq!(
            parse("(R U)2'", &n).unwrap(),
            [(1, -1), (0, -1), (1, -1), (0, -1)]
        );
        assert_eq!(
            parse("BR2' // a comment\nx", &n).unwrap(),
            [(3, -2), (2, 1)]
        );
        assert_eq!(parse("[x2: U]", &n).unwrap(), [(2, 2), (1, 1), (2, -2)]);
        for bad in ["Q", "(R U", "[R U]", "R)", "[R, U, x]", "(R)99999999999"] {
            assert!(parse(bad, &n).is_err(), "{bad}");
        }
    }
}
