//! Random objects: Omega's `create_object`, the possessions a monster is built with, the
//! unique-item ledger, and the exact odds of each object.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::items::{Item, ItemClass, ItemId, ItemQuirk, Uniqueness};
use crate::rng::{self, BUCKETS, bucket_weight, buckets_below};

/// The most the class weights of a bestiary's `objects` list may add up to.
pub const MAX_OBJECT_WEIGHT: u32 = 1_000_000;

/// The most attempts one random possession may take, about 50 ms of drawing. Omega's
/// objects pass in a few attempts each; a game's data where an object passes once in
/// millions of attempts (a one-in-10,000 class of items above the monster's level)
/// would otherwise make one monster take minutes.
pub const MAX_POSSESSION_ATTEMPTS: u32 = 1_000_000;

/// One class's weight in the random object draw (a row of the bestiary's `objects` list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectClassWeight {
    /// The class.
    pub class: ItemClass,
    /// Its share of the class draw.
    pub weight: u32,
    /// A slot of this class is redrawn while the same slot of the guard class is made or
    /// taken (Omega's artifact draw looks at the wrong table rows).
    #[serde(default)]
    pub slot_guard: Option<ItemClass>,
}

/// An object as it exists in the world: a copy of its template plus the rolls it got.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ObjectInstance {
    /// The template.
    pub item: ItemId,
    /// Enchantment.
    pub plus: i32,
    /// Negative: cursed; positive: blessed.
    pub blessing: i32,
    /// Charges (sticks).
    pub charge: i32,
    /// Stack size.
    pub number: i32,
    /// Class-specific value (the spell a scroll of spells teaches, ...).
    pub aux: i32,
    /// Which of the 20 junk names a junk item got (names are cosmetic and not carried).
    pub variant: Option<u8>,
}

impl ObjectInstance {
    /// A verbatim copy of the template, as fixed items are given.
    pub fn copy_of(id: ItemId, item: &Item) -> Self {
        Self {
            item: id,
            plus: item.plus,
            blessing: item.blessing,
            charge: item.charge,
            number: 1,
            aux: item.aux,
            variant: None,
        }
    }
}

/// Which unique items exist: each item's current uniqueness state, starting from the
/// table's. Common rows never change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ItemLedger {
    states: Vec<Uniqueness>,
}

impl ItemLedger {
    /// The state of a new world: each item as its template lists it.
    pub fn new(items: &[Item]) -> Self {
        Self {
            states: items.iter().map(|i| i.uniqueness).collect(),
        }
    }

    /// Whether the ledger fits an item table: one state per item, common items common and
    /// unique items in one of the unique states. A ledger from a save of other data fails
    /// here, before any draw reads it; the message names the first misfit.
    pub fn check(&self, items: &[Item]) -> Result<(), String> {
        if self.states.len() != items.len() {
            return Err(format!(
                "it holds {} items, the item table {}",
                self.states.len(),
                items.len()
            ));
        }
        let unique = |u: Uniqueness| u != Uniqueness::Common;
        for (item, &state) in items.iter().zip(&self.states) {
            if unique(item.uniqueness) != unique(state) {
                return Err(format!(
                    "item {:?} is {:?} in the table but {state:?} in the ledger",
                    item.key, item.uniqueness
                ));
            }
        }
        Ok(())
    }

    /// The current state of an item. An item past the end of a ledger that does not fit
    /// its table (see [`check`](Self::check)) reads as common instead of panicking.
    pub fn state(&self, id: ItemId) -> Uniqueness {
        self.states
            .get(id.index())
            .copied()
            .unwrap_or(Uniqueness::Common)
    }

    /// Sets an item's state (a unique made, taken, or returned to the world); an item the
    /// ledger does not hold is left alone.
    pub fn set(&mut self, id: ItemId, state: Uniqueness) {
        if let Some(slot) = self.states.get_mut(id.index()) {
            *slot = state;
        }
    }

    /// Whether a made-or-unmade check passes: the item is not made yet, or taken.
    fn is_made_or_taken(&self, id: ItemId) -> bool {
        matches!(
            self.state(id),
            Uniqueness::UniqueMade | Uniqueness::UniqueTaken
        )
    }
}

