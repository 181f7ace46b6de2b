//! Construction: turning a chosen template into a monster (identity, sleep, possessions),
//! in the order and with the draws of Omega's `make_creature`.

use denizen_core::data::{DataError, DataFile, Entry, load_ron};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::bestiary::{Bestiary, MAX_NUMBER};
use crate::items::Uniqueness;
use crate::objects::{ItemLedger, ObjectInstance};
use crate::rng;
use crate::species::{Construction, SpeciesId, SpeciesTemplate, StatusSet};

/// The combat numbers of one monster.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Stats {
    /// Hit points.
    pub hp: i32,
    /// To-hit rating.
    pub hit: i32,
    /// Armour class.
    pub ac: i32,
    /// Damage rating.
    pub damage: i32,
    /// Action delay: lower is faster.
    pub speed: i32,
    /// Level (the listed level, or an adventurer's competence).
    pub level: i32,
    /// Experience value.
    pub xp: i32,
}

impl Stats {
    /// A template's numbers, as a copy of it starts with.
    pub fn of(template: &SpeciesTemplate) -> Self {
        Self {
            hp: template.hp,
            hit: template.hit,
            ac: template.ac,
            damage: template.damage,
            speed: template.speed,
            level: template.level,
            xp: template.xp,
        }
    }
}

/// What identity-specific construction made of a monster.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Identity {
    /// An ordinary specimen.
    #[default]
    Ordinary,
    /// An angel of a deity (1-6).
    Angel {
        /// The deity's number.
        deity: u8,
    },
    /// A human with a random occupation.
    Occupation {
        /// Index into the occupation names.
        index: u8,
    },
    /// A nymph or a satyr.
    NymphOrSatyr {
        /// True for a nymph.
        nymph: bool,
    },
    /// An adventurer from the chronicle's log.
    Adventurer {
        /// Whether they died (and returned as undead).
        dead: bool,
        /// Their level in the log.
        level: i32,
    },
    /// A historical officeholder.
    Officeholder {
        /// The role, 0-14 (see [`Chronicle::officeholders`]).
        role: u8,
    },
}

/// Who a nymph-or-satyr template becomes: the player's preference in the source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Preference {
    /// Always a nymph.
    Nymphs,
    /// Always a satyr.
    Satyrs,
    /// Either, by `R(2)`.
    #[default]
    Either,
}

/// An entry of the game's log: an adventurer who may return as a monster.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Adventurer {
    /// Their name.
    pub name: String,
    /// Their level.
    pub level: i32,
    /// Whether they died (dead adventurers return as undead).
    pub dead: bool,
    /// Omega's behaviour code: talk × 1000 + competence × 100 + combat × 10.
    pub behaviour: i32,
}

/// A holder of one of the fifteen historical offices.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Officeholder {
    /// Their name.
    pub name: String,
    /// Their level.
    pub level: i32,
    /// Omega's behaviour code (see [`Adventurer::behaviour`]).
    pub behaviour: i32,
}

/// The game's history that some constructors read: the log of adventurers and the
/// holders of the fifteen offices (top scorer, six high priests, Shadowlord, Commandant,
/// Archmage, Prime Sorceror, Champion, Duke, Chaos lord, Law lord).
///
/// The default is a new game's: Omega's shipped hall of fame and log
/// ([`OMEGA_CHRONICLE`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Chronicle {
    /// The log; empty gives the source's stand-in adventurer.
    pub adventurers: Vec<Adventurer>,
    /// Holders of offices 0-14, in that order.
    pub officeholders: Vec<Officeholder>,
}

/// The office titles, in role order (a chronicle that lists too few holders, an old save's,
/// gets stand-ins named after their office: [`Chronicle::holder`]).
pub const OFFICES: [&str; 15] = [
    "the Adventurer of Renown",
    "the High Priest of Odin",
    "the High Priest of Set",
    "the High Priest of Athena",
    "the High Priest of Hecate",
    "the High Priest of the Balance",
    "the High Priest of Destiny",
    "the Shadowlord",
    "the Commandant of the Legion",
    "the Archmage",
    "the Prime Sorceror",
    "the Champion of the Arena",
    "the Duke of Rampart",
    "the Lord of Chaos",
    "the Lord of Law",
];

/// A new game's chronicle: Omega 0.90.4's shipped hall of fame and adventurers' log.
pub const OMEGA_CHRONICLE: &str = include_str!("../data/omega.chronicle.ron");
/// The name [`OMEGA_CHRONICLE`] goes by in errors.
pub const OMEGA_CHRONICLE_FILE: &str = "omega.chronicle.ron";

