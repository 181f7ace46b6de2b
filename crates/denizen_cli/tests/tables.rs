//! `denizen tables` as a user runs it on the starter bestiary: odds and samples that agree,
//! the same figures on any number of threads, a floor, the lint, a chart, clear errors.

use std::path::PathBuf;
use std::process::{Command, Output};

#[path = "tables/designing.rs"]
mod designing;

/// The starter bestiary's two files.
fn starter() -> String {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../denizen_tables/data");
    format!(
        "{} {}",
        data.join("starter.tables.ron").display(),
        data.join("starter_mod.tables.ron").display()
    )
}

/// Runs `denizen tables` with the words of a command line, `FILES` standing for the
/// starter's files.
fn tables(line: &str) -> Output {
    let line = line.replace("FILES", &starter());
    Command::new(env!("CARGO_BIN_EXE_denizen"))
        .arg("tables")
        .args(line.split_whitespace())
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The rows of a CSV after its header, split.
fn rows(csv: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(header));
    lines
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

/// At every depth of the starter's floors, `sample` (4,000 floors) agrees with `odds`
/// per floor: every species' mean within 5 standard errors of its exact expected count.
#[test]
fn sample_agrees_with_odds_at_every_depth() {
    for depth in 1..=20 {
        let odds = rows(
            &stdout(&tables(&format!("odds FILES --depth {depth} --format csv"))),
            "species,expected,danger",
        );
        let sample = rows(
            &stdout(&tables(&format!(
                "sample FILES --depth {depth} --floors 4000 --seed 8 --format csv"
            ))),
            "species,mean,sd",
        );
        assert_eq!(odds.len(), sample.len());
        let mut keys: Vec<&String> = odds.iter().map(|r| &r[0]).collect();
        assert!(keys.is_sorted(), "species by key");
        keys.dedup();
        assert_eq!(keys.len(), odds.len());
        for (o, s) in odds.iter().zip(&sample) {
            assert_eq!(o[0], s[0]);
            let expected: f64 = o[1].parse().unwrap();
            let (mean, sd): (f64, f64) = (s[1].parse().unwrap(), s[2].parse().unwrap());
            let se = sd / 4000f64.sqrt();
            assert!(
                (mean - expected).abs() <= 5.0 * se.max(0.002),
                "depth {depth}, {}: sampled {mean} (sd {sd}), exact {expected}",
                o[0]
            );
        }
    }
}

/// Each species' mean over 4,000 sampled floors and its exact expected count, by key,
/// for the words after `FILES --depth 8`.
fn sampled_and_exact(words: &str) -> Vec<(String, f64, f64, f64)> {
    let odds = rows(
        &stdout(&tables(&format!(
            "odds FILES --depth 8 {words} --format csv"
        ))),
        "species,expected,danger",
    );
    let sample = rows(
        &stdout(&tables(&format!(
            "sample FILES --depth 8 --floors 4000 --seed 8 {words} --format csv"
        ))),
        "species,mean,sd",
    );
    odds.iter()
        .zip(&sample)
        .map(|(o, s)| {
            assert_eq!(o[0], s[0]);
            let se = s[2].parse::<f64>().unwrap() / 4000f64.sqrt();
            let (mean, exact) = (s[1].parse().unwrap(), o[1].parse().unwrap());
            (o[0].clone(), mean, se, exact)
        })
        .collect()
}

/// Under three contexts of the starter (night; winter; winter during the fair) `sample`
/// agrees with `odds`: every species' mean within 5 standard errors of its exact count.
/// The night brings glimmer bats, winter rime crawlers, the fair mummers and no rime
/// crawlers; a rule that ignored `none` (the crawlers' figure of winter alone, during the
/// fair) is rejected by the same bound.
#[test]
fn sample_agrees_with_odds_under_contexts_and_rejects_none_ignored() {
    let within = |(key, mean, se, exact): &(String, f64, f64, f64)| {
        (mean - exact).abs() <= 5.0 * se.max(0.002) || panic!("{key}: {mean} against {exact}")
    };
    let of = |figures: &[(String, f64, f64, f64)], key: &str| {
        figures.iter().find(|f| f.0 == key).unwrap().clone()
    };
    let night = sampled_and_exact("--when night");
    assert!(night.iter().all(within));
    assert!(of(&night, "glimmer_bat").3 > 0.5);
    assert_eq!(of(&night, "rime_crawler").3, 0.0);
    let winter = sampled_and_exact("--when winter");
    assert!(winter.iter().all(within));
    let crawlers = of(&winter, "rime_crawler").3;
    assert!(crawlers > 0.3, "{crawlers}");
    let fair = sampled_and_exact("--when winter,festival");
    assert!(fair.iter().all(within));
    assert!(of(&fair, "lantern_mummer").3 > 0.3);
    let (_, mean, se, exact) = of(&fair, "rime_crawler");
    assert_eq!((mean, exact), (0.0, 0.0));
    assert!((mean - crawlers).abs() > 5.0 * se.max(0.002));
}

/// A flag or an integer the files do not declare is refused in one line before anything
/// runs; `--set` without a value is an argument error.
#[test]
fn an_undeclared_context_is_refused_by_name() {
    for (line, expected) in [
        (
            "odds FILES --depth 3 --when dusk",
            "denizen: context: flag `dusk` is not declared by the bestiary's `context`\n",
        ),
        (
            "sample FILES --depth 3 --floors 10 --set difficulty=2",
            "denizen: context: integer `difficulty` is not declared by the bestiary's `context`\n",
        ),
    ] {
        let out = tables(line);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), expected, "{line}");
    }
    let out = tables("floor FILES --depth 3 --set difficulty");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("expected NAME=VALUE, such as difficulty=3"),
        "{err}"
    );
}

