//! The `denizen` binary as a user runs it: outputs, headers, exit codes.

use std::process::{Command, Output};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen_bevy::prelude::*;
use denizen_captive::plugin::prelude::*;
use denizen_captive::{Carry, reference_base};
use denizen_core::WorldSeed;

/// Runs `denizen` with the words of a command line.
fn denizen(line: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(line.split_whitespace())
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The sum of the `observed` column of `species,name,observed,expected` CSV.
fn observed_total(csv: &str) -> u64 {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse::<u64>().unwrap())
        .sum()
}

#[test]
fn odds_csv_has_the_exact_header_and_twelve_decimals() {
    let out = denizen("odds goblin-caves 1 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("species,name,probability"));
    let rows: Vec<&str> = lines.collect();
    // Thirty ordinary species of difficulty 1 plus the chieftain.
    assert_eq!(rows.len(), 31);
    let mut total = 0.0;
    for row in &rows {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 3, "{row}");
        let index: u32 = fields[0].parse().unwrap();
        assert!(index < 150);
        let decimals = fields[2].split('.').nth(1).unwrap();
        assert!(decimals.len() >= 12, "{row}");
        let p: f64 = fields[2].parse().unwrap();
        assert!(p > 0.0, "rows with probability 0 are left out");
        total += p;
    }
    assert!((total - 1.0).abs() < 1e-9);
    assert!(rows.contains(&"40,goblin chieftain,0.090000000000000"));
    assert!(rows.iter().any(|r| r.starts_with("15,goblin,0.46139")));
}

#[test]
fn pool_and_population_tables() {
    let out = denizen("pool 0 --format csv");
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 9);
    assert!(text.starts_with("species,name,probability\n0,hornet,0.125098436269547\n"));

    let out = denizen("population volcano 16 --format csv");
    assert_eq!(
        stdout(&out),
        "count,probability\n31,0.333400000000000\n34,0.333300000000000\n37,0.333300000000000\n"
    );

    let out = denizen("odds astral 5 --format json");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["name"] == "archangel"));
    assert!(stdout(&denizen("odds sewers 3")).starts_with("Sewers, depth 3 (difficulty 3)"));
}

