//! Makes the crate's front page from the README, whole when rendered without a repository
//! address (the project has none): the README's gallery images are embedded as data, its
//! guide links point at the guide's own pages, its documents' links at the modules of
//! `denizen::docs`, and a link to any other file of the package names the file instead.
//! The README itself stays as a reader of the workspace sees it.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

/// The README's links to documents the crate renders as modules of `denizen::docs`.
const DOCUMENTS: [(&str, &str); 5] = [
    ("docs/ARCHITECTURE.md", "crate::docs::architecture"),
    ("docs/TESTING.md", "crate::docs::testing"),
    ("docs/DATA.md", "crate::docs::data_limits"),
    ("docs/BENCHMARKS.md", "crate::docs::benchmarks"),
    ("examples/README.md", "crate::docs::examples"),
];

/// Where the README links the guide (where it will be published).
const GUIDE_ONLINE: &str = "https://docs.rs/denizen/latest/denizen/guide/";

fn main() {
    println!("cargo::rerun-if-changed=README.md");
    println!("cargo::rerun-if-changed=docs/gallery");
    let readme = fs::read_to_string("README.md").unwrap_or_else(|e| fail("README.md", &e));
    let page = links(&images(&readme));
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("front_page.md");
    fs::write(&out, page).unwrap_or_else(|e| fail(&out.display().to_string(), &e));
}

fn fail(file: &str, error: &dyn std::fmt::Display) -> ! {
    panic!("the front page needs {file}: {error}");
}

/// Every `src="docs/gallery/….png"` as a `data:` address holding the picture.
fn images(text: &str) -> String {
    let mut page = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("src=\"docs/gallery/") {
        let (before, from) = rest.split_at(at + "src=\"".len());
        let end = from
            .find('"')
            .unwrap_or_else(|| fail("README.md", &"an unclosed src"));
        let file = &from[..end];
        println!("cargo::rerun-if-changed={file}");
        let bytes = fs::read(file).unwrap_or_else(|e| fail(file, &e));
        let kind = if file.ends_with(".svg") {
            "svg+xml"
        } else {
            "png"
        };
        page.push_str(before);
        let _ = write!(page, "data:image/{kind};base64,{}", base64(&bytes));
        rest = &from[end..];
    }
    page.push_str(rest);
    page
}

/// Every markdown link `[text](target)` to a file of the workspace made whole on the page.
fn links(text: &str) -> String {
    let mut page = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let Some(end) = rest[at..].find(')') else {
            break;
        };
        let target = &rest[at + 2..at + end];
        let label_start = rest[..at].rfind('[').unwrap_or(at);
        let after = &rest[at + end + 1..];
        if let Some(chapter) = target.strip_prefix(GUIDE_ONLINE) {
            page.push_str(&rest[..at]);
            let _ = write!(page, "](guide/{chapter})");
        } else if let Some((_, module)) = DOCUMENTS.iter().find(|(file, _)| *file == target) {
            page.push_str(&rest[..at]);
            let _ = write!(page, "]({module})");
        } else if target.contains("://") || target.starts_with('#') || target.contains("::") {
            page.push_str(&rest[..at + end + 1]);
        } else {
            // A file or folder of the package with no page of its own: named, not linked.
            let label = &rest[label_start + 1..at];
            page.push_str(&rest[..label_start]);
            if label == target {
                let _ = write!(page, "`{target}`");
            } else {
                let _ = write!(page, "{label} (`{target}` in the package)");
            }
        }
        rest = after;
    }
    page.push_str(rest);
    page
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk
            .iter()
            .enumerate()
            .fold(0u32, |w, (i, &b)| w | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                text.push(char::from(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]));
            } else {
                text.push('=');
            }
        }
    }
    text
}
