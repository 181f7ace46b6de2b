//! The designer's commands: `diff` against hand-worked figures, `odds --explain` and
//! `--dist` agreeing with `odds`, `check`'s verdicts and exit codes, the report's bytes
//! and structure, `watch` following an edit, and bad input in one line.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{rows, stdout, tables};

/// A folder of its own under the system's temporary folder, emptied.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("denizen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One placement a floor at depths 1-3. Old: a rat (3 in 4) or an ogre (1 in 4). New: a
/// rat (weight 3), an ogre from depth 2 (weight 3), an imp (`fey`) at depth 3 (weight 2).
/// Costs: rat 1, ogre 4, imp 2.
const OLD: &str = r#"(
    species: [
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d1", cost: Some(1)),
        (key: "ogre", name: "ogre", glyph: 'O', level: 1, hit_points: "1d1", cost: Some(4)),
    ],
    tables: [(key: "floor", rows: [(what: Species("rat"), depth: (1, 3), weight: 3), (what: Species("ogre"), depth: (1, 3))])],
    floor: Some((table: "floor", depths: (1, 3), count: (dice: "1d1"))),
)"#;

const NEW: &str = r#"(
    species: [
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d1", cost: Some(1)),
        (key: "ogre", name: "ogre", glyph: 'O', level: 1, hit_points: "1d1", cost: Some(4)),
        (key: "imp", name: "imp", glyph: 'i', level: 1, hit_points: "1d1", cost: Some(2), tags: ["fey"]),
    ],
    tables: [(key: "floor", rows: [
        (what: Species("rat"), depth: (1, 3), weight: 3),
        (what: Species("ogre"), depth: (2, 3), weight: 3),
        (what: Species("imp"), depth: (3, 3), weight: 2),
    ])],
    floor: Some((table: "floor", depths: (1, 3), count: (dice: "1d1"))),
)"#;

/// The two versions written to a scratch folder: (new, old).
fn versions(dir: &Path) -> (String, String) {
    let (new, old) = (dir.join("new.ron"), dir.join("old.ron"));
    std::fs::write(&new, NEW).unwrap();
    std::fs::write(&old, OLD).unwrap();
    (new.display().to_string(), old.display().to_string())
}

