//! The monster allocator (2.7.9's `get_mon_num`): the level boost, the prefix by level, the
//! best-of-one-two-or-three pick, the filters and the 1-in-rarity acceptance.
//!
//! The rules are written once, as the constants and predicates at the top of this module.
//! Three readers share them: [`Allocator::odds`] turns them into exact probabilities (the
//! allocation notes' weighted-table form), [`Allocator::draw`] samples from that weighted
//! table, and [`draw_by_rejection`] runs the original's rejection loop, which tests and
//! benchmarks hold the table against.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use denizen_core::Generator;
use serde::{Deserialize, Serialize};

use crate::flags::{InnateFlags, RaceFlags};
use crate::race::{Race, RaceId, Races};
use crate::rng::rand0;
use crate::table::{AliasTable, LevelCache, LevelPrefix, failure_chance, picks_on_roll, unit};

pub use crate::table::{MAX_DRAW_LEVEL, MAX_PICKS, PICK_MIX};

/// Each of the two "nasty monster" rolls boosts the level one time in this many.
pub const BOOST_ONE_IN: i32 = 50;
/// How many independent boost rolls a draw makes.
pub const BOOST_ROLLS: usize = 2;

/// How much one boost roll raises a level: `min(level / 4 + 2, 5)`.
pub fn boost(level: i32) -> i32 {
    (level / 4 + 2).min(5)
}

/// What else a draw may require of a race: nests, pits and escorts restrict by symbol,
/// flags, breaths or level. It is data (not a closure) so the allocator can keep one
/// weighted table per filter.
///
/// A filter runs on a pick from the whole prefix, after the level skew, as in 2.7.9: a
/// restricted draw's odds depend on how many other races share each level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RaceFilter {
    /// If set, the race's symbol must be one of these.
    pub symbols: Option<Vec<char>>,
    /// Flags the race must all have.
    pub required: RaceFlags,
    /// Flags the race must have none of.
    pub forbidden: RaceFlags,
    /// If set, the race's innate attacks and breaths must be exactly this set.
    pub breaths: Option<InnateFlags>,
    /// If set, the race's level may not exceed it.
    pub max_level: Option<u8>,
    /// If set, this race is refused.
    pub except: Option<RaceId>,
}

impl RaceFilter {
    /// Whether a race passes the filter.
    pub fn admits(&self, race: &Race) -> bool {
        self.symbols
            .as_ref()
            .is_none_or(|symbols| symbols.contains(&race.symbol))
            && race.flags.contains(self.required)
            && !race.flags.intersects(self.forbidden)
            && self.breaths.is_none_or(|set| race.innate == set)
            && self.max_level.is_none_or(|max| race.level <= max)
            && self.except != Some(race.id)
    }

    /// The escorts of a leader: the same symbol, no deeper than the leader, not unique,
    /// not the leader's own race (2.7.9's `place_monster_okay`).
    pub fn escort_of(leader: &Race) -> Self {
        Self {
            symbols: Some(vec![leader.symbol]),
            forbidden: RaceFlags::UNIQUE,
            max_level: Some(leader.level),
            except: Some(leader.id),
            ..Self::default()
        }
    }
}

/// The uniques of the world that the allocator refuses: those alive (each unique's
/// maximum is one) and those killed (2.7.9 sets a killed unique's maximum to zero, so it
/// never comes back). The plugin keeps it and saves it. A unique placed on a level joins
/// the alive; the host calls [`kill`](Self::kill) when the player kills it; a unique on a
/// level that is thrown away goes back to the pool with [`remove`](Self::remove).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "LedgerRecord")]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct UniqueLedger {
    /// Alive, sorted, without repeats.
    alive: Vec<RaceId>,
    /// Killed, sorted, without repeats, none of them alive.
    killed: Vec<RaceId>,
}

/// A ledger as written in a save, put in order when read (a save may list races in any
/// order, twice, or as both alive and killed).
#[derive(Deserialize)]
struct LedgerRecord {
    #[serde(default)]
    alive: Vec<RaceId>,
    #[serde(default)]
    killed: Vec<RaceId>,
}

