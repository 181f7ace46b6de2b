//! Exact odds: the expected count of every species per placement or per floor. They are
//! the draw itself, the walk (`walk`), read with every branch followed: nesting, groups,
//! escorts, the out-of-depth branch, the fairness cap and the unique ledger are the
//! walk's, the weights, depths and dice the rules module's, the same the draw rolls.
//!
//! Each draw's chance is the exact ratio of its integer weights; a chain of draws
//! multiplies them in `f64`. The uniques a floor's draw can bring and that may still come
//! are tracked as a set, so the work grows as `2^u` for `u` of them: past
//! [`MAX_EXACT_UNIQUES`] the figures are sampled instead, with their standard errors
//! ([`Odds::standard_errors`]).

mod bag;
mod budget;
mod distribution;
mod explain;
mod region;

pub use budget::{FloorOdds, floor_odds, table_floor_odds};
pub use distribution::{Counted, Distribution, floor_distribution};
pub use explain::{Came, DrawPath, Explanation, MAX_EXPLAINED_PATHS, explain};
pub use region::{RegionOdds, region_odds};

use std::collections::{BTreeSet, HashMap};

use crate::bestiary::{Bestiary, SpeciesId, TableId};
use crate::context::{Conditions, Context};
use crate::ledger::{UniqueLedger, gone_by_ledger};
use crate::roll::Roll;
use crate::rules::Key;
use crate::rules::eligible;
use crate::walk::{self, Budgeting, Reading, Role, Walk};
use crate::weight::Chance;

/// The most uniques a floor's draw can bring, still available, for which the odds are
/// worked exactly (at most 12 tracked, so the set of those taken fits in a word).
pub const MAX_EXACT_UNIQUES: usize = 12;

/// How many floors the sampled figures draw when the exact ones are too large.
pub const SAMPLED_FLOORS: u32 = 20_000;

/// Per placement or per floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Per {
    /// One placement (the floor's first: no out-of-depth placement before it).
    Placement,
    /// A whole floor: its count, the fairness cap and the uniques it places.
    Floor,
}

/// The expected count of each species, by [`SpeciesId::index`].
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// Expected counts.
    pub expected: Vec<f64>,
    /// When the figures were sampled (past the exact limits: uniques, caps, states or danger): each figure's
    /// standard error, from [`SAMPLED_FLOORS`] floors or placements.
    pub standard_errors: Option<Vec<f64>>,
}

pub use crate::rules::OddsError;

impl Odds {
    /// The expected danger: each species' cost times its expected count, summed (the
    /// expected sum of the costs of what a floor or placement draws).
    pub fn danger(&self, b: &Bestiary) -> f64 {
        (b.species().iter().zip(&self.expected))
            .map(|(s, e)| f64::from(s.cost) * e)
            .sum()
    }
}

/// The expected count of each species at `depth` in `context`, per placement or per
/// floor, for the uniques `ledger` leaves available.
pub fn odds(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    context: &Context,
    per: Per,
) -> Result<Odds, OddsError> {
    table_odds(b, b.floor().table, depth, ledger, context, per)
}

/// [`odds`] of a floor whose placements draw from `table` instead of the floor's (a
/// [`FloorTerms`](crate::FloorTerms) naming it): the floor's count, out-of-depth rule
/// and fairness cap stay.
pub fn table_odds(
    b: &Bestiary,
    table: TableId,
    depth: u32,
    ledger: &UniqueLedger,
    context: &Context,
    per: Per,
) -> Result<Odds, OddsError> {
    crate::rules::check_depth(b, depth)?;
    crate::rules::check_table(b, table)?;
    let c = b.context().resolve(context)?;
    // A budgeted floor's walk needs each placement's cost.
    let track = per == Per::Floor && b.floor().budget.is_some();
    let walked = Exact::new(b, (&[table], c), ledger, track).and_then(|mut exact| {
        let dist = match per {
            Per::Placement => {
                let deep = b.floor().out_of_depth;
                walk::placement(&mut exact, State::START, (table, depth), deep)
            }
            Per::Floor => {
                let draw = walk::Draw::floor(b, (table, depth));
                walk::floor(&mut exact, State::START, draw, None)
            }
        };
        (!exact.overflow).then(|| exact.expected(&dist))
    });
    Ok(match walked {
        Some(expected) => Odds {
            expected,
            standard_errors: None,
        },
        None => sampled(b, (table, depth, c), ledger, per),
    })
}