#[test]
fn simulate_prints_observed_and_expected_with_a_summary() {
    let out = denizen("simulate castle 16 --placements 50000 --seed 9 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("species,name,observed,expected\n"));
    let observed = observed_total(&text);
    assert_eq!(observed, 50_000);
    let err = stderr(&out);
    assert!(err.contains("chi-squared"), "{err}");
    assert!(err.contains("placements per second"), "{err}");
    let again = denizen("simulate castle 16 --placements 50000 --seed 9 --format csv");
    assert_eq!(stdout(&again), text, "same seed, same counts");
}

#[test]
fn bad_requests_exit_2_with_one_line() {
    for args in [
        "odds moon 1",
        "odds sewers 19",
        "odds goblin-caves 0",
        "population castle 17",
        "simulate atlantis 1 --placements 10",
    ] {
        let out = denizen(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("denizen: "), "{err}");
        assert!(out.stdout.is_empty());
    }
    // Arguments of the wrong shape are clap's to report (with a usage hint), also code 2.
    for args in [
        "pool -1",
        "pool hard",
        "odds sewers deep",
        "simulate sewers 1 --placements 10 --format json",
    ] {
        assert_eq!(denizen(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn a_broken_data_file_names_itself() {
    let dir = std::env::temp_dir().join(format!("denizen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.ron");
    std::fs::write(&path, "(band_count: 1, species: [").unwrap();
    let out = denizen(&format!("pool 1 --bestiary {}", path.display()));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("broken.ron:1:"), "{err}");
    let missing = denizen("--locations /nonexistent/places.ron pool 1");
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/nonexistent/places.ron"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn floor_prints_the_map_and_roster() {
    let out = denizen("floor goblin-caves 3 --seed 5");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[..32].iter().all(|l| l.chars().count() == 64),
        "a 64 x 32 map first"
    );
    assert!(
        lines[32].starts_with("# wall   . floor"),
        "the legend: {}",
        lines[32]
    );
    let roster = &lines[34..];
    assert_eq!(roster.len(), 11, "the caves place 11: {text}");
    assert!(
        roster
            .iter()
            .all(|l| l.contains("awake") || l.contains("asleep"))
    );
    assert_eq!(denizen("floor goblin-caves 11").status.code(), Some(2));
}

#[test]
fn sample_runs_floors_through_the_plugin() {
    let out = denizen("sample sewers 4 --floors 20 --seed 2 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("species,name,observed,expected\n"));
    let observed = observed_total(&text);
    assert_eq!(observed, 20 * 11, "sewers floors above depth 18 place 11");
    assert!(stderr(&out).contains("chi-squared"));
    let line = "sample sewers 4 --floors 2500 --seed 2 --format csv";
    assert_eq!(
        stdout(&denizen(&format!("{line} --threads 1"))),
        stdout(&denizen(&format!("{line} --threads 2"))),
        "the same floors on any number of threads"
    );
    assert_eq!(
        denizen("sample sewers 4 --floors 2 --format json")
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn encounters_lists_groups() {
    let out = denizen("encounters 0 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "group,type,cell_x,cell_y,size,speed,strength_min,strength_max,armature_max,skill_max,carries"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.len() > 10);
    for row in &rows {
        assert!(["2", "3", "12"].contains(&row[1]), "map 0 types: {row:?}");
    }
    assert_eq!(rows[0][10], "base map 0", "map 0 has one floor");
    assert!(stderr(&out).contains("groups from"));
    assert_eq!(denizen("encounters lots").status.code(), Some(2));
}

#[test]
fn wander_odds_and_countryside_tables() {
    let out = denizen("wander-odds astral --format csv");
    assert_eq!(
        stdout(&out),
        "depth,probability\n1,1.000000000000000\n2,1.000000000000000\n3,1.000000000000000\n\
         4,1.000000000000000\n5,1.000000000000000\n"
    );
    let caves = stdout(&denizen("wander-odds goblin-caves --format csv"));
    assert!(
        caves.contains("\n1,0.100000000000000\n") && caves.contains("\n10,0.400000000000000\n")
    );
    assert_eq!(denizen("wander-odds village").status.code(), Some(2));

    let plains = stdout(&denizen("odds countryside:plains 0 --format csv"));
    assert!(plains.starts_with("species,name,probability\n"));
    assert!(
        plains.contains("\n50,The Goblin King,"),
        "the wildcard reaches the Goblin King"
    );
    let sizes = stdout(&denizen("population countryside:tundra 0 --format csv"));
    assert_eq!(sizes.lines().count(), 12, "header and 11 sizes");
    assert!(sizes.contains("\n15,0.066660000000000\n"));
}

/// `denizen encounters <map> --seed S` prints exactly the groups the plugin spawns for
/// that map and seed (on the reference base floor, the first generation of the map).
#[test]
fn the_command_line_lists_what_the_plugin_spawns() {
    for (map, seed, floors) in [(0, 1, 1), (5, 7, 3), (37, 3, 3), (120, 11, 2)] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_denizen"))
            .args(["encounters", &map.to_string(), "--seed", &seed.to_string()])
            .args(["--floors", &floors.to_string(), "--format", "csv"])
            .output()
            .expect("the binary runs");
        assert!(output.status.success());
        let csv = String::from_utf8(output.stdout).unwrap();
        // Every column but the group's number (the plugin's groups have no order).
        let mut printed: Vec<Vec<String>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').skip(1).map(str::to_owned).collect())
            .collect();
        let mut app = App::new();
        app.add_plugins((DenizenPlugin::with_seed(seed), CaptivePlugin::default()));
        app.insert_resource(FloorMap(reference_base(WorldSeed(seed), map)));
        app.world_mut()
            .write_message(CaptiveFloorRequested::new(map, floors));
        app.update();
        let world = app.world_mut();
        let groups: Vec<(EncounterGroup, GridPos, Vec<Entity>)> = world
            .query::<(&EncounterGroup, &GridPos, &GroupMembers)>()
            .iter(world)
            .map(|(g, p, m)| (*g, *p, m.members().to_vec()))
            .collect();
        let mut spawned: Vec<Vec<String>> = groups
            .iter()
            .map(|(g, p, members)| {
                let stats: Vec<_> = members
                    .iter()
                    .map(|&m| world.get::<EncounterStats>(m).unwrap().0)
                    .collect();
                let strength = stats.iter().map(|s| s.strength);
                let carries = members
                    .iter()
                    .find_map(|&m| world.get::<Carries>(m))
                    .map_or("-".to_owned(), |c| match c.0 {
                        Carry::BaseMap { floor } => format!("base map {floor}"),
                        Carry::Clipboard { index } => format!("clipboard {index}"),
                        Carry::DoorClipboard { door } => format!("door {door} clipboard"),
                    });
                vec![
                    g.type_id.to_string(),
                    p.x.to_string(),
                    p.y.to_string(),
                    members.len().to_string(),
                    g.speed.to_string(),
                    strength.clone().min().unwrap().to_string(),
                    strength.max().unwrap().to_string(),
                    stats.iter().map(|s| s.armature).max().unwrap().to_string(),
                    stats.iter().map(|s| s.skill).max().unwrap().to_string(),
                    carries,
                ]
            })
            .collect();
        assert!(
            spawned.iter().any(|row| row[9] != "-"),
            "map {map}: some group carries something"
        );
        assert!(!printed.is_empty(), "map {map}");
        printed.sort();
        spawned.sort();
        assert_eq!(printed, spawned, "map {map}, seed {seed}");
    }
}

/// Runs the binary with a watchdog: a run past 60 seconds is killed and fails the test
/// (the inputs below once ran for hours).
fn denizen_within(args: &[&str]) -> Output {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("denizen {args:?} still runs after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    child.stderr.take().unwrap().read_to_end(&mut err).unwrap();
    Output {
        status,
        stdout: out,
        stderr: err,
    }
}

/// Every input that once aborted, hung or wrapped (`tests/reliability/`) ends with exit
/// code 2 and one line naming the file, the entry and the field; the legal ones answer.
#[test]
fn every_regression_input_ends_with_a_clear_answer() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reliability");
    let file = |name: &str| format!("{dir}/{name}");
    let small = file("small.locations.ron");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "pool".into(),
                "1".into(),
                "--locations".into(),
                file("stack_overflow_formula.locations.ron"),
            ],
            "field `default_difficulty`: cannot read formula",
        ),
        (
            vec![
                "pool".into(),
                "1".into(),
                "--locations".into(),
                file("stack_overflow_formula_chain.locations.ron"),
            ],
            "formulas have at most 1000",
        ),
        (
            vec![
                "pool".into(),
                "1".into(),
                "--locations".into(),
                file("abort_depths_u32max.locations.ron"),
            ],
            "environments[0] \"d\": field `dungeon.depths`",
        ),
        (
            vec![
                "pool".into(),
                "1".into(),
                "--locations".into(),
                file("slow_depths_1e7.locations.ron"),
            ],
            "field `dungeon.depths`: 10000000 levels",
        ),
        (
            vec![
                "floor".into(),
                "c".into(),
                "1".into(),
                "--locations".into(),
                file("abort_population_base.locations.ron"),
            ],
            "field `population`",
        ),
        (
            vec![
                "sample".into(),
                "c".into(),
                "1".into(),
                "--floors".into(),
                "5".into(),
                "--locations".into(),
                file("abort_population_base.locations.ron"),
            ],
            "field `population`",
        ),
        (
            vec![
                "floor".into(),
                "d".into(),
                "1".into(),
                "--locations".into(),
                file("hang_population_difficulty.locations.ron"),
            ],
            "field `difficulty`: gives 1000000000",
        ),
        (
            vec![
                "population".into(),
                "d".into(),
                "1".into(),
                "--locations".into(),
                file("hang_population_difficulty.locations.ron"),
            ],
            "field `difficulty`",
        ),
        (
            vec![
                "--locations".into(),
                file("hang_population_difficulty.locations.ron"),
                "spoiler".into(),
                "--out".into(),
                std::env::temp_dir()
                    .join("denizen-never-written")
                    .display()
                    .to_string(),
            ],
            "field `difficulty`",
        ),
        (
            vec![
                "population".into(),
                "c".into(),
                "1".into(),
                "--locations".into(),
                file("hang_population_steps.locations.ron"),
            ],
            "field `population`",
        ),
        (
            vec![
                "population".into(),
                "d".into(),
                "1".into(),
                "--locations".into(),
                file("wrap_population_bonus.locations.ron"),
            ],
            "field `dungeon.population_bonus`",
        ),
        (
            vec![
                "floor".into(),
                "d".into(),
                "1".into(),
                "--bestiary".into(),
                file("abort_treasure_max.bestiary.ron"),
                "--locations".into(),
                small.clone(),
            ],
            "species[0] \"hornet\": field `treasure`",
        ),
        (
            vec![
                "floor".into(),
                "d".into(),
                "1".into(),
                "--bestiary".into(),
                file("hang_objects_unreachable.bestiary.ron"),
                "--locations".into(),
                small.clone(),
            ],
            "objects[1]: field `weight`: Food can never be drawn",
        ),
    ];
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = denizen_within(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{dir}/")),
            "{args:?} names the file: {err}"
        );
    }
    assert!(!std::env::temp_dir().join("denizen-never-written").exists());
    // The legal inputs load and answer (the possessions the reachable weights make are
    // checked in the Omega crate's `limits` tests: a floor of them is slow in a debug build).
    let ok = denizen_within(&[
        "odds",
        "d",
        "1",
        "--bestiary",
        &file("ok_objects_reachable.bestiary.ron"),
        "--locations",
        &small,
    ]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    assert!(stdout(&ok).contains("hornet"));
    let pool = denizen_within(&["pool", "1", "--locations", &small]);
    assert_eq!(pool.status.code(), Some(0), "{}", stderr(&pool));
}

/// Counts that would run for years are refused with clap's own message.
#[test]
fn counts_past_their_bounds_are_argument_errors() {
    let out = denizen("simulate sewers 3 --placements 1000000000000000000");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("1..=100000000"), "{}", stderr(&out));
    let out = denizen("sample sewers 3 --floors 4294967295");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("1..=1000000"), "{}", stderr(&out));
}

/// A standard error that cannot be written (here a full device) never makes the binary
/// panic and never changes its exit code: the answer on standard output is whole, the
/// error of bad input is still an error.
#[test]
fn a_full_standard_error_gives_the_exit_code_without_a_panic() {
    let Ok(full) = std::fs::File::create("/dev/full") else {
        return; // Only systems with /dev/full can check this.
    };
    for line in [
        "odds nowhere 1",
        "simulate sewers 3 --placements 100",
        "population sewers 3",
    ] {
        let status = Command::new(env!("CARGO_BIN_EXE_denizen"))
            .args(line.split_whitespace())
            .stdout(std::process::Stdio::null())
            .stderr(full.try_clone().unwrap())
            .status()
            .unwrap();
        let expected = if line.starts_with("odds") { 2 } else { 0 };
        assert_eq!(status.code(), Some(expected), "{line}");
    }
}

/// Only a regular file of at most 16 MiB is read as data: a device that never ends, a
/// pipe with no writer (which would block the read for ever), a folder and an oversized
/// file each end at once with exit code 2 and one line naming the path.
#[cfg(unix)]
#[test]
fn only_regular_files_are_read_as_data() {
    let dir = std::env::temp_dir().join(format!("denizen-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe.ron");
    let made_fifo = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let big = dir.join("big.ron");
    std::fs::write(&big, vec![b' '; 16 * 1024 * 1024 + 1]).unwrap();
    let mut cases = vec![
        (
            "pool 1 --bestiary /dev/zero".to_owned(),
            "not a regular file",
        ),
        (
            format!("pool 1 --locations {}", dir.display()),
            "not a regular file",
        ),
        (
            format!("pool 1 --locations {}", big.display()),
            "larger than",
        ),
        (
            format!("angband alloc 1 --races {}", big.display()),
            "larger than",
        ),
    ];
    if made_fifo {
        cases.push((
            format!("angband objects 1 --objects {}", fifo.display()),
            "not a regular file",
        ));
    }
    for (line, expected) in &cases {
        let out = denizen_within(&line.split_whitespace().collect::<Vec<_>>());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{line}: {err}");
        assert_eq!(err.lines().count(), 1, "{line}: {err}");
        assert!(err.contains(expected), "{line}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each command offers and accepts only the options it reads: Omega's data files are
/// refused by Angband's and Captive's commands, and not offered in their help.
#[test]
fn omega_data_files_belong_to_omega_commands() {
    for line in [
        "--bestiary /nonexistent angband alloc 1",
        "--locations /nonexistent encounters 1",
        "encounters 1 --locations /nonexistent",
        "angband alloc 1 --bestiary /nonexistent",
    ] {
        let out = denizen(line);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert_eq!(stderr(&out).lines().next().map(str::is_empty), Some(false));
    }
    for help in [
        "angband --help",
        "angband alloc --help",
        "encounters --help",
    ] {
        let text = stdout(&denizen(help));
        assert!(
            !text.contains("--bestiary") && !text.contains("--locations"),
            "{help}"
        );
    }
    for help in ["--help", "pool --help", "sample --help", "spoiler --help"] {
        assert!(stdout(&denizen(help)).contains("--bestiary"), "{help}");
    }
}

/// `denizen` run by the shell with its standard output redirected as `redirect` says,
/// its standard error captured.
#[cfg(unix)]
fn denizen_redirected(args: &str, redirect: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" {args} {redirect}"))
        .arg(env!("CARGO_BIN_EXE_denizen"))
        .output()
        .expect("the shell runs")
}

/// An answer that cannot be written is an error: a full standard output ends with exit
/// code 2 and one line saying so, help and the version included. Output thrown away on
/// purpose (`> /dev/null`) is a success, and a command that writes nothing to standard
/// output (`spoiler`) does not care.
#[cfg(unix)]
#[test]
fn an_answer_that_cannot_be_written_is_an_error() {
    let spoilers = std::env::temp_dir().join(format!("denizen-closed-{}", std::process::id()));
    let spoiler = format!("spoiler --out {}", spoilers.display());
    let cases = [
        ("angband alloc 1", "> /dev/full", 2),
        ("--version", "> /dev/full", 2),
        ("--help", "> /dev/full", 2),
        ("angband --help", "> /dev/full", 2),
        ("odds goblin-caves 1", "> /dev/full", 2),
        ("odds goblin-caves 1", "> /dev/null", 0),
        (spoiler.as_str(), "> /dev/full", 0),
    ];
    for (args, redirect, code) in cases {
        if redirect.contains("/dev/full") && !std::path::Path::new("/dev/full").exists() {
            continue;
        }
        let out = denizen_redirected(args, redirect);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{args} {redirect}: {err}");
        if code == 2 {
            assert_eq!(err.lines().count(), 1, "{args} {redirect}: {err}");
            assert!(err.contains("standard output"), "{args} {redirect}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&spoilers);
}

/// Text from the command line is echoed quoted, escaped and cut: a name holding a
/// newline cannot add a line of its own to the error, and a name 100,000 characters
/// long gives a short one.
#[test]
fn echoed_arguments_stay_on_one_short_line() {
    let long = "x".repeat(100_000);
    for name in ["goblin\ninjected: line", "tab\there", &long] {
        for args in [
            vec!["odds", name, "1"],
            vec!["wander-odds", name],
            // Values clap itself refuses, which it would echo raw in its message.
            vec!["encounters", "1", "--special", name],
            vec!["odds", "sewers", name],
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_denizen"))
                .args(&args)
                .output()
                .unwrap();
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.len() < 1_000, "{} bytes", err.len());
        }
    }
}

/// `spoiler --out` writes every file or none: a folder where a page should go stops it
/// before any file is written, and no staging folder is left behind.
#[test]
fn spoilers_are_written_all_or_none() {
    let root = std::env::temp_dir().join(format!("denizen-spoilers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let fresh = root.join("fresh");
    let out = denizen(&format!("spoiler --out {}", fresh.display()));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_dir(&fresh).unwrap().count();
    assert!(written >= 6, "{written} files");

    let blocked = root.join("blocked");
    std::fs::create_dir_all(blocked.join("README.md")).unwrap();
    let out = denizen(&format!("spoiler --out {}", blocked.display()));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is a folder; nothing was written"),
        "{}",
        stderr(&out)
    );
    let left: Vec<_> = std::fs::read_dir(&blocked).unwrap().collect();
    assert_eq!(left.len(), 1, "only the folder that was there");
    let staging = std::fs::read_dir(&root)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains("partial")
        })
        .count();
    assert_eq!(staging, 0);

    // A dungeon called `readme` would overwrite the index where case is ignored.
    let places = root.join("places.ron");
    std::fs::write(
        &places,
        r#"(default_difficulty: "3", environments: [(key: "readme", name: "r",
            dungeon: Some((depths: 1, population_bonus: 0, recipe: Pool)))])"#,
    )
    .unwrap();
    let clash = root.join("clash");
    let out = denizen_within(&[
        "--locations",
        &places.display().to_string(),
        "spoiler",
        "--out",
        &clash.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("two spoiler pages would be called README.md"),
        "{}",
        stderr(&out)
    );
    assert!(!clash.exists());
    std::fs::remove_dir_all(&root).unwrap();
}

/// `denizen arena`: the Champion a new game's arena sends at counter 16 to a player of
/// rank 1 (source notes, section 13, with the shipped hall of fame's Champion, Spartacus of
/// level 10): template 8 (Hiscore NPC), shown level 20, hp 500 + 200, hit 2 x 40, ac 30,
/// damage 120 + 60, speed 3, experience 500.
#[test]
fn the_arena_command_prints_the_champion() {
    let out = denizen("arena 16 --rank 1 --format csv");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "name,species,level,hp,hit,ac,damage,speed,experience\n\
         Spartacus,8,20,700,80,30,180,3,500\n"
    );
    // Opponent 3 is a goblin (template 15: level 1, hp 8, hit 10, ac 8, damage 8, speed
    // 5, experience 10) with the arena's changes: hp 8 + 10, hit 20, damage 12.
    let out = denizen("arena 3 --format csv");
    let row = stdout(&out).lines().nth(1).unwrap().to_owned();
    assert!(row.ends_with(",15,1,18,20,8,12,5,10"), "{row}");
    assert!(row.contains(" the goblin,"), "{row}");
}

/// `denizen encounters` takes the generator's two settings; Captive's 16-bit strength
/// changes what late maps print.
#[test]
fn encounters_take_overflow_and_growth() {
    let plain = stdout(&denizen("encounters 58 --format csv"));
    for setting in ["--overflow wrap", "--growth prose"] {
        let changed = denizen(&format!("encounters 58 {setting} --format csv"));
        assert_eq!(changed.status.code(), Some(0), "{}", stderr(&changed));
        assert_ne!(stdout(&changed), plain, "{setting}");
    }
    assert_eq!(
        denizen("encounters 58 --overflow sometimes").status.code(),
        Some(2)
    );
}

/// `denizen encounters --special`: the special stages' groups come first, with their
/// types (31, 6, 8) and items (the prisoner a base map, a door guard its door's
/// clipboard, the dead-end stage a running clipboard number), on the cells given (the
/// regular groups' cells of the same map without specials, all floor).
#[test]
fn encounters_place_special_groups_first() {
    let out = denizen(
        "encounters 10 --floors 1 --special prisoner@56,4 --special door-3@45,20 \
         --special dead-end@57,15 --special dead-end@26,11 --format csv",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows: Vec<Vec<String>> = stdout(&out)
        .lines()
        .skip(1)
        .take(5)
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    let summary: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|r| (r[1].as_str(), r[2].as_str(), r[3].as_str(), r[10].as_str()))
        .collect();
    assert_eq!(
        summary[..4],
        [
            ("31", "56", "4", "base map 0"),
            ("6", "45", "20", "door 3 clipboard"),
            ("8", "57", "15", "clipboard 0"),
            ("8", "26", "11", "clipboard 1"),
        ]
    );
    assert_eq!(summary[4].3, "-", "the base's one map is taken");
    // A cell off the floor or on a wall is refused whole: nothing is listed.
    for cell in ["4294967295,4294967295", "0,0"] {
        let out = denizen(&format!(
            "encounters 10 --special prisoner@56,4 --special dead-end@{cell}"
        ));
        assert_eq!(out.status.code(), Some(2), "{cell}");
        assert!(stdout(&out).is_empty(), "{cell}");
        assert!(
            stderr(&out).contains("special stage 1 at"),
            "{}",
            stderr(&out)
        );
    }
    let bad = denizen("encounters 10 --special door-9@1,1");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("door-N@X,Y (N 0-7)"),
        "{}",
        stderr(&bad)
    );
}

/// `denizen floor temple 1 --deity 3`: every angel of the temple serves Athena (deity 3);
/// a deity the bestiary does not have is an error.
#[test]
fn a_temple_floor_serves_its_deity() {
    let mut angels = 0;
    for seed in 1..=8 {
        let out = denizen(&format!("floor temple 1 --deity 3 --seed {seed}"));
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        for line in stdout(&out).lines().filter(|l| l.contains("angel")) {
            angels += 1;
            assert!(line.contains("angel of Athena"), "{line}");
        }
    }
    assert!(angels > 0, "the temple's floors hold angels");
    let out = denizen("floor temple 1 --deity 9");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("deities 1 to 6"), "{}", stderr(&out));
}