impl From<LedgerRecord> for UniqueLedger {
    fn from(record: LedgerRecord) -> Self {
        let mut ledger = Self {
            alive: record.alive,
            killed: record.killed,
        };
        ledger.tidy();
        ledger
    }
}

/// Inserts into a sorted list; false if it was there.
fn insert_sorted(list: &mut Vec<RaceId>, race: RaceId) -> bool {
    match list.binary_search(&race) {
        Ok(_) => false,
        Err(at) => {
            list.insert(at, race);
            true
        }
    }
}

/// Removes from a sorted list; false if it was not there.
fn remove_sorted(list: &mut Vec<RaceId>, race: RaceId) -> bool {
    match list.binary_search(&race) {
        Ok(at) => {
            list.remove(at);
            true
        }
        Err(_) => false,
    }
}

impl UniqueLedger {
    /// No unique alive or killed.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sorts both lists, drops repeats, and drops from the alive those also killed.
    fn tidy(&mut self) {
        for list in [&mut self.alive, &mut self.killed] {
            list.sort_unstable();
            list.dedup();
        }
        let killed = &self.killed;
        self.alive
            .retain(|race| killed.binary_search(race).is_err());
    }

    /// Whether a unique is alive.
    pub fn is_alive(&self, race: RaceId) -> bool {
        self.alive.binary_search(&race).is_ok()
    }

    /// Whether a unique was killed.
    pub fn is_killed(&self, race: RaceId) -> bool {
        self.killed.binary_search(&race).is_ok()
    }

    /// Whether the allocator refuses a unique: alive or killed.
    pub fn refuses(&self, race: RaceId) -> bool {
        self.is_alive(race) || self.is_killed(race)
    }

    /// Records a unique as alive (placed); false if it already was, or was killed.
    pub fn insert(&mut self, race: RaceId) -> bool {
        !self.is_killed(race) && insert_sorted(&mut self.alive, race)
    }

    /// Gives a unique back to the pool (it was on a level that was thrown away); false
    /// if it was not alive.
    pub fn remove(&mut self, race: RaceId) -> bool {
        remove_sorted(&mut self.alive, race)
    }

    /// Records a unique as killed: it is never drawn again.
    pub fn kill(&mut self, race: RaceId) {
        remove_sorted(&mut self.alive, race);
        insert_sorted(&mut self.killed, race);
    }

    /// The uniques alive, by race number.
    pub fn iter(&self) -> impl Iterator<Item = RaceId> + '_ {
        self.alive.iter().copied()
    }

    /// The uniques killed, by race number.
    pub fn killed(&self) -> impl Iterator<Item = RaceId> + '_ {
        self.killed.iter().copied()
    }

    /// How many uniques are alive.
    pub fn len(&self) -> usize {
        self.alive.len()
    }

    /// Whether none is alive.
    pub fn is_empty(&self) -> bool {
        self.alive.is_empty()
    }

    /// Mends a ledger built by hand or through reflection: put in order, naming only
    /// uniques of `races`. Returns how many entries it dropped.
    pub fn keep_only_uniques_of(&mut self, races: &Races) -> usize {
        self.tidy();
        let before = self.alive.len() + self.killed.len();
        for list in [&mut self.alive, &mut self.killed] {
            list.retain(|&id| races.get(id).is_some_and(Race::is_unique));
        }
        before - self.alive.len() - self.killed.len()
    }
}

/// One draw's circumstances.
#[derive(Clone, Copy, Debug)]
pub struct DrawRequest<'a> {
    /// The monster level drawn at, before the boost rolls (depth, or depth plus a room's
    /// offset).
    pub level: i32,
    /// The real dungeon depth, which `FORCE_DEPTH` races are checked against.
    pub depth: i32,
    /// A room's or an escort's restriction, if any.
    pub filter: Option<&'a RaceFilter>,
    /// The uniques alive now.
    pub live: &'a UniqueLedger,
}

