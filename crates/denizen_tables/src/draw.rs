//! Sampling: the reading of [`crate::walk`] that takes one branch of each choice by the
//! stream's words, and what it brings (units of a leader and its followers), before any
//! square is chosen. The floor's plan places these units; `denizen tables sample` counts
//! them.

use denizen_core::Generator;

use denizen_core::fair::below;

use crate::bag::{self, Bags};
use crate::bestiary::{Bestiary, GroupId, Place, SpeciesId, TableId};
use crate::context::Conditions;
use crate::ledger::Spent;
use crate::roll::Roll;
use crate::rules::Key;
use crate::walk::{Budgeting, Reading, Role, Walk};
use crate::weight::Chance;

/// One creature of a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member<'b> {
    /// Its species.
    pub species: SpeciesId,
    /// The group and follower kind it follows in (none for a leader).
    pub follows: Option<(GroupId, u16)>,
    /// The follower kind's placement rules (a leader has none of its own).
    pub place: Option<&'b Place>,
}

/// A leader and its followers, drawn together and placed together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit<'b> {
    /// The leader (a lone creature is a unit without followers).
    pub leader: Member<'b>,
    /// The followers, in draw order.
    pub followers: Vec<Member<'b>>,
    /// How far from the leader followers stand.
    pub radius: u32,
    /// The placement rules of the rows that drew the unit, outermost first.
    pub rows: Vec<&'b Place>,
    /// Whether the placement that drew it went out of depth.
    pub out_of_depth: bool,
}

impl Unit<'_> {
    /// The sum of its creatures' costs.
    pub(crate) fn cost(&self, b: &Bestiary) -> u32 {
        (std::iter::once(&self.leader).chain(&self.followers))
            .map(|m| b.species_of(m.species).cost)
            .sum()
    }
}

/// The sampling reading: the bestiary, the stream, which species may still come, and the
/// units drawn so far.
pub(crate) struct Sampler<'b, 'r> {
    pub(crate) b: &'b Bestiary,
    pub(crate) rng: &'r mut Generator,
    /// What has run out (uniques, caps).
    pub(crate) spent: &'r mut Spent,
    /// The floor's bags.
    pub(crate) bags: &'r mut Bags,
    /// The units drawn, in order.
    pub(crate) units: &'r mut Vec<Unit<'b>>,
    /// The context the draw is made in.
    c: &'r Conditions,
    /// The placement rules of the rows being drawn, outermost first.
    rows: Vec<&'b Place>,
    /// Whether a unique was taken or a capped species or group counted (and `spent`
    /// changed).
    pub(crate) took: bool,
    /// How many placements were drawn.
    pub(crate) placements: u32,
    /// How many of them went out of depth.
    pub(crate) out_of_depth: u32,
    /// The budget a budgeted floor rolled.
    pub(crate) budget: Option<u32>,
}

impl<'b, 'r> Sampler<'b, 'r> {
    /// A sampler drawing from `rng` in context `c`, what `spent` marks run out left out,
    /// from the floor's `bags`, adding to `units`.
    pub(crate) fn new(
        (b, c): (&'b Bestiary, &'r Conditions),
        rng: &'r mut Generator,
        (spent, bags): (&'r mut Spent, &'r mut Bags),
        units: &'r mut Vec<Unit<'b>>,
    ) -> Self {
        Self {
            b,
            rng,
            spent,
            bags,
            units,
            c,
            rows: Vec::new(),
            took: false,
            placements: 0,
            out_of_depth: 0,
            budget: None,
        }
    }
}

impl<'b> Reading<'b> for Sampler<'b, '_> {
    type At = ();
    type Out = ();

