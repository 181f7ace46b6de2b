//! Balance checks: claims a designer keeps in a RON file beside the bestiary, each checked
//! exactly at every depth it names ("at depths 1-3, P(at least one `ogre` on a floor) <=
//! 1/100"). The figures are [`floor_distribution`]'s: a whole floor, its own placements,
//! without regions or wandering arrivals.
//!
//! A claims file:
//!
//! ```ron
//! (claims: [
//!     (name: "ogres are rare early", figure: AtLeastOne(Species("ogre")), depths: (1, 3),
//!      bound: AtMost("1/100")),
//!     (figure: Danger, depths: (10, 20), bound: Within("40", "60")),
//!     (name: "no unique before depth 5", figure: AnyUnique, depths: (1, 4), bound: AtMost("0")),
//!     (figure: NoneOf(Tag("undead")), depths: (1, 4), when: ["day"], bound: AtLeast("1/2")),
//! ])
//! ```
//!
//! A bound is a fraction (`"1/100"`) or a whole number (`"40"`). A figure past its bound
//! by at most [`TOLERANCE`] times the bound holds: the exact figures are sums of products
//! in `f64`, which may stray from the true ratio in their last bits. A bound of 0 allows
//! nothing past it: a figure that cannot come is worked as exactly 0.
//!
//! The unique ledger is the one the check is given (the command's `--killed`; empty
//! otherwise), and a claim's context is the declared defaults with the flags of its
//! `when` set and the integers of its `set`. A claim with no `branch` is of the default
//! floor, whatever branch the bestiary it is read against is seen from.

use denizen_core::{DataError, Entry, quoted};

use crate::bestiary::Bestiary;
use crate::context::Context;
use crate::ledger::UniqueLedger;
use crate::odds::{Counted, Distribution, OddsError, floor_distribution};

/// The most claims a file may hold.
pub const MAX_CLAIMS: usize = 1024;

/// How far past its bound a figure may lie and still hold, as a share of the bound.
pub const TOLERANCE: f64 = 1e-9;

/// A claims file as written.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename = "claims file")]
pub struct ClaimsFile {
    /// The claims, checked in order.
    pub claims: Vec<ClaimDef>,
}

/// One claim as written.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename = "claim")]
pub struct ClaimDef {
    /// What the verdicts call it (its figure and depths when empty).
    #[serde(default)]
    pub name: String,
    /// The figure claimed.
    pub figure: FigureDef,
    /// The depths, first and last, each checked.
    pub depths: (u32, u32),
    /// The branch whose floors these are (the default floor when empty).
    #[serde(default)]
    pub branch: String,
    /// Context flags that hold (none otherwise).
    #[serde(default)]
    pub when: Vec<String>,
    /// Context integers set (their declared defaults otherwise).
    #[serde(default)]
    pub set: Vec<(String, i64)>,
    /// The bound.
    pub bound: BoundDef,
}

/// A figure of a floor a claim bounds: a closed set.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum FigureDef {
    /// The chance a floor has at least one.
    AtLeastOne(Subject),
    /// The chance a floor has none.
    NoneOf(Subject),
    /// The expected count per floor.
    Expected(Subject),
    /// The expected danger per floor.
    Danger,
    /// The chance a floor has a unique (bound it `AtMost("0")` for "no unique").
    AnyUnique,
}

/// What a figure counts.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum Subject {
    /// A species, by key.
    Species(String),
    /// The species carrying a tag.
    Tag(String),
}

/// A bound as written: fractions (`"1/100"`) or whole numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub enum BoundDef {
    /// The figure is at most this.
    AtMost(String),
    /// The figure is at least this.
    AtLeast(String),
    /// The figure lies in this range, ends included.
    Within(String, String),
}

/// A claim checked against a bestiary: its figure resolved, its bound read.
#[derive(Clone, Debug)]
pub struct Claim {
    /// How the verdicts call it.
    pub name: String,
    /// What is counted, and which figure of its distribution.
    figure: (Counted, Figure),
    /// The depths.
    pub depths: (u32, u32),
    /// The bestiary seen from the claim's branch.
    bestiary: Bestiary,
    context: Context,
    /// Least and greatest allowed.
    bound: (f64, f64),
    /// The bound as written: `<= 1/20`, `>= 1/2`, `in 10..40`.
    bound_text: String,
}

