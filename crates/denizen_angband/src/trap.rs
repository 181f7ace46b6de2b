//! Traps (source notes 9): the sixteen kinds as data, the kind chosen when a trap is
//! found, and what springing one rolls. The host owns the player: it says who stepped
//! where and with what armour; the rules roll and report, and the host applies the
//! damage and statuses the player does not resist.

use denizen_core::{DataError, DataFile, Dice, Entry, Generator, load_ron};
use serde::Deserialize;
#[cfg(feature = "shipped")]
use std::sync::OnceLock;

use crate::rng::{rand0, randint};

/// The shipped trap file's name in errors.
pub const SHIPPED_FILE: &str = "angband.traps.ron";
#[cfg(feature = "shipped")]
const SHIPPED_TEXT: &str = include_str!("../data/angband.traps.ron");
/// The most traps a file may hold.
pub const MAX_TRAPS: usize = 64;
/// A dart's to-hit power (the monster melee formula's).
pub const DART_POWER: i32 = 125;

/// Something that stops a trap, or part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Resist {
    /// Stops the damage of falls and pits.
    FeatherFall,
    /// Poison resistance, permanent or temporary.
    Poison,
    /// Fire resistance or immunity.
    Fire,
    /// Acid resistance or immunity.
    Acid,
    /// Sustained strength.
    SustainStrength,
    /// Sustained dexterity.
    SustainDexterity,
    /// Sustained constitution.
    SustainConstitution,
    /// Blindness resistance.
    Blindness,
    /// Confusion resistance.
    Confusion,
    /// Chaos resistance (which gives confusion resistance).
    Chaos,
    /// Free action.
    FreeAction,
}

/// A timed status a trap gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Status {
    /// Slowed.
    Slow,
    /// Blind.
    Blind,
    /// Confused.
    Confused,
    /// Poisoned.
    Poisoned,
    /// Paralysed (asleep).
    Paralyzed,
}

/// A stat a dart drains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Stat {
    /// Strength.
    Strength,
    /// Dexterity.
    Dexterity,
    /// Constitution.
    Constitution,
}

/// The element of an elemental trap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Element {
    /// Fire.
    Fire,
    /// Acid.
    Acid,
}

/// What a dart does when it hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum DartEffect {
    /// A status of `base + rand0(spread)` turns.
    Status {
        /// The status.
        status: Status,
        /// The shortest duration.
        base: i32,
        /// How many durations above it.
        spread: i32,
    },
    /// A stat drain.
    Drain(Stat),
}

/// What a trap does besides its damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Effect {
    /// A trap door: the player falls to the next level.
    Fall,
    /// A pit.
    Pit,
    /// A spiked pit: half the time the damage doubles and cuts.
    Spikes,
    /// A poisoned spiked pit.
    PoisonSpikes,
    /// A summoning rune: `base + randint(die)` monsters at depth + `offset`.
    Summon {
        /// Summons at least.
        base: i32,
        /// Plus this die.
        die: i32,
        /// Levels deeper than the dungeon.
        offset: i32,
    },
    /// Teleports the player up to `distance`.
    Teleport {
        /// The greatest distance.
        distance: i32,
    },
    /// Elemental damage.
    Element(Element),
    /// A dart.
    Dart(DartEffect),
    /// A gas: a status of `base + rand0(spread)` turns.
    Gas {
        /// The status.
        status: Status,
        /// The shortest duration.
        base: i32,
        /// How many durations above it.
        spread: i32,
    },
}

/// One kind of trap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrapKind {
    /// Its number, 1 for the first of the file.
    pub number: u8,
    /// Its name.
    pub name: String,
    /// The damage dice, if it hurts.
    pub damage: Option<Dice>,
    /// What else it does.
    pub effect: Effect,
    /// What stops it.
    pub resisted_by: Vec<Resist>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrapFile {
    traps: Vec<TrapRecord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrapRecord {
    name: String,
    damage: Option<String>,
    effect: Effect,
    resisted_by: Vec<Resist>,
}

/// Every kind of trap of a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traps {
    kinds: Vec<TrapKind>,
}

