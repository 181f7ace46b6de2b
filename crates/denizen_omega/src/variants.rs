//! Construction variants: the arena's opponents and were-humans' change of form.

use rand::Rng;
use serde::Deserialize;

use crate::bestiary::Bestiary;
use crate::construct::{Identity, Monster, Officeholder, Stats};
use crate::items::ItemId;
use crate::objects::ObjectInstance;
use crate::rng;
use crate::species::{SpeciesId, Status, StatusSet};
use denizen_core::data::{DataError, DataFile, Entry, load_ron};

/// The Omega 0.90.4 variants shipped with denizen.
pub const OMEGA_VARIANTS: &str = include_str!("../data/omega.variants.ron");
/// The name [`Variants::shipped`] reports in errors.
pub const OMEGA_VARIANTS_FILE: &str = "omega.variants.ron";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantsFile {
    arena: ArenaData,
    were: WereData,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArenaData {
    sequence: Vec<String>,
    champion: String,
    // The field's name before the Champion's numbers came from the chronicle.
    #[serde(alias = "champion_level")]
    champion_shown_level: i32,
    random_bands: (u8, u8),
    random_excludes: Vec<String>,
    exit_item: String,
    awareness: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WereData {
    species: String,
    forms_from: u16,
    forms_count: u16,
    form_excludes: Vec<String>,
    form_requires: Vec<Status>,
    moon_phase: u8,
}

/// The arena's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    /// The fixed opponents, in order.
    pub sequence: Vec<SpeciesId>,
    /// The Champion's template.
    pub champion: SpeciesId,
    /// The level the Champion shows (20 in Omega): the arena adds 10 hit points per shown
    /// level. Its other numbers come from the Champion's level in the chronicle.
    pub champion_shown_level: i32,
    /// Later random opponents: bestiary positions `start..start + count`.
    pub random: (u16, u16),
    /// Templates a random opponent is never drawn as.
    pub excludes: Vec<SpeciesId>,
    /// The exit opener every opponent carries.
    pub exit_item: ItemId,
    /// Every opponent's awareness.
    pub awareness: i32,
}

/// Were-humans' change of form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Were {
    /// The were-human template.
    pub species: SpeciesId,
    /// Forms are drawn from bestiary positions `start..start + count`.
    pub forms: (u16, u16),
    /// Templates never taken as a form.
    pub excludes: Vec<SpeciesId>,
    /// Statuses a form must start with.
    pub requires: Vec<Status>,
    /// The moon phase on which the change happens even to a peaceful were-human.
    pub moon_phase: u8,
}

/// The largest magnitude of the level the Champion shows (Omega's is 20): the arena adds
/// 10 hit points per shown level.
pub const MAX_CHAMPION_LEVEL: i32 = 10_000;

/// The variant rules of a game, validated against its bestiary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variants {
    /// The arena.
    pub arena: Arena,
    /// Were-humans.
    pub were: Were,
}

impl Variants {
    /// Omega's variants, for the shipped bestiary.
    pub fn shipped(bestiary: &Bestiary) -> Self {
        Self::from_file(DataFile::new(OMEGA_VARIANTS_FILE, OMEGA_VARIANTS), bestiary)
            .expect("the embedded Omega variants are valid (the test suite loads them)")
    }