/// The object-generation table of a bestiary: each class's share of the class draw and
/// its members in table order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectTable {
    draw: u32,
    classes: Vec<ClassSlots>,
    productive: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct ClassSlots {
    /// Class draws below this (and at or above the previous class's) pick this class.
    upto: u32,
    members: Vec<ItemId>,
    guard: Vec<ItemId>,
}

/// The level test: an object passes when its level is below `level + R(3)`...
const LEVEL_SLACK: u32 = 3;
/// ... or, failing that, when `R(100) == 23`.
const ESCAPE_RANGE: u32 = 100;
const ESCAPE_VALUE: u32 = 23;

fn passes_level(item_level: i32, level: i32, slack: u32) -> bool {
    i64::from(item_level) < i64::from(level) + i64::from(slack)
}

/// Why class weights cannot make a table whose draws always end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectTableError {
    /// The position of the class in the weights list, when one class is at fault.
    pub class: Option<usize>,
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong.
    pub problem: String,
}

impl ObjectTable {
    /// Builds the table from class weights over an item table, proving that its draws
    /// end: the weights add up to at most [`MAX_OBJECT_WEIGHT`], every class can be drawn
    /// by `R(total)` (past a total of 10,000 some values have no bucket), and some class
    /// holds a common item on a slot `R(members)` reaches and no guard can block (so each
    /// attempt has a chance to succeed whatever unique items exist). No weights: a table
    /// that makes nothing.
    pub fn new(weights: &[ObjectClassWeight], items: &[Item]) -> Result<Self, ObjectTableError> {
        let members_of = |class: ItemClass| -> Vec<ItemId> {
            items
                .iter()
                .enumerate()
                .filter(|(_, item)| item.class == class)
                .map(|(i, _)| ItemId(i as u16))
                .collect()
        };
        let mut upto: u32 = 0;
        let mut classes = Vec::with_capacity(weights.len());
        for (i, c) in weights.iter().enumerate() {
            upto = upto
                .checked_add(c.weight)
                .filter(|&total| total <= MAX_OBJECT_WEIGHT)
                .ok_or_else(|| ObjectTableError {
                    class: Some(i),
                    field: "weight",
                    problem: format!("the class weights add up past {MAX_OBJECT_WEIGHT}"),
                })?;
            classes.push(ClassSlots {
                upto,
                members: members_of(c.class),
                guard: c.slot_guard.map(members_of).unwrap_or_default(),
            });
        }
        let mut lower = 0;
        for (i, class) in classes.iter().enumerate() {
            if buckets_below(class.upto, upto) == buckets_below(lower, upto) {
                return Err(ObjectTableError {
                    class: Some(i),
                    field: "weight",
                    problem: format!(
                        "{:?} can never be drawn: R({upto}) gives no value in {lower}..{}",
                        weights[i].class, class.upto
                    ),
                });
            }
            lower = class.upto;
        }
        let common = |id: &ItemId| items[id.index()].uniqueness == Uniqueness::Common;
        let productive = classes.iter().any(|c| {
            let n = c.members.len() as u32;
            c.members.iter().enumerate().any(|(s, id)| {
                common(id) && bucket_weight(s as u32, n) > 0 && c.guard.get(s).is_none_or(common)
            })
        });
        if !classes.is_empty() && !productive {
            return Err(ObjectTableError {
                class: None,
                field: "class",
                problem: "no listed class has a common item that can always be drawn, so \
                          random possessions could never be made"
                    .into(),
            });
        }
        Ok(Self {
            draw: upto,
            classes,
            productive,
        })
    }

    /// Whether slot `s` of a class is redrawn (its guard row is made or taken).
    fn blocked(&self, class: &ClassSlots, slot: usize, ledger: &ItemLedger) -> bool {
        class
            .guard
            .get(slot)
            .is_some_and(|&g| ledger.is_made_or_taken(g))
    }

