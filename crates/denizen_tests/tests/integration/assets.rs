//! Data files as assets (feature `assets`): rules taken from files under an asset folder,
//! requests refused until they load, and (feature `file_watcher`) an edited file swapped
//! in while the game runs, a broken edit refused once while the rules stay.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::arrivals::RulesStillLoading;
use denizen::bevy::assets::DataRefusal;
use denizen::bevy::pipeline::RulesRefused;
use denizen::omega::bestiary::OMEGA_BESTIARY;
use denizen::omega::location::OMEGA_LOCATIONS;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use crate::asset_folder::{Folder, game, heard, hears_nothing_more, wait_for_answers};
use crate::{floors_populated, floors_refused, messages};

/// The glyphs of the goblins on the floor: the glyph is given when a creature is made,
/// so it tells the rules a floor was populated with.
fn goblin_glyphs(app: &mut App) -> Vec<char> {
    let world = app.world_mut();
    let goblin = world
        .resource::<OmegaRuleset>()
        .rules()
        .bestiary
        .species_id("goblin")
        .unwrap();
    world
        .query::<(&Species, &Glyph)>()
        .iter(world)
        .filter(|(species, _)| species.id == goblin)
        .map(|(_, glyph)| glyph.0)
        .collect()
}

/// The shipped bestiary with the goblin drawn as `glyph`, and its fixed item `item`.
fn bestiary(glyph: char, item: &str) -> String {
    let at = OMEGA_BESTIARY.find(r#"key: "goblin","#).unwrap();
    let (before, goblin) = OMEGA_BESTIARY.split_at(at);
    let goblin = goblin
        .replacen("glyph: 'g'", &format!("glyph: '{glyph}'"), 1)
        .replacen(r#"Some("dagger")"#, &format!("Some(\"{item}\")"), 1);
    format!("{before}{goblin}")
}

fn request_caves(app: &mut App) {
    app.insert_resource(FloorMap(reference_floor(WorldSeed(41), "goblin-caves", 1)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("goblin-caves", 1));
    app.update();
}

/// The whole life of Omega's files as assets: requests before they load are refused and
/// change nothing; once loaded a floor is populated from the files (the goblin drawn as
/// the file says, the chronicle the file's); an edit is swapped in and the next floor
/// follows it; a file written again unchanged is nothing new; a broken edit is refused
/// once, naming the file, entry and field, and the rules in use stay; an edit of another
/// file meanwhile is tried again and refused again; mending the broken file swaps both in.
#[cfg(feature = "file_watcher")]
#[test]
fn omega_rules_follow_their_files() {
    let folder = Folder::new("assets-omega");
    folder.write("game.bestiary.ron", bestiary('G', "dagger"));
    folder.write("game.locations.ron", OMEGA_LOCATIONS);
    folder.write(
        "game.variants.ron",
        denizen::omega::variants::OMEGA_VARIANTS,
    );
    let chronicle =
        |champion: &str| denizen::omega::construct::OMEGA_CHRONICLE.replacen("Gallow", champion, 1);
    folder.write("game.chronicle.ron", chronicle("Gallant"));
    let files = OmegaDataAssets::new("game.bestiary.ron", "game.locations.ron")
        .variants("game.variants.ron")
        .chronicle("game.chronicle.ron");
    let plugins = DenizenPlugins::with_seed(41).set(OmegaPlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    let champion = |app: &App| {
        let chronicle = &app.world().resource::<OmegaChronicle>().0;
        format!("{chronicle:?}")
    };

    // The first update asks for the files, so they cannot have loaded during it.
    let at = Square { x: 5, y: 5 };
    app.world_mut()
        .write_message(OmegaSummonRequested::new(1, at, SummonKind::Ordinary));
    request_caves(&mut app);
    assert!(heard(&app).is_empty());
    let refused: Vec<OmegaFloorRefusal> = floors_refused::<OmegaFloorRequested>(&app);
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0], OmegaFloorRefusal::RulesLoading);
    let summoned: Vec<OmegaSummoned> = messages(&app);
    assert_eq!(
        summoned[0].outcome,
        Err(OmegaNothingMade::RulesLoading(RulesStillLoading))
    );
    assert!(goblin_glyphs(&mut app).is_empty(), "nothing is populated");
    assert!(!champion(&app).contains("Gallant"));

    wait_for_answers(&mut app, 1);
    assert_eq!(heard(&app), [Ok("Omega")]);
    assert!(
        champion(&app).contains("Gallant"),
        "the chronicle is the file's"
    );
    request_caves(&mut app);
    let glyphs = goblin_glyphs(&mut app);
    assert!(
        !glyphs.is_empty() && glyphs.iter().all(|&g| g == 'G'),
        "{glyphs:?}"
    );

    folder.write("game.bestiary.ron", bestiary('H', "dagger"));
    wait_for_answers(&mut app, 2);
    assert_eq!(heard(&app)[1], Ok("Omega"));
    request_caves(&mut app);
    let glyphs = goblin_glyphs(&mut app);
    assert!(
        !glyphs.is_empty() && glyphs.iter().all(|&g| g == 'H'),
        "{glyphs:?}"
    );
    folder.write("game.bestiary.ron", bestiary('H', "dagger"));
    hears_nothing_more(&mut app);

    folder.write("game.bestiary.ron", bestiary('J', "daggr"));
    wait_for_answers(&mut app, 3);
    let refusal = r#"game.bestiary.ron: species[15] "goblin": field `fixed_item`: no item has the key "daggr""#;
    let Err(rejected) = &heard(&app)[2] else {
        panic!("the broken edit is refused: {:?}", heard(&app))
    };
    assert_eq!(
        (rejected.rule_set, rejected.error.to_string().as_str()),
        ("Omega", refusal)
    );
    hears_nothing_more(&mut app);
    request_caves(&mut app);
    let glyphs = goblin_glyphs(&mut app);
    assert!(
        glyphs.iter().all(|&g| g == 'H'),
        "the rules stay: {glyphs:?}"
    );

    folder.write("game.chronicle.ron", chronicle("Gracious"));
    wait_for_answers(&mut app, 4);
    assert!(matches!(&heard(&app)[3], Err(r) if r.error.to_string() == refusal));
    assert!(champion(&app).contains("Gallant"), "nothing is swapped in");

    folder.write("game.bestiary.ron", bestiary('K', "dagger"));
    wait_for_answers(&mut app, 5);
    assert_eq!(heard(&app)[4], Ok("Omega"));
    assert!(
        champion(&app).contains("Gracious"),
        "the chronicle edited meanwhile"
    );
    request_caves(&mut app);
    let glyphs = goblin_glyphs(&mut app);
    assert!(
        !glyphs.is_empty() && glyphs.iter().all(|&g| g == 'K'),
        "{glyphs:?}"
    );
}

/// A file that is not text is refused when it loads, once, naming it in one line; the
/// rules wait.
#[test]
fn a_file_that_is_not_text_is_refused_once() {
    let folder = Folder::new("assets-bytes");
    folder.write("game.encounters.ron", [0x28, 0xff, 0xfe, 0x29]);
    let files = CaptiveDataAssets::new("game.encounters.ron");
    let plugins = DenizenPlugins::with_seed(42).set(CaptivePlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    wait_for_answers(&mut app, 1);
    for _ in 0..20 {
        app.update();
    }
    let heard = heard(&app);
    assert_eq!(heard.len(), 1, "{heard:?}");
    let Err(DataRejected {
        rule_set: "Captive",
        error: DataRefusal::Load(message),
    }) = &heard[0]
    else {
        panic!("{heard:?}")
    };
    // The loader's own words, on one line: no asset-server wrapping, no backtrace.
    assert_eq!(
        message,
        "game.encounters.ron: not UTF-8 text (byte 1, line 1)"
    );
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(42), 6)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(6, 3));
    app.update();
    let refused: Vec<CaptiveFloorRefusal> = floors_refused::<CaptiveFloorRequested>(&app);
    let refusal = RulesRefused(DataRefusal::Load(message.clone()));
    assert_eq!(
        refused[0],
        CaptiveFloorRefusal::RulesRefused(refusal),
        "the refusal, not a wait for files that never come"
    );
}

/// A first load refused: before the asset server answers, requests are answered "still
/// loading"; once the files are refused, every request of the rule set (floors and
/// arrivals) is answered with the latest refusal, which names the file, the entry and the
/// field, where "still loading" would wait forever; mended files are taken and served.
#[test]
fn a_refused_first_load_answers_requests_with_the_refusal() {
    let folder = Folder::new("assets-refused");
    folder.write("game.bestiary.ron", bestiary('J', "daggr"));
    folder.write("game.locations.ron", OMEGA_LOCATIONS);
    let files = OmegaDataAssets::new("game.bestiary.ron", "game.locations.ron");
    let plugins = DenizenPlugins::with_seed(41).set(OmegaPlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    request_caves(&mut app);
    let refused: Vec<OmegaFloorRefusal> = floors_refused::<OmegaFloorRequested>(&app);
    assert_eq!(refused[0], OmegaFloorRefusal::RulesLoading);

    wait_for_answers(&mut app, 1);
    let line = r#"game.bestiary.ron: species[15] "goblin": field `fixed_item`: no item has the key "daggr""#;
    let Err(DataRejected {
        error: DataRefusal::Data(error),
        ..
    }) = &heard(&app)[0]
    else {
        panic!("{:?}", heard(&app))
    };
    assert_eq!(error.to_string(), line);
    let refusal = RulesRefused(DataRefusal::Data(error.clone()));
    let at = Square { x: 5, y: 5 };
    app.world_mut()
        .write_message(OmegaSummonRequested::new(1, at, SummonKind::Ordinary));
    request_caves(&mut app);
    let refused: Vec<OmegaFloorRefusal> = floors_refused::<OmegaFloorRequested>(&app);
    assert_eq!(refused[0], OmegaFloorRefusal::RulesRefused(refusal.clone()));
    assert!(refused[0].to_string().ends_with(line));
    let summoned: Vec<OmegaSummoned> = messages(&app);
    assert_eq!(
        summoned[0].outcome,
        Err(OmegaNothingMade::RulesRefused(refusal))
    );
    assert!(goblin_glyphs(&mut app).is_empty(), "nothing is populated");

    // With the file watcher, the mended file is taken.
    #[cfg(feature = "file_watcher")]
    {
        folder.write("game.bestiary.ron", bestiary('K', "dagger"));
        wait_for_answers(&mut app, 2);
        assert_eq!(heard(&app)[1], Ok("Omega"));
        request_caves(&mut app);
        let glyphs = goblin_glyphs(&mut app);
        assert!(!glyphs.is_empty() && glyphs.iter().all(|&g| g == 'K'));
    }
}

/// `text` with every `field: 'x'` character replaced by `glyph`.
fn every_glyph(text: &str, field: &str, glyph: char) -> String {
    let marker = format!("{field}: '");
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&marker) {
        let (head, tail) = rest.split_at(at + marker.len());
        out.push_str(head);
        out.push(glyph);
        let mut chars = tail.chars();
        chars.next();
        rest = chars.as_str();
    }
    out.push_str(rest);
    out
}

/// The glyphs of every creature the rule set's component `C` marks.
fn glyphs_of<C: Component>(app: &mut App) -> Vec<char> {
    let world = app.world_mut();
    world
        .query_filtered::<&Glyph, With<C>>()
        .iter(world)
        .map(|g| g.0)
        .collect()
}

/// Captive's table, and Angband's races, vaults, traps, object kinds, ego items and
/// artifacts, load from files as Omega's do, and the rule sets then serve their requests
/// from them: every creature is drawn as the files draw it.
#[test]
fn captive_and_angband_rules_load_from_their_files() {
    let folder = Folder::new("assets-others");
    folder.write(
        "game.encounters.ron",
        every_glyph(denizen::captive::table::CAPTIVE_ENCOUNTERS, "glyph", '&'),
    );
    let captive = CaptiveDataAssets::new("game.encounters.ron");
    let plugins = DenizenPlugins::with_seed(43).set(CaptivePlugin::default().data_assets(captive));
    #[cfg(feature = "angband_data")]
    let plugins = {
        folder.write(
            "game.races.ron",
            every_glyph(
                include_str!("../../../denizen_angband/data/angband.races.ron"),
                "symbol",
                '$',
            ),
        );
        for (file, text) in [
            (
                "game.vaults.ron",
                include_str!("../../../denizen_angband/data/angband.vaults.ron"),
            ),
            (
                "game.traps.ron",
                include_str!("../../../denizen_angband/data/angband.traps.ron"),
            ),
            (
                "game.objects.ron",
                include_str!("../../../denizen_angband/data/angband.objects.ron"),
            ),
            (
                "game.egos.ron",
                include_str!("../../../denizen_angband/data/angband.egos.ron"),
            ),
            (
                "game.artifacts.ron",
                include_str!("../../../denizen_angband/data/angband.artifacts.ron"),
            ),
        ] {
            folder.write(file, text);
        }
        let angband = AngbandDataAssets::default()
            .races("game.races.ron")
            .vaults("game.vaults.ron")
            .traps("game.traps.ron")
            .objects("game.objects.ron")
            .egos("game.egos.ron")
            .artifacts("game.artifacts.ron");
        plugins.set(AngbandPlugin::default().data_assets(angband))
    };
    let mut app = game(&folder.0, plugins);
    let rule_sets = if cfg!(feature = "angband_data") { 2 } else { 1 };
    wait_for_answers(&mut app, rule_sets);
    let mut loaded: Vec<_> = heard(&app).into_iter().map(Result::unwrap).collect();
    loaded.sort_unstable();
    let expected: &[&str] = if cfg!(feature = "angband_data") {
        &["Angband", "Captive"]
    } else {
        &["Captive"]
    };
    assert_eq!(loaded, expected);
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(43), 6)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(6, 3));
    app.update();
    let members = glyphs_of::<EncounterMember>(&mut app);
    assert!(
        !members.is_empty() && members.iter().all(|&g| g == '&'),
        "{members:?}"
    );
    #[cfg(feature = "angband_data")]
    {
        app.world_mut()
            .write_message(AngbandFloorRequested::new(10));
        app.update();
        let monsters = glyphs_of::<AngbandMonster>(&mut app);
        assert!(
            !monsters.is_empty() && monsters.iter().all(|&g| g == '$'),
            "{monsters:?}"
        );
    }
}

