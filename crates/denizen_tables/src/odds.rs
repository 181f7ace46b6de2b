//! Exact odds: the expected count of every species per placement or per floor, worked
//! through nesting, groups, escorts, the out-of-depth branch, the fairness cap and the
//! unique ledger with the weights and depths of the rules module, the same the draw rolls.
//!
//! Each draw's chance is the exact ratio of its integer weights; a chain of draws
//! multiplies them in `f64`. The uniques a floor's draw can bring and that may still come
//! are tracked as a set, so the work grows as `2^u` for `u` of them: past
//! [`MAX_EXACT_UNIQUES`] the figures are sampled instead, with their standard errors
//! ([`Odds::standard_errors`]).

use std::collections::HashMap;

use crate::bestiary::{Bestiary, Creature, GroupId, RowTarget, SpeciesId, TableId};
use crate::file::PickKind;
use crate::ledger::{UniqueLedger, gone_by_ledger};
use crate::rules::{boosted_depth, count_term, dice_distribution, eligible, row_weight};

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
    /// When the figures were sampled (too many uniques for the exact work): each figure's
    /// standard error, from [`SAMPLED_FLOORS`] floors or placements.
    pub standard_errors: Option<Vec<f64>>,
}

pub use crate::rules::OddsError;

/// The expected count of each species at `depth`, per placement or per floor, for the
/// uniques `ledger` leaves available.
pub fn odds(b: &Bestiary, depth: u32, ledger: &UniqueLedger, per: Per) -> Result<Odds, OddsError> {
    table_odds(b, b.floor().table, depth, ledger, per)
}

/// [`odds`] of a floor whose placements draw from `table` instead of the floor's (a
/// [`FloorRequest`](crate::FloorRequest) naming it): the floor's count, out-of-depth rule
/// and fairness cap stay.
pub fn table_odds(
    b: &Bestiary,
    table: TableId,
    depth: u32,
    ledger: &UniqueLedger,
    per: Per,
) -> Result<Odds, OddsError> {
    crate::rules::check_depth(b, depth)?;
    crate::rules::check_table(b, table)?;
    let mut exact = Exact::new(b, table, ledger);
    if exact.bits.len() > MAX_EXACT_UNIQUES {
        return Ok(sampled(b, (table, depth), ledger, per));
    }
    let expected =
        match per {
            Per::Placement => exact.placement(depth, 0, 0).iter().fold(
                vec![0.0; b.species.len()],
                |mut sum, o| {
                    add(&mut sum, &o.outcome.counts, 1.0);
                    sum
                },
            ),
            Per::Floor => exact.floor(depth),
        };
    Ok(Odds {
        expected,
        standard_errors: None,
    })
}

/// One outcome of a draw: the tracked uniques taken after it, its chance, and the counts
/// of each species weighted by that chance.
#[derive(Clone, Debug)]
struct Outcome {
    mask: u32,
    p: f64,
    counts: Vec<f64>,
}

/// The outcomes of a draw, one per set of uniques taken.
type Dist = Vec<Outcome>;

/// An outcome of a placement with the floor's out-of-depth count after it.
struct Step {
    outcome: Outcome,
    out_of_depth: u32,
}

/// The exact work: which uniques are tracked, and each table's and group's outcomes by
/// depth and set of uniques taken.
struct Exact<'b> {
    b: &'b Bestiary,
    /// The table placements draw from.
    table: TableId,
    /// Per species: its bit among the tracked uniques.
    bit: Vec<Option<u32>>,
    /// Per species: a unique the ledger leaves out.
    gone: Vec<bool>,
    /// The tracked uniques.
    bits: Vec<SpeciesId>,
    memo: HashMap<(bool, u32, u32, u32), Dist>,
    /// Each creature table's species and chances, by table, depth and uniques taken.
    creatures: HashMap<(u32, u32, u32), Vec<(SpeciesId, f64)>>,
}

fn add(sum: &mut [f64], counts: &[f64], scale: f64) {
    for (s, c) in sum.iter_mut().zip(counts) {
        *s += c * scale;
    }
}