    /// Omega's `create_object(level)`: draws attempts until one is accepted, marks an
    /// unmade unique as made, and returns the object with the state its row had. The
    /// attempts end: [`Self::new`] proved each has a chance to succeed.
    ///
    /// Every attempt draws, in order: the class, the slot (redrawn while guarded), the
    /// class rolls, then `R(3)` if the row is below made, then `R(100)` if the level test
    /// failed. Each attempt spends one of `budget`. `None` when the table is empty or
    /// cannot produce any object, or the budget is spent (where the source would go on
    /// drawing: only for a game's data whose objects almost never pass).
    pub fn create<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        items: &[Item],
        ledger: &mut ItemLedger,
        level: i32,
        budget: &mut u32,
    ) -> Option<(ObjectInstance, Uniqueness)> {
        if !self.productive {
            return None;
        }
        loop {
            *budget = budget.checked_sub(1)?;
            let r = rng::range(rng, self.draw);
            let class = self.classes.iter().find(|c| r < c.upto)?;
            let n = class.members.len() as u32;
            let reachable = |s: &usize| bucket_weight(*s as u32, n) > 0;
            if (0..class.members.len())
                .filter(reachable)
                .all(|s| self.blocked(class, s, ledger))
            {
                // The source would redraw forever; this attempt simply fails.
                continue;
            }
            let slot = loop {
                let s = rng::range(rng, n) as usize;
                if !self.blocked(class, s, ledger) {
                    break s;
                }
            };
            let id = class.members[slot];
            let item = &items[id.index()];
            let object = roll(rng, id, item);
            let state = ledger.state(id);
            let accepted = !ledger.is_made_or_taken(id)
                && (passes_level(item.level, level, rng::range(rng, LEVEL_SLACK))
                    || rng::range(rng, ESCAPE_RANGE) == ESCAPE_VALUE);
            if accepted {
                if state == Uniqueness::UniqueUnmade {
                    ledger.set(id, Uniqueness::UniqueMade);
                }
                return Some((object, state));
            }
        }
    }

    /// The random possessions of a monster of listed level `level`: `count` objects, each
    /// from `create_object` with any unique put back (its row returned to unmade) and
    /// drawn again, so the ledger ends as it started and no unique is ever loot. Each
    /// object may take [`MAX_POSSESSION_ATTEMPTS`] attempts; a monster whose object runs
    /// out of attempts keeps the objects made so far and gets no more.
    pub fn possessions<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        items: &[Item],
        ledger: &mut ItemLedger,
        level: i32,
        count: u32,
    ) -> Vec<ObjectInstance> {
        let mut objects = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let mut budget = MAX_POSSESSION_ATTEMPTS;
            loop {
                match self.create(rng, items, ledger, level, &mut budget) {
                    Some((object, Uniqueness::Common)) => {
                        objects.push(object);
                        break;
                    }
                    Some((object, _)) => ledger.set(object.item, Uniqueness::UniqueUnmade),
                    None => return objects,
                }
            }
        }
        objects
    }

    /// Exact probability of each item (by index) for one random possession at `level`,
    /// under the ledger's state: the chance an attempt selects the item, times its chance
    /// to pass the filters, renormalised over all accepted common objects.
    pub fn possession_odds(&self, items: &[Item], ledger: &ItemLedger, level: i32) -> Vec<f64> {
        let weights = self.accepted_weights(items, ledger, level);
        let total: f64 = weights.iter().sum();
        weights
            .iter()
            .map(|w| w / total.max(f64::MIN_POSITIVE))
            .collect()
    }

    /// The per-attempt acceptance rate of a possession draw (Z' of the object notes).
    pub fn possession_acceptance(&self, items: &[Item], ledger: &ItemLedger, level: i32) -> f64 {
        self.accepted_weights(items, ledger, level).iter().sum()
    }

    fn accepted_weights(&self, items: &[Item], ledger: &ItemLedger, level: i32) -> Vec<f64> {
        let mut weights = vec![0.0; items.len()];
        let mut lower = 0;
        for class in &self.classes {
            let class_p =
                f64::from(buckets_below(class.upto, self.draw) - buckets_below(lower, self.draw))
                    / f64::from(BUCKETS);
            lower = class.upto;
            let n = class.members.len() as u32;
            let open = |s: usize| !self.blocked(class, s, ledger);
            let open_weight: f64 = (0..class.members.len())
                .filter(|&s| open(s))
                .map(|s| f64::from(bucket_weight(s as u32, n)))
                .sum();
            if open_weight == 0.0 {
                continue;
            }
            for (s, &id) in class.members.iter().enumerate() {
                let item = &items[id.index()];
                if !open(s) || ledger.state(id) != Uniqueness::Common {
                    continue;
                }
                let slot_p = f64::from(bucket_weight(s as u32, n)) / open_weight;
                weights[id.index()] += class_p * slot_p * acceptance(item.level, level);
            }
        }
        weights
    }
}

