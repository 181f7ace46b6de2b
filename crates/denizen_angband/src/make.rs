//! One object as 2.7.9's `place_object` makes it: a special artifact now and then, else a
//! kind from the object allocator; then `apply_magic`'s power roll, artifacts, the ego
//! item of its class, cursing; and what it adds to the level's rating and whether it makes
//! the level special (object notes 2, 4, 5, 6). Gold is `place_gold` (1.3).
//!
//! What an object's numbers do not change is left out: the extra ability of an ego item
//! (`randint(256)`), the damage dice boost of an ego weapon, the values of the bonus rings
//! and amulets, fuel, charges and chest traps. The kind of object, its power, artifact,
//! ego item, cursing, breakage and rating follow the notes exactly.

use denizen_core::Generator;
use serde::{Deserialize, Serialize};

use crate::artifact::{Artifact, ArtifactId, ArtifactLedger, Artifacts};
use crate::ego::{EgoId, Egos};
use crate::fields::is_cursed;
use crate::object::{
    KindId, ObjectAllocator, ObjectKind, ObjectKinds, SV_AMULET_THE_MAGI, SV_RING_SPEED, tval,
};
use crate::rng::{magik, rand0, randint, randnor};
use crate::table::MAX_DRAW_LEVEL;

/// A plain call makes a special artifact one time in this many, a good one one time in
/// [`GOOD_SPECIAL_ONE_IN`].
pub const SPECIAL_ONE_IN: i32 = 1000;
/// See [`SPECIAL_ONE_IN`].
pub const GOOD_SPECIAL_ONE_IN: i32 = 10;
/// A good call draws its kind this many levels deeper.
pub const GOOD_LEVEL_BONUS: i32 = 10;
/// Dragon scale mail with any power adds this to the rating.
pub const DRAGON_ARMOUR_RATING: i32 = 30;
/// A ring of speed that is not cursed, and every amulet of the Magi, add this.
pub const JEWEL_RATING: i32 = 25;
/// The first gold kind (`480 + i` for coin type `i`).
pub const FIRST_GOLD_KIND: u16 = 480;
/// The last coin type (adamantite).
pub const MAX_COIN_TYPE: i32 = 17;

/// The robe's `sval`: a power-2 robe becomes Permanence one time in ten.
const SV_ROBE: u8 = 2;
/// Rings whose power below 0 curses, breaks and negates them: Searching, Strength,
/// Intelligence, Dexterity, Constitution, Protection, Accuracy, Damage, Slaying.
const BONUS_RINGS: [u8; 9] = [23, 24, 25, 26, 27, 16, 28, 29, 30];
/// Amulets likewise: Searching, Wisdom, Charisma.
const BONUS_AMULETS: [u8; 3] = [5, 6, 7];

/// An ego table: `randint(n)` for the last roll of the table, each row the last roll that
/// gives its ego item.
type EgoTable = &'static [(i32, u16)];