/// The most species and groups with a per-floor cap a floor's draw can bring for which
/// the odds are worked exactly; past it they are sampled, as past [`MAX_EXACT_UNIQUES`].
pub const MAX_EXACT_CAPPED: usize = 8;

/// The most sets of counts the caps a floor's draw can bring allow (each cap plus one,
/// multiplied: 8 caps of 1, or one of 200) for which the odds are worked exactly; past
/// it they are sampled, so the exact work stays bounded whatever the caps.
pub const MAX_EXACT_CAP_STATES: u64 = 256;

/// The most states the exact walk of a budgeted floor may visit, the most outcomes (states
/// left, a floor's danger among them) one of its distributions may hold, and the most
/// table and group walks it may remember; past any, the walk stops and the figures are
/// sampled, as past [`MAX_EXACT_UNIQUES`].
pub const MAX_EXACT_STATES: u64 = 1 << 20;

/// The largest danger a floor's exact distribution follows; a floor that can draw more is
/// sampled.
pub const MAX_EXACT_DANGER: u32 = 100_000;

/// The state a step of the exact walk goes on from: the tracked uniques taken (a bit
/// each), how many of the floor's placements went out of depth, how many of each capped
/// species or group the floor holds, (when followed) the danger drawn so far, and (when
/// counted) the count of what [`Counted`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct State {
    mask: u32,
    out_of_depth: u32,
    kept: [u8; MAX_EXACT_CAPPED],
    spent: u32,
    /// The floor's bags, by their number among the bag states met.
    bags: u32,
    /// What the floor has drawn of what is counted, so far.
    tally: u32,
}

impl State {
    /// A floor's start: nothing taken, counted or spent.
    const START: State = State {
        mask: 0,
        out_of_depth: 0,
        kept: [0; MAX_EXACT_CAPPED],
        spent: 0,
        bags: 0,
        tally: 0,
    };
}

/// One outcome of a draw: the state after it, its chance, and the counts of each species
/// (of each path, when explaining) weighted by that chance.
#[derive(Clone, Debug)]
struct Outcome {
    at: State,
    p: f64,
    counts: Vec<f64>,
}

/// The outcomes of a draw, one per state it can leave.
type Dist = Vec<Outcome>;

/// A table's eligible rows with their weights, and the total weight.
type Eligible = (Vec<(usize, u64)>, u64);

/// The exact reading of [`crate::walk`]: every branch followed with its chance, outcomes
/// joined by the state they leave, and each table's and group's outcomes remembered by
/// the state they start from.
struct Exact<'b> {
    b: &'b Bestiary,
    /// Per species: its bit among the tracked uniques.
    bit: Vec<Option<u32>>,
    /// Per species: a unique the ledger leaves out.
    gone: Vec<bool>,
    /// By [`Key::index`]: a capped species' or group's place in `State::kept`, and its cap.
    slot: Vec<Option<(usize, u32)>>,
    /// The context the draw is made in.
    c: Conditions,
    /// Whether the danger drawn is followed (`State::spent`).
    track: bool,
    /// Per species: what one adds to `State::tally`, when a count is followed.
    tally: Option<Vec<u32>>,
    /// When explaining a species: the paths that bring it, each an index of `counts`.
    explaining: Option<explain::Paths>,
    /// How long an outcome's `counts` are: one per species, or one per path explained.
    width: usize,
    /// Whether the walk went past [`MAX_EXACT_STATES`] or [`MAX_EXACT_DANGER`]: its
    /// figures are then not used.
    overflow: bool,
    /// The states a budgeted floor's walk has visited.
    visited: u64,
    /// Each placement's outcomes from a state (its danger counted from 0).
    placements: HashMap<State, Dist>,
    /// The bag states met, by number (the first: no bag filled), and their numbers.
    bag_sets: Vec<crate::bag::Bags>,
    bag_ids: HashMap<crate::bag::Bags, u32>,
    memo: HashMap<(Walk, State), Dist>,
    /// Each table's eligible rows and total weight, by table, depth and what ran out.
    eligible: HashMap<(TableId, u32, u32, [u8; MAX_EXACT_CAPPED]), Eligible>,
}