/// Probability that an object of `item_level` passes the level test at `level`, from the
/// same constants the sampler uses.
fn acceptance(item_level: i32, level: i32) -> f64 {
    let pass: f64 = (0..LEVEL_SLACK)
        .filter(|&slack| passes_level(item_level, level, slack))
        .map(|slack| f64::from(bucket_weight(slack, LEVEL_SLACK)))
        .sum::<f64>()
        / f64::from(BUCKETS);
    let escape = f64::from(bucket_weight(ESCAPE_VALUE, ESCAPE_RANGE)) / f64::from(BUCKETS);
    pass + (1.0 - pass) * escape
}

/// `itemplus`: how many `R(2)` draws in a row come up 0.
fn item_plus<R: Rng + ?Sized>(rng: &mut R) -> i32 {
    let mut plus = 0;
    while rng::range(rng, 2) == 0 {
        plus += 1;
    }
    plus
}

/// `itemblessing`: one `R(10)`; 0-1 curse by 1-10, 8-9 bless by 1-10, else none.
fn item_blessing<R: Rng + ?Sized>(rng: &mut R) -> i32 {
    match rng::range(rng, 10) {
        0 | 1 => -1 - rng::range(rng, 10) as i32,
        8 | 9 => 1 + rng::range(rng, 10) as i32,
        _ => 0,
    }
}

/// A curse makes the plus negative, a blessing positive (at least 1 either way).
fn signed_by_blessing(plus: i32, blessing: i32) -> i32 {
    match blessing.signum() {
        -1 => -1 - plus.abs(),
        1 => 1 + plus.abs(),
        _ => plus,
    }
}

