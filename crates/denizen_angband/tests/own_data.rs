//! The rules with a game's own data files and none compiled in: what a commercial game
//! does, with the crate's `shipped` feature off (`cargo test -p denizen_angband
//! --no-default-features --test own_data`). The files here are read from disk as a game
//! reads its own (they happen to be the crate's data folder).

use denizen_angband::layout::VaultTemplates;
use denizen_angband::{
    AngbandRules, ArtifactLedger, Artifacts, Egos, Level, LevelOptions, ObjectAllocator,
    ObjectKinds, ObjectRules, Races, Traps, UniqueLedger,
};
use denizen_core::{DataFile, StreamPurpose, WorldSeed};

/// A data file of the crate's folder, as a game's own.
fn file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn own_rules() -> AngbandRules {
    let races = Races::from_file(DataFile::new("my.races.ron", &file("angband.races.ron")));
    let kinds = ObjectKinds::from_file(DataFile::new(
        "my.objects.ron",
        &file("angband.objects.ron"),
    ));
    let egos = Egos::from_file(DataFile::new("my.egos.ron", &file("angband.egos.ron")));
    let artifacts = Artifacts::from_file(DataFile::new(
        "my.artifacts.ron",
        &file("angband.artifacts.ron"),
    ));
    let vaults =
        VaultTemplates::from_file(DataFile::new("my.vaults.ron", &file("angband.vaults.ron")));
    let traps = Traps::from_file(DataFile::new("my.traps.ron", &file("angband.traps.ron")));
    let objects = ObjectRules {
        allocator: ObjectAllocator::new(kinds.unwrap()),
        egos: egos.unwrap(),
        artifacts: artifacts.unwrap(),
    };
    AngbandRules::new(races.unwrap(), objects, vaults.unwrap(), traps.unwrap())
}

#[test]
fn a_level_is_made_from_a_games_own_files() {
    let rules = own_rules();
    let mut rng = WorldSeed(3).stream(StreamPurpose::new("own-data"));
    let mut live = UniqueLedger::new();
    let mut level = Level::build_with(
        &mut rng,
        12,
        &LevelOptions::default(),
        &rules.allocator,
        &mut live,
        &rules.vaults,
    );
    level.furnish(&mut rng, &rules.objects, &mut ArtifactLedger::new());
    assert!(!level.monsters.is_empty(), "the level has monsters");
    assert!(!level.objects.is_empty(), "the level has objects");
    assert_eq!(rules.races().len(), 547);
}

/// A broken file of the game's names its file, entry and field.
#[test]
fn a_games_broken_file_is_refused_by_name() {
    let text = file("angband.traps.ron").replacen("name:", "nome:", 1);
    let err = Traps::from_file(DataFile::new("my.traps.ron", &text)).unwrap_err();
    assert!(err.to_string().contains("my.traps.ron"), "{err}");
}