fn add(sum: &mut [f64], counts: &[f64], scale: f64) {
    for (s, c) in sum.iter_mut().zip(counts) {
        *s += c * scale;
    }
}

impl<'b> Exact<'b> {
    /// The exact reading of floors from `table`, following their danger when `track`;
    /// none when it would track more uniques or caps than the exact limits.
    fn new(
        b: &'b Bestiary,
        (tables, c): (&[TableId], Conditions),
        ledger: &UniqueLedger,
        track: bool,
    ) -> Option<Self> {
        let gone = gone_by_ledger(b, ledger);
        let mut bit = vec![None; b.species.len()];
        let mut bits = Vec::new();
        let (mut species, mut groups) = (BTreeSet::new(), BTreeSet::new());
        for &table in tables {
            let (s, g) = crate::rules::reach(b, table);
            species.extend(s);
            groups.extend(g);
        }
        // Only the uniques a floor's draw can bring are tracked (others never change).
        for &s in &species {
            if b.species_of(s).unique && !gone[s.index()] {
                bit[s.index()] = Some(bits.len() as u32);
                bits.push(s);
            }
        }
        // The capped species and groups a floor's draw can bring are tracked: a cap is at
        // most 200, so a count fits a byte.
        let caps = (species.iter())
            .filter_map(|&s| Some((Key::Species(s), b.species_of(s).max_per_floor?)))
            .chain(
                (groups.iter()).filter_map(|&g| Some((Key::Group(g), b.group(g).max_per_floor?))),
            );
        let mut slot = vec![None; b.species.len() + b.groups.len()];
        let (mut capped, mut states) = (0, 1u64);
        for (k, cap) in caps {
            slot[k.index(b)] = Some((capped, cap));
            capped += 1;
            states = states.saturating_mul(u64::from(cap) + 1);
        }
        let too_many = bits.len() > MAX_EXACT_UNIQUES
            || capped > MAX_EXACT_CAPPED
            || states > MAX_EXACT_CAP_STATES;
        (!too_many).then(|| Self {
            b,
            bit,
            gone,
            slot,
            c,
            track,
            tally: None,
            explaining: None,
            width: b.species.len(),
            overflow: false,
            visited: 0,
            placements: HashMap::new(),
            bag_sets: vec![crate::bag::Bags::new()],
            bag_ids: HashMap::from([(crate::bag::Bags::new(), 0)]),
            memo: HashMap::new(),
            eligible: HashMap::new(),
        })
    }

    /// The most outcomes a distribution may hold: fewer when each carries a figure per
    /// path explained, so that they hold no more figures in all.
    fn most_outcomes(&self) -> u64 {
        match self.explaining {
            Some(_) => MAX_EXACT_STATES / explain::MAX_EXPLAINED_PATHS as u64,
            None => MAX_EXACT_STATES,
        }
    }

    /// Follows, in `State::tally`, `weights[s]` for each creature of species `s`.
    fn counting(mut self, weights: Vec<u32>) -> Self {
        self.tally = Some(weights);
        self
    }

    /// The expected counts of a distribution's outcomes together.
    fn expected(&self, dist: &Dist) -> Vec<f64> {
        dist.iter().fold(vec![0.0; self.width], |mut sum, o| {
            add(&mut sum, &o.counts, 1.0);
            sum
        })
    }

