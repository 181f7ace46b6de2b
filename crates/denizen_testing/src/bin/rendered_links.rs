//! `rendered_links PAGE...`: fails, listing each one, when a rendered documentation page
//! has a relative link or image that names no file (see `denizen_testing::rendered`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut broken = Vec::new();
    let mut pages = 0;
    for page in std::env::args_os().skip(1).map(std::path::PathBuf::from) {
        match std::fs::read_to_string(&page) {
            Ok(html) => broken.extend(denizen_testing::rendered::broken_links(&page, &html)),
            Err(e) => broken.push(format!("{}: {e}", page.display())),
        }
        pages += 1;
    }
    for line in &broken {
        eprintln!("{line}");
    }
    if pages == 0 || !broken.is_empty() {
        eprintln!("{} broken of the links of {pages} pages", broken.len());
        return ExitCode::FAILURE;
    }
    println!("every relative link and image of {pages} rendered pages names a file");
    ExitCode::SUCCESS
}