/// Swords, hafted weapons and polearms of power 2 (`randint(29)`; the four slays of 7-14
/// become their *Slay* form one time in five).
const WEAPON_EGOS: EgoTable = &[
    (1, 64),
    (2, 65),
    (3, 72),
    (4, 73),
    (5, 74),
    (6, 75),
    (8, 80),
    (10, 87),
    (12, 81),
    (14, 82),
    (17, 84),
    (20, 85),
    (23, 86),
    (26, 83),
    (27, 68),
    (28, 66),
    (29, 69),
];
/// The *Slay* form of the four slays that have one in play (animal, dragon, evil, undead).
const SLAY_UPGRADES: [(u16, u16); 4] = [(80, 88), (87, 95), (81, 89), (82, 90)];
/// Bows of power 2.
const BOW_EGOS: EgoTable = &[(1, 108), (2, 109), (6, 105), (10, 104)];
/// Shots, arrows and bolts of power 2.
const AMMO_EGOS: EgoTable = &[(3, 124), (4, 122), (5, 123), (7, 112), (9, 113), (10, 119)];
/// Soft and hard body armour of power 2.
const BODY_EGOS: EgoTable = &[(4, 4), (8, 5), (12, 6), (16, 7), (18, 8), (19, 9)];
/// Shields of power 2.
const SHIELD_EGOS: EgoTable = &[(1, 16), (4, 17), (6, 18), (9, 19), (10, 20)];
/// Gloves of power 2, and of power -2.
const GLOVE_EGOS: EgoTable = &[(4, 48), (7, 49), (9, 50), (10, 51)];
const CURSED_GLOVE_EGOS: EgoTable = &[(1, 55), (2, 54)];
/// Boots of power 2, and of power -2.
const BOOT_EGOS: EgoTable = &[(1, 59), (5, 58), (13, 57), (24, 56)];
const CURSED_BOOT_EGOS: EgoTable = &[(1, 61), (2, 62), (3, 63)];
/// Crowns and helms of power 2, and either of power -2.
const CROWN_EGOS: EgoTable = &[(1, 27), (2, 28), (3, 33), (4, 34), (6, 29), (8, 30)];
const HELM_EGOS: EgoTable = &[(2, 24), (4, 25), (6, 26), (8, 30), (10, 32), (14, 31)];
const CURSED_HEAD_EGOS: EgoTable = &[(2, 36), (4, 37), (5, 38), (6, 39), (7, 35)];
/// Cloaks of power 2, and of power -2.
const CLOAK_EGOS: EgoTable = &[(8, 40), (16, 41), (17, 42)];
const CURSED_CLOAK_EGOS: EgoTable = &[(1, 46), (2, 45), (3, 44)];
/// Digging tools of power 2; Permanence for robes; the cursed weapon and ammunition egos.
const DIGGING_EGO: u16 = 100;
const PERMANENCE: u16 = 11;
const MORGUL: u16 = 102;
const BACKBITING: u16 = 125;

/// One roll of an ego table.
fn ego_of(rng: &mut Generator, table: EgoTable) -> EgoId {
    let last = table.last().map_or(1, |&(roll, _)| roll);
    let roll = randint(rng, last);
    let (_, ego) = table
        .iter()
        .find(|&&(upto, _)| roll <= upto)
        .copied()
        .unwrap_or((last, 0));
    EgoId(ego)
}

/// How a call asks for an object: plain, good (a vault's `9`), or good and great (`8`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Call {
    /// A good object: its kind through the good filter, drawn 10 levels deeper.
    pub good: bool,
    /// A great object: power 2 and four artifact rolls.
    pub great: bool,
}

/// One object made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct MadeObject {
    /// Its kind (an artifact's base kind).
    pub kind: KindId,
    /// The artifact it is.
    pub artifact: Option<ArtifactId>,
    /// Its ego item.
    pub ego: Option<EgoId>,
    /// The power `apply_magic` rolled: -2 (very cursed) to 2 (great).
    pub power: i8,
    /// Its to-hit, to-dam and to-AC bonuses.
    pub to_h: i32,
    /// See `to_h`.
    pub to_d: i32,
    /// See `to_h`.
    pub to_a: i32,
    /// Its class's number (a ring of speed's bonus).
    pub pval: i32,
    /// How many (ammunition and spikes come in `6d7`).
    pub number: u8,
    /// Cursed.
    pub cursed: bool,
    /// Broken: worth nothing.
    pub broken: bool,
    /// What it added to the level's rating.
    pub rating: i32,
}

/// Gold made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct MadeGold {
    /// Its kind (copper to adamantite).
    pub kind: KindId,
    /// Its value.
    pub value: u32,
}

/// What objects are made from: the kinds with their allocation table, the ego items and
/// the artifacts.
#[derive(Clone, Debug)]
pub struct ObjectRules {
    /// The kinds and their allocation table.
    pub allocator: ObjectAllocator,
    /// The ego items.
    pub egos: Egos,
    /// The artifacts.
    pub artifacts: Artifacts,
}