    fn bestiary(&self) -> &'b Bestiary {
        self.b
    }

    fn conditions(&self) -> &Conditions {
        self.c
    }

    fn available(&self, (): (), k: Key) -> bool {
        !self.spent.gone[k.index(self.b)]
    }

    fn went_deep(&self, (): ()) -> u32 {
        self.out_of_depth
    }

    fn nothing(&mut self, (): ()) {}

    fn comes(&mut self, (): (), s: SpeciesId, role: Role<'b>) {
        let species = self.b.species_of(s);
        if species.unique {
            self.spent.gone[s.index()] = true;
            self.took = true;
        }
        // A count, even below its cap, makes `spent` differ from the ledger's.
        if let Some(cap) = species.max_per_floor {
            self.spent.count(self.b, Key::Species(s), cap);
            self.took = true;
        }
        if let Role::Leader { group: Some(g), .. } = role
            && let Some(cap) = self.b.group(g).max_per_floor
        {
            self.spent.count(self.b, Key::Group(g), cap);
            self.took = true;
        }
        let member = |follows, place| Member {
            species: s,
            follows,
            place,
        };
        match role {
            Role::Leader {
                radius,
                followers,
                deep,
                ..
            } => {
                let most = followers.map_or(0, |g| {
                    let group = self.b.group(g);
                    group.followers.iter().map(|f| f.count.bounds().1).sum()
                });
                self.units.push(Unit {
                    leader: member(None, None),
                    followers: Vec::with_capacity(most as usize),
                    radius,
                    rows: self.rows.clone(),
                    out_of_depth: deep,
                });
            }
            Role::Follower { group, kind, place } => {
                // A follower comes only after its leader's unit.
                if let Some(unit) = self.units.last_mut() {
                    unit.followers
                        .push(member(Some((group, kind)), Some(place)));
                }
            }
        }
    }

    fn goes_deep(&mut self, (): ()) {
        self.out_of_depth += 1;
    }

    fn then(&mut self, (): (), mut next: impl FnMut(&mut Self, ())) {
        next(self, ());
    }

    fn pick(&mut self, (): (), at: (TableId, u32), mut row: impl FnMut(&mut Self, (), usize)) {
        let (table, depth) = at;
        if let Some(i) =
            crate::pick::pick(self.b, (table, depth, self.c), &self.spent.gone, self.rng)
        {
            row(self, (), i);
        }
    }

    fn bag(
        &mut self,
        (): (),
        (t, depth): (TableId, u32),
        mut row: impl FnMut(&mut Self, (), usize),
    ) {
        let (b, c) = (self.b, self.c);
        loop {
            let available = |k: Key| !self.spent.gone[k.index(b)];
            let Some(copies) = self.bags.ready(b, (t, depth), c, &available) else {
                return;
            };
            let k = below(self.rng, bag::total(copies)).0;
            let i = self.bags.take_copy((t, depth), k);
            if bag::dealt(b, (t, depth), c, i, &available) {
                return row(self, (), i);
            }
        }
    }

    fn chance(&mut self, (): (), chance: Chance, mut next: impl FnMut(&mut Self, (), bool)) {
        let hit = chance.roll(self.rng);
        next(self, (), hit);
    }

    fn repeat(&mut self, (): (), (roll, extra): (Roll, u32), mut step: impl FnMut(&mut Self, ())) {
        for _ in 0..roll.roll(self.rng) + extra {
            step(self, ());
        }
    }

    /// Each placement is drawn, then kept or undone: the units it brought dropped and
    /// what it spent (uniques, caps, the out-of-depth count) put back.
    fn budget(
        &mut self,
        (): (),
        ((roll, extra), attempts): ((Roll, u32), u32),
        mut step: impl FnMut(&mut Self, ()),
    ) {
        let mut left = Budgeting::new(roll.roll(self.rng) + extra, attempts);
        self.budget = Some(left.remaining);
        let (mut before, mut bags) = (self.spent.clone(), Bags::new());
        while !left.ended() {
            before.reset_to(self.spent);
            bags.clone_from(self.bags);
            let mark = (
                self.units.len(),
                self.placements,
                self.out_of_depth,
                self.took,
            );
            step(self, ());
            let cost = self.units[mark.0..].iter().map(|u| u.cost(self.b)).sum();
            let kept;
            (left, kept) = left.after(cost);
            if !kept {
                self.units.truncate(mark.0);
                (self.placements, self.out_of_depth, self.took) = (mark.1, mark.2, mark.3);
                self.spent.reset_to(&before);
                std::mem::swap(self.bags, &mut bags);
            }
        }
    }

    fn remembered(&mut self, _: Walk, (): (), walk: impl FnOnce(&mut Self, ())) {
        walk(self, ());
    }

    fn placement(&mut self, (): (), walk: impl FnOnce(&mut Self, ())) {
        self.placements += 1;
        walk(self, ());
    }

    fn enter(&mut self, place: &'b Place) {
        self.rows.push(place);
    }

    fn leave(&mut self) {
        self.rows.pop();
    }
}