/// The most adventurers a chronicle may log: constructing a log adventurer reads the
/// whole log (Omega's new game logs four).
pub const MAX_ADVENTURERS: usize = 10_000;

/// The role of the Champion of the Arena among [`OFFICES`].
pub const CHAMPION: usize = 11;

impl Chronicle {
    /// A new game's chronicle, embedded in the crate.
    pub fn new_game() -> Self {
        Self::from_file(DataFile::new(OMEGA_CHRONICLE_FILE, OMEGA_CHRONICLE))
            .expect("the embedded Omega chronicle is valid (the test suite loads it)")
    }

    /// Loads a game's chronicle and [`check`](Self::check)s it.
    pub fn from_file(source: DataFile<'_>) -> Result<Self, DataError> {
        let DataFile { name: file, text } = source;
        let chronicle: Self = load_ron(text, file)?;
        chronicle.check(file)?;
        Ok(chronicle)
    }

    /// Whether the chronicle is one the constructors can read (a file's, or a save's):
    /// exactly one holder per office, at most [`MAX_ADVENTURERS`] logged adventurers,
    /// levels within ±[`MAX_NUMBER`] and behaviour codes within 0..=9999. `file` names it
    /// in the error.
    pub fn check(&self, file: &str) -> Result<(), DataError> {
        let whole = Entry::new(file, "chronicle");
        if self.officeholders.len() != OFFICES.len() {
            return Err(whole.invalid(
                "officeholders",
                format!(
                    "{} holders; there is one for each of the {} offices",
                    self.officeholders.len(),
                    OFFICES.len()
                ),
            ));
        }
        if self.adventurers.len() > MAX_ADVENTURERS {
            return Err(whole.invalid(
                "adventurers",
                format!(
                    "{} adventurers; a log holds at most {MAX_ADVENTURERS}",
                    self.adventurers.len()
                ),
            ));
        }
        // Entry names are written only for the entry at fault.
        let officeholders = self
            .officeholders
            .iter()
            .enumerate()
            .map(|(i, o)| (i, "officeholders", &o.name, o.level, o.behaviour));
        let adventurers = self
            .adventurers
            .iter()
            .enumerate()
            .map(|(i, a)| (i, "adventurers", &a.name, a.level, a.behaviour));
        for (i, list, name, level, behaviour) in officeholders.chain(adventurers) {
            let at_fault = |field: &str, problem: String| {
                let entry = format!("{list}[{i}] {name:?}");
                Entry::new(file, &entry).invalid(field, problem)
            };
            if !(-MAX_NUMBER..=MAX_NUMBER).contains(&level) {
                return Err(at_fault(
                    "level",
                    format!("{level} is outside -{MAX_NUMBER}..={MAX_NUMBER}"),
                ));
            }
            if !(0..=9999).contains(&behaviour) {
                return Err(at_fault(
                    "behaviour",
                    format!("{behaviour} is not a code of four digits at most"),
                ));
            }
        }
        Ok(())
    }

    /// The holder of an office (0-14): the chronicle's, or for a chronicle that lists
    /// too few (an old save), a level-10 fighter named after the office.
    pub fn holder(&self, role: usize) -> Officeholder {
        self.officeholders
            .get(role)
            .cloned()
            .unwrap_or_else(|| Officeholder {
                name: OFFICES.get(role).copied().unwrap_or("nobody").to_owned(),
                level: 10,
                behaviour: 2710,
            })
    }
}

impl Default for Chronicle {
    /// A new game's chronicle.
    fn default() -> Self {
        Self::new_game()
    }
}

/// The source's stand-in when the log is empty.
const NOBODY: (&str, i32, i32) = ("Malaprop the Misnamed", 1, 2718);

/// A constructed monster, ready to place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// The template the selector chose.
    pub species: SpeciesId,
    /// The template whose body it has (differs for adventurers returned as undead).
    pub form: SpeciesId,
    /// Its name, when construction gave it one.
    pub name: Option<String>,
    /// What identity-specific construction made of it.
    pub identity: Identity,
    /// Combat numbers.
    pub stats: Stats,
    /// Awareness (sense) range.
    pub awareness: i32,
    /// Sleep rating of the template.
    pub sleep_rating: i32,
    /// Its own status word, as Omega's monster carries one: the template's flags at
    /// construction, which the sleep roll, an adventurer's behaviour, arrival, summoning,
    /// the arena and a change of form then alter. A game reads a made creature's statuses
    /// here, never from its template (a dead adventurer's undead body is intangible; the
    /// adventurer is not).
    pub status: StatusSet,
    /// Possessions, in the source's list order: random objects last-made first, then the
    /// fixed item.
    pub possessions: Vec<ObjectInstance>,
}