impl<'a> DrawRequest<'a> {
    /// A plain draw at `level` on a level at `depth`.
    pub fn new(level: i32, depth: i32, live: &'a UniqueLedger) -> Self {
        Self {
            level,
            depth,
            filter: None,
            live,
        }
    }

    /// The same draw restricted by a filter.
    pub fn filtered(self, filter: &'a RaceFilter) -> Self {
        Self {
            filter: Some(filter),
            ..self
        }
    }
}

/// Whether a pick of `race` is refused by what changes during play: a unique alive or
/// killed, or a `FORCE_DEPTH` race deeper than the dungeon. The boost never lets a
/// `FORCE_DEPTH` race through: it is checked against the real depth.
fn refused_now(race: &Race, request: &DrawRequest<'_>) -> bool {
    (race.is_unique() && request.live.refuses(race.id))
        || (race.flags.contains(RaceFlags::FORCE_DEPTH) && i32::from(race.level) > request.depth)
}

/// Whether a pick of `race` is refused by what never changes for a draw at `level`: a town
/// race in the dungeon, or the filter.
fn refused_by_level_or_filter(race: &Race, level: i32, filter: Option<&RaceFilter>) -> bool {
    (level > 0 && race.level == 0) || filter.is_some_and(|f| !f.admits(race))
}

/// The exact chance of one race for one draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceOdds {
    /// The race.
    pub race: RaceId,
    /// The chance a draw returns it.
    pub probability: f64,
}

/// The exact outcome of one draw: every race it can return, and the chance it fails.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOdds {
    /// Races with a non-zero chance, by race number.
    pub races: Vec<RaceOdds>,
    /// The chance that all [`MAX_PICKS`] picks are refused and the draw returns nothing.
    pub failure: f64,
}

/// A weighted table for one final level and filter: the races that survive the static
/// checks with their per-pick acceptance weights, and an alias table over them, so a draw
/// takes one word whatever the number of races.
#[derive(Clone, Debug)]
struct Table {
    /// Race slots (positions in the race file), in prefix order.
    slots: Vec<u32>,
    /// Per-pick acceptance weights, one per slot.
    weights: Vec<f64>,
    /// The sum of the weights.
    total: f64,
    /// The sum of the weights of races no play-time check refuses.
    steady_total: f64,
    /// Whether a play-time check may refuse a slot's race (uniques, `FORCE_DEPTH`).
    changeable: Vec<bool>,
    /// The alias table over the weights.
    alias: AliasTable,
}

impl Table {
    /// Builds the alias table once the weights are in.
    fn with_alias(mut self) -> Self {
        self.alias = AliasTable::new(&self.weights, self.total);
        self
    }

    /// One slot index, from one word.
    fn sample(&self, rng: &mut Generator) -> usize {
        self.alias.sample(rng)
    }
}

/// The tables of one filter (or of none), by final level, built on first use.
type Tables = LevelCache<Table>;

/// The allocation table: every race with a non-zero rarity, by level, with the weighted
/// tables drawn from (built on first use and kept).
#[derive(Clone, Debug)]
pub struct Allocator {
    races: Races,
    /// Race slots sorted by level, then race number.
    entries: Vec<u32>,
    /// The entries at or below each level.
    prefix: LevelPrefix,
    /// Tables of unfiltered draws.
    plain: Tables,
    /// Tables of filtered draws, by filter (shared by clones, as the tables are).
    filtered: Arc<Mutex<HashMap<RaceFilter, Tables>>>,
}

/// Whether an admitted weight can make the draw fail with a chance a 53-bit uniform can
/// resolve: `(1 - a)^10000` is below 2^-60 for any `a` of at least 1/200.
const SURE_WEIGHT: f64 = 0.005;

