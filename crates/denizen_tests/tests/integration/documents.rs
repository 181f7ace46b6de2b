//! The project's documents hold together: every relative link of the README, the
//! examples' index, the documents and the guide names a file that exists; every address of
//! a guide chapter names a chapter that exists; every example is in the examples' index,
//! with a command CI runs.

use std::path::{Path, PathBuf};

/// The workspace's folder (this package is `crates/denizen_tests`).
fn root() -> PathBuf {
    crate::workspace()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The targets of the Markdown links `[text](target)` and HTML images `src="target"` in
/// `text`.
fn link_targets(text: &str) -> Vec<&str> {
    let between = |open: &'static str, close: char| {
        text.match_indices(open).filter_map(move |(at, _)| {
            let rest = &text[at + open.len()..];
            rest.find(close).map(|end| &rest[..end])
        })
    };
    between("](", ')').chain(between("src=\"", '"')).collect()
}

/// The Markdown files whose links are checked: the README, the examples' index, the
/// documents and the guide's chapters.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("examples/README.md")];
    for folder in ["docs", "guide"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "md"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

#[test]
fn every_relative_link_names_a_file_that_exists() {
    let mut checked = 0;
    for document in documents() {
        let text = read(&document);
        let folder = document.parent().unwrap();
        for target in link_targets(&text) {
            let relative = !target.contains("://")
                && !target.starts_with('#')
                && !target.starts_with("crate::")
                && !target.starts_with("super::")
                && !target.starts_with("self::")
                && !target.contains(' ');
            if !relative {
                continue;
            }
            let path = folder.join(target.split('#').next().unwrap());
            assert!(
                path.exists(),
                "{}: the link to `{target}` names no file",
                document.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} relative links found");
}

/// The README links every chapter of the guide once, by its file in the checkout, and
/// each file is a chapter module of `src/guide.rs`.
#[test]
fn every_guide_address_names_a_chapter() {
    let guide = read(&root().join("src/guide.rs"));
    let readme = read(&root().join("README.md"));
    let mut chapters = 0;
    for target in link_targets(&readme) {
        if let Some(chapter) = front_page::chapter_of(target) {
            assert!(root().join(target).is_file(), "{target}");
            assert!(
                guide.contains(&format!("pub mod {chapter} {{}}")),
                "README.md links to a guide chapter `{chapter}` that src/guide.rs lacks"
            );
            chapters += 1;
        }
    }
    let modules = guide.matches("pub mod ch").count();
    assert_eq!(chapters, modules, "the README links to every chapter once");
}

#[test]
fn every_example_is_indexed_and_run_by_ci() {
    let index = read(&root().join("examples/README.md"));
    let ci = read(&root().join(".ci/run"));
    let mut examples: Vec<String> = std::fs::read_dir(root().join("examples"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension().is_some_and(|e| e == "rs") || path.join("main.rs").is_file()
        })
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    examples.sort();
    assert!(examples.len() >= 10);
    for example in examples {
        assert!(
            index.contains(&format!("| `{example}` |")),
            "examples/README.md does not list `{example}`"
        );
        assert!(
            ci.contains(&format!("--example {example}")),
            ".ci/run does not run `{example}`"
        );
    }
}

/// The facade's build script's text work, tested here (it runs before any test can).
#[path = "../../../../build/front_page.rs"]
mod front_page;

/// RFC 4648's test vectors.
#[test]
fn the_front_pages_base64_is_the_standard_one() {
    let cases = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ];
    for (text, encoded) in cases {
        assert_eq!(front_page::base64(text.as_bytes()), encoded, "{text:?}");
    }
    let mut read = |file: &str| {
        assert_eq!(file, "docs/gallery/a.png");
        Ok(b"foo".to_vec())
    };
    let page = front_page::images("<img src=\"docs/gallery/a.png\" alt=\"a\">", &mut read);
    assert_eq!(
        page.unwrap(),
        "<img src=\"data:image/png;base64,Zm9v\" alt=\"a\">"
    );
}

/// Each kind of link of the README as the front page shows it.
#[test]
fn the_front_page_links_only_what_it_renders() {
    let guide = front_page::GUIDE_ONLINE;
    let rendered = |chapter: &str| chapter != "ch05_angband_levels";
    let cases = [
        (
            "[a](guide/01-in-a-bevy-game.md).".to_owned(),
            "[a](guide/ch01_in_a_bevy_game/index.html).".to_owned(),
        ),
        (
            "[b](guide/05-angband-levels.md#traps)".to_owned(),
            format!("[b]({guide}ch05_angband_levels/index.html#traps)"),
        ),
        (
            "[c](guide/10-your-own-tables.md)".to_owned(),
            "[c](guide/ch10_your_own_tables/index.html)".to_owned(),
        ),
        (
            "see [Testing](docs/TESTING.md#golden-files), [data](docs/DATA.md)".to_owned(),
            "see [Testing](crate::docs::testing#golden-files), [data](crate::docs::data_limits)"
                .to_owned(),
        ),
        (
            "[the charts](docs/gallery) and [LICENSE-MIT](LICENSE-MIT)".to_owned(),
            "the charts (`docs/gallery` in the package) and `LICENSE-MIT`".to_owned(),
        ),
        (
            "![a chart](docs/gallery/a.png) [x](https://example.org) [y](crate::plan) ](z) \
             [d](docs/DATA.md)"
                .to_owned(),
            "![a chart](docs/gallery/a.png) [x](https://example.org) [y](crate::plan) ](z) \
             [d](crate::docs::data_limits)"
                .to_owned(),
        ),
        (
            "```text\n[kept](docs/DATA.md)\n```\n[moved](docs/DATA.md)\n".to_owned(),
            "```text\n[kept](docs/DATA.md)\n```\n[moved](crate::docs::data_limits)\n".to_owned(),
        ),
    ];
    for (readme, page) in cases {
        assert_eq!(front_page::links(&readme, &rendered), page);
    }
}

/// The front page's table of the guide's features is the one `src/guide.rs` compiles the
/// chapters with: the guide is there with any features (`src/lib.rs` gives it no `cfg`),
/// and each chapter module's `cfg` names exactly the features the table gives it.
#[test]
fn the_front_pages_chapter_features_are_the_guides() {
    let features_of = |cfg: &str| -> Vec<String> {
        cfg.split("feature = \"")
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
            .collect()
    };
    let lib = read(&root().join("src/lib.rs"));
    let before_guide = lib
        .lines()
        .take_while(|l| *l != "pub mod guide;")
        .last()
        .unwrap();
    assert!(!before_guide.starts_with("#[cfg"), "{before_guide}");
    let guide = read(&root().join("src/guide.rs"));
    let lines: Vec<&str> = guide.lines().collect();
    let mut chapters = 0;
    for (at, line) in lines.iter().enumerate() {
        let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|l| l.strip_suffix(" {}"))
        else {
            continue;
        };
        let attributes = lines[..at].iter().rev().take_while(|l| l.starts_with("#["));
        let cfg: Vec<String> = attributes
            .filter(|l| l.starts_with("#[cfg("))
            .flat_map(|l| features_of(l))
            .collect();
        let table = front_page::CHAPTER_FEATURES
            .iter()
            .find(|(chapter, _)| *chapter == name)
            .map_or(&[][..], |(_, features)| features);
        assert_eq!(cfg, table, "{name}");
        let rendered = |on: &[&str]| front_page::chapter_rendered(name, &|f| on.contains(&f));
        assert!(rendered(table));
        for missing in table {
            let without: Vec<&str> = table.iter().copied().filter(|f| f != missing).collect();
            assert!(!rendered(&without), "{name} without {missing}");
        }
        chapters += 1;
    }
    assert_eq!(chapters, 13);
}