    /// `branch`'s outcomes, each with chance `p`, joined into `out` (none when `p` is 0).
    fn branch(out: &mut Dist, p: f64, branch: impl FnOnce() -> Dist) {
        if p > 0.0 {
            let mut joined = Joined::new(std::mem::take(out));
            for o in branch() {
                joined.add(scaled(o, p));
            }
            *out = joined.dist;
        }
    }
}

impl<'b> Reading<'b> for Exact<'b> {
    type At = State;
    type Out = Dist;

    fn bestiary(&self) -> &'b Bestiary {
        self.b
    }

    fn conditions(&self) -> &Conditions {
        &self.c
    }

    fn available(&self, at: State, k: Key) -> bool {
        let below_cap =
            self.slot[k.index(self.b)].is_none_or(|(i, cap)| u32::from(at.kept[i]) < cap);
        below_cap
            && match k {
                Key::Species(s) => {
                    !self.gone[s.index()]
                        && (self.bit[s.index()]).is_none_or(|bit| at.mask & (1 << bit) == 0)
                }
                Key::Group(_) => true,
            }
    }

    fn went_deep(&self, at: State) -> u32 {
        at.out_of_depth
    }

    fn nothing(&mut self, at: State) -> Dist {
        vec![Outcome {
            at,
            p: 1.0,
            counts: vec![0.0; self.width],
        }]
    }

    fn comes(&mut self, at: State, s: SpeciesId, role: Role<'b>) -> Dist {
        // Past a limit the walk's figures are not used: it stops at once.
        if self.overflow {
            return Vec::new();
        }
        let mask = at.mask | self.bit[s.index()].map_or(0, |bit| 1 << bit);
        let spent = match self.track {
            true => at.spent.saturating_add(self.b.species_of(s).cost),
            false => 0,
        };
        let tally = (self.tally.as_ref()).map_or(0, |w| at.tally.saturating_add(w[s.index()]));
        self.overflow |= spent > MAX_EXACT_DANGER || tally > MAX_EXACT_DANGER;
        let counted = match &mut self.explaining {
            None => Some(s.index()),
            Some(paths) => {
                // An explaining walk remembers nothing: its work is bounded by its steps.
                self.visited += 1;
                self.overflow |= self.visited > MAX_EXACT_STATES;
                paths.index(s, role)
            }
        };
        self.overflow |= counted.is_some_and(|i| i >= self.width);
        let mut kept = at.kept;
        let group = match role {
            Role::Leader { group, .. } => group.map(Key::Group),
            Role::Follower { .. } => None,
        };
        for k in std::iter::once(Key::Species(s)).chain(group) {
            if let Some((i, _)) = self.slot[k.index(self.b)] {
                kept[i] += 1;
            }
        }
        let mut dist = self.nothing(State {
            mask,
            kept,
            spent,
            tally,
            ..at
        });
        if let Some(i) = counted.filter(|&i| i < self.width) {
            dist[0].counts[i] = 1.0;
        }
        dist
    }

    fn goes_deep(&mut self, at: State) -> State {
        State {
            out_of_depth: at.out_of_depth + 1,
            ..at
        }
    }

    /// Past [`MAX_EXACT_STATES`] outcomes in one distribution the walk has overflowed, and
    /// stops: what it returns then is not used.
    fn then(&mut self, first: Dist, mut next: impl FnMut(&mut Self, State) -> Dist) -> Dist {
        let mut out = Joined::new(Vec::new());
        for a in first {
            if self.overflow {
                return Vec::new();
            }
            for b in next(self, a.at) {
                let mut counts = a.counts.clone();
                for (c, (bc, ac)) in counts.iter_mut().zip(b.counts.iter().zip(&a.counts)) {
                    *c = ac * b.p + a.p * bc;
                }
                out.add(Outcome {
                    at: b.at,
                    p: a.p * b.p,
                    counts,
                });
            }
            self.overflow |= out.dist.len() as u64 > self.most_outcomes();
        }
        out.dist
    }

    fn pick(
        &mut self,
        at: State,
        (table, depth): (TableId, u32),
        mut row: impl FnMut(&mut Self, State, usize) -> Dist,
    ) -> Dist {
        if self.explaining.is_some() {
            self.visited += 1;
            self.overflow |= self.visited > MAX_EXACT_STATES;
        }
        if self.overflow {
            return Vec::new();
        }
        let key = (table, depth, at.mask, at.kept);
        if !self.eligible.contains_key(&key) {
            let found = eligible(self.b, table, (depth, &self.c), &|s| self.available(at, s));
            self.eligible.insert(key, found);
        }
        let (rows, total) = self.eligible[&key].clone();
        if total == 0 {
            return self.nothing(at);
        }
        let mut out = Vec::new();
        for (i, w) in rows {
            Self::branch(&mut out, w as f64 / total as f64, || row(self, at, i));
        }
        out
    }

    fn bag(
        &mut self,
        at: State,
        at_depth: (TableId, u32),
        mut row: impl FnMut(&mut Self, State, usize) -> Dist,
    ) -> Dist {
        self.bag_draw(at, at_depth, &mut row)
    }

    fn via(&mut self, table: TableId, row: usize, one: bool) {
        if let Some(paths) = &mut self.explaining {
            paths.via((table, row, one));
        }
    }

    fn left(&mut self) {
        if let Some(paths) = &mut self.explaining {
            paths.left();
        }
    }

    fn chance(
        &mut self,
        at: State,
        chance: Chance,
        mut next: impl FnMut(&mut Self, State, bool) -> Dist,
    ) -> Dist {
        let c = chance.probability();
        let mut out = Vec::new();
        Self::branch(&mut out, 1.0 - c, || next(self, at, false));
        Self::branch(&mut out, c, || next(self, at, true));
        out
    }

    /// The outcomes after `k` steps, mixed by the chance of `k`: one pass of steps
    /// whatever the count.
    fn repeat(
        &mut self,
        at: State,
        (roll, extra): (Roll, u32),
        mut step: impl FnMut(&mut Self, State) -> Dist,
    ) -> Dist {
        let counts = roll.distribution();
        let mut now = self.nothing(at);
        let mut out = Vec::new();
        for _ in 0..extra {
            now = self.then(now, &mut step);
        }
        for (k, p) in counts.iter().enumerate() {
            Self::branch(&mut out, *p, || now.clone());
            if k + 1 < counts.len() {
                now = self.then(now, &mut step);
            }
        }
        out
    }

    /// Remembered by the state with its danger and tally counted from 0: a walk's danger
    /// is what it adds to the danger it starts from. Not remembered when explaining: a
    /// walk's paths are those of the rows it was reached through.
    fn remembered(
        &mut self,
        key: Walk,
        at: State,
        walk: impl FnOnce(&mut Self, State) -> Dist,
    ) -> Dist {
        if self.explaining.is_some() {
            return walk(self, at);
        }
        let from = State {
            spent: 0,
            tally: 0,
            ..at
        };
        let dist = match self.memo.get(&(key, from)) {
            Some(dist) => dist.clone(),
            None => {
                let dist = walk(self, from);
                self.overflow |= self.memo.len() as u64 >= MAX_EXACT_STATES;
                self.memo.insert((key, from), dist.clone());
                dist
            }
        };
        let dist = shifted(dist, (at.spent, at.tally));
        self.overflow |= (dist.iter()).any(|o| o.at.spent.max(o.at.tally) > MAX_EXACT_DANGER);
        dist
    }

    fn budget(
        &mut self,
        at: State,
        ((roll, extra), attempts): ((Roll, u32), u32),
        mut step: impl FnMut(&mut Self, State) -> Dist,
    ) -> Dist {
        let mut out = Vec::new();
        for (n, p) in roll.distribution().into_iter().enumerate() {
            let start = Budgeting::new(n as u32 + extra, attempts);
            Self::branch(&mut out, p, || self.chain(at, start, &mut step));
        }
        out
    }
}

