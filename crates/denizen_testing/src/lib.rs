//! Test support shared by the workspace's test suites: checked-in golden files.
//!
//! A golden file pins a whole output (populated floors, encounter groups) as text, so any
//! change to a stream or a rule shows as a failing test. When a change is deliberate, run
//! the tests once with `DENIZEN_BLESS=1` to rewrite the files, and review the diff.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::path::Path;

/// Compares `actual` with the golden file at `path`; with `DENIZEN_BLESS` set, writes it
/// instead. Panics (failing the test) on a difference, naming the first differing line.
pub fn golden(path: impl AsRef<Path>, actual: &str) {
    let path = path.as_ref();
    if std::env::var_os("DENIZEN_BLESS").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the golden folder can be made");
        }
        std::fs::write(path, actual).expect("the golden file can be written");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run the tests with DENIZEN_BLESS=1 to record it",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the output at line {}:\n  golden: {:?}\n  now:    {:?}\n\
             (if the change is deliberate, rerun with DENIZEN_BLESS=1 and review the diff)",
            path.display(),
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            actual.lines().nth(line).unwrap_or("<end>"),
        );
    }
}

/// Fails the test if the modules of a crate's `src` folder import each other in a cycle
/// (`use crate::a` in `b.rs` and `use crate::b` in `a.rs`, or a longer loop). Only the
/// `use crate::...` lines before a file's tests count; `lib.rs` re-exports are ignored.
pub fn assert_modules_acyclic(src: impl AsRef<Path>) {
    let src = src.as_ref();
    let mut graph: Vec<(String, Vec<String>)> = Vec::new();
    let entries = std::fs::read_dir(src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    for entry in entries {
        let path = entry.expect("a readable folder").path();
        let Some(name) = path.file_stem().and_then(|n| n.to_str()) else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "rs") || name == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        let imports = code
            .lines()
            .filter_map(|line| line.trim().strip_prefix("use crate::"))
            .filter_map(|rest| rest.split([':', ';', ' ', '{']).next())
            .filter(|module| !module.is_empty() && *module != name)
            .map(str::to_owned)
            .collect();
        graph.push((name.to_owned(), imports));
    }
    // Depth-first search for a path back to where it started.
    fn visit<'g>(
        graph: &'g [(String, Vec<String>)],
        at: &'g str,
        path: &mut Vec<&'g str>,
        done: &mut Vec<&'g str>,
    ) {
        if done.contains(&at) {
            return;
        }
        if let Some(start) = path.iter().position(|m| *m == at) {
            panic!("modules import each other in a cycle: {:?}", &path[start..]);
        }
        path.push(at);
        if let Some((_, imports)) = graph.iter().find(|(m, _)| m == at) {
            for next in imports {
                visit(graph, next, path, done);
            }
        }
        path.pop();
        done.push(at);
    }
    let mut done = Vec::new();
    for (module, _) in &graph {
        visit(&graph, module, &mut Vec::new(), &mut done);
    }
    assert!(!graph.is_empty(), "{} holds no modules", src.display());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crate_with(files: &[(&str, &str)]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "denizen-modules-{}-{}",
            std::process::id(),
            files.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        dir
    }

    #[test]
    #[should_panic(expected = "cycle")]
    fn a_cycle_is_found() {
        let dir = crate_with(&[
            ("a.rs", "use crate::b::B;\n"),
            ("b.rs", "use crate::c::{C, D};\n"),
            ("c.rs", "use crate::a;\n"),
        ]);
        assert_modules_acyclic(dir);
    }

    #[test]
    fn one_way_imports_and_test_imports_pass() {
        let dir = crate_with(&[
            ("a.rs", "use crate::b::B;\n"),
            (
                "b.rs",
                "pub struct B;\n#[cfg(test)]\nmod tests { use crate::a; }\n",
            ),
            ("lib.rs", "use crate::a::*;\n"),
            ("x.rs", "use crate::b;\n"),
        ]);
        assert_modules_acyclic(dir);
    }
}