    /// Loads variant rules; every species and item key must exist, and the random arena
    /// draw and the were forms must each have at least one template they can end on.
    pub fn from_file(source: DataFile<'_>, bestiary: &Bestiary) -> Result<Self, DataError> {
        let DataFile { name: file, text } = source;
        let data: VariantsFile = load_ron(text, file)?;
        let (arena_entry, were_entry) = (Entry::new(file, "arena"), Entry::new(file, "were"));
        let species = |entry: Entry<'_>, field: &str, key: &str| {
            bestiary
                .species_id(key)
                .ok_or_else(|| entry.invalid(field, format!("no species has the key {key:?}")))
        };
        let all = |entry: Entry<'_>, field: &str, keys: &[String]| {
            keys.iter()
                .map(|k| species(entry, field, k))
                .collect::<Result<Vec<_>, _>>()
        };
        let a = &data.arena;
        let span = bestiary.bands(a.random_bands.0, a.random_bands.1);
        let arena = Arena {
            sequence: all(arena_entry, "sequence", &a.sequence)?,
            champion: species(arena_entry, "champion", &a.champion)?,
            champion_shown_level: a.champion_shown_level,
            random: (span.start as u16, (span.end - span.start) as u16),
            excludes: all(arena_entry, "random_excludes", &a.random_excludes)?,
            exit_item: bestiary.item_id(&a.exit_item).ok_or_else(|| {
                arena_entry.invalid(
                    "exit_item",
                    format!("no item has the key {:?}", a.exit_item),
                )
            })?,
            awareness: a.awareness,
        };
        let w = &data.were;
        let were = Were {
            species: species(were_entry, "species", &w.species)?,
            forms: (w.forms_from, w.forms_count),
            excludes: all(were_entry, "form_excludes", &w.form_excludes)?,
            requires: w.form_requires.clone(),
            moon_phase: w.moon_phase,
        };
        if !(-MAX_CHAMPION_LEVEL..=MAX_CHAMPION_LEVEL).contains(&arena.champion_shown_level) {
            return Err(arena_entry.invalid(
                "champion_shown_level",
                format!(
                    "{} is outside -{MAX_CHAMPION_LEVEL}..={MAX_CHAMPION_LEVEL}",
                    arena.champion_shown_level
                ),
            ));
        }
        let variants = Self { arena, were };
        // A redraw ends only if an acceptable template is one `R(count)` can give.
        let drawable = |start: u16, count: u16, accepts: &dyn Fn(SpeciesId) -> bool| {
            (0..count).any(|r| {
                rng::bucket_weight(u32::from(r), u32::from(count)) > 0
                    && accepts(SpeciesId(start + r))
            })
        };
        let (start, count) = variants.arena.random;
        if !drawable(start, count, &|id| variants.arena_accepts(bestiary, id)) {
            return Err(arena_entry.invalid(
                "random_bands",
                "no template in these bands can be a random opponent",
            ));
        }
        let (start, count) = variants.were.forms;
        if usize::from(start) + usize::from(count) > bestiary.species().len()
            || !drawable(start, count, &|id| variants.were_accepts(bestiary, id))
        {
            return Err(were_entry.invalid(
                "forms_count",
                "no template in this range can be a were form",
            ));
        }
        Ok(variants)
    }

    fn arena_accepts(&self, bestiary: &Bestiary, id: SpeciesId) -> bool {
        let t = bestiary.get(id);
        !self.arena.excludes.contains(&id) && t.is_ordinary() && t.damage != 0
    }

    fn were_accepts(&self, bestiary: &Bestiary, id: SpeciesId) -> bool {
        let t = bestiary.get(id);
        !self.were.excludes.contains(&id)
            && t.is_ordinary()
            && self.were.requires.iter().all(|&s| t.has(s))
    }

    /// The arena opponent for an opponent counter and the player's arena rank (0 for
    /// none): the fixed sequence, then the Champion for ranks 1-4, else a random template.
    /// It is a direct copy (no sleep roll, no loot), named, hostile and awake, with the
    /// exit opener, awareness 50, +10 hp per level, doubled hit and half its damage
    /// again.
    pub fn arena_opponent<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        bestiary: &Bestiary,
        counter: u32,
        rank: u32,
        champion: &Officeholder,
    ) -> Monster {
        let arena = &self.arena;
        let meets_champion = counter as usize >= arena.sequence.len() && (1..=4).contains(&rank);
        let species = if let Some(&id) = arena.sequence.get(counter as usize) {
            id
        } else if meets_champion {
            arena.champion
        } else {
            let (start, count) = arena.random;
            loop {
                let id = SpeciesId(start + rng::range(rng, u32::from(count)) as u16);
                if self.arena_accepts(bestiary, id) {
                    break id;
                }
            }
        };
        let t = bestiary.get(species);
        let mut stats = Stats::of(t);
        let name = if meets_champion {
            // The hall of fame's level L (a chronicle may come from a save: saturate).
            let l = champion.level;
            let square = l.saturating_mul(l).saturating_mul(5);
            stats = Stats {
                hp: square,
                hit: l.saturating_mul(4),
                ac: l.saturating_mul(3),
                damage: l.saturating_mul(2).saturating_add(100),
                speed: 3,
                level: arena.champion_shown_level,
                xp: square,
            };
            champion.name.clone()
        } else {
            format!("{} the {}", arena_name(rng), t.name)
        };
        stats.hp = stats.hp.saturating_add(10 * stats.level);
        stats.hit = stats.hit.saturating_mul(2);
        stats.damage = stats.damage.saturating_add(stats.damage / 2);
        Monster {
            species,
            form: species,
            name: Some(name),
            identity: Identity::Ordinary,
            stats,
            awareness: arena.awareness,
            sleep_rating: t.sleep,
            // The template's word, made hostile and then awake.
            status: t.statuses() | StatusSet::HOSTILE | StatusSet::AWAKE,
            possessions: vec![ObjectInstance::copy_of(
                arena.exit_item,
                bestiary.item(arena.exit_item),
            )],
        }
    }

    /// Whether a were-human changes on its special turn: when hostile, or on the moon
    /// phase of the data (6).
    pub fn were_changes(&self, monster_form: SpeciesId, hostile: bool, moon_phase: u8) -> bool {
        monster_form == self.were.species && (hostile || moon_phase == self.were.moon_phase)
    }

    /// A were-human's change of form: the new form is drawn (`R(count) + start`, redrawn
    /// while unsuitable); the monster takes its ac, damage, speed and body, adds its hp
    /// and experience, ORs the form's status flags into its own (hostile among them), and
    /// keeps its own hit, level, awareness, sleep rating and possessions. It is renamed
    /// `"were-<form>"`.
    pub fn change_form<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        bestiary: &Bestiary,
        monster: &mut Monster,
    ) {
        let (start, count) = self.were.forms;
        let form = loop {
            let id = SpeciesId(start + rng::range(rng, u32::from(count)) as u16);
            if self.were_accepts(bestiary, id) {
                break id;
            }
        };
        let t = bestiary.get(form);
        monster.form = form;
        monster.stats.ac = t.ac;
        monster.stats.damage = t.damage;
        monster.stats.speed = t.speed;
        // A were-human may change many times in a long game: the sums saturate.
        monster.stats.hp = monster.stats.hp.saturating_add(t.hp);
        monster.stats.xp = monster.stats.xp.saturating_add(t.xp);
        // The form's statuses are ORed in.
        monster.status |= t.statuses();
        monster.name = Some(format!("were-{}", t.name));
    }
}

