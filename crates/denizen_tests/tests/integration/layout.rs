//! The workspace's dependencies point one way: the core depends on no rule set, no rule set
//! depends on another rule set, the neutral plugin names no rule set, and a rule set reaches
//! Bevy's ECS and app only through its `bevy` feature (its plugin, over the neutral plugin),
//! and the map reader stands on the core alone.
//! Only the tools and the facade sit on top. Inside every crate, modules import each other
//! one way too.

use std::collections::{BTreeMap, BTreeSet};

const RULE_SETS: [&str; 4] = [
    "denizen_omega",
    "denizen_captive",
    "denizen_angband",
    "denizen_tables",
];
const ABOVE_THE_RULES: [&str; 3] = ["denizen_cli", "denizen", "denizen_testing"];
/// What a rule set's plugin is built on: behind its `bevy` feature only.
const THE_PLUGINS_STACK: [&str; 4] = ["bevy_ecs", "bevy_app", "bevy_asset", "denizen_bevy"];

/// One package's normal (not dev, not build) dependencies, each with whether it is
/// optional, and its features.
struct Package {
    dependencies: BTreeMap<String, bool>,
    features: BTreeMap<String, Vec<String>>,
}

impl Package {
    /// The features that turn on dependency `name`, directly or through another feature.
    fn features_enabling(&self, name: &str) -> BTreeSet<String> {
        let direct: BTreeSet<String> = self
            .features
            .iter()
            .filter(|(_, enables)| enables.iter().any(|e| *e == format!("dep:{name}")))
            .map(|(feature, _)| feature.clone())
            .collect();
        let mut all = direct.clone();
        loop {
            let more: Vec<String> = self
                .features
                .iter()
                .filter(|(f, enables)| !all.contains(*f) && enables.iter().any(|e| all.contains(e)))
                .map(|(f, _)| f.clone())
                .collect();
            if more.is_empty() {
                return all;
            }
            all.extend(more);
        }
    }
}

/// Each workspace package, from `cargo metadata`.
fn packages() -> BTreeMap<String, Package> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(crate::workspace())
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
            let dependencies = package["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| {
                    let name = d["name"].as_str().unwrap().to_owned();
                    (name, d["optional"].as_bool().unwrap_or(false))
                })
                .collect();
            let features = package["features"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(name, enables)| {
                    let enables = enables
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|e| e.as_str().unwrap().to_owned())
                        .collect();
                    (name.clone(), enables)
                })
                .collect();
            let name = package["name"].as_str().unwrap().to_owned();
            (
                name,
                Package {
                    dependencies,
                    features,
                },
            )
        })
        .collect()
}

#[test]
fn dependencies_point_one_way() {
    let packages = packages();
    let core = &packages["denizen_core"].dependencies;
    let everything_above: Vec<&str> = RULE_SETS
        .iter()
        .chain(&ABOVE_THE_RULES)
        .chain(&THE_PLUGINS_STACK)
        .copied()
        .collect();
    for forbidden in &everything_above {
        assert!(
            !core.contains_key(*forbidden),
            "denizen_core depends on {forbidden}"
        );
    }
    // The map reader is neutral too: over the core, under every rule set and plugin.
    let maps = &packages["denizen_maps"].dependencies;
    assert!(
        maps.contains_key("denizen_core"),
        "denizen_maps builds on the core"
    );
    for forbidden in &everything_above {
        assert!(
            !maps.contains_key(*forbidden),
            "the map reader denizen_maps depends on {forbidden}"
        );
    }
    let neutral = &packages["denizen_bevy"].dependencies;
    for forbidden in RULE_SETS.iter().chain(&ABOVE_THE_RULES) {
        assert!(
            !neutral.contains_key(*forbidden),
            "the neutral plugin denizen_bevy depends on {forbidden}"
        );
    }
    let mut rule_sets = 0;
    for rule_set in RULE_SETS.iter().filter(|r| packages.contains_key(**r)) {
        rule_sets += 1;
        let package = &packages[*rule_set];
        let own = &package.dependencies;
        assert!(
            own.contains_key("denizen_core"),
            "{rule_set} builds on the core"
        );
        for forbidden in RULE_SETS.iter().chain(&ABOVE_THE_RULES) {
            assert!(
                *forbidden == *rule_set || !own.contains_key(*forbidden),
                "{rule_set} depends on {forbidden}"
            );
        }
        for stack in THE_PLUGINS_STACK {
            let Some(&optional) = own.get(stack) else {
                continue;
            };
            let enabling = package.features_enabling(stack);
            assert!(
                optional
                    && enabling.contains("bevy")
                    && enabling.iter().all(|f| {
                        f == "bevy" || package.features[f].iter().any(|e| e == "bevy")
                    }),
                "{rule_set} reaches {stack} other than through its `bevy` feature: {enabling:?}"
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
    let crates = crate::workspace().join("crates");
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        // This package's library is empty: its modules are its tests'.
        if src.join("lib.rs").exists() && !src.ends_with("denizen_tests/src") {
            folders.push(src.clone());
            module_folders(&src, &mut folders);
        }
    }
    folders.sort();
    for name in [
        "denizen_cli/src",
        "denizen_angband/src",
        "denizen_angband/src/plugin",
        "denizen_bevy/src",
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