impl ObjectRules {
    /// Angband 2.7.9's kinds, ego items and artifacts.
    #[cfg(feature = "shipped")]
    pub fn shipped() -> Self {
        Self {
            allocator: ObjectAllocator::new(ObjectKinds::shipped()),
            egos: Egos::shipped(),
            artifacts: Artifacts::shipped(),
        }
    }

    fn kind(&self, id: KindId) -> &ObjectKind {
        self.allocator
            .kinds()
            .get(id)
            .expect("the rules only name their own kinds")
    }

    /// The kind with a class and subclass.
    fn kind_of(&self, tval: u8, sval: u8) -> Option<&ObjectKind> {
        self.allocator
            .kinds()
            .all()
            .iter()
            .find(|k| k.tval == tval && k.sval == sval)
    }

    /// `place_object`: an object at `object_level` on a level of `depth`, or `None` when
    /// the draw fails. A made artifact is marked in `ledger`.
    pub fn place_object(
        &self,
        rng: &mut Generator,
        object_level: i32,
        depth: i32,
        call: Call,
        ledger: &mut ArtifactLedger,
    ) -> Option<MadeObject> {
        let one_in = if call.good {
            GOOD_SPECIAL_ONE_IN
        } else {
            SPECIAL_ONE_IN
        };
        let special = if rand0(rng, one_in) == 0 {
            self.special_artifact(rng, object_level, depth, ledger)
        } else {
            None
        };
        let (kind, artifact) = match special {
            Some((kind, artifact)) => (kind, Some(artifact)),
            None => {
                let level = object_level + if call.good { GOOD_LEVEL_BONUS } else { 0 };
                (self.allocator.draw(rng, level, call.good)?, None)
            }
        };
        let base = self.kind(kind);
        let mut object = MadeObject {
            kind,
            artifact,
            ego: None,
            power: 0,
            to_h: base.to_h,
            to_d: base.to_d,
            to_a: base.to_a,
            pval: base.pval,
            number: 1,
            cursed: is_cursed(&base.flags),
            broken: base.cost == 0,
            rating: 0,
        };
        self.apply_magic(rng, &mut object, object_level, depth, call, ledger);
        let kind = self.kind(object.kind);
        if matches!(
            kind.tval,
            tval::SPIKE | tval::SHOT | tval::ARROW | tval::BOLT
        ) {
            object.number = (0..6).map(|_| randint(rng, 7)).sum::<i32>() as u8;
        }
        if object.rating == 0 && !object.cursed && !object.broken && i32::from(kind.level) > depth {
            object.rating = i32::from(kind.level) - depth;
        }
        Some(object)
    }

    /// `make_artifact_special`: the first unmade special artifact past its depth roll
    /// whose rarity roll passes (a failed rarity roll ends the search), if its base kind
    /// passes its level roll.
    fn special_artifact(
        &self,
        rng: &mut Generator,
        object_level: i32,
        depth: i32,
        ledger: &ArtifactLedger,
    ) -> Option<(KindId, ArtifactId)> {
        if depth == 0 {
            return None;
        }
        for artifact in self.artifacts.all().iter().filter(|a| a.is_special()) {
            if ledger.is_made(artifact.id) || !passes_depth(rng, artifact, depth) {
                continue;
            }
            if rand0(rng, i32::from(artifact.rarity)) != 0 {
                return None;
            }
            let Some(kind) = self.kind_of(artifact.tval, artifact.sval) else {
                continue;
            };
            let over = i32::from(kind.level) - object_level;
            if over > 0 && rand0(rng, 5 * over) != 0 {
                continue;
            }
            return Some((kind.id, artifact.id));
        }
        None
    }