/// The `danger` column is each species' cost times its expected count (the sunkenbough
/// costs 8, a vole 1, the reed midges nothing), and the title gives their sum.
#[test]
fn odds_give_each_species_share_of_the_expected_danger() {
    let csv = stdout(&tables("odds FILES --depth 8 --format csv"));
    let rows = rows(&csv, "species,expected,danger");
    let figure = |key: &str| {
        let row = rows.iter().find(|r| r[0] == key).unwrap();
        (
            row[1].parse::<f64>().unwrap(),
            row[2].parse::<f64>().unwrap(),
        )
    };
    for (key, cost) in [
        ("sunkenbough", 8.0),
        ("pallid_newt", 1.0),
        ("reed_midges", 0.0),
    ] {
        let (expected, danger) = figure(key);
        assert!(expected > 0.0, "{key}");
        assert!((danger - cost * expected).abs() < 1e-9, "{key}: {danger}");
    }
    let total: f64 = rows.iter().map(|r| r[2].parse::<f64>().unwrap()).sum();
    let text = stdout(&tables("odds FILES --depth 8"));
    let title = text.lines().next().unwrap();
    let said = title.split("expected danger ").nth(1).unwrap();
    let said: f64 = said.split(' ').next().unwrap().parse().unwrap();
    assert!((said - total).abs() < 1e-3, "{title}: {total}");
}

/// `odds --danger` gives the chance of each danger a floor can have: the chances sum to
/// 1, their mean is the expected danger of `odds`, and the quantiles `odds` names are
/// the least dangers whose chance of at most them reaches 5%, 50% and 95%.
#[test]
fn odds_give_the_danger_distribution_and_its_quantiles() {
    let csv = stdout(&tables("odds FILES --depth 8 --danger --format csv"));
    let rows: Vec<(u32, f64, f64)> = rows(&csv, "danger,chance,at_most")
        .into_iter()
        .map(|r| {
            (
                r[0].parse().unwrap(),
                r[1].parse().unwrap(),
                r[2].parse().unwrap(),
            )
        })
        .collect();
    let total: f64 = rows.iter().map(|r| r.1).sum();
    assert!((total - 1.0).abs() < 1e-6, "{total}");
    let mean: f64 = rows.iter().map(|r| f64::from(r.0) * r.1).sum();
    let text = stdout(&tables("odds FILES --depth 8"));
    let title = text.lines().next().unwrap();
    let said = title.split("expected danger ").nth(1).unwrap();
    let said: f64 = said.split(' ').next().unwrap().parse().unwrap();
    assert!((said - mean).abs() < 1e-3, "{title}: {mean}");
    let quantile = |q: f64| rows.iter().find(|r| r.2 >= q - 1e-6).unwrap().0;
    let named = format!(
        "(5%, 50%, 95%: {}, {}, {})",
        quantile(0.05),
        quantile(0.5),
        quantile(0.95)
    );
    assert!(title.ends_with(&named), "{title}: {named}");
}