/// The boost rolls' outcomes for a draw at `level`, in roll order: each final level (before
/// the cap) with its weight out of `BOOST_ONE_IN ^ BOOST_ROLLS`. Each roll boosts one time
/// in [`BOOST_ONE_IN`], the second boosting the already boosted level; levels of 0 or less
/// are never boosted.
fn boost_outcomes(level: i32) -> [(i32, u32); 1 << BOOST_ROLLS] {
    // Capping first changes nothing (a boosted level is capped too) and keeps the sums
    // in range for any level a caller passes.
    let level = level.min(MAX_DRAW_LEVEL);
    let one_in = BOOST_ONE_IN as u32;
    let mut outcomes = [(level, 0u32); 1 << BOOST_ROLLS];
    if level <= 0 {
        outcomes[0].1 = one_in.pow(BOOST_ROLLS as u32);
        return outcomes;
    }
    outcomes[0].1 = 1;
    let mut len = 1;
    for _ in 0..BOOST_ROLLS {
        // Each outcome splits in two in place, from the last down, so nothing unread is
        // overwritten: boosted first, then not.
        for i in (0..len).rev() {
            let (l, w) = outcomes[i];
            outcomes[2 * i] = (l + boost(l), w);
            outcomes[2 * i + 1] = (l, w * (one_in - 1));
        }
        len *= 2;
    }
    outcomes
}

/// The final level that `roll`, one of the boost rolls' combined outcomes in order,
/// reaches; `unboosted` past the last outcome.
fn level_on_roll(outcomes: &[(i32, u32)], mut roll: u32, unboosted: i32) -> i32 {
    for &(level, weight) in outcomes {
        if roll < weight {
            return level.min(MAX_DRAW_LEVEL);
        }
        roll -= weight;
    }
    unboosted
}

impl Allocator {
    /// The allocation table of a set of races.
    pub fn new(races: Races) -> Self {
        let mut entries: Vec<u32> = races
            .all()
            .iter()
            .enumerate()
            .filter(|(_, race)| race.rarity > 0)
            .map(|(slot, _)| slot as u32)
            .collect();
        entries.sort_by_key(|&slot| (races.all()[slot as usize].level, slot));
        let prefix = LevelPrefix::new(entries.iter().map(|&slot| races.all()[slot as usize].level));
        Self {
            races,
            entries,
            prefix,
            plain: LevelCache::new(),
            filtered: Arc::default(),
        }
    }

    /// The races the table draws from.
    pub fn races(&self) -> &Races {
        &self.races
    }

    fn race_at(&self, slot: u32) -> &Race {
        &self.races.all()[slot as usize]
    }

    /// The final levels a draw at `level` is made at, with their chances: the two boost
    /// rolls (each [`BOOST_ONE_IN`], the second boosting the already boosted level), then
    /// the cap at [`MAX_DRAW_LEVEL`]. Levels of 0 or less are never boosted.
    pub fn boosted_levels(level: i32) -> Vec<(i32, f64)> {
        let outcomes = boost_outcomes(level);
        let total: u32 = outcomes.iter().map(|&(_, w)| w).sum();
        let mut merged: Vec<(i32, f64)> = Vec::new();
        for (l, w) in outcomes {
            let l = l.min(MAX_DRAW_LEVEL);
            let p = f64::from(w) / f64::from(total);
            match merged.iter_mut().find(|(m, _)| *m == l) {
                Some(entry) => entry.1 += p,
                None => merged.push((l, p)),
            }
        }
        merged.sort_by_key(|&(l, _)| l);
        merged
    }

    /// The prefix size at a final level: town races only at level 0 or below.
    fn prefix(&self, level: i32) -> u32 {
        self.prefix.size(level)
    }

    /// The chance that one pick at final level `level` lands on a given entry of level `l`.
    fn pick_weight(&self, level: i32, l: u8) -> f64 {
        self.prefix.pick_weight(level, l)
    }

