//! Golden values of whole populated floors: squares, species, sleep, names, stats and
//! possessions of every monster on reference floors of every dungeon, checked in, so any
//! change to a stream or a rule shows. Rewrite with `DENIZEN_BLESS=1` when a change is
//! deliberate.

use std::fmt::Write;

use denizen_core::Tile;
use denizen_core::rng::{StreamPurpose, WorldSeed};
use denizen_omega::construct::Builder;
use denizen_omega::objects::ItemLedger;
use denizen_omega::populate::{LevelPlan, LevelRequest, plan_level};
use denizen_omega::reference::reference_floor;
use denizen_omega::*;

use crate::omega;

/// One floor the way the plugin populates its first generation: fixed inhabitants from
/// the `fixed` stream, then the population from the `floor` stream.
pub(crate) fn floor_text(rules: &OmegaRules, location: &str, depth: u32, seed: u64) -> String {
    let env = rules.locations.get(location).unwrap();
    let level = env.level(depth).unwrap();
    let grid = reference_floor(WorldSeed(seed), location, depth);
    let mut ledger = ItemLedger::new(rules.bestiary.items());
    let chronicle = Chronicle::default();
    let mut builder = Builder {
        bestiary: &rules.bestiary,
        ledger: &mut ledger,
        chronicle: &chronicle,
        preference: Preference::Either,
        temple_deity: None,
        difficulty: level.difficulty,
    };
    let stream = |kind| WorldSeed(seed).stream(StreamPurpose::event(kind, location, depth, 0));
    let request = LevelRequest {
        environment: env,
        level,
        grid: &grid,
        completed: false,
        cavern_gap: false,
        blocked: &[],
    };
    let mut fixed_rng = env.has_fixed_at(depth).then(|| stream(streams::FIXED));
    let LevelPlan {
        fixed,
        population: floor,
        ..
    } = plan_level(
        &mut stream(streams::FLOOR),
        fixed_rng.as_mut(),
        &request,
        &mut builder,
    );
    let mut text = format!(
        "# {location} depth {depth} seed {seed}: {} fixed, {} of {} placed\n",
        fixed.len(),
        floor.plan.spawns.len(),
        floor.requested
    );
    for spawn in fixed.iter().chain(&floor.plan.spawns) {
        let m = &spawn.creature;
        let key = |id: SpeciesId| rules.bestiary.get(id).key.as_str();
        let s = &m.stats;
        let _ = write!(
            text,
            "({},{}) {:?} {} form={} {} {}{} name={:?} {:?} hp={} hit={} ac={} dmg={} spd={} lvl={} xp={} aware={} sleep={}",
            spawn.at.x,
            spawn.at.y,
            spawn.origin,
            key(m.species),
            key(m.form),
            if m.awake() { "awake" } else { "asleep" },
            if m.hostile() { "hostile" } else { "peaceful" },
            if m.wandering() { " wandering" } else { "" },
            m.name,
            m.identity,
            s.hp,
            s.hit,
            s.ac,
            s.damage,
            s.speed,
            s.level,
            s.xp,
            m.awareness,
            m.sleep_rating,
        );
        for o in &m.possessions {
            let item = &rules.bestiary.item(o.item).key;
            let _ = write!(
                text,
                " | {item} plus={} bless={} charge={} n={} aux={} junk={:?}",
                o.plus, o.blessing, o.charge, o.number, o.aux, o.variant
            );
        }
        text.push('\n');
    }
    for (at, tile) in &floor.plan.tiles {
        assert_eq!(*tile, Tile::Water);
        let _ = writeln!(text, "water ({},{})", at.x, at.y);
    }
    text
}

#[test]
fn populated_floors_match_their_golden_file() {
    let rules = omega();
    let floors = [
        ("goblin-caves", 1, 11),
        ("goblin-caves", 10, 3),
        ("sewers", 5, 1),
        ("sewers", 18, 9),
        ("castle", 8, 2),
        ("castle", 16, 6),
        ("astral", 1, 4),
        ("astral", 5, 7),
        ("volcano", 2, 5),
        ("volcano", 20, 3),
        ("countryside:river", 1, 6),
        ("temple", 1, 8),
    ];
    let text: String = floors
        .iter()
        .map(|&(location, depth, seed)| floor_text(&rules, location, depth, seed))
        .collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/floors.txt");
    denizen_testing::golden(path, &text);
}