#[test]
fn sample_gives_the_same_figures_on_any_number_of_threads() {
    let one = stdout(&tables(
        "sample FILES --depth 9 --floors 9000 --threads 1 --format csv",
    ));
    let three = stdout(&tables(
        "sample FILES --depth 9 --floors 9000 --threads 3 --format csv",
    ));
    assert_eq!(one, three);
    let night = |threads: u32| {
        stdout(&tables(&format!(
            "sample FILES --depth 9 --floors 9000 --threads {threads} --when night,festival --format csv"
        )))
    };
    assert_eq!(night(1), night(3));
    assert_ne!(night(1), one);
    // The budgeted branch, its species and its dangers.
    let deeps = |threads: u32, danger: &str| {
        stdout(&tables(&format!(
            "sample FILES --depth 17 --floors 9000 --threads {threads} --branch foundry_deeps {danger} --format csv"
        )))
    };
    assert_eq!(deeps(1, ""), deeps(3, ""));
    assert_eq!(deeps(1, "--danger"), deeps(3, "--danger"));
    // The branch dealt from a bag, in a context.
    let warrens = |threads: u32| {
        stdout(&tables(&format!(
            "sample FILES --depth 6 --floors 9000 --threads {threads} --branch warrens --when night --format csv"
        )))
    };
    assert_eq!(warrens(1), warrens(3));
    let other_seed = stdout(&tables(
        "sample FILES --depth 9 --floors 9000 --seed 2 --format csv",
    ));
    assert_ne!(one, other_seed);
}

#[test]
fn odds_per_placement_bring_at_least_one_creature() {
    let placement = rows(
        &stdout(&tables("odds FILES --depth 3 --per placement --format csv")),
        "species,expected,danger",
    );
    let total: f64 = placement.iter().map(|r| r[1].parse::<f64>().unwrap()).sum();
    assert!(
        total >= 1.0,
        "a placement brings at least one creature: {total}"
    );
    let text = stdout(&tables("odds FILES --depth 3"));
    assert!(text.starts_with(
        "Expected count of each species per floor from table `floor` at depth 3 (exact)"
    ));
}

#[test]
fn a_floor_prints_its_map_and_creatures_the_same_for_a_seed() {
    let text = stdout(&tables("floor FILES --depth 6 --seed 4"));
    assert_eq!(text, stdout(&tables("floor FILES --depth 6 --seed 4")));
    assert!(text.contains('@'), "the player stands in the safe room");
    assert!(text.contains("Depth 6, seed 4: "), "{text}");
    assert!(text.contains(" species "));
    assert!(text.contains(" about"), "{text}");
    assert!(text.contains("danger "), "{text}");
    // Each creature's species cost and data, the glimmer bat's at night.
    let night = stdout(&tables("floor FILES --depth 6 --seed 4 --when night"));
    assert!(night.contains("cost 1 flies=true speed=14"), "{night}");
}

