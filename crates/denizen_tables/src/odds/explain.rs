//! Where a species comes from: every path of the walk that brings it to a floor (the
//! region, the rows gone through, how it came, whether out of depth), each with the
//! expected count it brings. The exact walk counts each creature of the species under its
//! path instead of its species, so the shares are the walk's own and sum to the species'
//! expected count per floor.

use std::collections::HashMap;

use super::OddsError;
use super::region::FloorDraws;
use crate::bestiary::{Bestiary, GroupId, SpeciesId, TableId};
use crate::context::Context;
use crate::ledger::UniqueLedger;
use crate::walk::Role;
use denizen_core::quoted;
use denizen_core::regions::Regions;

/// The most paths an explanation follows; a species brought by more is not explained.
pub const MAX_EXPLAINED_PATHS: usize = 256;

/// How a creature on a path came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Came {
    /// A row drew its species (its escort, if any, following it).
    Drawn,
    /// It leads a group a row drew.
    Leader(GroupId),
    /// It follows, as follower kind `kind` of `group` (a group a row drew, or a species'
    /// escort).
    Follower {
        /// The group.
        group: GroupId,
        /// Its kind among the group's followers.
        kind: u16,
    },
}

/// One way a species comes to a floor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DrawPath {
    /// The region whose draw brought it; none for the floor's own placements.
    pub region: Option<String>,
    /// The rows gone through, outermost first: a table and a row's index in it.
    pub rows: Vec<(TableId, usize)>,
    /// How it came.
    pub came: Came,
    /// Whether its placement went out of depth.
    pub out_of_depth: bool,
}

impl DrawPath {
    /// The path in words: the region, each row as its file names it, how it came.
    pub fn describe(&self, b: &Bestiary) -> String {
        let mut parts = Vec::new();
        if let Some(id) = &self.region {
            parts.push(format!("region {}", quoted(id)));
        }
        for &(t, i) in &self.rows {
            parts.push(b.row_source(t, i).to_string());
        }
        parts.push(match self.came {
            Came::Drawn => "drawn".to_owned(),
            Came::Leader(g) => format!("leader of group {}", quoted(&b.group(g).key)),
            Came::Follower { group, kind } => format!(
                "follower {} of {}",
                quoted(b.role(group, kind)),
                quoted(&b.group(group).key)
            ),
        });
        if self.out_of_depth {
            parts.push("out of depth".to_owned());
        }
        parts.join(" > ")
    }
}

/// A species' expected count per floor, and each path's share of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The species explained.
    pub species: SpeciesId,
    /// Its expected count per floor: the paths' shares summed.
    pub total: f64,
    /// Each path that can bring it and the expected count it brings, the largest first
    /// (paths of equal share in the order the walk meets them).
    pub paths: Vec<(DrawPath, f64)>,
}

/// The paths an explaining walk has met, and where it stands: the region drawn, the rows
/// gone through, whether the last leader's placement went out of depth.
#[derive(Debug)]
pub(super) struct Paths {
    target: SpeciesId,
    pub(super) region: Option<String>,
    /// The rows gone through, each marked when it drew one creature of a creature table.
    rows: Vec<(TableId, usize, bool)>,
    /// The last leader's creature-table rows: `rows[leader.0..leader.1]`. Its followers
    /// are walked inside them, but came by the unit's rows, not by the leader's.
    leader: (usize, usize),
    deep: bool,
    found: Vec<DrawPath>,
    index: HashMap<DrawPath, usize>,
}

impl Paths {
    /// The index a creature of `s` coming as `role` is counted under: its path's when `s`
    /// is the species explained, none otherwise.
    pub(super) fn index(&mut self, s: SpeciesId, role: Role<'_>) -> Option<usize> {
        let (came, rows) = match role {
            Role::Leader { group, deep, .. } => {
                // Its followers come next, from the same placement and unit.
                self.deep = deep;
                let end = self.rows.len();
                let own = self.rows.iter().rev().take_while(|r| r.2).count();
                self.leader = (end - own, end);
                let rows = self.rows.iter().map(|r| (r.0, r.1)).collect();
                (group.map_or(Came::Drawn, Came::Leader), rows)
            }
            Role::Follower { group, kind, .. } => {
                let (start, end) = self.leader;
                let unit = self.rows.get(..start).unwrap_or_default();
                let own = self.rows.get(end..).unwrap_or_default();
                let rows = unit.iter().chain(own).map(|r| (r.0, r.1)).collect();
                (Came::Follower { group, kind }, rows)
            }
        };
        if s != self.target {
            return None;
        }
        let path = DrawPath {
            region: self.region.clone(),
            rows,
            came,
            out_of_depth: self.deep,
        };
        let next = self.found.len();
        let i = *self.index.entry(path.clone()).or_insert(next);
        if i == next {
            self.found.push(path);
        }
        Some(i)
    }

    /// The walk goes through a row (of a creature table when marked).
    pub(super) fn via(&mut self, row: (TableId, usize, bool)) {
        self.rows.push(row);
    }

    /// The walk leaves the row it went through last.
    pub(super) fn left(&mut self) {
        self.rows.pop();
    }
}

/// Every path that brings `species` to a floor at `depth` in `context` with `regions`,
/// for the uniques `ledger` leaves available, with the expected count each brings: the
/// floor drawn as [`region_odds`](super::region_odds) draws it. None past the exact
/// limits of [`region_odds`](super::region_odds) or past [`MAX_EXPLAINED_PATHS`] paths
/// (the expected count is then sampled, and no share is).
pub fn explain(
    b: &Bestiary,
    depth: u32,
    regions: &Regions,
    ledger: &UniqueLedger,
    context: &Context,
    species: SpeciesId,
) -> Result<Option<Explanation>, OddsError> {
    let (draws, c) = FloorDraws::resolve(b, depth, regions, context)?;
    let Some(mut exact) = draws.exact(b, c, ledger) else {
        return Ok(None);
    };
    exact.width = MAX_EXPLAINED_PATHS;
    exact.explaining = Some(Paths {
        target: species,
        region: None,
        rows: Vec::new(),
        leader: (0, 0),
        deep: false,
        found: Vec::new(),
        index: HashMap::new(),
    });
    let Some((per_draw, _)) = draws.walk(&mut exact) else {
        return Ok(None);
    };
    let mut shares = vec![0.0; MAX_EXPLAINED_PATHS];
    for draw in &per_draw {
        super::add(&mut shares, draw, 1.0);
    }
    let found = exact.explaining.map(|p| p.found).unwrap_or_default();
    let mut paths: Vec<(DrawPath, f64)> = found.into_iter().zip(shares).collect();
    // A stable sort: paths of equal share stay in the order the walk met them.
    paths.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(Some(Explanation {
        species,
        total: paths.iter().map(|p| p.1).sum(),
        paths,
    }))
}