#[test]
fn a_diff_lists_each_change_by_hand_the_largest_first() {
    let dir = scratch("diff");
    let (new, old) = versions(&dir);
    let run = |words: &str| tables(&format!("diff {new} --against {old} --depths 1-3 {words}"));
    let all = run("--format csv");
    // Changes found: exit code 1.
    assert_eq!(all.status.code(), Some(1));
    let text = String::from_utf8(all.stdout).unwrap();
    let want = "\
kind,key,depth,before,after,change,first_depth,status
danger,,1,1.750000,1.000000,-0.750000,1,
danger,,2,1.750000,2.500000,0.750000,1,
danger,,3,1.750000,2.375000,0.625000,1,
species,rat,3,0.750000,0.375000,-0.375000,1,
species,imp,3,0.000000,0.250000,0.250000,3,added
species,ogre,1,0.250000,0.000000,-0.250000,1,
species,ogre,2,0.250000,0.500000,0.250000,1,
species,rat,1,0.750000,1.000000,0.250000,1,
species,rat,2,0.750000,0.500000,-0.250000,1,
tag,fey,3,0.000000,0.250000,0.250000,3,
species,ogre,3,0.250000,0.375000,0.125000,1,
";
    assert_eq!(text, want);
    assert_eq!(
        String::from_utf8_lossy(&all.stderr),
        "denizen: 11 changes past the threshold\n"
    );
    // Past 0.3 only the danger and the rats at depth 3; past 100% only what was 0.
    let big = rows(
        &String::from_utf8(run("--format csv --threshold 0.3").stdout).unwrap(),
        "kind,key,depth,before,after,change,first_depth,status",
    );
    // The imp, added, is listed though its change is within the threshold.
    assert_eq!(big.len(), 5);
    assert_eq!(
        big[4],
        [
            "species", "imp", "3", "0.000000", "0.250000", "0.250000", "3", "added"
        ]
    );
    let relative = String::from_utf8(run("--format csv --threshold 100%").stdout).unwrap();
    let keys: Vec<&str> = relative
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(keys, ["imp", "fey"]);
    // Within the threshold: exit code 0, a Markdown table of the one species added.
    let none = run("--threshold 1 --format md");
    assert_eq!(none.status.code(), Some(0));
    assert!(String::from_utf8(none.stdout).unwrap().ends_with(
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n| species | imp | 3 | 0.000000 | 0.250000 | 0.250000 | 3 | added |\n"
    ));
    // Depths 1-2, changes past 1 only: the imp, added but drawn only at depth 3, is
    // listed at the first depth without a change, and fails nothing.
    let quiet = tables(&format!(
        "diff {new} --against {old} --depths 1-2 --threshold 1 --format csv"
    ));
    assert_eq!(quiet.status.code(), Some(0));
    assert!(
        String::from_utf8(quiet.stdout)
            .unwrap()
            .ends_with("\nspecies,imp,1,0.000000,0.000000,0.000000,1,added\n")
    );
    // The old file with its rows in the other order: the same figures, no change.
    let swapped = dir.join("swapped.ron");
    let rows = "(what: Species(\"rat\"), depth: (1, 3), weight: 3), (what: Species(\"ogre\"), depth: (1, 3))";
    let other = "(what: Species(\"ogre\"), depth: (1, 3)), (what: Species(\"rat\"), depth: (1, 3), weight: 3)";
    assert!(OLD.contains(rows));
    std::fs::write(&swapped, OLD.replace(rows, other)).unwrap();
    let same = tables(&format!(
        "diff {} --against {old} --depths 1-3",
        swapped.display()
    ));
    assert_eq!(same.status.code(), Some(0));
    // The same files: no change.
    assert_eq!(
        tables(&format!("diff {old} --against {old} --depths 1-3"))
            .status
            .code(),
        Some(0)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_diffs_exit_2_with_one_line() {
    let dir = scratch("bad-diff");
    let (new, old) = versions(&dir);
    for (words, message) in [
        (
            format!("{new} --against {old} --depths 1-3 --threshold lots"),
            "`lots`: expected a number or a percentage, such as 0.1 or 5%",
        ),
        (
            format!("{new} --against {old} --depths 1-3 --threshold=-1"),
            "expected a number or a percentage",
        ),
        (
            format!("{new} --against {}/missing.ron --depths 1-3", dir.display()),
            "missing.ron: No such file or directory",
        ),
        (
            format!("{new} --against {old} --depths 2-9"),
            "denizen: --depths 2-9: the new files' floor has depths 1-3\n",
        ),
    ] {
        let out = tables(&format!("diff {words}"));
        assert_eq!(out.status.code(), Some(2), "{words}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{words}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `(share, path)` rows of `odds --explain`, and the total its title gives.
fn explained(words: &str) -> (f64, Vec<(f64, String)>) {
    let text = stdout(&tables(&format!(
        "odds FILES --depth 9 --format csv --explain {words}"
    )));
    let shares: Vec<(f64, String)> = rows(&text, "share,path")
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), r[1..].join(",")))
        .collect();
    let total = shares.iter().map(|s| s.0).sum();
    (total, shares)
}

#[test]
fn an_explanation_sums_to_the_expected_count_and_a_distributions_mean_is_it() {
    let odds = rows(
        &stdout(&tables("odds FILES --depth 9 --format csv")),
        "species,expected,danger",
    );
    let expected = |key: &str| -> f64 {
        odds.iter().find(|r| r[0] == key).unwrap()[1]
            .parse()
            .unwrap()
    };
    // A scrapcur comes in a pack (leader and followers), its paths through rows and groups.
    for key in ["scrapcur", "chime_crab", "reedcloak_forager"] {
        let (total, shares) = explained(key);
        assert!(
            (total - expected(key)).abs() < 1e-5 * shares.len() as f64,
            "{key}: {total}"
        );
        assert!(
            shares
                .iter()
                .all(|(_, path)| path.contains(".tables.ron: ")),
            "{shares:?}"
        );
    }
    let (_, pack) = explained("reedcloak_forager");
    assert!(pack.iter().any(|(_, p)| p.contains("follower")), "{pack:?}");
    let dist = stdout(&tables(
        "odds FILES --depth 9 --format csv --dist chime_crab",
    ));
    let chances: Vec<(f64, f64)> = rows(&dist, "count,chance,at_most")
        .iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
    let (sum, mean) = chances
        .iter()
        .fold((0.0, 0.0), |(s, m), (k, p)| (s + p, m + k * p));
    assert!(
        (sum - 1.0).abs() < 1e-9 && (mean - expected("chime_crab")).abs() < 1e-5,
        "{sum} {mean}"
    );
    for (words, message) in [
        (
            "--explain nobody",
            "denizen: --explain `nobody`: no species of that key\n",
        ),
        (
            "--dist tag:nothing",
            "denizen: --dist `tag:nothing`: no species has that tag\n",
        ),
        (
            "--dist chime_crab --per placement",
            "denizen: --explain and --dist are figures of a floor: give --per floor\n",
        ),
    ] {
        let out = tables(&format!("odds FILES --depth 9 {words}"));
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).as_ref()
            ),
            (Some(2), message)
        );
    }
}