#[test]
fn the_lint_lists_warnings_and_can_deny_them() {
    let clean = tables("lint FILES --deny-warnings");
    assert!(clean.status.success());
    assert_eq!(String::from_utf8_lossy(&clean.stderr), "0 warnings\n");
    let dir = std::env::temp_dir().join(format!("denizen-tables-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lost.ron");
    std::fs::write(
        &file,
        r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"), (key: "lost", name: "lost", glyph: 'l', level: 1, hit_points: "1d1")],
        tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 3))])],
        floor: Some((table: "floor", depths: (1, 3), count: (dice: "1d1"))))"#,
    )
    .unwrap();
    let line = format!("lint {}", file.display());
    let warned = tables(&line);
    assert!(warned.status.success());
    assert_eq!(
        stdout(&warned),
        format!(
            "warning: {}: species[1] `lost`: no table reaches this species\n",
            file.display()
        )
    );
    let denied = tables(&format!("{line} --deny-warnings"));
    assert_eq!(denied.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&denied.stderr),
        "1 warning\ndenizen: 1 warning, and --deny-warnings\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_chart_is_written() {
    let dir = std::env::temp_dir().join(format!("denizen-tables-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("depths.svg");
    let out = tables(&format!("chart FILES --depths 1-20 -o {}", svg.display()));
    assert_eq!(stdout(&out), format!("wrote {}\n", svg.display()));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("Expected creatures per floor by depth"));
    let out = tables(&format!(
        "chart FILES --depths 3-6 -o {} --png",
        svg.display()
    ));
    let png = svg.with_extension("png");
    assert_eq!(
        stdout(&out),
        format!("wrote {}\nwrote {}\n", svg.display(), png.display())
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let out = tables(&format!(
        "chart FILES --depths 1-20 --danger -o {}",
        svg.display()
    ));
    assert_eq!(stdout(&out), format!("wrote {}\n", svg.display()));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("Danger per floor by depth") && text.contains("danger (5% to 95%)"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_requests_exit_2_with_one_line() {
    for (line, expected) in [
        (
            "odds FILES --depth 21",
            "denizen: depth 21 is outside the floor's depths, 1-20\n",
        ),
        (
            "odds FILES --depth 3 --killed silt_vole",
            "denizen: --killed `silt_vole`: no unique species of that key\n",
        ),
        (
            "odds FILES --depth 3 --table wanderer",
            "denizen: --table `wanderer`: no table of that key\n",
        ),
        (
            "odds FILES --depth 3 --per placement --danger",
            "denizen: --budget and --danger are figures of a floor: give --per floor\n",
        ),
        (
            "odds FILES --depth 3 --branch caves",
            "denizen: --branch `caves`: no branch of that key (the files declare `warrens`, `foundry_deeps`)\n",
        ),
        (
            "odds FILES --depth 3 --branch foundry_deeps",
            "denizen: depth 3 is outside the floor's depths, 14-20\n",
        ),
        (
            "odds FILES --depth 3 --budget 5",
            "denizen: the floor has a count, not a budget: a budget cannot be fixed\n",
        ),
        (
            "odds /nonexistent.ron --depth 3",
            "denizen: /nonexistent.ron: No such file or directory (os error 2)\n",
        ),
    ] {
        let out = tables(line);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), expected, "{line}");
    }
}

/// A folder stands for its `*.tables.ron` files in name order: the starter's data folder
/// (base, then mod) gives the figures of the two files named; the mod before the base
/// would fail (it replaces entries the base adds), and a folder without such files is
/// refused.
#[test]
fn a_folder_is_its_tables_files_in_name_order() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../denizen_tables/data");
    let named = stdout(&tables("odds FILES --depth 8 --format csv"));
    let folder = stdout(&tables(&format!(
        "odds {} --depth 8 --format csv",
        data.display()
    )));
    assert_eq!(folder, named);
    let swapped = tables(&format!(
        "odds {} {} --depth 8",
        data.join("starter_mod.tables.ron").display(),
        data.join("starter.tables.ron").display()
    ));
    assert_eq!(swapped.status.code(), Some(2), "the order matters");

    let empty = std::env::temp_dir().join(format!("denizen-tables-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("notes.ron"), "()").unwrap();
    let out = tables(&format!("odds {} --depth 3", empty.display()));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "denizen: {}: the folder holds no *.tables.ron file\n",
            empty.display()
        )
    );
    std::fs::remove_dir_all(&empty).unwrap();
}

/// `--table` prints the odds of a floor drawing from another table: the starter's
/// wanderers table reaches no unique, so Sunkenbough (a unique of the floor table at depth
/// 8) has none; a floor of that table lists only what the table reaches.
#[test]
fn a_named_table_has_odds_of_its_own() {
    let expected = |line: &str| -> Vec<(String, f64)> {
        rows(&stdout(&tables(line)), "species,expected,danger")
            .into_iter()
            .map(|r| (r[0].clone(), r[1].parse().unwrap()))
            .collect()
    };
    let floor = expected("odds FILES --depth 8 --format csv");
    let wanderers = expected("odds FILES --depth 8 --table wanderers --format csv");
    let of = |odds: &[(String, f64)], key: &str| odds.iter().find(|(k, _)| k == key).unwrap().1;
    assert!(of(&floor, "sunkenbough") > 0.0);
    assert_eq!(of(&wanderers, "sunkenbough"), 0.0);
    assert!(wanderers.iter().map(|(_, e)| e).sum::<f64>() > 0.0);
    let text = stdout(&tables("floor FILES --depth 8 --seed 4 --table wanderers"));
    assert!(!text.contains("Sunkenbough"), "{text}");
    // The printed table names the table its odds are of.
    let text = stdout(&tables("odds FILES --depth 8 --table wanderers"));
    assert!(
        text.starts_with("Expected count of each species per floor from table `wanderers`"),
        "{text}"
    );
}