/// A rule set given no files of its own has its builder's rules at once.
#[cfg(feature = "angband_data")]
#[test]
fn a_rule_set_given_no_files_has_its_rules_at_once() {
    let folder = Folder::new("assets-none");
    let angband = AngbandPlugin::default().data_assets(AngbandDataAssets::default());
    let mut app = game(&folder.0, DenizenPlugins::with_seed(45).set(angband));
    app.world_mut().write_message(AngbandFloorRequested::new(3));
    app.update();
    assert_eq!(heard(&app), [Ok("Angband")]);
    let built: Vec<AngbandFloorPopulated> = floors_populated::<AngbandFloorRequested>(&app);
    assert_eq!(built.len(), 1);
}

/// The asset side needs `bevy_asset`'s plugin: without it the app stops at setup, saying
/// so.
#[test]
#[should_panic(expected = "add it before the denizen plugins")]
fn data_assets_without_the_asset_plugin_stop_at_setup() {
    let files = CaptiveDataAssets::new("game.encounters.ron");
    App::new().add_plugins(
        DenizenPlugins::with_seed(44).set(CaptivePlugin::default().data_assets(files)),
    );
}

/// A data file that is a folder is refused in one line naming it (the asset server's own
/// words, first line only, whatever `RUST_BACKTRACE` says).
#[test]
fn a_folder_given_as_a_data_file_is_refused_in_one_line() {
    let folder = Folder::new("assets-folder");
    std::fs::create_dir_all(folder.0.join("game.encounters.ron")).unwrap();
    let files = CaptiveDataAssets::new("game.encounters.ron");
    let plugins = DenizenPlugins::with_seed(42).set(CaptivePlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    wait_for_answers(&mut app, 1);
    let Err(DataRejected {
        error: DataRefusal::Load(message),
        ..
    }) = &heard(&app)[0]
    else {
        panic!("{:?}", heard(&app))
    };
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("game.encounters.ron"), "{message}");
}