/// `denizen angband ... --format csv` parsed into rows of fields (names may be quoted).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip(1)
        .map(|line| {
            let mut fields = Vec::new();
            let mut field = String::new();
            let mut quoted = false;
            for c in line.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => fields.push(std::mem::take(&mut field)),
                    c => field.push(c),
                }
            }
            fields.push(field);
            fields
        })
        .collect()
}

#[test]
fn angband_alloc_prints_every_drawable_race_with_its_exact_odds() {
    let out = denizen("angband alloc 20 --depth 10 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("race,name,probability"));
    let rows = csv_rows(&text);
    let mut total = 0.0;
    let mut previous = 0;
    for row in &rows {
        let race: u32 = row[0].parse().unwrap();
        assert!((1..=547).contains(&race) && race > previous, "race {race}");
        previous = race;
        let decimals = row[2].split('.').nth(1).unwrap().len();
        assert!(decimals >= 12, "{}", row[2]);
        let p: f64 = row[2].parse().unwrap();
        assert!(p > 0.0, "zero rows are left out");
        total += p;
    }
    assert!((total - 1.0).abs() < 1e-9);
    // Grip (level 2, a unique) is drawable at level 20; the town is not.
    assert!(rows.iter().any(|r| r[1] == "Grip, Farmer Maggot's dog"));
    assert!(!rows.iter().any(|r| r[1] == "Filthy street urchin"));
    // Nothing deeper than the level after both boosts: 20 + 5, then 25 + 5.
    let races = denizen_angband::Races::shipped();
    for row in &rows {
        let race = races
            .get(denizen_angband::RaceId(row[0].parse().unwrap()))
            .unwrap();
        assert!(race.level <= 30 && race.level >= 1, "{}", race.name);
    }
}

#[test]
fn angband_alloc_in_the_town_weighs_by_rarity_alone() {
    // At level 0 the pick is uniform over the 14 town races, each kept one time in its
    // rarity: the odds are proportional to 1/rarity.
    let races = denizen_angband::Races::shipped();
    let town: Vec<_> = races.all().iter().filter(|r| r.level == 0).collect();
    let sum: f64 = town.iter().map(|r| 1.0 / f64::from(r.rarity)).sum();
    let out = denizen("angband alloc 0 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = csv_rows(&stdout(&out));
    assert_eq!(rows.len(), 14);
    for (row, race) in rows.iter().zip(&town) {
        assert_eq!(row[1], race.name);
        let p: f64 = row[2].parse().unwrap();
        assert!((p - 1.0 / f64::from(race.rarity) / sum).abs() < 1e-12);
    }
}

/// `denizen angband objects`: the odds of one object draw sum to one, and at level 5
/// potions take 15.6% and scrolls 13.8% (object notes 3.2); in the town (level 0) the 22
/// level-0 entries are picked uniformly and kept one time in their chance.
#[test]
fn angband_objects_prints_the_exact_odds_of_one_object_draw() {
    let out = denizen("angband objects 5 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(
        text.lines().next(),
        Some("kind,name,tval,kind_level,probability")
    );
    let rows = csv_rows(&text);
    let share = |tval: &str| -> f64 {
        rows.iter()
            .filter(|r| r[2] == tval)
            .map(|r| r[4].parse::<f64>().unwrap())
            .sum()
    };
    let total: f64 = rows.iter().map(|r| r[4].parse::<f64>().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert!(
        (share("75") - 0.156).abs() < 0.0005,
        "potions {}",
        share("75")
    );
    assert!(
        (share("70") - 0.138).abs() < 0.0005,
        "scrolls {}",
        share("70")
    );
    // Names read as a list's: no article, no plural mark.
    assert!(rows.iter().any(|r| r[1] == "Ration of Food"), "{text}");
    assert!(rows.iter().all(|r| !r[1].contains(['&', '~'])));
    // All 22 town entries have chance 1: each is one pick in 22.
    let town = csv_rows(&stdout(&denizen("angband objects 0 --format csv")));
    assert_eq!(town.len(), 22);
    assert!(
        town.iter()
            .all(|r| (r[4].parse::<f64>().unwrap() - 1.0 / 22.0).abs() < 1e-12)
    );
    let good = csv_rows(&stdout(&denizen("angband objects 30 --good --format csv")));
    let kinds = denizen_angband::ObjectKinds::shipped();
    assert!(good.iter().all(|r| {
        kinds
            .get(denizen_angband::KindId(r[0].parse().unwrap()))
            .unwrap()
            .is_good()
    }));
    let broken = denizen("angband objects 5 --objects /nonexistent/objects.ron");
    assert_eq!(broken.status.code(), Some(2));
    assert!(stderr(&broken).contains("/nonexistent/objects.ron"));
}

/// `denizen angband sample`: one `figure,mean,sd` row per figure, the feeling shares
/// without a deviation and summing to one, and the same output on one thread as on two.
#[test]
fn angband_sample_prints_every_figure_the_same_on_any_number_of_threads() {
    let line = "angband sample 20 --levels 40 --seed 3 --format csv";
    let one = denizen(&format!("{line} --threads 1"));
    let two = denizen(&format!("{line} --threads 2"));
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
    let text = stdout(&one);
    assert_eq!(text.lines().next(), Some("figure,mean,sd"));
    let rows = csv_rows(&text);
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, denizen_angband::sample::FIGURES);
    let value = |name: &str| -> f64 {
        rows.iter().find(|r| r[0] == name).unwrap()[1]
            .parse()
            .unwrap()
    };
    assert_eq!(value("builds"), 1.0, "the autoscummer is off");
    let feelings: f64 = (0..=10).map(|k| value(&format!("feeling_{k}"))).sum();
    assert!((feelings - 1.0).abs() < 1e-9);
    assert!(
        rows.iter()
            .filter(|r| r[0].starts_with("feeling_"))
            .all(|r| r[2].is_empty())
    );
    let always = stdout(&denizen(
        "angband sample 20 --levels 40 --seed 3 --autoscum always --format csv",
    ));
    let builds: f64 = csv_rows(&always)[0][1].parse().unwrap();
    assert!(builds > 1.0, "always throws some levels away: {builds}");
    let refused = denizen("angband sample 20 --levels 0");
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn angband_rooms_prints_the_first_choice_of_an_attempt() {
    let out = denizen("angband rooms 1 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("kind,probability"));
    let rows = csv_rows(&text);
    let kinds: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        kinds,
        [
            "greater_vault",
            "lesser_vault",
            "pit",
            "nest",
            "large",
            "cross",
            "overlap",
            "simple"
        ]
    );
    let p = |rows: &[Vec<String>], kind: &str| -> f64 {
        rows.iter().find(|r| r[0] == kind).unwrap()[1]
            .parse()
            .unwrap()
    };
    // Depth 1: an unusual room (1 in 200) can only be an overlapping one.
    assert!((p(&rows, "overlap") - 0.005).abs() < 1e-15);
    assert!((p(&rows, "simple") - 0.995).abs() < 1e-15);
    // Depth 30, any level: 1 in 15 levels is destroyed (simple rooms only); otherwise
    // unusual 30/200, and a greater vault needs the special roll (30/200) and k < 10.
    let rows = csv_rows(&stdout(&denizen("angband rooms 30 --format csv")));
    let intact = 14.0 / 15.0;
    assert!((p(&rows, "greater_vault") - intact * 0.15 * 0.15 * 0.10).abs() < 1e-15);
    assert!((p(&rows, "simple") - (1.0 / 15.0 + intact * 0.85)).abs() < 1e-12);
    let rows = csv_rows(&stdout(&denizen("angband rooms 30 --intact --format csv")));
    assert!((p(&rows, "greater_vault") - 0.15 * 0.15 * 0.10).abs() < 1e-15);
    let out = denizen("angband rooms 0");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn angband_nest_and_pit_commands_print_their_exact_odds() {
    let out = denizen("angband draw-odds pit-orc 10 --format csv");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("race,name,probability"));
    // The allocation notes' worked example, Uruk 23.1%.
    let uruk = csv_rows(&text)
        .into_iter()
        .find(|r| r[1] == "Uruk")
        .unwrap();
    assert!((uruk[2].parse::<f64>().unwrap() - 0.231).abs() < 0.0005);

    let text = stdout(&denizen("angband pit-rings pit-troll 30 --format csv"));
    assert_eq!(text.lines().next(), Some("ring,race,name,probability"));
    let rows = csv_rows(&text);
    for ring in 0..8 {
        let total: f64 = rows
            .iter()
            .filter(|r| r[0] == ring.to_string())
            .map(|r| r[3].parse::<f64>().unwrap())
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "ring {ring}: {total}");
    }
    assert_eq!(
        denizen("angband pit-rings nest-jelly 30").status.code(),
        Some(2)
    );

    // The spoiler's feeling tables: 92.0% at 18 for nests, 99.5% at 60 for vaults.
    let text = stdout(&denizen("angband feeling-odds nest --format csv"));
    assert_eq!(text.lines().next(), Some("depth,probability"));
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 127);
    assert!((rows[17][1].parse::<f64>().unwrap() - 0.92).abs() < 1e-12);
    assert_eq!(rows[40][1].parse::<f64>().unwrap(), 0.0);
    let rows = csv_rows(&stdout(&denizen(
        "angband feeling-odds greater-vault --format csv",
    )));
    assert!((rows[59][1].parse::<f64>().unwrap() - 399.0 / 401.0).abs() < 1e-12);

    let text = stdout(&denizen("angband kinds pit 100 --format csv"));
    assert_eq!(text.lines().next(), Some("kind,probability"));
    let rows = csv_rows(&text);
    assert_eq!(rows[0], ["pit-orc", "0.190000000000000"]);
    assert_eq!(rows[9], ["pit-demon", "0.210000000000000"]);
    let rows = csv_rows(&stdout(&denizen("angband kinds nest 30 --format csv")));
    let kinds: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(kinds, ["nest-jelly", "nest-animal"]);
}

#[test]
fn angband_alloc_names_a_broken_race_file() {
    let dir = std::env::temp_dir().join(format!("denizen-races-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("races.ron");
    std::fs::write(&path, "(races: [(index: 1, name: \"Rat\")])").unwrap();
    let out = denizen(&format!("angband alloc 5 --races {}", path.display()));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("races.ron") && err.lines().count() == 1,
        "{err}"
    );
    let out = denizen("angband alloc 5 --races /no/such/races.ron");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/no/such/races.ron"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C during a long run ends it with exit code 130 and one line on standard error, and
/// nothing of its answer on standard output. (Each run takes far longer than the second
/// the test waits: minutes in a test build, and seconds even optimised.)
#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_long_run_with_130_and_writes_nothing() {
    for line in [
        "sample goblin-caves 1 --floors 1000000",
        "simulate astral 5 --placements 100000000",
        "angband sample 30 --levels 1000000",
    ] {
        let child = Command::new(env!("CARGO_BIN_EXE_denizen"))
            .args(line.split_whitespace())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Long enough for the handler, set right after the arguments are read.
        std::thread::sleep(std::time::Duration::from_millis(1_000));
        let signalled = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(signalled.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{line}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{line}");
        assert_eq!(
            stderr(&out),
            "denizen: interrupted: nothing was written\n",
            "{line}"
        );
    }
}
