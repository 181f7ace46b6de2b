//! Test support shared by the workspace's test suites: checked-in golden files, and
//! corrupted data files for fuzz properties ([`corrupt`]), and the check of rendered
//! documentation pages' links ([`rendered`]).
//!
//! A golden file pins a whole output (populated floors, encounter groups) as text, so any
//! change to a stream or a rule shows as a failing test. When a change is deliberate, run
//! the tests once with `DENIZEN_BLESS=1` to rewrite the files, and review the diff.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod corrupt;
pub mod rendered;

use std::path::Path;

/// Compares `actual` with the golden file at `path`; with `DENIZEN_BLESS` set, writes it
/// instead. Panics (failing the test) on a difference, naming the first differing line,
/// and on `DENIZEN_BLESS` under continuous integration (`CI` set): a run there checks the
/// files, it never rewrites them.
pub fn golden(path: impl AsRef<Path>, actual: &str) {
    let path = path.as_ref();
    if std::env::var_os("DENIZEN_BLESS").is_some() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{}: DENIZEN_BLESS is set under CI, where golden files are checked, not rewritten",
            path.display()
        );
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

/// Fails the test if the modules of a source folder import each other in a cycle
/// (`crate::a` named in `b.rs` and `crate::b` in `a.rs`, or a longer loop). In a crate's
/// `src` folder siblings are named through `crate::`, and a module folder (one holding
/// `mod.rs`) counts as one module whose files all import what any of them names, so a
/// cycle through a folder (`chart/mod.rs` naming `crate::commands` and `commands.rs`
/// naming `crate::chart`) is found too; in a module's folder its files are named through
/// `super::`. Every such path before a file's tests counts, in a `use` (grouped or not) or
/// inline; comments and the `lib.rs` or `mod.rs` re-exports are ignored.
pub fn assert_modules_acyclic(src: impl AsRef<Path>) {
    let src = src.as_ref();
    let prefix = if src.join("mod.rs").exists() {
        "super::"
    } else {
        "crate::"
    };
    let mut graph: Vec<(String, Vec<String>)> = Vec::new();
    let entries = std::fs::read_dir(src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    for entry in entries {
        let path = entry.expect("a readable folder").path();
        let Some(name) = path.file_stem().and_then(|n| n.to_str()) else {
            continue;
        };
        let folder = prefix == "crate::" && path.join("mod.rs").exists();
        let file = path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "mod";
        if !(folder || file) {
            continue;
        }
        let mut imports = Vec::new();
        for source in sources_of(&path) {
            let text = std::fs::read_to_string(&source).expect("a readable source file");
            imports.extend(modules_named(&code_of(&text), prefix));
        }
        imports.sort_unstable();
        imports.dedup();
        imports.retain(|module| module != name);
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

/// A module's source files: the file itself, or every file in its folder, however deep.
fn sources_of(path: &Path) -> Vec<std::path::PathBuf> {
    if !path.is_dir() {
        return vec![path.to_path_buf()];
    }
    let mut found = Vec::new();
    for entry in std::fs::read_dir(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
        let inner = entry.expect("a readable folder").path();
        if inner.is_dir() || inner.extension().is_some_and(|e| e == "rs") {
            found.extend(sources_of(&inner));
        }
    }
    found
}

/// A file's code before its tests, without comments.
fn code_of(text: &str) -> String {
    text.split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of every path starting with `prefix` (`crate::` or `super::`) in
/// `code`, reading `crate::{a::X, b}` as both `a` and `b`.
fn modules_named(code: &str, prefix: &str) -> Vec<String> {
    fn first_segment(path: &str) -> &str {
        let path = path.trim_start();
        let end = path
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(path.len());
        &path[..end]
    }
    let mut found: Vec<&str> = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let joined = rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | ':'));
        rest = &rest[at + prefix.len()..];
        if joined {
            continue;
        }
        let Some(group) = rest.trim_start().strip_prefix('{') else {
            found.push(first_segment(rest));
            continue;
        };
        let (mut depth, mut start) = (0usize, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth > 0 => depth -= 1,
                ',' | '}' if depth == 0 => {
                    found.push(first_segment(&group[start..i]));
                    start = i + 1;
                    if c == '}' {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    found.retain(|module| !matches!(*module, "" | "self" | "super" | "crate"));
    found.sort_unstable();
    found.dedup();
    found.into_iter().map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of source files, removed when dropped (a test that expects a panic
    /// unwinds through it too).
    struct SourceFolder(std::path::PathBuf);

    impl AsRef<Path> for SourceFolder {
        fn as_ref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for SourceFolder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A folder of source files, named after the test so parallel tests never share one.
    fn crate_with(test: &str, files: &[(&str, &str)]) -> SourceFolder {
        let dir =
            std::env::temp_dir().join(format!("denizen-modules-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        SourceFolder(dir)
    }

    #[test]
    #[should_panic(expected = "cycle")]
    fn a_cycle_is_found() {
        let dir = crate_with(
            "a_cycle_is_found",
            &[
                ("a.rs", "use crate::b::B;\n"),
                ("b.rs", "use crate::c::{C, D};\n"),
                ("c.rs", "use crate::a;\n"),
            ],
        );
        assert_modules_acyclic(&dir);
    }

    #[test]
    #[should_panic(expected = "cycle")]
    fn a_cycle_through_a_grouped_import_is_found() {
        let dir = crate_with(
            "a_cycle_through_a_grouped_import_is_found",
            &[
                (
                    "a.rs",
                    "use crate::{\n    self as root,\n    b::{B, C},\n};\n",
                ),
                ("b.rs", "fn f() { let _ = crate::a::x(); }\n"),
            ],
        );
        assert_modules_acyclic(&dir);
    }

    #[test]
    fn paths_are_read_from_groups_and_inline_code_but_not_comments() {
        let code = "use crate::{a::A, b::{self, B}, c};\n\
                    fn f() -> crate::d::D { my_crate::e::E; $crate::f::F; crate::g::G }\n";
        assert_eq!(modules_named(code, "crate::"), ["a", "b", "c", "d", "g"]);
        let nested = "use super::{a::A, b::B};\nuse crate::c;\nfn f() { super::d::f() }";
        assert_eq!(modules_named(nested, "super::"), ["a", "b", "d"]);
    }

    #[test]
    #[should_panic(expected = "cycle")]
    fn a_cycle_in_a_module_folder_is_found() {
        let dir = crate_with(
            "a_cycle_in_a_module_folder_is_found",
            &[
                ("mod.rs", "mod a;\nmod b;\n"),
                ("a.rs", "use super::b::B;\nuse crate::a;\n"),
                ("b.rs", "use super::a::A;\n"),
            ],
        );
        assert_modules_acyclic(&dir);
    }

    #[test]
    fn one_way_imports_and_test_imports_pass() {
        let dir = crate_with(
            "one_way_imports_and_test_imports_pass",
            &[
                ("a.rs", "use crate::b::B;\n"),
                (
                    "b.rs",
                    "pub struct B;\n#[cfg(test)]\nmod tests { use crate::a; }\n",
                ),
                ("lib.rs", "use crate::a::*;\n"),
                ("x.rs", "use crate::b;\n// crate::x::nothing, a comment\n"),
            ],
        );
        assert_modules_acyclic(&dir);
    }

    #[test]
    #[should_panic(expected = "modules import each other in a cycle")]
    fn a_cycle_through_a_module_folder_is_found() {
        let src = crate_with(
            "through_a_folder",
            &[
                ("commands.rs", "use crate::chart::draw;\n"),
                ("chart/mod.rs", "mod draw;\n"),
                ("chart/draw.rs", "use crate::commands::Cli;\n"),
            ],
        );
        assert_modules_acyclic(&src);
    }

    #[test]
    fn one_way_through_a_module_folder_passes() {
        let src = crate_with(
            "one_way_through_a_folder",
            &[
                ("commands.rs", "use crate::chart::draw;\n"),
                ("chart/mod.rs", "mod draw;\n"),
                ("chart/draw.rs", "use crate::omega::Data;\n"),
                ("omega.rs", "fn f() {}\n"),
            ],
        );
        assert_modules_acyclic(&src);
    }
}