/// A pipe given as a data file, with nothing ever writing it, is refused in one line by the
/// opt-in source that reads regular files only (`bevy_asset`'s own reader would block in
/// its open for ever); a regular file beside it loads through the same source.
#[cfg(unix)]
#[test]
fn a_pipe_given_as_a_data_file_is_refused_by_the_regular_files_source() {
    use denizen::bevy::assets::RegularFilesOnly;
    use denizen::bevy::assets::bevy_asset::{AssetMetaCheck, AssetPlugin};

    let folder = Folder::new("assets-fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(folder.0.join("game.encounters.ron"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let app = |files: CaptiveDataAssets| {
        let path = folder.0.to_string_lossy().into_owned();
        let mut app = App::new();
        app.add_plugins((
            TaskPoolPlugin::default(),
            RegularFilesOnly::new(path.clone()),
            AssetPlugin {
                file_path: path,
                watch_for_changes_override: Some(false),
                meta_check: AssetMetaCheck::Never,
                ..AssetPlugin::default()
            },
        ))
        .add_plugins(DenizenPlugins::with_seed(42).set(CaptivePlugin::default().data_assets(files)))
        .init_resource::<crate::asset_folder::Heard>()
        .add_systems(
            Update,
            crate::asset_folder::hear.after(DenizenSystems::Arrivals),
        );
        app
    };
    let mut piped = app(CaptiveDataAssets::new("game.encounters.ron"));
    wait_for_answers(&mut piped, 1);
    let Err(DataRejected {
        error: DataRefusal::Load(message),
        ..
    }) = &heard(&piped)[0]
    else {
        panic!("{:?}", heard(&piped))
    };
    assert!(
        message.contains("game.encounters.ron: not a regular file"),
        "{message}"
    );

    folder.write(
        "real.encounters.ron",
        denizen::captive::table::CAPTIVE_ENCOUNTERS,
    );
    let mut regular = app(CaptiveDataAssets::new("real.encounters.ron"));
    wait_for_answers(&mut regular, 1);
    assert_eq!(heard(&regular), [Ok("Captive")]);
}