    /// `make_artifact`: the first unmade normal artifact of the object's class and
    /// subclass past its depth and rarity rolls.
    fn normal_artifact(
        &self,
        rng: &mut Generator,
        kind: &ObjectKind,
        depth: i32,
        ledger: &ArtifactLedger,
    ) -> Option<ArtifactId> {
        if depth == 0 {
            return None;
        }
        self.artifacts
            .all()
            .iter()
            .filter(|a| !a.is_special() && (a.tval, a.sval) == (kind.tval, kind.sval))
            .find(|a| {
                !ledger.is_made(a.id)
                    && passes_depth(rng, a, depth)
                    && rand0(rng, i32::from(a.rarity)) == 0
            })
            .map(|a| a.id)
    }

    /// `apply_magic`: the power roll, the artifact rolls, then the class's magic and
    /// ego item.
    fn apply_magic(
        &self,
        rng: &mut Generator,
        object: &mut MadeObject,
        level: i32,
        depth: i32,
        call: Call,
        ledger: &mut ArtifactLedger,
    ) {
        let level = level.min(MAX_DRAW_LEVEL);
        object.power = roll_power(rng, level, call);
        let rolls = if call.great {
            4
        } else if object.power >= 2 {
            1
        } else {
            0
        };
        if object.artifact.is_none() {
            let kind = self.kind(object.kind);
            object.artifact =
                (0..rolls).find_map(|_| self.normal_artifact(rng, kind, depth, ledger));
        }
        if let Some(id) = object.artifact {
            let artifact = self
                .artifacts
                .get(id)
                .expect("the rules name their artifacts");
            ledger.make(id);
            take_artifact(object, artifact);
            return;
        }
        let kind = self.kind(object.kind).clone();
        match kind.tval {
            tval::DIGGING
            | tval::HAFTED
            | tval::POLEARM
            | tval::SWORD
            | tval::BOW
            | tval::SHOT
            | tval::ARROW
            | tval::BOLT
                if object.power != 0 =>
            {
                weapon_magic(rng, object, &kind, level);
            }
            tval::BOOTS..=tval::DRAG_ARMOR if object.power != 0 => {
                armour_magic(rng, object, &kind, level);
            }
            tval::RING | tval::AMULET => {
                if object.power == 0 && magik(rng, 50) {
                    object.power = -1;
                }
                jewellery_magic(rng, object, &kind, level);
            }
            _ => {}
        }
        // An ego item a game's own ego file lacks makes none.
        object.ego = object.ego.filter(|&id| self.egos.get(id).is_some());
        if let Some(ego) = object.ego.and_then(|id| self.egos.get(id)) {
            object.broken |= ego.cost == 0;
            object.cursed |= ego.is_cursed();
            let sign = if object.cursed || object.broken {
                -1
            } else {
                1
            };
            for (max, bonus) in [
                (ego.max_to_h, &mut object.to_h),
                (ego.max_to_d, &mut object.to_d),
                (ego.max_to_a, &mut object.to_a),
                (ego.max_pval, &mut object.pval),
            ] {
                if max != 0 {
                    *bonus += sign * randint(rng, max);
                }
            }
            object.rating += ego.rating;
        }
    }
}

