//! Golden values of Captive's encounter groups on reference base floors of several maps:
//! type, cell, speed, every member's slot and stats, what the bearer carries, and why the
//! stage stopped. Rewrite with `DENIZEN_BLESS=1` when a change is deliberate.

use std::fmt::Write;

use denizen_captive::{BaseEncounters, EncounterSettings, EncounterTable};
use denizen_captive::{encounter_stream, reference_base};
use denizen_core::rng::WorldSeed;

#[test]
fn encounter_groups_match_their_golden_file() {
    let table = EncounterTable::shipped();
    let mut text = String::new();
    for (map, seed, floors) in [(0, 1, 1), (5, 7, 3), (10, 2, 3), (37, 3, 3), (120, 11, 2)] {
        let grid = reference_base(WorldSeed(seed), map);
        let mut rng = encounter_stream(WorldSeed(seed), map, 0);
        let plan = BaseEncounters::new(&table, EncounterSettings::default(), map, floors)
            .place(&mut rng, &grid);
        let _ = writeln!(
            text,
            "# map {map} seed {seed} floors {floors}: mask {}, {} groups in {} attempts, stopped {:?}",
            plan.mask,
            plan.groups.len(),
            plan.attempts,
            plan.stopped
        );
        for g in &plan.groups {
            let _ = write!(
                text,
                "type {} at ({},{}) speed {} carries {:?}:",
                g.type_id, g.cell.x, g.cell.y, g.speed, g.carries
            );
            for m in &g.members {
                let _ = write!(
                    text,
                    " [{} {} {} {}]",
                    m.slot, m.strength, m.armature, m.skill
                );
            }
            text.push('\n');
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/groups.txt");
    denizen_testing::golden(path, &text);
}

/// The table, the generator and base floors import each other one way.
#[test]
fn modules_do_not_import_each_other_in_a_cycle() {
    denizen_testing::assert_modules_acyclic(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
}