    /// Builds the table of one final level and filter.
    fn build_table(&self, level: i32, filter: Option<&RaceFilter>) -> Table {
        let mut table = Table {
            slots: Vec::new(),
            weights: Vec::new(),
            total: 0.0,
            steady_total: 0.0,
            changeable: Vec::new(),
            alias: AliasTable::default(),
        };
        for &slot in &self.entries[..self.prefix(level) as usize] {
            let race = self.race_at(slot);
            if refused_by_level_or_filter(race, level, filter) {
                continue;
            }
            let weight = self.pick_weight(level, race.level) / f64::from(race.rarity);
            let changeable = race.is_unique() || race.flags.contains(RaceFlags::FORCE_DEPTH);
            table.total += weight;
            if !changeable {
                table.steady_total += weight;
            }
            table.slots.push(slot);
            table.weights.push(weight);
            table.changeable.push(changeable);
        }
        table
    }

    /// The cached tables of a filter (or of none), by final level.
    fn tables(&self, filter: Option<&RaceFilter>) -> Tables {
        match filter {
            None => self.plain.clone(),
            Some(f) => self
                .filtered
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .entry(f.clone())
                .or_insert_with(LevelCache::new)
                .clone(),
        }
    }

    /// The per-pick chance that a pick at a final level is kept, with the play-time
    /// checks of `request` applied.
    fn admitted(&self, table: &Table, request: &DrawRequest<'_>) -> f64 {
        let refused: f64 = (0..table.slots.len())
            .filter(|&i| table.changeable[i] && refused_now(self.race_at(table.slots[i]), request))
            .map(|i| table.weights[i])
            .sum();
        (table.total - refused).max(0.0)
    }

    /// The exact chances of one draw: for each final level, each race's share of the kept
    /// picks, times the chance the picks do not all fail.
    pub fn odds(&self, request: &DrawRequest<'_>) -> DrawOdds {
        let mut by_race = vec![0.0; self.races.len()];
        let mut failure = 0.0;
        for (level, chance) in Self::boosted_levels(request.level) {
            let table = self.build_table(level, request.filter);
            let admitted = self.admitted(&table, request);
            let fails = failure_chance(admitted);
            failure += chance * fails;
            if admitted <= 0.0 {
                continue;
            }
            for (&slot, &weight) in table.slots.iter().zip(&table.weights) {
                if !refused_now(self.race_at(slot), request) {
                    by_race[slot as usize] += chance * (1.0 - fails) * weight / admitted;
                }
            }
        }
        DrawOdds {
            races: by_race
                .into_iter()
                .enumerate()
                .filter(|&(_, p)| p > 0.0)
                .map(|(slot, probability)| RaceOdds {
                    race: self.races.all()[slot].id,
                    probability,
                })
                .collect(),
            failure,
        }
    }

    /// One draw: the boost rolls (as one word over their combined outcomes), then a race
    /// from the alias table of the final level and filter, or `None` when the draw fails.
    ///
    /// Where a play-time check could refuse nearly every pick (races that are never
    /// refused weigh under 1/200 of a pick), the original's failure chance (all
    /// [`MAX_PICKS`] picks refused) is rolled and a kept race picked by a scan of the
    /// weights; elsewhere that chance is below 2^-60 and the alias table is sampled until
    /// a race is kept.
    pub fn draw(&self, rng: &mut Generator, request: &DrawRequest<'_>) -> Option<RaceId> {
        let outcomes = boost_outcomes(request.level);
        let total: u32 = outcomes.iter().map(|&(_, w)| w).sum();
        let level = level_on_roll(&outcomes, rand0(rng, total as i32) as u32, request.level);
        let tables = self.tables(request.filter);
        let table = tables.get_or_build(level, || {
            self.build_table(level, request.filter).with_alias()
        });
        if table.total <= 0.0 {
            return None;
        }
        if table.steady_total < SURE_WEIGHT {
            // Almost everything here may be refused: roll the original's failure chance,
            // then pick among the races kept by a direct scan of their weights.
            let admitted = self.admitted(table, request);
            if admitted <= 0.0 || unit(rng) < failure_chance(admitted) {
                return None;
            }
            let mut target = unit(rng) * admitted;
            let mut last = None;
            for (i, &slot) in table.slots.iter().enumerate() {
                let race = self.race_at(slot);
                if table.changeable[i] && refused_now(race, request) {
                    continue;
                }
                last = Some(race.id);
                target -= table.weights[i];
                if target < 0.0 {
                    break;
                }
            }
            return last;
        }
        // Enough weight is never refused that the alias table ends quickly; the bound
        // only guards against a table whose refused weight is all but everything.
        for _ in 0..MAX_PICKS {
            let i = table.sample(rng);
            let race = self.race_at(table.slots[i]);
            if !table.changeable[i] || !refused_now(race, request) {
                return Some(race.id);
            }
        }
        None
    }
}

