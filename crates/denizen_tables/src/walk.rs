//! The one description of a draw: a floor's count and placements, a placement's
//! out-of-depth branch, a table's pick (one row, or each row with its chance and count),
//! nesting, groups, escorts, followers, creature tables and the order uniques are taken.
//!
//! It is written once, generic over a [`Reading`]: how each choice is made. Sampling
//! ([`crate::draw::Sampler`]) takes one branch by the stream's words; the exact odds
//! ([`crate::odds`]) follow every branch with its probability and the state it leaves
//! (the uniques taken, the out-of-depth count). A rule added here is added to both.
//! The leaf rules a choice reads (eligibility, weights, depths, dice) are
//! [`crate::rules`]'s.

use crate::Bestiary;
use crate::MAX_PLACEMENTS;
use crate::bestiary::{
    Creature, FloorRules, GroupId, OutOfDepthRule, Place, Row, RowTarget, SpeciesId, TableId,
};
use crate::context::Conditions;
use crate::file::PickKind;
use crate::roll::Roll;
use crate::rules::{Key, boosted_depth, row_weight};
use crate::weight::Chance;

/// Where a walk draws: the depth, and whether its placement went out of depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Here {
    pub(crate) depth: u32,
    pub(crate) deep: bool,
}

/// How a creature comes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Role<'b> {
    /// It leads a unit: a species row's creature (with its escort) or a group's leader.
    Leader {
        /// How far from it its followers stand.
        radius: u32,
        /// The group whose followers come with it, if any.
        followers: Option<GroupId>,
        /// The group a row drew, whose placements its cap counts (none for an escort).
        group: Option<GroupId>,
        /// Whether its placement went out of depth.
        deep: bool,
    },
    /// It follows the unit's leader as follower kind `kind` of `group`.
    Follower {
        group: GroupId,
        kind: u16,
        place: &'b Place,
    },
}

/// A walk a reading may remember: its outcomes depend only on the key and the state it
/// starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Walk {
    /// One draw from a table.
    Table(TableId, Here),
    /// A group a row drew.
    Group(GroupId, Here),
}