impl Monster {
    /// Awake now (`AWAKE` in its status word).
    pub fn awake(&self) -> bool {
        self.status.contains(StatusSet::AWAKE)
    }

    /// Attacks the player (`HOSTILE`).
    pub fn hostile(&self) -> bool {
        self.status.contains(StatusSet::HOSTILE)
    }

    /// Moves about the level (`WANDERING`).
    pub fn wandering(&self) -> bool {
        self.status.contains(StatusSet::WANDERING)
    }

    /// The character a map shows for it: its body's glyph, or `n` for a nymph and `s` for
    /// a satyr (their templates show `!`; the source gives the made creature its own).
    pub fn glyph(&self, bestiary: &Bestiary) -> char {
        match self.identity {
            Identity::NymphOrSatyr { nymph: true } => 'n',
            Identity::NymphOrSatyr { nymph: false } => 's',
            _ => bestiary.get(self.form).glyph,
        }
    }
}

/// What construction needs besides the generator and the template.
pub struct Builder<'a> {
    /// Species and items.
    pub bestiary: &'a Bestiary,
    /// Unique items; officeholders can change it.
    pub ledger: &'a mut ItemLedger,
    /// Adventurers and officeholders.
    pub chronicle: &'a Chronicle,
    /// Nymph or satyr.
    pub preference: Preference,
    /// Inside a temple, its deity: angels serve it instead of a random one.
    pub temple_deity: Option<u8>,
    /// The local difficulty (adventurers weaker than twice it are hostile).
    pub difficulty: i64,
}