/// The guide's balancing files.
fn guide(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../guide/balancing")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn check_exits_1_on_a_failed_claim_and_2_on_a_bad_one() {
    let checks = guide("starter.checks.ron");
    let early = tables(&format!(
        "check FILES {} --checks {checks}",
        guide("hulks_early.tables.ron")
    ));
    assert_eq!(early.status.code(), Some(1));
    let table = String::from_utf8(early.stdout).unwrap();
    let line = table
        .lines()
        .find(|l| l.starts_with("hulks are rare"))
        .unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    // The worst depth is the hulks' first, and its figure is P(at least one) there, as
    // `odds --dist` gives it.
    let dist = stdout(&tables(&format!(
        "odds FILES {} --depth 3 --dist bellows_hulk --format csv",
        guide("hulks_early.tables.ron")
    )));
    let none: f64 = rows(&dist, "count,chance,at_most")[0][1].parse().unwrap();
    assert_eq!(
        &words[words.len() - 5..words.len() - 3],
        ["fails", "3"],
        "{table}"
    );
    let figure: f64 = words[words.len() - 3].parse().unwrap();
    assert!(
        (figure - (1.0 - none)).abs() < 1e-12 && figure > 0.05,
        "{figure} {none}"
    );
    assert_eq!(
        String::from_utf8_lossy(&early.stderr),
        "denizen: 1 claim failed\n"
    );
    let later = tables(&format!(
        "check FILES {} --checks {checks}",
        guide("hulks_later.tables.ron")
    ));
    assert_eq!(
        later.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&later.stdout)
    );
    let dir = scratch("bad-check");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(claims: [(name: \"x\", figure: AtLeastOne(Species(\"ogre\")), depths: (1, 2), bound: AtMost(\"0\"))])").unwrap();
    let out = tables(&format!("check FILES --checks {}", bad.display()));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "denizen: {}: claims[0] `x`: field `figure`: no species `ogre`\n",
            bad.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_report_is_one_self_contained_page_the_same_bytes_each_time() {
    let dir = scratch("report");
    let (a, b) = (dir.join("a.html"), dir.join("b.html"));
    let extra = format!(
        "{} --against FILES --checks {}",
        guide("hulks_early.tables.ron"),
        guide("starter.checks.ron")
    );
    for page in [&a, &b] {
        let out = tables(&format!(
            "report FILES {extra} --depths 1-12 -o {}",
            page.display()
        ));
        assert_eq!(stdout(&out), format!("wrote {}\n", page.display()));
    }
    let html = std::fs::read_to_string(&a).unwrap();
    assert_eq!(html, std::fs::read_to_string(&b).unwrap());
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.ends_with("</script>\n</body></html>\n"));
    for id in [
        "counts", "danger", "lint", "species", "filter", "diff", "checks", "selftest",
    ] {
        assert_eq!(html.matches(&format!("id=\"{id}\"")).count(), 1, "{id}");
    }
    // Nothing from elsewhere: no address, no script or style file, no image file.
    for outside in ["http:", "https:", "src=", "<link", "@import", "url("] {
        assert!(!html.contains(outside), "{outside}");
    }
    // One row per species, one explanation each; the failed claim is marked.
    assert_eq!(
        html.matches("<details data-key=").count(),
        html.matches("<span class=\"sw\"").count()
    );
    assert!(html.contains("<td class=\"t fails\">fails</td>"));
    assert!(!html.contains("data-watch"));
    // A budgeted branch's figures come out the same in every run (each its own process).
    let (c, d) = (dir.join("c.html"), dir.join("d.html"));
    for page in [&c, &d] {
        let line = format!(
            "report FILES --branch foundry_deeps --depths 14-16 -o {}",
            page.display()
        );
        stdout(&tables(&line));
    }
    assert_eq!(std::fs::read(&c).unwrap(), std::fs::read(&d).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn watch_rewrites_the_page_when_a_file_changes_until_ctrl_c() {
    let dir = scratch("watch");
    let (new, _) = versions(&dir);
    let page = dir.join("page.html");
    let child = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(["tables", "watch", &new, "-o"])
        .arg(&page)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let wait_for = |done: &dyn Fn() -> bool| {
        for _ in 0..300 {
            if done() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("watch did not write the page in 30 s");
    };
    wait_for(&|| std::fs::read_to_string(&page).is_ok_and(|p| p.contains("</html>")));
    let first = std::fs::read_to_string(&page).unwrap();
    assert!(first.contains("<body data-watch=\"2000\">"));
    assert!(!first.contains(">wolf<"));
    std::fs::write(
        &new,
        NEW.replace("\"imp\", name: \"imp\"", "\"imp\", name: \"wolf\""),
    )
    .unwrap();
    wait_for(&|| std::fs::read_to_string(&page).is_ok_and(|p| p.contains(">wolf<")));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let said = String::from_utf8(out.stdout).unwrap();
    assert_eq!(said.matches("wrote ").count(), 2, "{said}");
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("0 warnings")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What the chapter says of a command's answer, checked against it: the danger rises by
/// about 3 from depth 3; most drudges follow the hulks as their tenders; four floors in
/// ten hold a hulk at depth 4; with the later hulks, their worst figure is at depth 6.
fn chapter_says(words: &str, answer: &str) {
    let figure = |text: &str| -> f64 { text.trim().parse().unwrap() };
    if words.starts_with("diff ") {
        let first = answer.lines().nth(4).unwrap();
        let cells: Vec<&str> = first.split('|').map(str::trim).collect();
        assert_eq!(&cells[1..4], ["danger", "", "3"], "{first}");
        assert!((2.9..3.3).contains(&figure(cells[6])), "{first}");
    } else if words.contains("--explain") {
        let first = answer.lines().nth(2).unwrap();
        assert!(
            first.ends_with("follower `tender` of `hulk_tenders`"),
            "{first}"
        );
    } else if words.contains("--dist") {
        let at_least = answer.split("P(at least one) ").nth(1).unwrap();
        assert!((0.35..0.45).contains(&figure(&at_least[..8])), "{answer}");
    } else if words.starts_with("check ") && words.contains("hulks_later") {
        let hulks = answer.lines().find(|l| l.starts_with("hulks")).unwrap();
        assert!(
            hulks.contains(" holds ") && hulks.contains(" 6 "),
            "{hulks}"
        );
    }
}

/// Every command of the guide's chapter 'Balancing with exact odds' runs from the
/// workspace's folder as the chapter shows it, with the exit code its comment gives (0
/// without one); `report.html` is written to a scratch folder, and `watch` is stopped with
/// Ctrl-C once it has written the page.
#[test]
fn the_balancing_chapters_commands_run_as_it_says() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let chapter =
        std::fs::read_to_string(root.join("guide/13-balancing-with-exact-odds.md")).unwrap();
    let dir = scratch("chapter");
    let page = dir.join("report.html");
    let starter = "crates/denizen_tables/data/starter.tables.ron crates/denizen_tables/data/starter_mod.tables.ron";
    let mut ran = 0;
    let (mut in_sh, mut watched) = (false, false);
    for line in chapter.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        let Some(command) = line.strip_prefix("denizen tables ").filter(|_| in_sh) else {
            continue;
        };
        let (words, exit) = match command.split_once('#') {
            Some((words, comment)) => (
                words,
                comment
                    .trim()
                    .strip_prefix("exit ")
                    .unwrap()
                    .parse()
                    .unwrap(),
            ),
            None => (command, 0),
        };
        let words = words
            .replace("FILES", starter)
            .replace("report.html", &page.display().to_string());
        let mut run = Command::new(env!("CARGO_BIN_EXE_denizen"));
        run.current_dir(&root)
            .arg("tables")
            .args(words.split_whitespace());
        if words.starts_with("watch ") {
            let _ = std::fs::remove_file(&page);
            let child = run
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            for _ in 0..600 {
                if std::fs::read_to_string(&page).is_ok_and(|p| p.ends_with("</html>\n")) {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            assert!(page.exists(), "{words}: no page");
            Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status()
                .unwrap();
            assert_eq!(
                child.wait_with_output().unwrap().status.code(),
                Some(exit),
                "{words}"
            );
            watched = true;
        } else {
            let out = run.output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(exit),
                "{words}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            if words.starts_with("report ") {
                let html = std::fs::read_to_string(&page).unwrap();
                assert!(html.contains("id=\"checks\"") && html.contains("id=\"diff\""));
            }
            chapter_says(&words, &String::from_utf8(out.stdout).unwrap());
        }
        ran += 1;
    }
    assert_eq!((ran, watched), (7, true));
    std::fs::remove_dir_all(&dir).unwrap();
}