impl Traps {
    /// Angband 2.7.9's sixteen traps (parsed once per process).
    #[cfg(feature = "shipped")]
    pub fn shipped() -> &'static Traps {
        static SHIPPED: OnceLock<Traps> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            Self::from_file(DataFile::new(SHIPPED_FILE, SHIPPED_TEXT))
                .expect("the shipped trap file is valid")
        })
    }

    /// A game's own trap file, validated: 1 to 64 traps, names of 1 to 80 bytes, dice of
    /// at most 255d255, counts and durations within 0..=1,000.
    pub fn from_file(file: DataFile<'_>) -> Result<Self, DataError> {
        let parsed: TrapFile = load_ron(file.text, file.name)?;
        if parsed.traps.is_empty() || parsed.traps.len() > MAX_TRAPS {
            return Err(DataError::invalid(
                file.name,
                "traps",
                "traps",
                format!(
                    "{} traps; a file holds 1 to {MAX_TRAPS}",
                    parsed.traps.len()
                ),
            ));
        }
        let mut kinds = Vec::with_capacity(parsed.traps.len());
        for (slot, record) in parsed.traps.into_iter().enumerate() {
            let label = format!("traps[{slot}]");
            let entry = Entry::new(file.name, &label);
            if record.name.is_empty() || record.name.len() > 80 {
                return Err(entry.invalid("name", "must be 1 to 80 bytes"));
            }
            let damage = match &record.damage {
                None => None,
                Some(text) => {
                    let dice: Dice =
                        text.parse()
                            .map_err(|e: denizen_core::rng::DiceParseError| {
                                entry.invalid("damage", e.to_string())
                            })?;
                    if dice.count > 255 || dice.sides > 255 {
                        return Err(entry.invalid("damage", "at most 255d255"));
                    }
                    Some(dice)
                }
            };
            let numbers: &[i32] = match record.effect {
                Effect::Summon { base, die, offset } => &[base, die, offset],
                Effect::Teleport { distance } => &[distance],
                Effect::Gas { base, spread, .. }
                | Effect::Dart(DartEffect::Status { base, spread, .. }) => &[base, spread],
                _ => &[],
            };
            if numbers.iter().any(|n| !(0..=1_000).contains(n)) {
                return Err(entry.invalid("effect", "counts and durations are 0 to 1,000"));
            }
            kinds.push(TrapKind {
                number: slot as u8 + 1,
                name: record.name,
                damage,
                effect: record.effect,
                resisted_by: record.resisted_by,
            });
        }
        Ok(Self { kinds })
    }

    /// Every kind, by number.
    pub fn all(&self) -> &[TrapKind] {
        &self.kinds
    }

    /// The kind a found trap turns out to be: uniform over the kinds, rolled again while
    /// it is a trap door on a level with no way down (a quest level, or depth 127 and
    /// deeper). Depth plays no other part.
    pub fn choose(&self, rng: &mut Generator, no_way_down: bool) -> &TrapKind {
        let n = self.kinds.len() as i32;
        let droppable = |kind: &TrapKind| !(no_way_down && kind.effect == Effect::Fall);
        if !self.kinds.iter().any(droppable) {
            return &self.kinds[0];
        }
        loop {
            let kind = &self.kinds[rand0(rng, n) as usize];
            if droppable(kind) {
                return kind;
            }
        }
    }
}

/// What springing a trap rolled.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Springing {
    /// The kind's number.
    pub trap: u8,
    /// Damage, before anything in `resisted_by` stops it (0 when none, or a dart that
    /// missed).
    pub damage: i32,
    /// A cut of this many turns (spiked pits that impale).
    pub cut: i32,
    /// For a poisoned spiked pit that impales, when poison is not resisted: the damage
    /// instead of `damage` (doubled again) and turns of poison.
    pub unresisted_poison: Option<(i32, i32)>,
    /// A status and its turns.
    pub status: Option<(Status, i32)>,
    /// A stat drained.
    pub drain: Option<Stat>,
    /// A dart's to-hit roll: whether it hit (none for other traps).
    pub dart_hit: Option<bool>,
    /// The player falls through to the next level.
    pub falls: bool,
    /// The player is teleported up to this far.
    pub teleport: Option<i32>,
    /// Monsters to summon round the player, and the level they are drawn at.
    pub summons: Option<(i32, i32)>,
    /// What stops it.
    pub resisted_by: Vec<Resist>,
}

/// A dart's to-hit roll: 10% of the time fixed (half hit, half miss), otherwise a hit
/// when `randint(125) > 3/4 x armour`.
pub fn dart_hits(rng: &mut Generator, armour: i32) -> bool {
    let k = rand0(rng, 100);
    if k < 10 {
        return k < 5;
    }
    randint(rng, DART_POWER) > armour.saturating_mul(3) / 4
}

impl TrapKind {
    /// Springs the trap on a player of `armour` (armour class plus bonus) at `depth`.
    pub fn spring(&self, rng: &mut Generator, armour: i32, depth: i32) -> Springing {
        let mut out = Springing {
            trap: self.number,
            damage: self.damage.map_or(0, |d| d.roll(rng) as i32),
            cut: 0,
            unresisted_poison: None,
            status: None,
            drain: None,
            dart_hit: None,
            falls: false,
            teleport: None,
            summons: None,
            resisted_by: self.resisted_by.clone(),
        };
        match self.effect {
            Effect::Fall => out.falls = true,
            Effect::Pit | Effect::Element(_) => {}
            Effect::Spikes | Effect::PoisonSpikes => {
                if rand0(rng, 2) == 0 {
                    out.damage *= 2;
                    out.cut = randint(rng, out.damage);
                    if self.effect == Effect::PoisonSpikes {
                        let doubled = out.damage * 2;
                        out.unresisted_poison = Some((doubled, randint(rng, doubled)));
                    }
                }
            }
            Effect::Summon { base, die, offset } => {
                out.summons = Some((base + randint(rng, die), depth.saturating_add(offset)));
            }
            Effect::Teleport { distance } => out.teleport = Some(distance),
            Effect::Dart(effect) => {
                let hit = dart_hits(rng, armour);
                out.dart_hit = Some(hit);
                if !hit {
                    out.damage = 0;
                } else {
                    match effect {
                        DartEffect::Status {
                            status,
                            base,
                            spread,
                        } => out.status = Some((status, base + rand0(rng, spread))),
                        DartEffect::Drain(stat) => out.drain = Some(stat),
                    }
                }
            }
            Effect::Gas {
                status,
                base,
                spread,
            } => out.status = Some((status, base + rand0(rng, spread))),
        }
        out
    }
}
