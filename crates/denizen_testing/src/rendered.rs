//! Rendered documentation pages hold together: every relative `href` and `src` of a page
//! that rustdoc wrote names a file beside it. The crate's front page is made from the
//! README for exactly this (its images embedded, its links pointed at rendered pages), and
//! CI runs this check on the pages `cargo doc` rendered (`rendered_links`).

use std::path::{Path, PathBuf};

/// The relative addresses in `page` (a rendered HTML page at `path`) that name no file:
/// each as `page: address`. Addresses with a scheme (`https:`, `data:`, ...), fragments
/// within the page and rustdoc's own script's templates are not files and are skipped.
pub fn broken_links(path: &Path, page: &str) -> Vec<String> {
    let folder = path.parent().unwrap_or(Path::new("."));
    addresses(page)
        .filter(|address| is_file_address(address))
        .filter(|address| !target(folder, address).exists())
        .map(|address| format!("{}: {address}", path.display()))
        .collect()
}

/// The values of every `href="…"` and `src="…"` attribute.
fn addresses(page: &str) -> impl Iterator<Item = &str> {
    ["href=\"", "src=\""].into_iter().flat_map(move |open| {
        page.match_indices(open).filter_map(move |(at, _)| {
            let rest = &page[at + open.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
    })
}

fn is_file_address(address: &str) -> bool {
    let scheme = address
        .split_once(':')
        .is_some_and(|(head, _)| !head.is_empty() && head.chars().all(|c| c.is_ascii_alphabetic()));
    // `${…}`: a template in rustdoc's own script, filled in by the browser.
    !(address.is_empty() || address.starts_with('#') || scheme || address.contains("${"))
}

/// The file an address names, relative to the page's folder (its fragment and query
/// dropped).
fn target(folder: &Path, address: &str) -> PathBuf {
    let file = address.split(['#', '?']).next().unwrap_or(address);
    folder.join(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_reported_and_everything_else_passes() {
        let folder = std::env::temp_dir().join(format!("denizen-rendered-{}", std::process::id()));
        std::fs::create_dir_all(folder.join("guide")).unwrap();
        std::fs::write(folder.join("guide/index.html"), "").unwrap();
        let page = folder.join("index.html");
        let html = concat!(
            r##"<a href="guide/index.html#top">guide</a> <a href="https://example.org/x">web</a>"##,
            r##"<img src="data:image/png;base64,AAAA"> <a href="#anchor">here</a>"##,
            r##"<img src="docs/gallery/odds.png"> <a href="docs/ARCHITECTURE.md">arch</a>"##,
        );
        let broken = broken_links(&page, html);
        std::fs::remove_dir_all(&folder).unwrap();
        let shown = page.display();
        assert_eq!(
            broken,
            [
                format!("{shown}: docs/ARCHITECTURE.md"),
                format!("{shown}: docs/gallery/odds.png")
            ]
        );
    }
}