impl Builder<'_> {
    /// Omega's `make_creature` for a chosen template.
    pub fn build<R: Rng + ?Sized>(&mut self, rng: &mut R, species: SpeciesId) -> Monster {
        let bestiary = self.bestiary;
        let template = bestiary.get(species);
        let names = bestiary.names();
        let mut monster = Monster {
            species,
            form: species,
            name: None,
            identity: Identity::Ordinary,
            stats: Stats::of(template),
            awareness: template.awareness,
            sleep_rating: template.sleep,
            status: template.statuses(),
            possessions: Vec::new(),
        };
        // 1. Identity-specific changes.
        match template.construction {
            Some(Construction::Angel) if !names.deities.is_empty() => {
                let deity = match self.temple_deity {
                    Some(d) => d,
                    None => rng::range(rng, names.deities.len() as u32) as u8 + 1,
                };
                if let Some(god) = names.deities.get(usize::from(deity).wrapping_sub(1)) {
                    monster.name = Some(format!("{} of {god}", template.name));
                }
                monster.identity = Identity::Angel { deity };
            }
            Some(Construction::Occupation | Construction::Were)
                if !names.occupations.is_empty() =>
            {
                let index = rng::range(rng, names.occupations.len() as u32) as u8;
                monster.name = Some(names.occupations[usize::from(index)].clone());
                monster.identity = Identity::Occupation { index };
            }
            Some(Construction::NymphOrSatyr) => {
                let nymph = match self.preference {
                    Preference::Nymphs => true,
                    Preference::Satyrs => false,
                    Preference::Either => rng::range(rng, 2) == 0,
                };
                monster.name = Some(if nymph { "nymph" } else { "satyr" }.to_owned());
                monster.identity = Identity::NymphOrSatyr { nymph };
            }
            _ => {}
        }
        // 2. Adventurers and officeholders have their own constructors and skip the rest.
        match template.construction {
            Some(Construction::LogAdventurer) => {
                self.adventurer(rng, &mut monster);
                return monster;
            }
            Some(Construction::Officeholder) => {
                self.officeholder(rng, &mut monster);
                return monster;
            }
            _ => {}
        }
        // 3. Sleep: awake when the rating is below R(100); awake templates stay awake.
        if template.sleep < rng::range(rng, 100) as i32 {
            monster.status.insert(StatusSet::AWAKE);
        }
        // 4. The fixed item, copied verbatim unless the player has taken it.
        let fixed = bestiary
            .fixed_item(species)
            .filter(|&id| self.ledger.state(id) != Uniqueness::UniqueTaken)
            .map(|id| ObjectInstance::copy_of(id, bestiary.item(id)));
        // 5. R(treasure) random objects at the listed level, uniques put back.
        let count = rng::range(rng, template.treasure);
        let mut loot = bestiary.object_table().possessions(
            rng,
            bestiary.items(),
            self.ledger,
            template.level,
            count,
        );
        // Each object is pushed on the front of the list: last made first, fixed item last.
        loot.reverse();
        loot.extend(fixed);
        monster.possessions = loot;
        monster
    }

    /// `make_log_npc`: one log entry by reservoir sampling (`R(n) == 0` for the n-th).
    fn adventurer<R: Rng + ?Sized>(&self, rng: &mut R, monster: &mut Monster) {
        let mut chosen = (NOBODY.0.to_owned(), NOBODY.1, false, NOBODY.2);
        for (n, entry) in self.chronicle.adventurers.iter().enumerate() {
            if rng::range(rng, n as u32 + 1) == 0 {
                chosen = (entry.name.clone(), entry.level, entry.dead, entry.behaviour);
            }
        }
        let (name, level, dead, behaviour) = chosen;
        monster.identity = Identity::Adventurer { dead, level };
        // The dead return in the undead body for their level (ghost, haunt, spectre or
        // lich), renamed. The source copies that template over the monster and then
        // still runs the behaviour step, as for the living: only the body (ac, awareness,
        // sleep rating, glyph) and the name come from the undead; hit points, status,
        // hostility, level, experience, damage, hit and speed come from the behaviour.
        let names = self.bestiary.names();
        let undead = names
            .undead
            .iter()
            .find(|f| f.below_level.is_none_or(|bound| level < bound))
            .and_then(|f| self.bestiary.species_id(&f.species));
        match undead.filter(|_| dead) {
            Some(form) => {
                let body = self.bestiary.get(form);
                monster.form = form;
                monster.stats = Stats::of(body);
                monster.awareness = body.awareness;
                monster.sleep_rating = body.sleep;
                monster.name = Some(format!("{} named {name}", body.name));
            }
            None => monster.name = Some(name),
        }
        self.behave(monster, level, behaviour);
    }

    /// `make_hiscore_npc(R(15))`: a holder of one of the offices, with the items the
    /// office carries (a high priest's holy symbol, made for them; the Archmage's staff
    /// while it is made and not taken).
    fn officeholder<R: Rng + ?Sized>(&mut self, rng: &mut R, monster: &mut Monster) {
        let role = rng::range(rng, OFFICES.len() as u32) as u8;
        let holder = self.chronicle.holder(usize::from(role));
        let names = self.bestiary.names();
        let item = match role {
            1..=6 => names
                .holy_symbols
                .get(usize::from(role) - 1)
                .and_then(|k| self.bestiary.item_id(k))
                .inspect(|&id| self.ledger.set(id, Uniqueness::UniqueMade)),
            9 => names
                .archmage_item
                .as_deref()
                .and_then(|k| self.bestiary.item_id(k)),
            _ => None,
        };
        monster.identity = Identity::Officeholder { role };
        monster.name = Some(holder.name.clone());
        self.behave(monster, holder.level, holder.behaviour);
        if role == 9 {
            // The Archmage does not wander and is not hostile.
            monster
                .status
                .remove(StatusSet::WANDERING | StatusSet::HOSTILE);
        }
        if let Some(id) = item.filter(|&id| self.ledger.state(id) == Uniqueness::UniqueMade) {
            monster
                .possessions
                .push(ObjectInstance::copy_of(id, self.bestiary.item(id)));
        }
    }

    /// `determine_npc_behavior`: stats from a level and a behaviour code.
    fn behave(&self, monster: &mut Monster, level: i32, behaviour: i32) {
        let combat = (behaviour % 100) / 10;
        let competence = (behaviour % 1000) / 100;
        // The level comes from the game's chronicle (a save, a hall of fame): saturate.
        monster.stats.hp = level.saturating_add(1).saturating_mul(20);
        // The behaviour step replaces the whole status word (a dead adventurer's undead
        // body does not keep its intangibility).
        monster.status = StatusSet::AWAKE | StatusSet::MOBILE | StatusSet::WANDERING;
        monster.status.set(
            StatusSet::HOSTILE,
            i64::from(competence) < 2 * self.difficulty,
        );
        monster.stats.level = competence;
        monster.stats.xp = competence * 20;
        let (damage, hit, speed) = match combat {
            1 => (competence * 5, competence * 3, 3),
            2 => (competence * 3, competence * 2, 4),
            3 => (competence, competence, 6),
            4 | 5 => (competence, competence, 3),
            _ => (monster.stats.damage, monster.stats.hit, monster.stats.speed),
        };
        monster.stats.damage = damage;
        monster.stats.hit = hit;
        monster.stats.speed = speed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::rng::{StreamPurpose, WorldSeed};

    fn omega() -> &'static Bestiary {
        static OMEGA: std::sync::OnceLock<Bestiary> = std::sync::OnceLock::new();
        OMEGA.get_or_init(Bestiary::shipped)
    }

    fn build(species: &str, seed: u64, chronicle: &Chronicle) -> (Monster, ItemLedger) {
        let bestiary = omega();
        let mut ledger = ItemLedger::new(bestiary.items());
        let id = bestiary.species_id(species).unwrap();
        let mut rng = WorldSeed(seed).stream(StreamPurpose::new("construct"));
        let monster = Builder {
            bestiary,
            ledger: &mut ledger,
            chronicle,
            preference: Preference::Either,
            temple_deity: None,
            difficulty: 3,
        }
        .build(&mut rng, id);
        (monster, ledger)
    }

    /// Builds one monster with a preference and a temple's deity.
    fn build_with(species: &str, preference: Preference, temple_deity: Option<u8>) -> Monster {
        let bestiary = omega();
        let mut ledger = ItemLedger::new(bestiary.items());
        let chronicle = Chronicle::new_game();
        let id = bestiary.species_id(species).unwrap();
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("construct"));
        Builder {
            bestiary,
            ledger: &mut ledger,
            chronicle: &chronicle,
            preference,
            temple_deity,
            difficulty: 3,
        }
        .build(&mut rng, id)
    }

    /// The player's preference decides nymph (`n`) or satyr (`s`); inside a temple an
    /// angel serves its deity (4 is Hecate), whatever the draw.
    #[test]
    fn preference_and_temple_decide_identity() {
        let nymph = build_with("incubus_succubus", Preference::Nymphs, None);
        assert_eq!(nymph.name.as_deref(), Some("nymph"));
        assert_eq!(nymph.glyph(omega()), 'n');
        let satyr = build_with("satyr_or_nymph", Preference::Satyrs, None);
        assert_eq!(satyr.name.as_deref(), Some("satyr"));
        assert_eq!(satyr.glyph(omega()), 's');
        for angel in ["angel", "archangel"] {
            let made = build_with(angel, Preference::Either, Some(4));
            assert_eq!(made.identity, Identity::Angel { deity: 4 });
            assert_eq!(made.name, Some(format!("{angel} of Hecate")));
        }
    }

    /// A chronicle must hold one holder per office, behaviour codes of four digits and at
    /// most 10,000 logged adventurers.
    #[test]
    fn a_chronicle_is_checked() {
        let shipped = Chronicle::new_game();
        assert_eq!(shipped.check("c.ron"), Ok(()));
        let mut short = shipped.clone();
        short.officeholders.pop();
        let err = short.check("c.ron").unwrap_err().to_string();
        assert!(
            err.contains("c.ron: chronicle: field `officeholders`: 14 holders"),
            "{err}"
        );
        let mut odd = shipped.clone();
        odd.adventurers[1].behaviour = 10_000;
        let err = odd.check("c.ron").unwrap_err().to_string();
        assert!(
            err.contains("adventurers[1] \"Slongo the Unknown\": field `behaviour`"),
            "{err}"
        );
        let mut full = shipped.clone();
        full.adventurers = vec![shipped.adventurers[0].clone(); MAX_ADVENTURERS];
        assert_eq!(full.check("c.ron"), Ok(()));
        full.adventurers.push(shipped.adventurers[0].clone());
        let err = full.check("c.ron").unwrap_err().to_string();
        assert!(
            err.contains("field `adventurers`: 10001 adventurers"),
            "{err}"
        );
        let text = OMEGA_CHRONICLE.replacen("level: 10,", "level: 2000000,", 1);
        let err = Chronicle::from_file(DataFile::new("c.ron", &text))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("officeholders[1] \"Gallow\": field `level`"),
            "{err}"
        );
    }

    #[test]
    fn angels_serve_a_deity_and_humans_get_occupations() {
        let chronicle = Chronicle::default();
        let (angel, _) = build("archangel", 1, &chronicle);
        let Identity::Angel { deity } = angel.identity else {
            panic!("{angel:?}")
        };
        assert!((1..=6).contains(&deity));
        assert!(angel.name.unwrap().starts_with("archangel of "));
        let (human, _) = build("0th_level_npc", 2, &chronicle);
        assert!(matches!(human.identity, Identity::Occupation { .. }));
        let (lover, _) = build("incubus_succubus", 3, &chronicle);
        // The template shows `!`; the creature shows `n` or `s` (source notes, section 4).
        assert_eq!(omega().get(lover.species).glyph, '!');
        let glyph = lover.glyph(omega());
        let name = lover.name.unwrap();
        assert!(
            (name == "nymph" && glyph == 'n') || (name == "satyr" && glyph == 's'),
            "{name} {glyph}"
        );
        let (goblin, _) = build("goblin", 3, &chronicle);
        assert_eq!(goblin.glyph(omega()), 'g');
    }

    #[test]
    fn dead_adventurers_return_as_undead_by_level() {
        let entry = |level, dead| Adventurer {
            name: "Sam".into(),
            level,
            dead,
            behaviour: 2718,
        };
        for (level, form) in [(2, "ghost"), (6, "haunt"), (11, "spectre"), (12, "lich")] {
            let chronicle = Chronicle {
                adventurers: vec![entry(level, true)],
                ..Chronicle::default()
            };
            let (m, _) = build("log_npc", 4, &chronicle);
            let bestiary = omega();
            let body = bestiary.get(m.form);
            assert_eq!(body.key, form);
            assert_eq!(m.name.as_deref(), Some(&*format!("{form} named Sam")));
            // The undead body (ac, awareness, sleep rating), then the behaviour code's
            // numbers and status, as for the living (2718: melee, competence 7).
            let s = m.stats;
            assert_eq!(
                (s.hp, s.hit, s.ac, s.damage, s.speed, s.level, s.xp),
                ((level + 1) * 20, 21, body.ac, 35, 3, 7, 140)
            );
            assert_eq!((m.awareness, m.sleep_rating), (body.awareness, body.sleep));
            assert!(m.awake() && m.wandering() && !m.hostile());
            assert_eq!(m.identity, Identity::Adventurer { dead: true, level });
        }
        let empty = Chronicle {
            adventurers: Vec::new(),
            ..Chronicle::default()
        };
        let (alive, _) = build("log_npc", 5, &empty);
        assert_eq!(alive.name.as_deref(), Some("Malaprop the Misnamed"));
        // Behaviour 2718: melee, competence 7.
        assert_eq!(
            (alive.stats.damage, alive.stats.hit, alive.stats.level),
            (35, 21, 7)
        );
        assert!(
            !alive.hostile(),
            "competence 7 is not below twice difficulty 3"
        );
    }

    #[test]
    fn officeholders_carry_their_office_items() {
        let bestiary = omega();
        let mut seen_priest = false;
        for seed in 0..200 {
            let (m, ledger) = build("hiscore_npc", seed, &Chronicle::default());
            let Identity::Officeholder { role } = m.identity else {
                panic!()
            };
            if (1..=6).contains(&role) {
                seen_priest = true;
                let symbol = bestiary
                    .item_id(&bestiary.names().holy_symbols[usize::from(role) - 1])
                    .unwrap();
                assert_eq!(m.possessions.len(), 1);
                assert_eq!(m.possessions[0].item, symbol);
                assert_eq!(ledger.state(symbol), Uniqueness::UniqueMade);
            }
            if role == 9 {
                assert_eq!(m.possessions.len(), 1, "Kolwynia is made at the start");
                assert!(!m.hostile() && !m.wandering());
            }
        }
        assert!(seen_priest);
    }

    #[test]
    fn possessions_end_with_the_fixed_item_and_never_hold_uniques() {
        let bestiary = omega();
        for seed in 0..300 {
            let (m, ledger) = build("goblin_chieftain", seed, &Chronicle::default());
            let last = m.possessions.last().unwrap();
            assert_eq!(bestiary.item(last.item).key, "great_axe");
            for object in &m.possessions[..m.possessions.len() - 1] {
                assert_eq!(bestiary.item(object.item).uniqueness, Uniqueness::Common);
            }
            assert_eq!(ledger, ItemLedger::new(bestiary.items()));
        }
        let (fungus, _) = build("murk_fungus", 1, &Chronicle::default());
        assert!(fungus.awake(), "murk fungus starts awake");
    }
}