#[derive(Clone, Copy, Debug)]
enum Figure {
    AtLeastOne,
    None,
    Mean,
}

/// Whether a claim holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// At every depth (by sampled figures too, when they are allowed).
    Yes,
    /// Not at its worst depth: one worked exactly, or a sampled one when sampled figures
    /// are allowed.
    No,
    /// Every depth worked exactly holds, but some figures were sampled (past the exact
    /// limits) and sampled figures are not allowed: not known, and it fails.
    Unknown,
}

/// A claim's verdict: whether it holds, and its worst depth and figure (the one nearest
/// its bound, or farthest past it).
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The claim's name.
    pub name: String,
    /// Whether it holds.
    pub holds: Holds,
    /// Whether the verdict rests on sampled figures: its worst figure was sampled, or it
    /// holds only by them.
    pub sampled: bool,
    /// Whether it fails the check: it does not hold, or is unknown.
    pub failed: bool,
    /// The worst depth.
    pub depth: u32,
    /// The figure there.
    pub figure: f64,
    /// The bound, as written.
    pub bound: String,
}

/// Reads a claims file `file` (named so in errors) and resolves each claim against `b`:
/// its species or tag known, its depths the floor's, its branch and context declared, its
/// bound a fraction. Errors name the file, the claim and the field.
pub fn load_claims(b: &Bestiary, file: &str, text: &str) -> Result<Vec<Claim>, DataError> {
    let written: ClaimsFile = denizen_core::load_ron(text, file)?;
    if written.claims.len() > MAX_CLAIMS {
        return Err(DataError::invalid(
            file,
            "",
            "claims",
            format!("more than {MAX_CLAIMS} claims"),
        ));
    }
    (written.claims.iter().enumerate())
        .map(|(i, c)| {
            let name = match c.name.is_empty() {
                true => describe(c),
                false => c.name.clone(),
            };
            let entry = format!("claims[{i}] {}", quoted(&name));
            resolve(b, c, name, Entry::new(file, &entry))
        })
        .collect()
}

/// `AtLeastOne(Species("ogre")) at depths 1-3`.
fn describe(c: &ClaimDef) -> String {
    format!("{:?} at depths {}-{}", c.figure, c.depths.0, c.depths.1)
}

fn resolve(b: &Bestiary, c: &ClaimDef, name: String, at: Entry<'_>) -> Result<Claim, DataError> {
    let bestiary = match c.branch.as_str() {
        "" => b.in_branch(None),
        key => match b.branch_by_key(key) {
            Some(id) => b.in_branch(Some(id)),
            None => return Err(at.invalid("branch", format!("no branch {}", quoted(key)))),
        },
    };
    let subject = |s: &Subject| match s {
        Subject::Species(key) => (b.species_by_key(key).map(Counted::Species))
            .ok_or_else(|| at.invalid("figure", format!("no species {}", quoted(key)))),
        Subject::Tag(tag) => match b.species().iter().any(|s| s.tags.contains(tag)) {
            true => Ok(Counted::Tag(tag.clone())),
            false => Err(at.invalid("figure", format!("no species has tag {}", quoted(tag)))),
        },
    };
    let figure = match &c.figure {
        FigureDef::AtLeastOne(s) => (subject(s)?, Figure::AtLeastOne),
        FigureDef::NoneOf(s) => (subject(s)?, Figure::None),
        FigureDef::Expected(s) => (subject(s)?, Figure::Mean),
        FigureDef::Danger => (Counted::Danger, Figure::Mean),
        FigureDef::AnyUnique => (Counted::Uniques, Figure::AtLeastOne),
    };
    let floor = bestiary.floor().depths;
    let (first, last) = c.depths;
    if first > last || !floor.contains(first) || !floor.contains(last) {
        return Err(at.invalid(
            "depths",
            format!("({first}, {last}) is not a span of the floor's depths, {floor}"),
        ));
    }
    let flags = c.when.iter().fold(Context::new(), |x, f| x.with_flag(f));
    (bestiary.context().check(&flags)).map_err(|e| at.invalid("when", e.to_string()))?;
    let context = (c.set.iter()).fold(flags, |x, (n, v)| x.with_value(n, *v));
    (bestiary.context().check(&context)).map_err(|e| at.invalid("set", e.to_string()))?;
    let read = |text: &str| fraction(text).map_err(|p| at.invalid("bound", p));
    let (bound, bound_text) = match &c.bound {
        BoundDef::AtMost(x) => ((f64::NEG_INFINITY, read(x)?), format!("<= {}", x.trim())),
        BoundDef::AtLeast(x) => ((read(x)?, f64::INFINITY), format!(">= {}", x.trim())),
        BoundDef::Within(x, y) => (
            (read(x)?, read(y)?),
            format!("in {}..{}", x.trim(), y.trim()),
        ),
    };
    if bound.0 > bound.1 {
        return Err(at.invalid("bound", "the range's first end passes its last"));
    }
    Ok(Claim {
        name,
        figure,
        depths: c.depths,
        bestiary,
        context,
        bound,
        bound_text,
    })
}