/// `a_m_aux_1`: the bonuses of a weapon, digger, bow or ammunition, then its ego item.
fn weapon_magic(rng: &mut Generator, object: &mut MadeObject, kind: &ObjectKind, level: i32) {
    let (th1, td1) = (
        randint(rng, 5) + m_bonus(rng, 5, level),
        randint(rng, 5) + m_bonus(rng, 5, level),
    );
    let (th2, td2) = (m_bonus(rng, 10, level), m_bonus(rng, 10, level));
    let sign = object.power.signum() as i32;
    object.to_h += sign * th1;
    object.to_d += sign * td1;
    if object.power.abs() > 1 {
        object.to_h += sign * th2;
        object.to_d += sign * td2;
    }
    if object.power < 0 && object.to_h + object.to_d < 0 {
        object.cursed = true;
    }
    let great = object.power > 1;
    let very_cursed = object.power < -1;
    object.ego = match kind.tval {
        tval::DIGGING => {
            if object.power < 0 {
                object.pval = -object.pval;
            }
            great.then_some(EgoId(DIGGING_EGO))
        }
        tval::HAFTED | tval::POLEARM | tval::SWORD if great => {
            let ego = ego_of(rng, WEAPON_EGOS);
            let upgrade = SLAY_UPGRADES.iter().find(|(slay, _)| *slay == ego.0);
            Some(match upgrade {
                Some(&(_, strong)) if magik(rng, 20) => EgoId(strong),
                _ => ego,
            })
        }
        tval::HAFTED | tval::POLEARM | tval::SWORD if very_cursed => {
            (rand0(rng, 128) < level).then_some(EgoId(MORGUL))
        }
        tval::BOW if great => Some(ego_of(rng, BOW_EGOS)),
        tval::SHOT | tval::ARROW | tval::BOLT if great => Some(ego_of(rng, AMMO_EGOS)),
        tval::SHOT | tval::ARROW | tval::BOLT if very_cursed => {
            (rand0(rng, 128) < level).then_some(EgoId(BACKBITING))
        }
        _ => None,
    };
}

/// An artifact deeper than the depth is considered only past a `1 in 2 * (level - depth)`
/// roll.
fn passes_depth(rng: &mut Generator, artifact: &Artifact, depth: i32) -> bool {
    let over = i32::from(artifact.level) - depth;
    over <= 0 || rand0(rng, 2 * over) == 0
}

/// An artifact takes its own numbers; it is broken if worthless, cursed if it says so,
/// and adds 10 (20 past 50,000 gold) to the rating.
fn take_artifact(object: &mut MadeObject, artifact: &Artifact) {
    object.pval = artifact.pval;
    object.to_h = artifact.to_h;
    object.to_d = artifact.to_d;
    object.to_a = artifact.to_a;
    object.broken |= artifact.cost == 0;
    object.cursed |= artifact.is_cursed();
    object.rating += artifact.rating();
}

/// `apply_magic`'s power: with `f1 = min(level + 10, 75)` and `f2 = min(f1 / 2, 20)`
/// percent, good (1) when the call is good or `magik(f1)`, then great (2) when the call
/// is great or `magik(f2)`; else cursed (-1) on a second `magik(f1)`, very cursed (-2) on
/// `magik(f2)`.
pub fn roll_power(rng: &mut Generator, level: i32, call: Call) -> i8 {
    let f1 = (level + 10).min(75);
    let f2 = (f1 / 2).min(20);
    if call.good || magik(rng, f1) {
        if call.great || magik(rng, f2) { 2 } else { 1 }
    } else if magik(rng, f1) {
        if magik(rng, f2) { -2 } else { -1 }
    } else {
        0
    }
}