/// The original's loop, pick by pick: the boost rolls, then up to [`MAX_PICKS`] picks, each
/// the best of one, two or three uniform prefix indices, refused when it is a town race in
/// the dungeon, fails the filter or a play-time check, or loses the 1-in-rarity roll.
///
/// It reads the same constants and checks as [`Allocator::odds`]; it is the reference the
/// weighted table is tested and benchmarked against.
pub fn draw_by_rejection(
    allocator: &Allocator,
    rng: &mut Generator,
    request: &DrawRequest<'_>,
) -> Option<RaceId> {
    let mut level = request.level.min(MAX_DRAW_LEVEL);
    if level > 0 {
        for _ in 0..BOOST_ROLLS {
            if rand0(rng, BOOST_ONE_IN) == 0 {
                level += boost(level);
            }
        }
        level = level.min(MAX_DRAW_LEVEL);
    }
    let n = allocator.prefix(level) as i32;
    if n == 0 {
        return None;
    }
    let level_of = |i: i32| allocator.race_at(allocator.entries[i as usize]).level;
    for _ in 0..MAX_PICKS {
        let mut i = rand0(rng, n);
        if level > 0 {
            for _ in 1..picks_on_roll(rand0(rng, 100) as u32) {
                let j = rand0(rng, n);
                if level_of(j) > level_of(i) {
                    i = j;
                }
            }
        }
        let race = allocator.race_at(allocator.entries[i as usize]);
        if refused_by_level_or_filter(race, level, request.filter) || refused_now(race, request) {
            continue;
        }
        if rand0(rng, i32::from(race.rarity)) != 0 {
            continue;
        }
        return Some(race.id);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every one of the boost rolls' 2,500 outcomes read in turn reaches the allocation
    /// notes' levels: at 40 (a boost of +5) 49 x 49 stay, 2 x 49 reach 45 and one 50; at
    /// 125 the boosted ones stop at the cap, 127.
    #[test]
    fn each_boost_outcome_reaches_its_level() {
        // min(level / 4 + 2, 5) (allocation notes), worked by hand where the quarter and
        // the 2 show: 1 -> 3 -> 5, 5 -> 8 -> 12, 10 -> 14 -> 19 (11 is boosted by 4, 12 by
        // the cap's 5).
        assert_eq!((boost(11), boost(12)), (4, 5));
        for (level, expected) in [
            (1, vec![(1, 2_401), (3, 98), (5, 1)]),
            (5, vec![(5, 2_401), (8, 98), (12, 1)]),
            (10, vec![(10, 2_401), (14, 98), (19, 1)]),
            (40, vec![(40, 2_401), (45, 98), (50, 1)]),
            (125, vec![(125, 2_401), (127, 99)]),
        ] {
            let outcomes = boost_outcomes(level);
            let mut reached = std::collections::BTreeMap::new();
            for roll in 0..2_500 {
                *reached
                    .entry(level_on_roll(&outcomes, roll, level))
                    .or_insert(0) += 1;
            }
            assert_eq!(reached.into_iter().collect::<Vec<_>>(), expected);
        }
    }

    /// The allocation notes' mix of picks: of the 100 rolls, 40 take one pick, 50 the
    /// deeper of two and 10 the deepest of three.
    #[test]
    fn each_pick_roll_takes_the_notes_share() {
        let mut taken = [0; 4];
        for roll in 0..100 {
            taken[picks_on_roll(roll) as usize] += 1;
        }
        assert_eq!(taken, [0, 40, 50, 10]);
    }
}