/// `"1/100"` or `"40"`: whole numbers, the denominator not 0.
fn fraction(text: &str) -> Result<f64, String> {
    let bad = || {
        format!(
            "{} is not a fraction such as \"1/100\" or a whole number",
            quoted(text)
        )
    };
    let whole = |t: &str| t.trim().parse::<u64>().map_err(|_| bad());
    match text.split_once('/') {
        None => Ok(whole(text)? as f64),
        Some((n, d)) => match whole(d)? {
            0 => Err(format!("{}: the denominator is 0", quoted(text))),
            d => Ok(whole(n)? as f64 / d as f64),
        },
    }
}

impl Claim {
    /// The claim's figure at each of its depths, with whether it was sampled.
    pub fn figures(&self, ledger: &UniqueLedger) -> Result<Vec<(u32, f64, bool)>, OddsError> {
        let (counted, figure) = &self.figure;
        let none = denizen_core::regions::Regions::default();
        (self.depths.0..=self.depths.1)
            .map(|depth| {
                let (b, c) = (&self.bestiary, &self.context);
                let d: Distribution = floor_distribution(b, depth, &none, ledger, c, counted)?;
                let value = match figure {
                    Figure::AtLeastOne => d.at_least(1),
                    Figure::None => d.none(),
                    Figure::Mean => d.mean(),
                };
                Ok((depth, value, d.sampled))
            })
            .collect()
    }

    /// Whether `x` lies within the bound, [`TOLERANCE`] of each end allowed.
    fn within(&self, x: f64) -> bool {
        let (low, high) = self.bound;
        x >= low - TOLERANCE * low.abs() && x <= high + TOLERANCE * high.abs()
    }

    /// The claim checked at each depth. A depth worked exactly that fails makes it fail.
    /// Otherwise, when a figure was sampled, it is [`Holds::Unknown`] unless
    /// `allow_sampled`, and then judged by the sampled figures too.
    pub fn check(&self, ledger: &UniqueLedger, allow_sampled: bool) -> Result<Verdict, OddsError> {
        let figures = self.figures(ledger)?;
        let sampled = figures.iter().any(|f| f.2);
        let judged: Vec<(u32, f64, bool)> = (figures.iter().copied())
            .filter(|f| allow_sampled || !f.2)
            .collect();
        let (low, high) = self.bound;
        // How far inside the bound a figure lies (below 0: past it).
        let margin = |x: f64| (x - low).min(high - x);
        let worst = |among: &[(u32, f64, bool)]| {
            (among.iter().copied()).min_by(|a, b| margin(a.1).total_cmp(&margin(b.1)))
        };
        let holds = match (judged.iter().all(|f| self.within(f.1)), sampled) {
            (false, _) => Holds::No,
            (true, true) if !allow_sampled => Holds::Unknown,
            (true, _) => Holds::Yes,
        };
        // Not known: the worst figure shown is the worst of all, sampled ones included.
        let shown = match holds {
            Holds::Unknown => &figures,
            _ => &judged,
        };
        let (depth, figure, at_sampled) =
            worst(shown)
                .or_else(|| worst(&figures))
                .unwrap_or((self.depths.0, f64::NAN, false));
        Ok(Verdict {
            name: self.name.clone(),
            holds,
            sampled: at_sampled || (sampled && holds != Holds::No),
            failed: holds != Holds::Yes,
            depth,
            figure,
            bound: self.bound_text.clone(),
        })
    }
}