impl<'b> Exact<'b> {
    fn new(b: &'b Bestiary, table: TableId, ledger: &UniqueLedger) -> Self {
        let gone = gone_by_ledger(b, ledger);
        let mut bit = vec![None; b.species.len()];
        let mut bits = Vec::new();
        // Only the uniques a floor's draw can bring are tracked (others never change).
        for s in crate::rules::reachable(b, table) {
            if b.species_of(s).unique && !gone[s.index()] {
                bit[s.index()] = Some(bits.len() as u32);
                bits.push(s);
            }
        }
        Self {
            b,
            table,
            bit,
            gone,
            bits,
            memo: HashMap::new(),
            creatures: HashMap::new(),
        }
    }

    fn available(&self, mask: u32) -> impl Fn(SpeciesId) -> bool + '_ {
        move |s| {
            !self.gone[s.index()] && self.bit[s.index()].is_none_or(|bit| mask & (1 << bit) == 0)
        }
    }

    fn none(&self, mask: u32) -> Dist {
        vec![Outcome {
            mask,
            p: 1.0,
            counts: vec![0.0; self.b.species.len()],
        }]
    }

    /// `first`, then for each of its outcomes the draw `then` makes from its set of uniques.
    fn then(&mut self, first: Dist, mut then: impl FnMut(&mut Self, u32) -> Dist) -> Dist {
        let mut out: Dist = Vec::new();
        for a in first {
            for b in then(self, a.mask) {
                let mut counts = a.counts.clone();
                for (c, (bc, ac)) in counts.iter_mut().zip(b.counts.iter().zip(&a.counts)) {
                    *c = ac * b.p + a.p * bc;
                }
                merge(
                    &mut out,
                    Outcome {
                        mask: b.mask,
                        p: a.p * b.p,
                        counts,
                    },
                );
            }
        }
        out
    }

    /// A species taken: counted, and a tracked unique's bit set.
    fn taken(&self, s: SpeciesId, mask: u32) -> Dist {
        let mut dist = self.none(mask | self.bit[s.index()].map_or(0, |bit| 1 << bit));
        dist[0].counts[s.index()] = 1.0;
        dist
    }

    fn table(&mut self, t: TableId, depth: u32, mask: u32) -> Dist {
        let key = (true, t.0, depth, mask);
        if let Some(dist) = self.memo.get(&key) {
            return dist.clone();
        }
        let b = self.b;
        let dist = match b.table(t).pick {
            PickKind::One => {
                let (rows, total) = eligible(b, t, depth, &self.available(mask));
                let mut out = if total == 0 {
                    self.none(mask)
                } else {
                    Vec::new()
                };
                for (i, w) in rows {
                    let p = w as f64 / total as f64;
                    for o in self.row(t, i, depth, mask) {
                        merge(&mut out, scaled(o, p));
                    }
                }
                out
            }
            PickKind::Each => {
                let mut dist = self.none(mask);
                for i in 0..b.table(t).rows.len() {
                    dist = self.then(dist, |me, m| me.each_row(t, i, depth, m));
                }
                dist
            }
        };
        self.memo.insert(key, dist.clone());
        dist
    }

    /// A pick-each row: when eligible, with its chance, drawn its count's times.
    fn each_row(&mut self, t: TableId, i: usize, depth: u32, mask: u32) -> Dist {
        let b = self.b;
        let row = &b.table(t).rows[i];
        if row_weight(b, row, depth, &self.available(mask)) == 0 {
            return self.none(mask);
        }
        let c = row.chance.probability();
        let mut out: Dist = self
            .none(mask)
            .into_iter()
            .map(|o| scaled(o, 1.0 - c))
            .collect();
        for (n, p) in dice_distribution(row.count).into_iter().enumerate() {
            if p == 0.0 {
                continue;
            }
            let mut dist = self.none(mask);
            for _ in 0..n {
                dist = self.then(dist, |me, m| me.row(t, i, depth, m));
            }
            for o in dist {
                merge(&mut out, scaled(o, c * p));
            }
        }
        out
    }

    fn row(&mut self, t: TableId, i: usize, depth: u32, mask: u32) -> Dist {
        match self.b.table(t).rows[i].what {
            RowTarget::Species(s) => self.species(s, depth, mask),
            RowTarget::Group(g) => self.group(g, depth, mask),
            RowTarget::Table(inner) => self.table(inner, depth, mask),
        }
    }

    /// A species a row drew, with its escort.
    fn species(&mut self, s: SpeciesId, depth: u32, mask: u32) -> Dist {
        if !self.available(mask)(s) {
            return self.none(mask);
        }
        let taken = self.taken(s, mask);
        match self.b.species_of(s).escort {
            Some(g) => self.then(taken, |me, m| me.followers(g, depth, m)),
            None => taken,
        }
    }

    fn group(&mut self, g: GroupId, depth: u32, mask: u32) -> Dist {
        let key = (false, g.0, depth, mask);
        if let Some(dist) = self.memo.get(&key) {
            return dist.clone();
        }
        // A row's group has a leader (checked at load); none would bring nothing.
        let leaders = match self.b.group(g).leader {
            Some(leader) => self.creature(leader, depth, mask),
            None => Vec::new(),
        };
        let drawn: f64 = leaders.iter().map(|(_, p)| p).sum();
        let mut out: Dist = self
            .none(mask)
            .into_iter()
            .map(|o| scaled(o, 1.0 - drawn))
            .collect();
        for (s, p) in leaders {
            let taken = self.taken(s, mask);
            for o in self.then(taken, |me, m| me.followers(g, depth, m)) {
                merge(&mut out, scaled(o, p));
            }
        }
        out.retain(|o| o.p > 0.0);
        self.memo.insert(key, out.clone());
        out
    }

    fn followers(&mut self, g: GroupId, depth: u32, mask: u32) -> Dist {
        let b = self.b;
        let mut dist = self.none(mask);
        for follower in &b.group(g).followers {
            let counts = dice_distribution(follower.count);
            dist = self.then(dist, |me, m| {
                let mut out = Vec::new();
                for (n, p) in counts.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                    let mut each = me.none(m);
                    for _ in 0..n {
                        each = me.then(each, |me, m| me.one_creature(follower.member, depth, m));
                    }
                    for o in each {
                        merge(&mut out, scaled(o, *p));
                    }
                }
                out
            });
        }
        dist
    }

    /// One creature as an outcome: it comes, or nothing does.
    fn one_creature(&mut self, c: Creature, depth: u32, mask: u32) -> Dist {
        let choices = self.creature(c, depth, mask);
        let drawn: f64 = choices.iter().map(|(_, p)| p).sum();
        let mut out: Dist = self
            .none(mask)
            .into_iter()
            .map(|o| scaled(o, 1.0 - drawn))
            .collect();
        for (s, p) in choices {
            merge(&mut out, scaled(self.taken(s, mask).remove(0), p));
        }
        out.retain(|o| o.p > 0.0);
        out
    }

    /// The species one creature is, with their chances (the rest: none comes).
    fn creature(&mut self, c: Creature, depth: u32, mask: u32) -> Vec<(SpeciesId, f64)> {
        let t = match c {
            Creature::Species(s) if self.available(mask)(s) => return vec![(s, 1.0)],
            Creature::Species(_) => return Vec::new(),
            Creature::Table(t) => t,
        };
        if let Some(known) = self.creatures.get(&(t.0, depth, mask)) {
            return known.clone();
        }
        let (rows, total) = eligible(self.b, t, depth, &self.available(mask));
        let mut out = Vec::new();
        for (i, w) in rows {
            let p = w as f64 / total as f64;
            match self.b.table(t).rows[i].what {
                RowTarget::Species(s) => out.push((s, p)),
                RowTarget::Table(inner) => {
                    let inner = self.creature(Creature::Table(inner), depth, mask);
                    out.extend(inner.into_iter().map(|(s, q)| (s, p * q)));
                }
                RowTarget::Group(_) => {}
            }
        }
        self.creatures.insert((t.0, depth, mask), out.clone());
        out
    }

    /// A placement from a state of the floor: the uniques taken and how many placements
    /// went out of depth.
    fn placement(&mut self, depth: u32, mask: u32, out_of_depth: u32) -> Vec<Step> {
        let floor = self.b.floor().clone();
        let step = |dist: Dist, scale: f64, ood: u32| {
            dist.into_iter().map(move |o| Step {
                outcome: scaled(o, scale),
                out_of_depth: ood,
            })
        };
        let mut steps = Vec::new();
        let mut at_depth = 1.0;
        if let Some(rule) = floor.out_of_depth.filter(|r| out_of_depth < r.fairness) {
            let c = rule.chance.probability();
            let deeper = boosted_depth(self.b, rule, self.table, depth, &self.available(mask));
            if let Some(deeper) = deeper {
                at_depth -= c;
                steps.extend(step(
                    self.table(self.table, deeper, mask),
                    c,
                    out_of_depth + 1,
                ));
            }
        }
        steps.extend(step(
            self.table(self.table, depth, mask),
            at_depth,
            out_of_depth,
        ));
        steps
    }

    /// A floor's expected counts: the state after each placement, weighted by the chance
    /// the floor has that many placements.
    fn floor(&mut self, depth: u32) -> Vec<f64> {
        let b = self.b;
        let counts = dice_distribution(b.floor().count);
        let extra = count_term(b, depth) as usize;
        // more[k]: the chance the floor has more than k placements.
        let total = counts.len() + extra;
        let more: Vec<f64> = (0..total)
            .map(|k| {
                counts
                    .iter()
                    .enumerate()
                    .filter(|(n, _)| n + extra > k)
                    .map(|(_, p)| p)
                    .sum()
            })
            .collect();
        let mut expected = vec![0.0; b.species.len()];
        let mut states: HashMap<(u32, u32), f64> = HashMap::from([((0, 0), 1.0)]);
        for &more_k in &more {
            if more_k == 0.0 {
                break;
            }
            let mut next: HashMap<(u32, u32), f64> = HashMap::new();
            let mut ordered: Vec<_> = states.into_iter().collect();
            ordered.sort_by_key(|&(k, _)| k);
            for ((mask, ood), p) in ordered {
                for step in self.placement(depth, mask, ood) {
                    add(&mut expected, &step.outcome.counts, more_k * p);
                    *next
                        .entry((step.outcome.mask, step.out_of_depth))
                        .or_default() += p * step.outcome.p;
                }
            }
            states = next;
        }
        expected
    }
}