/// The class rolls of the `make_*` functions, in the source's draw order.
fn roll<R: Rng + ?Sized>(rng: &mut R, id: ItemId, item: &Item) -> ObjectInstance {
    let mut o = ObjectInstance::copy_of(id, item);
    let bless_if_plain = |rng: &mut R, o: &mut ObjectInstance| {
        if item.blessing == 0 {
            o.blessing = item_blessing(rng);
        }
    };
    match item.class {
        ItemClass::Thing if item.quirk == Some(ItemQuirk::JunkName) => {
            o.variant = Some(rng::range(rng, 20) as u8);
        }
        ItemClass::Scroll if item.quirk == Some(ItemQuirk::SpellIndex) => {
            o.aux = rng::range(rng, 41) as i32;
        }
        ItemClass::Potion if item.plus == 0 => o.plus = item_plus(rng),
        ItemClass::Weapon => {
            if item.quirk == Some(ItemQuirk::Stack) {
                o.number = rng::range(rng, 20) as i32 + 1;
            }
            bless_if_plain(rng, &mut o);
            if item.plus == 0 {
                o.plus = signed_by_blessing(item_plus(rng), o.blessing);
            }
        }
        ItemClass::Armour | ItemClass::Shield => {
            if item.plus == 0 {
                o.plus = item_plus(rng);
            }
            bless_if_plain(rng, &mut o);
            o.plus = signed_by_blessing(o.plus, o.blessing);
        }
        ItemClass::Cloak => {
            if let Some(ItemQuirk::FixedPlus(plus)) = item.quirk {
                o.plus = plus;
            }
            bless_if_plain(rng, &mut o);
        }
        ItemClass::Boots => bless_if_plain(rng, &mut o),
        ItemClass::Ring => {
            bless_if_plain(rng, &mut o);
            if item.plus == 0 {
                o.plus = item_plus(rng) + 1;
            }
            if o.blessing < 0 {
                o.plus = -1 - o.plus.abs();
            }
        }
        ItemClass::Stick => {
            o.charge = rng::range(rng, 20) as i32 + 1;
            bless_if_plain(rng, &mut o);
        }
        _ => {}
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ledger_must_fit_its_item_table() {
        let bestiary = crate::Bestiary::shipped();
        let items = bestiary.items();
        let mut ledger = ItemLedger::new(items);
        assert_eq!(ledger.check(items), Ok(()));
        let dagger = bestiary.item_id("dagger").unwrap();
        ledger.set(dagger, Uniqueness::UniqueTaken);
        assert_eq!(
            ledger.check(items),
            Err("item \"dagger\" is Common in the table but UniqueTaken in the ledger".into())
        );
        let short = ItemLedger::new(&items[..3]);
        assert_eq!(
            short.check(items),
            Err("it holds 3 items, the item table 217".into())
        );
    }

    /// The audit's save `(states: [])` read by a system that runs before the saved state
    /// is checked: draws go on (every item reads as common), nothing panics.
    #[test]
    fn a_ledger_that_does_not_fit_never_panics() {
        let bestiary = crate::Bestiary::shipped();
        let mut empty = ItemLedger::default();
        let unique = bestiary
            .items()
            .iter()
            .position(|i| i.uniqueness != Uniqueness::Common)
            .unwrap();
        let crown = ItemId(unique as u16);
        assert_eq!(empty.state(crown), Uniqueness::Common);
        empty.set(crown, Uniqueness::UniqueMade);
        assert_eq!(empty, ItemLedger::default());
        let mut rng =
            denizen_core::rng::WorldSeed(4).stream(denizen_core::rng::StreamPurpose::new("ledger"));
        let objects =
            bestiary
                .object_table()
                .possessions(&mut rng, bestiary.items(), &mut empty, 10, 20);
        assert_eq!(objects.len(), 20);
    }

    #[test]
    fn blessing_signs_the_plus() {
        assert_eq!(signed_by_blessing(3, -2), -4);
        assert_eq!(signed_by_blessing(0, 5), 1);
        assert_eq!(signed_by_blessing(-3, 1), 4);
        assert_eq!(signed_by_blessing(2, 0), 2);
    }

    /// Z' of the object notes (section 9): the per-attempt acceptance of a possession draw
    /// at item levels 0-11 in the 10,000-bucket model.
    #[test]
    fn possession_acceptance_matches_the_object_notes() {
        let bestiary = crate::Bestiary::shipped();
        let items = bestiary.items();
        let ledger = ItemLedger::new(items);
        let table = bestiary.object_table();
        let expected = [
            0.179654, 0.354163, 0.517934, 0.668731, 0.767940, 0.828610, 0.887082, 0.926433,
            0.950593, 0.957335, 0.962113, 0.963133,
        ];
        for (level, z) in expected.into_iter().enumerate() {
            let got = table.possession_acceptance(items, &ledger, level as i32);
            assert!((got - z).abs() < 6e-7, "L = {level}: {got} vs {z}");
        }
        // Per-object percentages of the notes' table, monster column at L = 0.
        let odds = table.possession_odds(items, &ledger, 0);
        for (id, percent) in [(3, 1.0797), (6, 2.1277), (0, 0.0318), (10, 2.1221)] {
            assert!(
                (odds[id] * 100.0 - percent).abs() < 6e-5,
                "item {id}: {}",
                odds[id]
            );
        }
        assert_eq!(odds[16], 0.0, "the Justiciar's badge is unique");
        assert_eq!(odds[207], 0.0, "artifact slot 16 is never drawn");
        assert_eq!(
            odds[215] + odds[216],
            0.0,
            "cash and corpses are never made"
        );
    }

    /// `create_object` marks an unmade unique as made (the returned copy keeps the row's
    /// old state), and a made unique is never produced again.
    /// Each attempt spends one of the budget, and a spent budget makes nothing: with
    /// a 1-in-10,000 class the first 10 attempts almost surely fail, and then `create`
    /// stops instead of drawing on.
    #[test]
    fn attempts_spend_a_budget() {
        use denizen_core::rng::{StreamPurpose, WorldSeed};
        let text =
            include_str!("../../denizen_cli/tests/reliability/ok_objects_reachable.bestiary.ron");
        let bestiary =
            crate::Bestiary::from_file(denizen_core::DataFile::new("ok.ron", text)).unwrap();
        let items = bestiary.items();
        let mut ledger = ItemLedger::new(items);
        let mut rng = WorldSeed(8).stream(StreamPurpose::new("budget"));
        let mut budget = 10;
        let made = bestiary
            .object_table()
            .create(&mut rng, items, &mut ledger, 0, &mut budget);
        assert_eq!((made, budget), (None, 0));
        let mut plenty = u32::MAX;
        let made = bestiary
            .object_table()
            .create(&mut rng, items, &mut ledger, 0, &mut plenty);
        assert!(made.is_some() && plenty < u32::MAX);
    }

    #[test]
    fn a_unique_is_made_once() {
        use denizen_core::rng::{StreamPurpose, WorldSeed};
        let bestiary = crate::Bestiary::shipped();
        let items = bestiary.items();
        let table = bestiary.object_table();
        let mut ledger = ItemLedger::new(items);
        let mut rng = WorldSeed(8).stream(StreamPurpose::new("uniques"));
        let mut made = Vec::new();
        let mut budget = u32::MAX;
        for _ in 0..20_000 {
            let (object, state) = table
                .create(&mut rng, items, &mut ledger, 20, &mut budget)
                .unwrap();
            if state == Uniqueness::UniqueUnmade {
                assert_eq!(ledger.state(object.item), Uniqueness::UniqueMade);
                assert!(
                    !made.contains(&object.item),
                    "made twice: {:?}",
                    object.item
                );
                made.push(object.item);
            } else {
                assert_eq!(state, Uniqueness::Common, "a made unique came back");
            }
        }
        assert!(made.len() > 5, "{made:?}");
    }

    /// A class of 20,000 slots, past `R`'s 10,000 buckets, so some slots are never
    /// drawn. With every slot `R(20000)` lands on guarded by a made unique, an attempt on
    /// the class fails at once (where the source would redraw for ever), and only the
    /// other class's one potion is ever made; a slot never drawn must not count as open,
    /// or the slot redraw would never end.
    #[test]
    fn a_class_whose_drawn_slots_are_all_guarded_fails_its_attempts() {
        use denizen_core::rng::{StreamPurpose, WorldSeed};
        let n: u16 = 20_000;
        let template = crate::Bestiary::shipped().items()[0].clone();
        let item = |key: String, class, uniqueness| Item {
            key,
            class,
            level: 0,
            uniqueness,
            quirk: None,
            ..template.clone()
        };
        let mut items: Vec<Item> = (0..n)
            .map(|i| item(format!("scroll{i}"), ItemClass::Scroll, Uniqueness::Common))
            .collect();
        items.extend((0..n).map(|i| {
            item(
                format!("guard{i}"),
                ItemClass::Artifact,
                Uniqueness::UniqueUnmade,
            )
        }));
        items.push(item("potion".into(), ItemClass::Potion, Uniqueness::Common));
        let weights = [
            ObjectClassWeight {
                class: ItemClass::Scroll,
                weight: 1,
                slot_guard: Some(ItemClass::Artifact),
            },
            ObjectClassWeight {
                class: ItemClass::Potion,
                weight: 1,
                slot_guard: None,
            },
        ];
        let table = ObjectTable::new(&weights, &items).unwrap();
        let mut ledger = ItemLedger::new(&items);
        let drawn = |s: u16| bucket_weight(u32::from(s), u32::from(n)) > 0;
        assert!((0..n).any(|s| !drawn(s)), "some slots are never drawn");
        for s in (0..n).filter(|&s| drawn(s)) {
            ledger.set(ItemId(n + s), Uniqueness::UniqueMade);
        }
        let potion = ItemId(2 * n);
        let odds = table.possession_odds(&items, &ledger, 0);
        assert_eq!(odds[potion.index()], 1.0);
        let mut rng = WorldSeed(8).stream(StreamPurpose::new("guarded"));
        let mut budget = u32::MAX;
        for _ in 0..200 {
            let made = table.create(&mut rng, &items, &mut ledger, 0, &mut budget);
            assert_eq!(made.map(|(object, _)| object.item), Some(potion));
        }
    }

    #[test]
    fn acceptance_matches_the_object_notes() {
        // d = level - L: <= -1 always, 0: 0.669934, 1: 0.339967, >= 2: 0.01.
        assert_eq!(acceptance(2, 3), 1.0);
        assert!((acceptance(3, 3) - 0.669934).abs() < 1e-12);
        assert!((acceptance(4, 3) - 0.339967).abs() < 1e-12);
        assert!((acceptance(5, 3) - 0.01).abs() < 1e-12);
    }
}