/// A random name for an arena fighter, from syllables of denizen's own (the source's name
/// generator is not reproduced).
fn arena_name<R: Rng + ?Sized>(rng: &mut R) -> String {
    const SYLLABLES: [&str; 16] = [
        "ka", "dor", "vel", "rin", "mo", "thu", "zar", "el", "bri", "gan", "os", "lum", "ta",
        "nek", "ur", "sil",
    ];
    let count = 2 + rng::range(rng, 2);
    let mut name: String = (0..count)
        .map(|_| SYLLABLES[rng::range(rng, SYLLABLES.len() as u32) as usize])
        .collect();
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::construct::{Builder, CHAMPION, Chronicle, Preference};
    use crate::objects::ItemLedger;
    use denizen_core::rng::{StreamPurpose, WorldSeed};

    fn setup() -> (Bestiary, Variants) {
        let bestiary = Bestiary::shipped();
        let variants = Variants::shipped(&bestiary);
        (bestiary, variants)
    }

    #[test]
    fn arena_opponents_from_known_templates() {
        let (bestiary, variants) = setup();
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("arena"));
        // Opponent 3 is a goblin (level 1, hp 8, hit 10, ac 8, damage 8).
        let goblin = variants.arena_opponent(
            &mut rng,
            &bestiary,
            3,
            0,
            &Chronicle::new_game().holder(CHAMPION),
        );
        assert_eq!(bestiary.get(goblin.species).key, "goblin");
        assert_eq!(
            (
                goblin.stats.hp,
                goblin.stats.hit,
                goblin.stats.ac,
                goblin.stats.damage
            ),
            (8 + 10, 20, 8, 8 + 4)
        );
        assert_eq!(goblin.awareness, 50);
        // The goblin template's word (mobile, hostile, greedy), made awake: not wandering.
        assert_eq!(
            goblin.status,
            StatusSet::MOBILE | StatusSet::HOSTILE | StatusSet::GREEDY | StatusSet::AWAKE
        );
        assert_eq!(goblin.possessions.len(), 1, "the exit opener and no loot");
        assert_eq!(
            bestiary.item(goblin.possessions[0].item).key,
            "disposeable_garage_door_opener"
        );
        // "<random name> the <species>": a capitalised name before the species.
        let name = goblin.name.unwrap();
        let (given, species) = name.split_once(" the ").unwrap();
        assert_eq!(species, "goblin");
        assert!(
            given.starts_with(|c: char| c.is_ascii_uppercase()),
            "{name}"
        );
        // Opponent 15 is the jotun (level 9, hp 750, hit 80, damage 200).
        let jotun = variants.arena_opponent(
            &mut rng,
            &bestiary,
            15,
            0,
            &Chronicle::new_game().holder(CHAMPION),
        );
        assert_eq!(
            (jotun.stats.hp, jotun.stats.hit, jotun.stats.damage),
            (840, 160, 300)
        );
        // After the sequence: the Champion for ranks 1-4. A new game's Champion is
        // Spartacus of level 10 (the source notes, section 13, and the hall of fame): hp
        // 10 * 10 * 5 + 10 per shown level 20 = 700, hit 2 * 40, ac 30, damage 120 + 60,
        // experience 500.
        let spartacus = Chronicle::new_game().holder(CHAMPION);
        let champion = variants.arena_opponent(&mut rng, &bestiary, 16, 1, &spartacus);
        assert_eq!(champion.name.as_deref(), Some("Spartacus"));
        let s = champion.stats;
        assert_eq!(
            (s.hp, s.hit, s.ac, s.damage, s.speed, s.level, s.xp),
            (700, 80, 30, 180, 3, 20, 500)
        );
        // The hiscore NPC template's word (awake, hostile), made hostile and awake: it is
        // not mobile and does not wander.
        assert_eq!(champion.status, StatusSet::AWAKE | StatusSet::HOSTILE);
        // Another hall of fame's Champion of level 12: 720 + 200 hp, hit 96, ac 36,
        // damage 124 + 62.
        let rhea = Officeholder {
            name: "Rhea the Bold".into(),
            level: 12,
            behaviour: 2713,
        };
        let champion = variants.arena_opponent(&mut rng, &bestiary, 30, 4, &rhea);
        let s = champion.stats;
        assert_eq!(champion.name.as_deref(), Some("Rhea the Bold"));
        assert_eq!((s.hp, s.hit, s.ac, s.damage, s.xp), (920, 96, 36, 186, 720));
        // Rank 0 or past 4 never meets the Champion.
        let other = variants.arena_opponent(&mut rng, &bestiary, 16, 5, &rhea);
        assert_ne!(other.name.as_deref(), Some("Rhea the Bold"));
        // Everyone else: a random template of bands 0-8 with damage, never excluded.
        for _ in 0..300 {
            let o = variants.arena_opponent(
                &mut rng,
                &bestiary,
                20,
                0,
                &Chronicle::new_game().holder(CHAMPION),
            );
            let t = bestiary.get(o.species);
            assert!(o.species.0 < 132 && t.damage > 0 && t.is_ordinary());
            assert!(!["log_npc", "hiscore_npc", "0th_level_npc"].contains(&t.key.as_str()));
        }
    }

    /// Later random opponents: `R(132)` over bands 0-8, redrawn while excluded, reserved
    /// or harmless (source notes, arena), so each accepted template's chance is its
    /// bucket count renormalised over the accepted ones.
    #[test]
    fn random_opponents_follow_their_exact_odds() {
        let (bestiary, variants) = setup();
        let (start, count) = variants.arena.random;
        assert_eq!((start, count), (0, 132));
        let accepted: Vec<u16> = (start..start + count)
            .filter(|&i| variants.arena_accepts(&bestiary, SpeciesId(i)))
            .collect();
        let weight = |i: u16| f64::from(crate::rng::bucket_weight(u32::from(i), 132));
        let total: f64 = accepted.iter().map(|&i| weight(i)).sum();
        let mut rng = WorldSeed(11).stream(StreamPurpose::new("arena"));
        let mut counts = vec![0u64; bestiary.species().len()];
        let champion = Chronicle::new_game().holder(CHAMPION);
        for _ in 0..100_000 {
            let o = variants.arena_opponent(&mut rng, &bestiary, 20, 0, &champion);
            counts[o.species.index()] += 1;
        }
        let odds = (0..bestiary.species().len() as u16).map(|i| {
            if accepted.contains(&i) {
                weight(i) / total
            } else {
                0.0
            }
        });
        let p = denizen_core::ChiSquared::against(&counts, odds).p_value();
        assert!(p > 1e-6, "p = {p}");
    }

    /// A game's own arena may draw its random opponents from other bands; they never come
    /// from outside them. Were forms may run to the last template, not past it.
    #[test]
    fn a_games_own_variants_keep_to_their_ranges() {
        let bestiary = Bestiary::shipped();
        let edited = |from: &str, to: &str| {
            assert!(OMEGA_VARIANTS.contains(from));
            OMEGA_VARIANTS.replacen(from, to, 1)
        };
        let text = edited("random_bands: (0, 8)", "random_bands: (2, 3)");
        let variants = Variants::from_file(DataFile::new("mine.ron", &text), &bestiary).unwrap();
        let span = bestiary.bands(2, 3);
        let mut rng = WorldSeed(12).stream(StreamPurpose::new("arena"));
        for _ in 0..2_000 {
            let o = variants.arena_opponent(
                &mut rng,
                &bestiary,
                30,
                0,
                &Chronicle::new_game().holder(CHAMPION),
            );
            assert!(span.contains(&o.species.index()), "{:?}", o.species);
        }
        let last = edited("forms_count: 123", "forms_count: 141");
        assert!(Variants::from_file(DataFile::new("mine.ron", &last), &bestiary).is_ok());
        let past = edited("forms_count: 123", "forms_count: 142");
        let err = Variants::from_file(DataFile::new("mine.ron", &past), &bestiary).unwrap_err();
        assert!(err.to_string().contains("field `forms_count`"), "{err}");
        // Templates 140-149 are all reserved: no form could ever be drawn there.
        let reserved = edited("forms_from: 9,", "forms_from: 140,").replacen(
            "forms_count: 123",
            "forms_count: 10",
            1,
        );
        let err = Variants::from_file(DataFile::new("mine.ron", &reserved), &bestiary).unwrap_err();
        assert!(
            err.to_string().contains("no template in this range"),
            "{err}"
        );
    }

    #[test]
    fn were_form_keeps_and_adds_the_right_fields() {
        let (bestiary, variants) = setup();
        let were = bestiary.species_id("were_human").unwrap();
        let mut ledger = ItemLedger::new(bestiary.items());
        let chronicle = Chronicle::default();
        let mut builder = Builder {
            bestiary: &bestiary,
            ledger: &mut ledger,
            chronicle: &chronicle,
            preference: Preference::Either,
            temple_deity: None,
            difficulty: 3,
        };
        for seed in 0..100 {
            let mut rng = WorldSeed(seed).stream(StreamPurpose::new("were"));
            let before = builder.build(&mut rng, were);
            assert!(variants.were_changes(before.form, false, 6));
            assert!(variants.were_changes(before.form, true, 0));
            assert!(!variants.were_changes(before.form, false, 12));
            let mut after = before.clone();
            variants.change_form(&mut rng, &bestiary, &mut after);
            let form = bestiary.get(after.form);
            assert!(after.form.0 >= 9 && after.form.0 < 132 && form.is_ordinary());
            assert!(form.has(Status::Mobile) && form.has(Status::Hostile));
            assert_ne!(form.key, "were_human");
            assert_eq!(after.stats.hp, before.stats.hp + form.hp);
            assert_eq!(after.stats.xp, before.stats.xp + form.xp);
            assert_eq!(
                (after.stats.ac, after.stats.damage, after.stats.speed),
                (form.ac, form.damage, form.speed)
            );
            assert_eq!(
                (after.stats.hit, after.stats.level),
                (before.stats.hit, before.stats.level)
            );
            assert_eq!(
                (after.awareness, after.sleep_rating),
                (before.awareness, before.sleep_rating)
            );
            assert_eq!(after.possessions, before.possessions);
            assert!(after.hostile());
            // Its own word gains the form's flags (flying, intangible, ...) and keeps its own.
            assert_eq!(after.status, before.status | form.statuses());
            assert_eq!(after.name, Some(format!("were-{}", form.name)));
            assert!(
                !variants.were_changes(after.form, true, 6),
                "it changes once"
            );
        }
    }
}