/// Outcomes with `spent` more danger and `tally` more counted.
fn shifted(mut dist: Dist, (spent, tally): (u32, u32)) -> Dist {
    if spent > 0 || tally > 0 {
        for o in &mut dist {
            o.at.spent = o.at.spent.saturating_add(spent);
            o.at.tally = o.at.tally.saturating_add(tally);
        }
    }
    dist
}

fn scaled(mut o: Outcome, p: f64) -> Outcome {
    o.p *= p;
    for c in &mut o.counts {
        *c *= p;
    }
    o
}

/// A distribution being joined by state: searched in place while short, through an index
/// of its states once longer than [`Joined::SHORT`], so that joining stays linear in the
/// outcomes however many states a floor's danger makes.
struct Joined {
    dist: Dist,
    index: HashMap<State, usize>,
}

impl Joined {
    /// The longest distribution searched without an index.
    const SHORT: usize = 16;

    fn new(dist: Dist) -> Self {
        let mut joined = Joined {
            dist,
            index: HashMap::new(),
        };
        joined.reindex();
        joined
    }

    /// Indexes the states once the distribution is past [`Joined::SHORT`].
    fn reindex(&mut self) {
        if self.dist.len() > Self::SHORT && self.index.len() < self.dist.len() {
            let states = self.dist.iter().enumerate().map(|(i, o)| (o.at, i));
            self.index.extend(states);
        }
    }

