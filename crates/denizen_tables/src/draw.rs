//! The draw of one placement: what it brings (units of a leader and its followers), before
//! any square is chosen. The floor's plan places these units; `denizen tables sample`
//! counts them. The eligibility, weights and depths are [`crate::rules`]'s.

use denizen_core::Generator;

use crate::bestiary::{Bestiary, Creature, GroupId, Place, RowTarget, SpeciesId, TableId};
use crate::file::PickKind;

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

/// A draw in progress: the bestiary, the stream, and which species may still come.
pub(crate) struct Draw<'b, 'r> {
    pub(crate) b: &'b Bestiary,
    pub(crate) rng: &'r mut Generator,
    /// Per species: left out of the draw (a unique alive, killed or drawn on this floor).
    pub(crate) gone: &'r mut [bool],
    /// Whether the placement being drawn went out of depth.
    pub(crate) deep: bool,
    /// Whether a unique was taken (and `gone` changed).
    pub(crate) took: bool,
}

impl<'b> Draw<'b, '_> {
    fn available(&self) -> impl Fn(SpeciesId) -> bool + '_ {
        |s| !self.gone[s.index()]
    }

    /// Takes a species: a unique is gone from then on.
    fn take(&mut self, s: SpeciesId) {
        if self.b.species_of(s).unique {
            self.gone[s.index()] = true;
            self.took = true;
        }
    }

    /// The units one draw from `table` at `depth` brings, added to `out`.
    pub(crate) fn table(
        &mut self,
        table: TableId,
        depth: u32,
        rows: &mut Vec<&'b Place>,
        out: &mut Vec<Unit<'b>>,
    ) {
        let b = self.b;
        match b.table(table).pick {
            PickKind::One => {
                if let Some(i) = crate::pick::pick(b, (table, depth), self.gone, self.rng) {
                    self.row(table, i, depth, rows, out);
                }
            }
            PickKind::Each => {
                for (i, row) in b.table(table).rows.iter().enumerate() {
                    let weight = crate::rules::row_weight(b, row, depth, &self.available());
                    if weight == 0 || !row.chance.roll(self.rng) {
                        continue;
                    }
                    for _ in 0..denizen_core::fair::roll(row.count, self.rng) {
                        self.row(table, i, depth, rows, out);
                    }
                }
            }
        }
    }

    fn row(
        &mut self,
        table: TableId,
        i: usize,
        depth: u32,
        rows: &mut Vec<&'b Place>,
        out: &mut Vec<Unit<'b>>,
    ) {
        let b = self.b;
        let row = &b.table(table).rows[i];
        // Only rules that say something are kept: a lone species' unit then holds none.
        let said = !row.place.is_empty();
        if said {
            rows.push(&row.place);
        }
        match row.what {
            RowTarget::Species(s) => self.species(s, depth, rows, out),
            RowTarget::Group(g) => self.group(g, depth, rows, out),
            RowTarget::Table(t) => self.table(t, depth, rows, out),
        }
        if said {
            rows.pop();
        }
    }

    /// A species a row drew, with its escort.
    fn species(&mut self, s: SpeciesId, depth: u32, rows: &[&'b Place], out: &mut Vec<Unit<'b>>) {
        if self.gone[s.index()] {
            return;
        }
        self.take(s);
        let leader = Member {
            species: s,
            follows: None,
            place: None,
        };
        let (followers, radius) = match self.b.species_of(s).escort {
            Some(g) => (self.followers(g, depth), self.b.group(g).radius),
            None => (Vec::new(), 0),
        };
        out.push(Unit {
            leader,
            followers,
            radius,
            rows: rows.to_vec(),
            out_of_depth: self.deep,
        });
    }

    /// A group a row drew: nothing when its leader is not drawn.
    fn group(&mut self, g: GroupId, depth: u32, rows: &[&'b Place], out: &mut Vec<Unit<'b>>) {
        let group = self.b.group(g);
        let Some(Some(s)) = group.leader.map(|c| self.creature(c, depth)) else {
            return;
        };
        let leader = Member {
            species: s,
            follows: None,
            place: None,
        };
        let followers = self.followers(g, depth);
        out.push(Unit {
            leader,
            followers,
            radius: group.radius,
            rows: rows.to_vec(),
            out_of_depth: self.deep,
        });
    }

    fn followers(&mut self, g: GroupId, depth: u32) -> Vec<Member<'b>> {
        let b = self.b;
        let most: u32 = b
            .group(g)
            .followers
            .iter()
            .map(|f| f.count.bounds().1)
            .sum();
        let mut members = Vec::with_capacity(most as usize);
        for (k, follower) in b.group(g).followers.iter().enumerate() {
            for _ in 0..denizen_core::fair::roll(follower.count, self.rng) {
                if let Some(s) = self.creature(follower.member, depth) {
                    members.push(Member {
                        species: s,
                        follows: Some((g, k as u16)),
                        place: Some(&follower.place),
                    });
                }
            }
        }
        members
    }

    /// One creature: the species when available, or one drawn from a creature table.
    fn creature(&mut self, c: Creature, depth: u32) -> Option<SpeciesId> {
        let s = match c {
            Creature::Species(s) => (!self.gone[s.index()]).then_some(s)?,
            Creature::Table(t) => self.creature_of_table(t, depth)?,
        };
        self.take(s);
        Some(s)
    }

    fn creature_of_table(&mut self, t: TableId, depth: u32) -> Option<SpeciesId> {
        let b = self.b;
        let i = crate::pick::pick(b, (t, depth), self.gone, self.rng)?;
        match b.table(t).rows[i].what {
            RowTarget::Species(s) => Some(s),
            RowTarget::Table(inner) => self.creature_of_table(inner, depth),
            RowTarget::Group(_) => None,
        }
    }
}
