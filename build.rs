//! Makes the crate's front page from the README, whole when rendered without a repository
//! address (the project has none): the README's gallery images are embedded as data, its
//! guide links point at the guide's own pages where this build renders them, its
//! documents' links at the modules of `denizen::docs`, and a link to any other file of the
//! package names the file instead (`build/front_page.rs`). The README itself stays as a
//! reader of the workspace sees it.

#[path = "build/front_page.rs"]
mod front_page;

use std::path::Path;
use std::{env, fs};

fn main() {
    println!("cargo::rerun-if-changed=README.md");
    println!("cargo::rerun-if-changed=build/front_page.rs");
    let readme = fs::read_to_string("README.md").unwrap_or_else(|e| fail("README.md", &e));
    let mut read = |file: &str| {
        println!("cargo::rerun-if-changed={file}");
        fs::read(file).map_err(|e| format!("{file}: {e}"))
    };
    let page = front_page::images(&readme, &mut read).unwrap_or_else(|e| fail("README.md", &e));
    let page = front_page::links(&page, &chapter_rendered);
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("front_page.md");
    fs::write(&out, page).unwrap_or_else(|e| fail(&out.display().to_string(), &e));
}

/// Whether this build renders a guide chapter (its features, as cargo tells the script).
/// A chapter not rendered keeps its published address.
fn chapter_rendered(chapter: &str) -> bool {
    let on =
        |feature: &str| env::var_os(format!("CARGO_FEATURE_{}", feature.to_uppercase())).is_some();
    front_page::chapter_rendered(chapter, &on)
}

fn fail(file: &str, error: &dyn std::fmt::Display) -> ! {
    panic!("the front page needs {file}: {error}");
}