    /// Adds an outcome, joining it with the one of the same state.
    fn add(&mut self, o: Outcome) {
        let found = match self.index.is_empty() {
            true => self.dist.iter().position(|d| d.at == o.at),
            false => self.index.get(&o.at).copied(),
        };
        match found {
            Some(i) => {
                let d = &mut self.dist[i];
                d.p += o.p;
                add(&mut d.counts, &o.counts, 1.0);
            }
            None => {
                if !self.index.is_empty() {
                    self.index.insert(o.at, self.dist.len());
                }
                self.dist.push(o);
                self.reindex();
            }
        }
    }
}

/// Figures sampled from [`SAMPLED_FLOORS`] floors (or first placements) of fixed
/// streams, with their standard errors.
fn sampled(
    b: &Bestiary,
    (table, depth, c): (TableId, u32, Conditions),
    ledger: &UniqueLedger,
    per: Per,
) -> Odds {
    let mut drawer = crate::sample::Drawer::new(b, ledger).with(table, c);
    sampled_with(SAMPLED_FLOORS, |i| {
        let mut rng = crate::sample::sample_stream(0, depth, u64::from(i));
        match per {
            Per::Floor => crate::sample::floor_units((b, c), (table, depth), ledger, &mut rng),
            Per::Placement => crate::sample::count(b, drawer.units(depth, &mut rng)),
        }
    })
}

/// The mean of `n` draws of counts, each figure with its standard error.
fn sampled_with(n: u32, mut draw: impl FnMut(u32) -> Vec<u32>) -> Odds {
    let (mut sum, mut squares) = (Vec::new(), Vec::new());
    for i in 0..n {
        let counts = draw(i);
        sum.resize(counts.len(), 0.0);
        squares.resize(counts.len(), 0.0);
        for (s, &c) in counts.iter().enumerate() {
            sum[s] += f64::from(c);
            squares[s] += f64::from(c) * f64::from(c);
        }
    }
    let floors = f64::from(n);
    let expected: Vec<f64> = sum.iter().map(|s| s / floors).collect();
    let errors = expected
        .iter()
        .zip(&squares)
        .map(|(mean, sq)| ((sq / floors - mean * mean).max(0.0) / (floors - 1.0)).sqrt())
        .collect();
    Odds {
        expected,
        standard_errors: Some(errors),
    }
}
