//! The front page made from the README (the facade's build script includes this file, and
//! the integration tests do too, to test it): pure text in, text out.

use std::fmt::Write as _;

/// The README's links to documents the crate renders as modules of `denizen::docs`.
pub const DOCUMENTS: [(&str, &str); 5] = [
    ("docs/ARCHITECTURE.md", "crate::docs::architecture"),
    ("docs/TESTING.md", "crate::docs::testing"),
    ("docs/DATA.md", "crate::docs::data_limits"),
    ("docs/BENCHMARKS.md", "crate::docs::benchmarks"),
    ("examples/README.md", "crate::docs::examples"),
];

/// Where the guide is published. The README links its chapters' files in the checkout
/// (`guide/01-in-a-bevy-game.md`); the front page links the chapter's page where the
/// build renders it, and this address otherwise.
pub const GUIDE_ONLINE: &str = "https://docs.rs/denizen/latest/denizen/guide/";

/// The features each chapter needs (`src/guide.rs`); a chapter not listed needs none.
pub const CHAPTER_FEATURES: [(&str, &[&str]); 12] = [
    ("ch01_in_a_bevy_game", &["bevy", "omega", "captive"]),
    ("ch02_floors_and_saves", &["bevy", "omega", "captive"]),
    ("ch03_the_living_world", &["bevy", "omega"]),
    ("ch04_encounter_groups", &["bevy", "captive"]),
    ("ch05_angband_levels", &["bevy", "angband_data"]),
    ("ch07_rules_without_bevy", &["omega", "captive"]),
    ("ch08_data", &["omega"]),
    ("ch09_fidelity", &["bevy", "captive", "omega"]),
    ("ch10_your_own_tables", &["tables"]),
    ("ch11_your_own_monsters", &["tables", "assets"]),
    (
        "ch12_floors_from_a_level_editor",
        &["bevy", "tables", "maps", "assets"],
    ),
    ("ch13_balancing_with_exact_odds", &["tables"]),
];

/// Whether a build whose features `on` tells renders a guide chapter.
pub fn chapter_rendered(chapter: &str, on: &dyn Fn(&str) -> bool) -> bool {
    CHAPTER_FEATURES
        .iter()
        .find(|(name, _)| *name == chapter)
        .map_or(&[][..], |(_, features)| features)
        .iter()
        .all(|feature| on(feature))
}

/// The module of a guide chapter's file: `guide/01-in-a-bevy-game.md` is
/// `ch01_in_a_bevy_game`.
pub fn chapter_of(file: &str) -> Option<String> {
    let name = file.strip_prefix("guide/")?.strip_suffix(".md")?;
    let (number, title) = name.split_once('-')?;
    let numbered = number.len() == 2 && number.bytes().all(|b| b.is_ascii_digit());
    numbered.then(|| format!("ch{number}_{}", title.replace('-', "_")))
}

/// Every `src="docs/gallery/…"` as a `data:` address holding the picture `read` gives for
/// that file.
pub fn images(
    text: &str,
    read: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<String, String> {
    let mut page = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("src=\"docs/gallery/") {
        let (before, from) = rest.split_at(at + "src=\"".len());
        let end = from.find('"').ok_or("an unclosed src")?;
        let file = &from[..end];
        let kind = if file.ends_with(".svg") {
            "svg+xml"
        } else {
            "png"
        };
        page.push_str(before);
        let _ = write!(page, "data:image/{kind};base64,{}", base64(&read(file)?));
        rest = &from[end..];
    }
    page.push_str(rest);
    Ok(page)
}

/// Every markdown link `[text](target)` outside code blocks made whole on the rendered
/// page: a guide chapter's file to the chapter's page when `chapter_rendered` says this
/// build renders it, else to its published address; a document to its module; any other
/// file of the package named instead of linked. Addresses, intra-doc paths and fragments
/// stay.
pub fn links(text: &str, chapter_rendered: &dyn Fn(&str) -> bool) -> String {
    let mut page = String::new();
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            page.push_str(line);
        } else {
            links_of_line(line, chapter_rendered, &mut page);
        }
    }
    page
}

fn links_of_line(line: &str, chapter_rendered: &dyn Fn(&str) -> bool, page: &mut String) {
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let (Some(end), Some(open)) = (rest[at..].find(')'), rest[..at].rfind('[')) else {
            // No link here (or its label began on a line before): keep it, go on.
            page.push_str(&rest[..at + 2]);
            rest = &rest[at + 2..];
            continue;
        };
        let target = &rest[at + 2..at + end];
        let (file, fragment) = target.split_once('#').map_or((target, ""), |(f, r)| (f, r));
        let image = rest[..open].ends_with('!');
        let document = DOCUMENTS.iter().find(|(path, _)| *path == file);
        if let Some(chapter) = chapter_of(file) {
            let base = if chapter_rendered(&chapter) {
                "guide/"
            } else {
                GUIDE_ONLINE
            };
            let anchor = if fragment.is_empty() {
                String::new()
            } else {
                format!("#{fragment}")
            };
            let _ = write!(page, "{}]({base}{chapter}/index.html{anchor})", &rest[..at]);
        } else if let Some((_, module)) = document {
            let anchor = if fragment.is_empty() {
                String::new()
            } else {
                format!("#{fragment}")
            };
            let _ = write!(page, "{}]({module}{anchor})", &rest[..at]);
        } else if image
            || target.contains("://")
            || target.starts_with('#')
            || target.contains("::")
        {
            page.push_str(&rest[..at + end + 1]);
        } else {
            // A file or folder of the package with no page of its own: named, not linked.
            let label = &rest[open + 1..at];
            page.push_str(&rest[..open]);
            if label == target {
                let _ = write!(page, "`{target}`");
            } else {
                let _ = write!(page, "{label} (`{target}` in the package)");
            }
        }
        rest = &rest[at + end + 1..];
    }
    page.push_str(rest);
}

/// Standard base64 (RFC 4648) with padding.
pub fn base64(bytes: &[u8]) -> String {
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