/// `denizen chart tables` draws the chart `denizen tables chart` draws, from the game's
/// asset folder as from its files.
#[test]
fn chart_tables_reads_the_asset_folder() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../denizen_tables/data");
    let dir = std::env::temp_dir().join(format!("denizen-chart-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (named, folder) = (dir.join("named.svg"), dir.join("folder.svg"));
    let out = tables(&format!("chart FILES --depths 1-20 -o {}", named.display()));
    assert_eq!(stdout(&out), format!("wrote {}\n", named.display()));
    let out = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(["chart", "tables"])
        .arg(&data)
        .args(["--depths", "1-20", "-o"])
        .arg(&folder)
        .output()
        .unwrap();
    assert_eq!(stdout(&out), format!("wrote {}\n", folder.display()));
    assert_eq!(
        std::fs::read(&named).unwrap(),
        std::fs::read(&folder).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `denizen tables lint` on a folder; its exit code and its error line.
fn lint_folder(folder: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(["tables", "lint"])
        .arg(folder)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A folder's files are never skipped or echoed raw: a file whose name is not UTF-8 is
/// refused (its name shown escaped), a name with control characters is escaped in every
/// error, and a file that is not UTF-8 text says at which byte and line.
#[cfg(unix)]
#[test]
fn a_folders_odd_file_names_and_bytes_are_named_plainly() {
    use std::os::unix::ffi::OsStrExt;

    let dir = std::env::temp_dir().join(format!("denizen-tables-names-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"b\xff.tables.ron"));
    std::fs::write(&odd, "()").unwrap();
    let (code, said) = lint_folder(&dir);
    assert_eq!(code, Some(2));
    assert!(
        said.starts_with("denizen: ")
            && said.contains("b\u{fffd}.tables.ron: the file's name is not UTF-8"),
        "{said}"
    );
    std::fs::remove_file(&odd).unwrap();

    let escape = dir.join("a\u{1b}[2J.tables.ron");
    std::fs::write(&escape, "(species: [(key: 3)])").unwrap();
    let (code, said) = lint_folder(&dir);
    assert_eq!(code, Some(2));
    assert!(said.contains("a\\u{1b}[2J.tables.ron:1:"), "{said}");
    assert!(!said.contains('\u{1b}'), "{said}");
    std::fs::remove_file(&escape).unwrap();

    let bytes = dir.join("bytes.tables.ron");
    std::fs::write(&bytes, b"(\n  species: [\xc3\x28],\n)").unwrap();
    let (code, said) = lint_folder(&dir);
    assert_eq!(code, Some(2));
    assert!(
        said.ends_with("bytes.tables.ron: not UTF-8 text (byte 14, line 2)\n"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The exact danger distribution `odds --danger` prints for the words after the files, by
/// danger.
fn exact_danger(files: &str, words: &str) -> std::collections::BTreeMap<u64, f64> {
    let line = format!("odds {files} {words} --danger --format csv");
    rows(&stdout(&tables(&line)), "danger,chance,at_most")
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect()
}

/// The p-value of `sample --danger` (seed 44) for the words after the starter's files
/// against an exact distribution.
fn danger_fit(words: &str, exact: &std::collections::BTreeMap<u64, f64>) -> f64 {
    let line = format!("sample FILES {words} --seed 44 --danger --format csv");
    let seen: std::collections::BTreeMap<u64, u64> = rows(&stdout(&tables(&line)), "danger,floors")
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
    let dangers: std::collections::BTreeSet<u64> =
        seen.keys().chain(exact.keys()).copied().collect();
    let observed: Vec<u64> = dangers
        .iter()
        .map(|k| seen.get(k).copied().unwrap_or(0))
        .collect();
    // The CSV's chances have six decimals: a danger it rounds to 0 is a rare one, not an
    // impossible one.
    let chances = dangers
        .iter()
        .map(|k| exact.get(k).copied().unwrap_or(0.0).max(1e-7));
    denizen_core::ChiSquared::against(&observed, chances).p_value()
}

/// `sample` agrees with `odds` on the starter's danger distribution, a chi-squared at a
/// fixed seed (p >= 0.001; 10,000 floors), under three contexts at depth 8, in the
/// budgeted branch (`foundry_deeps`, depth 16) and in the branch dealt from a bag
/// (`warrens`, depth 6). The same check rejects a rule that
/// ignores the context (the sample at night against the odds of no context) and a budget
/// whose attempts limit is one too many (the odds of a copy of the files with 7 attempts
/// for 6).
#[test]
fn sampled_danger_agrees_with_the_exact_distribution_and_rejects_wrong_rules() {
    for words in [
        "--depth 8 --when night",
        "--depth 8 --when winter",
        "--depth 8 --when winter,festival",
        "--depth 16 --branch foundry_deeps",
        "--depth 6 --branch warrens",
    ] {
        let p = danger_fit(
            &format!("{words} --floors 10000"),
            &exact_danger(&starter(), words),
        );
        assert!(p >= 1e-3, "{words}: p = {p}");
    }
    let p = danger_fit(
        "--depth 8 --when night --floors 10000",
        &exact_danger(&starter(), "--depth 8"),
    );
    assert!(p < 1e-6, "the context ignored: p = {p}");

    let dir = std::env::temp_dir().join(format!("denizen-attempts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../denizen_tables/data");
    let base = std::fs::read_to_string(data.join("starter.tables.ron")).unwrap();
    let seven = base.replace("attempts: Some(6)", "attempts: Some(7)");
    assert_ne!(seven, base);
    std::fs::write(dir.join("starter.tables.ron"), seven).unwrap();
    let files = format!(
        "{} {}",
        dir.join("starter.tables.ron").display(),
        data.join("starter_mod.tables.ron").display()
    );
    let words = "--depth 16 --branch foundry_deeps";
    let p = danger_fit(
        &format!("{words} --floors 10000"),
        &exact_danger(&files, words),
    );
    assert!(p < 1e-6, "one attempt too many: p = {p}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A map file of `denizen_maps`'s own levels.
fn level_file(name: &str) -> String {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../denizen_maps/data");
    data.join(name).display().to_string()
}

/// The creature rows of a printed floor drawn by the floor's own placements (those with
/// nothing in the `region` column), their cells split on spaces.
fn general_rows(printed: &str) -> Vec<Vec<&str>> {
    let header = printed.lines().find(|l| l.starts_with("n  ")).unwrap();
    let at = header.find("region").unwrap();
    let rows = printed.lines().skip_while(|l| *l != header).skip(1);
    rows.take_while(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .filter(|l| l.len() <= at)
        .map(|l| l.split_whitespace().collect())
        .collect()
}

/// The marsh drawn in Tiled and in LDtk (the same squares, regions, start and depth
/// field) gives the same floor's own placements for a seed: the player on the start
/// mark, the depth the level's, and `--depth` wins over it. Their regions' ids differ
/// (LDtk's iids, Tiled's object ids), and so do the streams the regions draw from.
#[test]
fn an_editor_level_is_populated_from_either_format() {
    let (tmx, ldtk) = (level_file("marsh.tmx"), level_file("marsh.ldtk"));
    let tiled = stdout(&tables(&format!("floor FILES --map {tmx} --seed 3")));
    let from_ldtk = stdout(&tables(&format!(
        "floor FILES --map {ldtk} --level Marsh_1 --seed 3"
    )));
    assert!(!general_rows(&tiled).is_empty());
    assert_eq!(general_rows(&tiled), general_rows(&from_ldtk));
    let rows: Vec<&str> = tiled.lines().take(10).collect();
    assert_eq!(rows[0], "####################");
    assert_eq!(
        rows[2].chars().nth(2),
        Some('@'),
        "the start mark at (2, 2): {tiled}"
    );
    assert!(tiled.contains("Depth 5, seed 3: "), "{tiled}");
    let deeper = stdout(&tables(&format!(
        "floor FILES --map {tmx} --seed 3 --depth 9"
    )));
    assert!(deeper.contains("Depth 9, seed 3: "), "{deeper}");
}

/// The odds of the marsh's floor: the camp at depth 5 draws one placement from
/// `camp_folk`, a forager or a band (weight 20 each): 1/2 + 1/2 * 4 (2d3) foragers, 1/2
/// elders, 1/2 * 2 (1d3) slingers. The lair, one deeper (its `depth_offset`), draws 1d2
/// placements from `lair_dwellers` at depth 6: toads 20, herons 15, stumpwalkers 12 of 47.
/// The floor is its own placements and both regions.
#[test]
fn a_maps_odds_are_given_per_region_and_for_the_floor() {
    let ldtk = level_file("marsh.ldtk");
    let csv = stdout(&tables(&format!("odds FILES --map {ldtk} --format csv")));
    let rows = rows(&csv, "draw,species,expected");
    let get = |draw: &str, species: &str| -> f64 {
        (rows.iter())
            .find(|r| r[0] == draw && r[1] == species)
            .map_or(0.0, |r| r[2].parse().unwrap())
    };
    let camp = "7c1a7f10-0000-4000-8000-000000000011";
    let lair = "7c1a7f10-0000-4000-8000-000000000010";
    let near = |got: f64, want: f64| assert!((got - want).abs() < 1e-6, "{got} != {want}");
    near(get(camp, "reedcloak_forager"), 2.5);
    near(get(camp, "reedcloak_elder"), 0.5);
    near(get(camp, "reedcloak_slinger"), 1.0);
    near(get(lair, "mosscap_toad"), 1.5 * 20.0 / 47.0);
    near(get(lair, "gloom_heron"), 1.5 * 15.0 / 47.0);
    near(get(lair, "stumpwalker"), 1.5 * 12.0 / 47.0);
    near(get(lair, "murk_pike"), 0.0);
    for species in ["mosscap_toad", "reedcloak_forager", "gloom_heron"] {
        let parts = get("general", species) + get(camp, species) + get(lair, species);
        near(get("floor", species), parts);
    }
    let out = tables(&format!("odds FILES --map {ldtk} --per placement"));
    assert_eq!(out.status.code(), Some(2));
}

/// `-o` draws the populated level as SVG (and `--png` beside it): one glyph per creature
/// printed and the player's, each square of a region tinted, a legend line per region.
#[test]
fn a_populated_level_is_drawn_with_its_regions() {
    let tmx = level_file("marsh.tmx");
    let dir = std::env::temp_dir().join(format!("denizen-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("marsh.svg");
    let printed = stdout(&tables(&format!(
        "floor FILES --map {tmx} --seed 3 -o {} --png",
        svg.display()
    )));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    let creatures = printed
        .lines()
        .skip_while(|l| !l.starts_with("n  "))
        .skip(1)
        .take_while(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert!(creatures > 0);
    let glyphs = drawn.matches("font-size=\"16\"").count();
    assert_eq!(glyphs, creatures + 1, "each creature and the player");
    for legend in ["lair 1: ", "camp 2: ", "shore 3: 0 creatures"] {
        assert!(drawn.contains(legend), "{legend}: {drawn}");
    }
    // The lair is 4 x 2, the camp 3 x 2: each square tinted once.
    assert!(drawn.matches("fill-opacity=\"0.3\"").count() >= 8 + 6);
    let png = std::fs::read(dir.join("marsh.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(printed.contains(&format!("wrote {}", svg.display())));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A map of another format, a level a project lacks, `--level` for a Tiled map and a
/// broken map each exit 2 with one line naming the file.
#[test]
fn bad_maps_exit_2_with_one_line() {
    let (tmx, ldtk) = (level_file("marsh.tmx"), level_file("marsh.ldtk"));
    let broken = std::env::temp_dir().join("denizen-broken-map.ldtk");
    std::fs::write(&broken, "{\"levels\": [").unwrap();
    for (line, expected) in [
        (
            format!("floor FILES --map {}", level_file("terrain.tsx")),
            "a map is an LDtk project (.ldtk) or a Tiled map (.tmx)",
        ),
        (
            format!("floor FILES --map {ldtk} --level Cave"),
            "the project: no level `Cave`; it has [\"Marsh_1\"]",
        ),
        (
            format!("floor FILES --map {tmx} --level Marsh_1"),
            "a Tiled map has one level; --level is for LDtk projects",
        ),
        (
            format!("floor FILES --map {}", broken.display()),
            "the project: not LDtk JSON: EOF while parsing",
        ),
    ] {
        let out = tables(&line);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{line}: {err}");
        assert!(
            err.contains(expected) && err.lines().count() == 1,
            "{line}: {err}"
        );
    }
    std::fs::remove_file(&broken).unwrap();
}
