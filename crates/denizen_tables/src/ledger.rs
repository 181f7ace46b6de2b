//! Uniques: at most one of each alive per game, kept in a ledger the game saves.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::bag::Bags;
use crate::bestiary::{Bestiary, GroupId, SpeciesId};
use crate::rules::Key;

/// Which unique species are alive on some floor and which were killed, by key (keys stay
/// the same when the files change, ids may not).
///
/// A floor's plan names the uniques it placed ([`crate::FloorPlan::uniques`]): the game
/// marks them [`alive`](Self::alive). One left alive when its floor ends goes back to the
/// pool ([`floor_ended`](Self::floor_ended)); one the game reports
/// [`killed`](Self::killed) never comes again. A unique that is alive or killed is left
/// out of every draw, and the other rows' odds renormalise.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct UniqueLedger {
    alive: BTreeSet<String>,
    killed: BTreeSet<String>,
}

impl UniqueLedger {
    /// An empty ledger: every unique available.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a unique may be drawn: neither alive nor killed.
    pub fn is_available(&self, key: &str) -> bool {
        !self.alive.contains(key) && !self.killed.contains(key)
    }

    /// Marks a unique alive on the floor just made.
    pub fn alive(&mut self, key: &str) {
        if !self.killed.contains(key) {
            self.alive.insert(key.to_owned());
        }
    }

    /// Marks a unique killed: it never comes again.
    pub fn killed(&mut self, key: &str) {
        self.alive.remove(key);
        self.killed.insert(key.to_owned());
    }

    /// A floor ended with these uniques still alive on it: they go back to the pool.
    pub fn floor_ended<'a>(&mut self, left_alive: impl IntoIterator<Item = &'a str>) {
        for key in left_alive {
            self.alive.remove(key);
        }
    }

    /// Keeps only the keys `keep` accepts, alive and killed alike (a ledger read from a save
    /// checked against the files in use); returns the keys dropped, in order.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) -> Vec<String> {
        let dropped: Vec<String> = self
            .alive
            .iter()
            .chain(&self.killed)
            .filter(|key| !keep(key))
            .cloned()
            .collect();
        self.alive.retain(|key| keep(key));
        self.killed.retain(|key| keep(key));
        dropped
    }

    /// The uniques alive, by key.
    pub fn alive_keys(&self) -> impl Iterator<Item = &str> {
        self.alive.iter().map(String::as_str)
    }

    /// The uniques killed, by key.
    pub fn killed_keys(&self) -> impl Iterator<Item = &str> {
        self.killed.iter().map(String::as_str)
    }
}

/// Per species: a unique the ledger leaves out of every draw.
pub(crate) fn gone_by_ledger(b: &Bestiary, ledger: &UniqueLedger) -> Vec<bool> {
    b.species
        .iter()
        .map(|s| s.unique && !ledger.is_available(&s.key))
        .collect()
}

/// What a floor's draws leave for its later ones (its wandering arrivals): its bags, and
/// how many of each capped species and group it holds, as drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FloorState {
    pub(crate) bags: Bags,
    pub(crate) species: BTreeMap<SpeciesId, u32>,
    pub(crate) groups: BTreeMap<GroupId, u32>,
}

impl FloorState {
    /// A floor not drawn yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A floor's state from its parts: its bags, and the counts of its capped species
    /// and groups (a game's save, read back).
    pub fn from_parts(
        bags: Bags,
        species: impl IntoIterator<Item = (SpeciesId, u32)>,
        groups: impl IntoIterator<Item = (GroupId, u32)>,
    ) -> Self {
        Self {
            bags,
            species: species.into_iter().collect(),
            groups: groups.into_iter().collect(),
        }
    }

    /// Its bags.
    pub fn bags(&self) -> &Bags {
        &self.bags
    }