/// How a draw's choices are made: one branch by the stream (sampling) or every branch with
/// its chance (the exact odds). `At` is the state a walk goes on from (sampling keeps its
/// state in itself); `Out` is what a walk brings (sampling writes its units as drawn).
pub(crate) trait Reading<'b>: Sized {
    /// The state a walk goes on from.
    type At: Copy;
    /// What a walk brings.
    type Out;

    /// The bestiary walked.
    fn bestiary(&self) -> &'b Bestiary;
    /// The context the draw is made in.
    fn conditions(&self) -> &Conditions;
    /// Whether `k` may still come (a unique not yet taken, a cap not yet reached).
    fn available(&self, at: Self::At, k: Key) -> bool;
    /// How many of the floor's placements so far went out of depth.
    fn went_deep(&self, at: Self::At) -> u32;
    /// Nothing comes.
    fn nothing(&mut self, at: Self::At) -> Self::Out;
    /// `s` comes as `role`: counted, a unique taken, its cap (and a leader's group's)
    /// counted.
    fn comes(&mut self, at: Self::At, s: SpeciesId, role: Role<'b>) -> Self::Out;
    /// The placement goes out of depth: one more towards the fairness cap.
    fn goes_deep(&mut self, at: Self::At) -> Self::At;
    /// `first`, then `next` from each state it leaves.
    fn then(
        &mut self,
        first: Self::Out,
        next: impl FnMut(&mut Self, Self::At) -> Self::Out,
    ) -> Self::Out;
    /// A pick-one draw of a row of `table` at `depth`, then `row` from it; nothing when no
    /// row is eligible.
    fn pick(
        &mut self,
        at: Self::At,
        at_depth: (TableId, u32),
        row: impl FnMut(&mut Self, Self::At, usize) -> Self::Out,
    ) -> Self::Out;
    /// A draw of a row from the floor's bag of `table` at `depth`, then `row` from it;
    /// nothing when a refill puts nothing in it. A copy whose row is no longer eligible
    /// is taken out and the draw repeats; an empty bag is refilled with the copies of the
    /// rows eligible then.
    fn bag(
        &mut self,
        at: Self::At,
        at_depth: (TableId, u32),
        row: impl FnMut(&mut Self, Self::At, usize) -> Self::Out,
    ) -> Self::Out;
    /// A chance rolled, then `next` with whether it came up.
    fn chance(
        &mut self,
        at: Self::At,
        chance: Chance,
        next: impl FnMut(&mut Self, Self::At, bool) -> Self::Out,
    ) -> Self::Out;
    /// `step` done a roll plus `extra` times, one after another.
    fn repeat(
        &mut self,
        at: Self::At,
        count: (Roll, u32),
        step: impl FnMut(&mut Self, Self::At) -> Self::Out,
    ) -> Self::Out;
    /// A walk the reading may remember by its key.
    fn remembered(
        &mut self,
        key: Walk,
        at: Self::At,
        walk: impl FnOnce(&mut Self, Self::At) -> Self::Out,
    ) -> Self::Out;
    /// A budgeted floor: the budget rolled (a roll plus `extra`), then `step` (one
    /// placement) until `Budgeting` says the floor has ended, each placement kept or
    /// discarded as `Budgeting::after` says. A discarded placement leaves nothing but the
    /// stream's words it read.
    fn budget(
        &mut self,
        at: Self::At,
        budget: ((Roll, u32), u32),
        step: impl FnMut(&mut Self, Self::At) -> Self::Out,
    ) -> Self::Out;
    /// One placement of a floor.
    fn placement(
        &mut self,
        at: Self::At,
        walk: impl FnOnce(&mut Self, Self::At) -> Self::Out,
    ) -> Self::Out {
        walk(self, at)
    }
    /// A row's placement rules (not empty) hold for what it draws, until `leave`.
    fn enter(&mut self, _place: &'b Place) {}
    /// The rules entered last no longer hold.
    fn leave(&mut self) {}
    /// The walk goes through row `row` of `table` until [`Reading::left`]: a reading that
    /// explains where creatures come from follows it. `one` when the row drew one
    /// creature from a creature table (a leader's or a follower's), not a unit.
    fn via(&mut self, _table: TableId, _row: usize, _one: bool) {}
    /// The row gone through last is left.
    fn left(&mut self) {}
}

/// One draw of placements: the rules it counts by (a floor's, or a region rule's), the
/// table its placements draw from and its depth.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Draw<'r> {
    pub(crate) rules: &'r FloorRules,
    pub(crate) table: TableId,
    pub(crate) depth: u32,
}

impl<'r> Draw<'r> {
    /// A draw of the floor's rules in the branch `b` is seen from, from `table` at `depth`.
    pub(crate) fn floor(b: &'r Bestiary, (table, depth): (TableId, u32)) -> Self {
        Draw {
            rules: b.floor(),
            table,
            depth,
        }
    }
}

/// A floor (or a region) from its draw's table at its depth: the count (dice, then the
/// depth term), then each placement; or, for a budgeted draw, the budget (the same roll,
/// or `fixed`), then placements while it lasts.
pub(crate) fn floor<'b, R: Reading<'b>>(
    r: &mut R,
    at: R::At,
    draw: Draw<'_>,
    fixed: Option<u32>,
) -> R::Out {
    let Draw {
        rules,
        table,
        depth,
    } = draw;
    let roll = (rules.count, rules.count_term(depth));
    let deep = rules.out_of_depth;
    let step = |r: &mut R, at| r.placement(at, |r, at| placement(r, at, (table, depth), deep));
    match rules.budget {
        None => r.repeat(at, roll, step),
        Some(rule) => {
            // A fixed budget is a roll of one value, which reads no word of the stream.
            let one = |n| (Roll::Range { min: n, max: n }, 0);
            r.budget(at, (fixed.map_or(roll, one), rule.attempts), step)
        }
    }
}

/// Where a budgeted floor stands: what remains of its budget, how many placements in a
/// row were discarded and how many were kept. Ordered by kept, then discards, so a
/// walk over every state can take each once, after all that lead to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Budgeting {
    kept: u32,
    misses: u32,
    pub(crate) remaining: u32,
    attempts: u32,
}

impl Budgeting {
    /// A floor that rolled `budget` and may discard `attempts` placements in a row.
    pub(crate) fn new(budget: u32, attempts: u32) -> Self {
        Self {
            kept: 0,
            misses: 0,
            remaining: budget,
            attempts,
        }
    }

