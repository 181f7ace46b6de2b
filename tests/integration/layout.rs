//! The workspace's dependencies point one way: the core depends on no rule set, no rule set
//! depends on another rule set or on Bevy's ECS or app (an optional `bevy_reflect` derive
//! is their only Bevy crate), and only the plugin and the tools sit on top. Inside the
//! core and the plugin, modules import each other one way too.

use std::collections::{BTreeMap, BTreeSet};

const RULE_SETS: [&str; 3] = ["denizen_omega", "denizen_captive", "denizen_angband"];
const ABOVE_THE_RULES: [&str; 5] = [
    "bevy_ecs",
    "bevy_app",
    "denizen_bevy",
    "denizen_cli",
    "denizen",
];

/// Each workspace package's normal (not dev, not build) dependencies, from `cargo metadata`.
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| {
            let deps = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap().to_owned())
                .collect();
            (package["name"].as_str().unwrap().to_owned(), deps)
        })
        .collect()
}

#[test]
fn dependencies_point_one_way() {
    let deps = dependencies();
    let core = &deps["denizen_core"];
    for forbidden in RULE_SETS.iter().chain(&ABOVE_THE_RULES) {
        assert!(
            !core.contains(*forbidden),
            "denizen_core depends on {forbidden}"
        );
    }
    let mut rule_sets = 0;
    for rule_set in RULE_SETS.iter().filter(|r| deps.contains_key(**r)) {
        rule_sets += 1;
        let own = &deps[*rule_set];
        assert!(
            own.contains("denizen_core"),
            "{rule_set} builds on the core"
        );
        for forbidden in RULE_SETS.iter().chain(&ABOVE_THE_RULES) {
            assert!(
                *forbidden == *rule_set || !own.contains(*forbidden),
                "{rule_set} depends on {forbidden}"
            );
        }
    }
    assert!(rule_sets >= 2, "the rule-set crates are in the workspace");
}

/// Every crate's source folder and every module folder in it (one holding `mod.rs`):
/// the rule sets, the plugins' rule-set folders and the command line.
#[test]
fn every_crates_modules_import_one_way() {
    fn module_folders(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.join("mod.rs").exists() {
                    found.push(path.clone());
                }
                module_folders(&path, found);
            }
        }
    }
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if src.join("lib.rs").exists() {
            folders.push(src.clone());
            module_folders(&src, &mut folders);
        }
    }
    folders.sort();
    for name in [
        "denizen_cli/src",
        "denizen_angband/src",
        "denizen_bevy/src/angband",
    ] {
        assert!(
            folders.iter().any(|f| f.ends_with(name)),
            "{name} is checked: {folders:?}"
        );
    }
    for folder in folders {
        denizen_testing::assert_modules_acyclic(folder);
    }
}