    /// How many of each capped species it holds (only those it holds).
    pub fn species_counts(&self) -> impl Iterator<Item = (SpeciesId, u32)> + '_ {
        self.species.iter().map(|(&s, &n)| (s, n))
    }

    /// How many placements of each capped group it holds (only those it holds).
    pub fn group_counts(&self) -> impl Iterator<Item = (GroupId, u32)> + '_ {
        self.groups.iter().map(|(&g, &n)| (g, n))
    }
}

/// What has run out while a floor is drawn, by [`Key::index`] (species, then groups):
/// whether each is gone (a unique the ledger holds or the floor took, a cap reached),
/// and how many of each capped one the floor holds.
#[derive(Clone, Debug)]
pub(crate) struct Spent {
    pub(crate) gone: Vec<bool>,
    /// Empty when the bestiary caps nothing.
    kept: Vec<u16>,
}

impl Spent {
    /// Nothing spent but the uniques `ledger` leaves out.
    pub(crate) fn new(b: &Bestiary, ledger: &UniqueLedger) -> Self {
        let mut gone = gone_by_ledger(b, ledger);
        gone.resize(b.species.len() + b.groups.len(), false);
        let caps = b.species.iter().any(|s| s.max_per_floor.is_some())
            || b.groups.iter().any(|g| g.max_per_floor.is_some());
        let kept = if caps {
            vec![0; gone.len()]
        } else {
            Vec::new()
        };
        Self { gone, kept }
    }

    /// One more of `k` on the floor: gone once it reaches `cap`.
    pub(crate) fn count(&mut self, b: &Bestiary, k: Key, cap: u32) {
        let i = k.index(b);
        self.kept[i] += 1;
        self.gone[i] |= u32::from(self.kept[i]) >= cap;
    }

    /// A floor's earlier draws counted in: its capped species and groups (a count at or
    /// past its cap leaves it out).
    pub(crate) fn start_from(&mut self, b: &Bestiary, state: &FloorState) {
        if self.kept.is_empty() {
            return;
        }
        let counts = (state.species.iter())
            .filter_map(|(&s, &n)| Some((Key::Species(s), n, b.species_of(s).max_per_floor?)))
            .chain(
                (state.groups.iter())
                    .filter_map(|(&g, &n)| Some((Key::Group(g), n, b.group(g).max_per_floor?))),
            );
        for (k, n, cap) in counts {
            let i = k.index(b);
            self.kept[i] = n.min(cap) as u16;
            self.gone[i] |= n >= cap;
        }
    }

    /// The counts of the capped species and groups, into a floor's state.
    pub(crate) fn keep_counts(&self, b: &Bestiary, state: &mut FloorState) {
        let n = b.species.len();
        state.species = (self.kept.iter().take(n).enumerate())
            .filter(|(_, k)| **k > 0)
            .map(|(i, &k)| (SpeciesId(i as u32), u32::from(k)))
            .collect();
        state.groups = (self.kept.iter().skip(n).enumerate())
            .filter(|(_, k)| **k > 0)
            .map(|(i, &k)| (GroupId(i as u32), u32::from(k)))
            .collect();
    }

    /// Back to `start`, keeping the buffers.
    pub(crate) fn reset_to(&mut self, start: &Spent) {
        self.gone.copy_from_slice(&start.gone);
        self.kept.copy_from_slice(&start.kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alive_uniques_return_and_killed_ones_do_not() {
        let mut ledger = UniqueLedger::new();
        ledger.alive("bramble_queen");
        ledger.alive("old_tusk");
        assert!(!ledger.is_available("bramble_queen"));
        ledger.killed("old_tusk");
        ledger.floor_ended(["bramble_queen", "old_tusk"]);
        assert!(ledger.is_available("bramble_queen"));
        assert!(!ledger.is_available("old_tusk"));
        ledger.alive("old_tusk");
        assert_eq!(
            ledger.alive_keys().count(),
            0,
            "a killed unique is never alive again"
        );
    }
}