    /// Whether the floor has ended: `attempts` placements in a row discarded, nothing
    /// left to spend, or as many placements kept as a floor may have.
    pub(crate) fn ended(self) -> bool {
        self.misses >= self.attempts || self.remaining == 0 || self.kept >= MAX_PLACEMENTS
    }

    /// After a placement costing `cost`, and whether it is kept: kept (and paid for) when
    /// it costs at most what remains, else discarded.
    pub(crate) fn after(self, cost: u32) -> (Self, bool) {
        match cost <= self.remaining {
            true => (
                Self {
                    kept: self.kept + 1,
                    misses: 0,
                    remaining: self.remaining - cost,
                    ..self
                },
                true,
            ),
            false => (
                Self {
                    misses: self.misses + 1,
                    ..self
                },
                false,
            ),
        }
    }
}

/// One placement from `table` at `depth`: out of depth with `deep`'s chance while its
/// fairness cap allows and the boosted depth has an eligible row.
#[inline]
pub(crate) fn placement<'b, R: Reading<'b>>(
    r: &mut R,
    at: R::At,
    (table, depth): (TableId, u32),
    deep: Option<OutOfDepthRule>,
) -> R::Out {
    let b = r.bestiary();
    let shallow = Here { depth, deep: false };
    let Some(rule) = deep.filter(|rule| r.went_deep(at) < rule.fairness) else {
        return self::table(r, at, table, shallow);
    };
    r.chance(at, rule.chance, |r, at, hit| {
        let now = (depth, r.conditions());
        let deeper = hit
            .then(|| boosted_depth(b, (rule, table), now, &|k| r.available(at, k)))
            .flatten();
        match deeper {
            Some(depth) => {
                let at = r.goes_deep(at);
                self::table(r, at, table, Here { depth, deep: true })
            }
            None => self::table(r, at, table, shallow),
        }
    })
}

/// One draw from `table`: a row picked by weight, or each row with its chance and count.
pub(crate) fn table<'b, R: Reading<'b>>(r: &mut R, at: R::At, t: TableId, here: Here) -> R::Out {
    r.remembered(Walk::Table(t, here), at, |r, at| {
        let b = r.bestiary();
        match b.table(t).pick {
            PickKind::One => r.pick(at, (t, here.depth), |r, at, i| row(r, at, (t, i), here)),
            PickKind::Bag => r.bag(at, (t, here.depth), |r, at, i| row(r, at, (t, i), here)),
            PickKind::Each => {
                let mut out = r.nothing(at);
                for i in 0..b.table(t).rows.len() {
                    out = r.then(out, |r, at| each_row(r, at, (t, i), here));
                }
                out
            }
        }
    })
}

/// `walk` through row `i` of `t` (of a creature table when `one`), the reading told.
#[inline(always)]
fn through<'b, R: Reading<'b>>(
    r: &mut R,
    (t, i, one): (TableId, usize, bool),
    walk: impl FnOnce(&mut R) -> R::Out,
) -> R::Out {
    r.via(t, i, one);
    let out = walk(r);
    r.left();
    out
}

/// One row of a creature table: by weight, or from its bag.
fn one_row<'b, R: Reading<'b>>(
    r: &mut R,
    at: R::At,
    (t, depth): (TableId, u32),
    row: impl FnMut(&mut R, R::At, usize) -> R::Out,
) -> R::Out {
    match r.bestiary().table(t).pick {
        PickKind::Bag => r.bag(at, (t, depth), row),
        _ => r.pick(at, (t, depth), row),
    }
}

/// A pick-each row: when eligible, with its chance, drawn its count's times.
fn each_row<'b, R: Reading<'b>>(
    r: &mut R,
    at: R::At,
    (t, i): (TableId, usize),
    here: Here,
) -> R::Out {
    let b = r.bestiary();
    let line = &b.table(t).rows[i];
    if row_weight(b, line, (here.depth, r.conditions()), &|k| {
        r.available(at, k)
    }) == 0
    {
        return r.nothing(at);
    }
    r.chance(at, line.chance, |r, at, hit| match hit {
        true => r.repeat(at, (line.count, 0), |r, at| row(r, at, (t, i), here)),
        false => r.nothing(at),
    })
}