fn scaled(mut o: Outcome, p: f64) -> Outcome {
    o.p *= p;
    for c in &mut o.counts {
        *c *= p;
    }
    o
}

/// Adds an outcome to a distribution, joining it with the one of the same set of uniques.
fn merge(dist: &mut Dist, o: Outcome) {
    match dist.iter_mut().find(|d| d.mask == o.mask) {
        Some(d) => {
            d.p += o.p;
            add(&mut d.counts, &o.counts, 1.0);
        }
        None => dist.push(o),
    }
}

/// Figures sampled from [`SAMPLED_FLOORS`] floors (or first placements) of fixed
/// streams, with their standard errors.
fn sampled(b: &Bestiary, (table, depth): (TableId, u32), ledger: &UniqueLedger, per: Per) -> Odds {
    let n = b.species.len();
    let (mut sum, mut squares) = (vec![0.0; n], vec![0.0; n]);
    let mut drawer = crate::sample::Drawer::new(b, ledger).with_table(table);
    for i in 0..SAMPLED_FLOORS {
        let mut rng = crate::sample::sample_stream(0, depth, u64::from(i));
        let counts = match per {
            Per::Floor => crate::sample::floor_units(b, (table, depth), ledger, &mut rng),
            Per::Placement => crate::sample::count(b, drawer.units(depth, &mut rng)),
        };
        for (s, &c) in counts.iter().enumerate() {
            sum[s] += f64::from(c);
            squares[s] += f64::from(c) * f64::from(c);
        }
    }
    let floors = f64::from(SAMPLED_FLOORS);
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
