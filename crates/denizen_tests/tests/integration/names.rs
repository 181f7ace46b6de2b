//! The glob imports a game uses (the preludes, `denizen::bevy`, each rule set's plugin
//! module and its prelude) hold no `Arrived`, so a game's own type of that name, imported
//! by a glob of its own, stands beside them. The arrivals pipeline's answer is
//! `denizen::bevy::arrivals::Arrived`: only a glob of that module brings it (see the
//! CHANGELOG's migration notes).

mod game {
    /// A game's own message of that name.
    pub struct Arrived;
}

#[test]
#[allow(unused_imports)]
fn a_games_own_arrived_stands_beside_the_glob_imports() {
    use denizen::bevy::prelude::*;
    use denizen::bevy::*;
    #[cfg(feature = "angband")]
    use denizen::bevy::{angband::prelude::*, angband::*};
    #[cfg(feature = "captive")]
    use denizen::bevy::{captive::prelude::*, captive::*};
    #[cfg(feature = "omega")]
    use denizen::bevy::{omega::prelude::*, omega::*};
    #[cfg(feature = "tables")]
    use denizen::bevy::{tables::prelude::*, tables::*};
    use denizen::prelude::*;
    use game::*;
    // An ambiguous name would not compile.
    let arrived: Arrived = Arrived;
    assert_eq!(
        std::any::type_name_of_val(&arrived),
        std::any::type_name::<game::Arrived>()
    );
}

/// The prefix rule of docs/ARCHITECTURE.md ("Names in a rule set's plugin"): every type a
/// game names to talk to a rule set's plugin or read what it keeps (its plugins, system
/// sets, messages, events and resources, the aliases of its answers, and the outcomes
/// those answers carry) starts with the rule set's name, so four plugins' glob imports
/// stand side by side and a name says whose it is. Read from the plugin modules' sources.
#[test]
fn every_name_a_game_reads_from_a_plugin_starts_with_its_rule_set() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut unprefixed = Vec::new();
    for (krate, prefix) in [
        ("denizen_omega", "Omega"),
        ("denizen_angband", "Angband"),
        ("denizen_captive", "Captive"),
        ("denizen_tables", "Tables"),
    ] {
        let mut names = Vec::new();
        for path in sources(&format!("{root}/{krate}/src/plugin")) {
            names.extend(read_names(&std::fs::read_to_string(&path).unwrap()));
        }
        assert!(names.len() >= 8, "{krate}: {names:?}");
        unprefixed.extend(
            (names.into_iter())
                .filter(|name| !name.starts_with(prefix) && name != "Entity")
                .map(|name| format!("{krate}: {name}")),
        );
    }
    assert!(unprefixed.is_empty(), "{unprefixed:#?}");
}

/// The Rust files of a folder and of the folders inside it.
fn sources(folder: &str) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).expect("the plugin folder is there") {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(path.to_str().unwrap()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The names a game reads in one source file: types derived as a message, event, resource
/// or system set (by any path, in any of an item's derives); aliases of `Arrived`,
/// `FloorServed` and `PerFloor`; plugins; and the outcomes of the requests served (`type
/// Arrival`, `Populated`, `Refusal`, inside a `Vec` or not).
fn read_names(source: &str) -> Vec<String> {
    const READ: [&str; 5] = ["Message", "Event", "EntityEvent", "Resource", "SystemSet"];
    const ALIASED: [&str; 3] = ["Arrived<", "FloorServed<", "PerFloor<"];
    let mut names = Vec::new();
    // The derive list being read (it may span lines), then whether one of the item's
    // derives named one of `READ`, until the item they stand on.
    let (mut list, mut open, mut derived) = (String::new(), false, false);
    for line in source.lines().map(str::trim) {
        if let Some(start) = line.strip_prefix("#[derive(") {
            (list, open) = (start.to_owned(), true);
        } else if open {
            list.push_str(line);
        }
        if open && list.ends_with(")]") {
            open = false;
            derived |= (list.split([',', ')', ' ']))
                .any(|path| READ.contains(&path.rsplit("::").next().unwrap_or(path)));
        } else if !open && let Some((public, name)) = declared(line) {
            if derived && public {
                names.push(name);
            }
            derived = false;
        }
        if let Some(alias) = line.strip_prefix("pub type ")
            && let Some((_, aliased)) = alias.split_once('=')
            && ALIASED.iter().any(|a| aliased.contains(a))
        {
            names.push(word(alias));
        }
        if line.starts_with("impl")
            && let Some((_, plugin)) = line.split_once(" Plugin for ")
        {
            names.push(word(plugin));
        }
        for outcome in ["type Arrival = ", "type Populated = ", "type Refusal = "] {
            if let Some(named) = line.strip_prefix(outcome) {
                names.push(word(named.trim_start_matches("Vec<")));
            }
        }
    }
    names
}

/// Whether a `struct` or `enum` line declares a public item, and its name.
fn declared(line: &str) -> Option<(bool, String)> {
    let item = line.split_once(' ').map_or(line, |(visibility, rest)| {
        if visibility.starts_with("pub") {
            rest
        } else {
            line
        }
    });
    let rest = (item.strip_prefix("struct ")).or_else(|| item.strip_prefix("enum "))?;
    Some((line.starts_with("pub "), word(rest)))
}

/// The identifier a text starts with.
fn word(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}