/// What row `i` of table `t` draws, under its placement rules, the reading told it goes
/// through the row.
#[inline(always)]
fn row<'b, R: Reading<'b>>(r: &mut R, at: R::At, (t, i): (TableId, usize), here: Here) -> R::Out {
    let line: &'b Row = &r.bestiary().table(t).rows[i];
    r.via(t, i, false);
    // Only rules that say something are entered: a lone species' unit then holds none.
    let said = !line.place.is_empty();
    if said {
        r.enter(&line.place);
    }
    let out = match line.what {
        RowTarget::Species(s) => species(r, at, s, here),
        RowTarget::Group(g) => group(r, at, g, here),
        RowTarget::Table(inner) => table(r, at, inner, here),
    };
    if said {
        r.leave();
    }
    r.left();
    out
}

/// A species a row drew, with its escort; nothing when it may no longer come.
#[inline(always)]
fn species<'b, R: Reading<'b>>(r: &mut R, at: R::At, s: SpeciesId, here: Here) -> R::Out {
    if !r.available(at, Key::Species(s)) {
        return r.nothing(at);
    }
    let b = r.bestiary();
    let escort = b.species_of(s).escort;
    let role = Role::Leader {
        radius: escort.map_or(0, |g| b.group(g).radius),
        followers: escort,
        group: None,
        deep: here.deep,
    };
    let came = r.comes(at, s, role);
    match escort {
        Some(g) => r.then(came, |r, at| followers(r, at, g, here)),
        None => came,
    }
}

/// A group a row drew: its leader, then its followers; nothing when no leader comes.
fn group<'b, R: Reading<'b>>(r: &mut R, at: R::At, g: GroupId, here: Here) -> R::Out {
    r.remembered(Walk::Group(g, here), at, |r, at| {
        let group = r.bestiary().group(g);
        // A row's group has a leader (checked at load); none would bring nothing. A group
        // at its cap brings nothing too (a pick-each row draws it again past its check).
        let Some(leader) = group.leader.filter(|_| r.available(at, Key::Group(g))) else {
            return r.nothing(at);
        };
        let role = Role::Leader {
            radius: group.radius,
            followers: Some(g),
            group: Some(g),
            deep: here.deep,
        };
        creature(r, at, (leader, here.depth), &mut |r, at, s| {
            let came = r.comes(at, s, role);
            r.then(came, |r, at| followers(r, at, g, here))
        })
    })
}

/// A group's followers, kind by kind, each kind its count's times.
fn followers<'b, R: Reading<'b>>(r: &mut R, at: R::At, g: GroupId, here: Here) -> R::Out {
    let b = r.bestiary();
    let mut out = r.nothing(at);
    for (kind, follower) in b.group(g).followers.iter().enumerate() {
        let role = Role::Follower {
            group: g,
            kind: kind as u16,
            place: &follower.place,
        };
        out = r.then(out, |r, at| {
            r.repeat(at, (follower.count, 0), |r, at| {
                let one = (follower.member, here.depth);
                creature(r, at, one, &mut |r, at, s| r.comes(at, s, role))
            })
        });
    }
    out
}

/// One creature, then `then` with its species: the species when it may still come, or one
/// drawn from a creature table (through nested ones); nothing when none comes.
fn creature<'b, R: Reading<'b>, F: FnMut(&mut R, R::At, SpeciesId) -> R::Out>(
    r: &mut R,
    at: R::At,
    (c, depth): (Creature, u32),
    then: &mut F,
) -> R::Out {
    match c {
        Creature::Species(s) if r.available(at, Key::Species(s)) => then(r, at, s),
        Creature::Species(_) => r.nothing(at),
        Creature::Table(t) => {
            let b = r.bestiary();
            one_row(r, at, (t, depth), |r, at, i| {
                through(r, (t, i, true), |r| match b.table(t).rows[i].what {
                    RowTarget::Species(s) => then(r, at, s),
                    RowTarget::Table(inner) => {
                        creature(r, at, (Creature::Table(inner), depth), then)
                    }
                    RowTarget::Group(_) => r.nothing(at),
                })
            })
        }
    }
}