/// `a_m_aux_2`: the armour bonus, the dragon armour's rating, then the ego item.
fn armour_magic(rng: &mut Generator, object: &mut MadeObject, kind: &ObjectKind, level: i32) {
    let ta1 = randint(rng, 5) + m_bonus(rng, 5, level);
    let ta2 = m_bonus(rng, 10, level);
    let sign = object.power.signum() as i32;
    object.to_a += sign * ta1;
    if object.power.abs() > 1 {
        object.to_a += sign * ta2;
    }
    if object.power < 0 && object.to_a < 0 {
        object.cursed = true;
    }
    let great = object.power > 1;
    let very_cursed = object.power < -1;
    object.ego = match kind.tval {
        tval::DRAG_ARMOR => {
            object.rating += DRAGON_ARMOUR_RATING;
            None
        }
        tval::SOFT_ARMOR | tval::HARD_ARMOR if great => {
            if kind.tval == tval::SOFT_ARMOR && kind.sval == SV_ROBE && magik(rng, 10) {
                Some(EgoId(PERMANENCE))
            } else {
                Some(ego_of(rng, BODY_EGOS))
            }
        }
        tval::SHIELD if great => Some(ego_of(rng, SHIELD_EGOS)),
        tval::GLOVES if great => Some(ego_of(rng, GLOVE_EGOS)),
        tval::GLOVES if very_cursed => Some(ego_of(rng, CURSED_GLOVE_EGOS)),
        tval::BOOTS if great => Some(ego_of(rng, BOOT_EGOS)),
        tval::BOOTS if very_cursed => Some(ego_of(rng, CURSED_BOOT_EGOS)),
        tval::CROWN if great => Some(ego_of(rng, CROWN_EGOS)),
        tval::HELM if great => Some(ego_of(rng, HELM_EGOS)),
        tval::CROWN | tval::HELM if very_cursed => Some(ego_of(rng, CURSED_HEAD_EGOS)),
        tval::CLOAK if great => Some(ego_of(rng, CLOAK_EGOS)),
        tval::CLOAK if very_cursed => Some(ego_of(rng, CURSED_CLOAK_EGOS)),
        _ => None,
    };
}

/// `a_m_aux_3`: a ring of speed's bonus and rating, the amulet of the Magi's rating, and
/// the bonus rings and amulets cursed, broken and negated below power 0.
fn jewellery_magic(rng: &mut Generator, object: &mut MadeObject, kind: &ObjectKind, level: i32) {
    let ring = kind.tval == tval::RING;
    if ring && kind.sval == SV_RING_SPEED {
        object.pval = randint(rng, 5) + m_bonus(rng, 5, level);
        while magik(rng, 50) {
            object.pval += 1;
        }
        if object.power < 0 {
            curse_jewel(object);
        } else {
            object.rating += JEWEL_RATING;
        }
    } else if !ring && kind.sval == SV_AMULET_THE_MAGI {
        object.rating += JEWEL_RATING;
    } else if object.power < 0
        && (if ring {
            BONUS_RINGS.contains(&kind.sval)
        } else {
            BONUS_AMULETS.contains(&kind.sval)
        })
    {
        curse_jewel(object);
    }
}

fn curse_jewel(object: &mut MadeObject) {
    object.cursed = true;
    object.broken = true;
    object.pval = -object.pval;
}

/// `m_bonus(max, level)`: a bonus of about `max * level / 128`, spread by `randnor`,
/// held to `0..=max`.
pub fn m_bonus(rng: &mut Generator, max: i32, level: i32) -> i32 {
    let level = level.min(MAX_DRAW_LEVEL);
    let depth = MAX_DRAW_LEVEL + 1;
    let mut mean = max * level / depth;
    if rand0(rng, depth) < (max * level) % depth {
        mean += 1;
    }
    let mut stand = max / 4;
    if rand0(rng, 4) < max % 4 {
        stand += 1;
    }
    randnor(rng, mean, stand).clamp(0, max)
}

/// `place_gold`: coin type `(randint(level + 2) + 2) / 2 - 1`, one time in 20 raised by
/// `randint(level + 1)`, at most adamantite; value `cost + 8 * randint(cost) + randint(8)`.
pub fn place_gold(rng: &mut Generator, kinds: &ObjectKinds, object_level: i32) -> Option<MadeGold> {
    let mut coin = (randint(rng, object_level + 2) + 2) / 2 - 1;
    if rand0(rng, 20) == 0 {
        coin += randint(rng, object_level + 1);
    }
    let kind = kinds.get(KindId(
        FIRST_GOLD_KIND + coin.clamp(0, MAX_COIN_TYPE) as u16,
    ))?;
    let cost = kind.cost as i32;
    let value = cost + 8 * randint(rng, cost) + randint(rng, 8);
    Some(MadeGold {
        kind: kind.id,
        value: value.max(0) as u32,
    })
}
