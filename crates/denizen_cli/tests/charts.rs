//! `denizen chart`: each chart's SVG read back, its plotted values mapped through the
//! axes' own numbered ticks, and checked against the exact odds worked out here from the
//! rules (and shown to miss a wrong reading, such as the next depth's or the next map's,
//! by more than the reading's tolerance).

use std::path::PathBuf;
use std::process::Command;

use denizen_angband::{Allocator, DrawRequest, Races, UniqueLedger};
use denizen_captive::{EncounterSettings, EncounterTable, member_of};
use denizen_omega::{Odds, OmegaRules};

/// Runs `denizen chart ...`, writing into a folder of its own, removed once read; the
/// SVG's text.
fn chart(line: &str, name: &str) -> String {
    let folder = folder(name);
    let file = folder.join(format!("{name}.svg"));
    let out = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(line.split_whitespace())
        .arg("-o")
        .arg(&file)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("wrote {}\n", file.display())
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_dir_all(folder).unwrap();
    svg
}

/// A new folder for one chart, named after it so parallel tests never share one.
fn folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("denizen-charts-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// One element's attribute.
fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = element[start..].find('"')? + start;
    Some(&element[start..end])
}

/// Every element `<tag ...>` of the SVG, in document order, with the text it holds (for
/// `text`).
fn elements<'a>(svg: &'a str, tag: &str) -> Vec<(&'a str, String)> {
    svg.match_indices(&format!("<{tag} "))
        .map(|(at, _)| {
            let open = &svg[at..at + svg[at..].find('>').unwrap()];
            let body = &svg[at + open.len() + 1..];
            let text = body[..body.find('<').unwrap_or(0)].trim().to_owned();
            (open, text)
        })
        .collect()
}

fn number(text: &str) -> f64 {
    text.parse().unwrap()
}

/// A linear map from pixels to values, fitted on two ticks.
#[derive(Clone, Copy, Debug)]
struct Axis {
    pixel: f64,
    value: f64,
    per_pixel: f64,
}

impl Axis {
    fn of(ticks: &[(f64, f64)]) -> Self {
        let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
        Axis {
            pixel: first.0,
            value: first.1,
            per_pixel: (last.1 - first.1) / (last.0 - first.0),
        }
    }

    fn value(self, pixel: f64) -> f64 {
        self.value + (pixel - self.pixel) * self.per_pixel
    }

    /// How much one pixel is worth.
    fn step(self) -> f64 {
        self.per_pixel.abs()
    }
}

/// A panel's axes, read from its numbered ticks: the y ticks are right-aligned numbers
/// left of the plot, the x ticks centred numbers under it, in the panel between `top` and
/// `bottom` (pixels).
fn axes(svg: &str, top: f64, bottom: f64) -> (Axis, Axis) {
    let numbers: Vec<(f64, f64, bool, f64)> = elements(svg, "text")
        .into_iter()
        .filter_map(|(element, text)| {
            let value: f64 = text.parse().ok()?;
            let x = number(attribute(element, "x")?);
            let y = number(attribute(element, "y")?);
            let right = attribute(element, "text-anchor") == Some("end");
            (y >= top && y < bottom).then_some((x, y, right, value))
        })
        .collect();
    let mut ys: Vec<(f64, f64)> = numbers.iter().filter(|n| n.2).map(|n| (n.1, n.3)).collect();
    let mut xs: Vec<(f64, f64)> = numbers
        .iter()
        .filter(|n| !n.2)
        .map(|n| (n.0, n.3))
        .collect();
    ys.sort_by(|a, b| a.0.total_cmp(&b.0));
    xs.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(xs.len() >= 3 && ys.len() >= 3, "ticks {xs:?} {ys:?}");
    (Axis::of(&xs), Axis::of(&ys))
}

/// A polygon's or polyline's points.
fn points(element: &str) -> Vec<(f64, f64)> {
    attribute(element, "points")
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (number(x), number(y))
        })
        .collect()
}

/// The value a stepped line or edge has at `x`: the level segment over `x` (each x is a
/// step from half a unit before it to half a unit after; an edge may run either way).
fn at(line: &[(f64, f64)], x: f64, axes: (Axis, Axis)) -> f64 {
    let over = line
        .windows(2)
        .find(|pair| {
            let (a, b) = (axes.0.value(pair[0].0), axes.0.value(pair[1].0));
            pair[0].1 == pair[1].1 && a.min(b) < x && x < a.max(b)
        })
        .unwrap_or_else(|| panic!("no step over {x}"));
    axes.1.value(over[0].1)
}

/// The legend's labels, in order (the left-aligned texts).
fn legend(svg: &str) -> Vec<String> {
    elements(svg, "text")
        .into_iter()
        .filter(|(element, _)| attribute(element, "text-anchor") == Some("start"))
        .map(|(_, text)| text)
        .collect()
}

/// Goblin caves, depths 1-10: each stacked area's top edge is the sum of the exact shares
/// of its species and those below it; the shares of the next depth read wrong.
#[test]
fn the_odds_chart_stacks_the_exact_shares() {
    let svg = chart("chart odds goblin-caves --depths 1-10 --top 8", "odds");
    let axes = axes(&svg, 0.0, 540.0);
    // The legend lists the areas top first; the areas are drawn bottom first.
    let mut names = legend(&svg);
    names.reverse();
    assert_eq!(names.len(), 9, "{names:?}");
    assert!(names[8].ends_with(" others"));
    let rules = OmegaRules::shipped();
    let caves = rules.locations.get("goblin-caves").unwrap();
    let odds: Vec<Odds> = (1..=10)
        .map(|d| Odds::of(&caves.level(d).unwrap().selector))
        .collect();
    let share = |name: &str, depth: usize| -> f64 {
        match rules.bestiary.species().iter().position(|s| s.name == name) {
            Some(id) => odds[depth].species(denizen_omega::SpeciesId(id as u16)),
            None => f64::NAN,
        }
    };
    let areas: Vec<Vec<(f64, f64)>> = elements(&svg, "polygon")
        .iter()
        .map(|(e, _)| points(e))
        .collect();
    assert_eq!(areas.len(), 9);
    let tolerance = 3.0 * axes.1.step();
    let mut missed_by_a_wrong_rule = 0;
    for depth in 0..10 {
        let mut below = 0.0;
        for (area, name) in areas.iter().zip(&names).take(8) {
            below += share(name, depth);
            let top = &area[..area.len() / 2];
            let read = at(top, (depth + 1) as f64, axes);
            assert!(
                (read - below).abs() <= tolerance,
                "{name} at {}: {read} vs {below}",
                depth + 1
            );
            if depth < 9 {
                let wrong: f64 = names[..=names.iter().position(|n| n == name).unwrap()]
                    .iter()
                    .map(|n| share(n, depth + 1))
                    .sum();
                missed_by_a_wrong_rule += usize::from((read - wrong).abs() > tolerance);
            }
        }
        let all = &areas[8][..areas[8].len() / 2];
        assert!((at(all, (depth + 1) as f64, axes) - 1.0).abs() <= tolerance);
    }
    assert!(
        missed_by_a_wrong_rule > 30,
        "the next depth's shares read wrong"
    );
}

/// 2.7.9's rule for a room making its level special (the spoiler's): a nest or pit down
/// to depth `pit_cut` when randint(depth^2 + 1) < 300, a vault always down to 50, then
/// when randint((depth - 40)^2 + 1) < 400.
fn special(room: usize, depth: i64, pit_cut: i64) -> f64 {
    let below = |sides: i64, limit: i64| (limit - 1).min(sides) as f64 / sides as f64;
    match room {
        0 | 1 if depth > pit_cut => 0.0,
        0 | 1 => below(depth * depth + 1, 300),
        _ if depth <= 50 => 1.0,
        _ => below((depth - 40) * (depth - 40) + 1, 400),
    }
}

/// Nests and pits share one rule and the two vaults another: each pair is drawn as one
/// stepped line named for both (two equal lines drawn over each other read as one), at
/// every depth the spoiler's chance, and a pit rule cut at 50 reads wrong.
#[test]
fn the_feelings_chart_draws_the_spoilers_chances() {
    let svg = chart("chart angband feelings", "feelings");
    let axes = axes(&svg, 0.0, 540.0);
    assert_eq!(
        legend(&svg),
        ["nest and pit", "lesser-vault and greater-vault"]
    );
    let lines: Vec<Vec<(f64, f64)>> = elements(&svg, "polyline")
        .iter()
        .filter(|(e, _)| {
            attribute(e, "points").is_some_and(|p| p.split_whitespace().count() == 2 * 127)
        })
        .map(|(e, _)| points(e))
        .collect();
    assert_eq!(lines.len(), 2);
    let tolerance = 3.0 * axes.1.step();
    let mut wrong = 0;
    for (room, line) in [0, 2].into_iter().zip(&lines) {
        for depth in 1..=127 {
            assert_eq!(special(room, depth, 40), special(room + 1, depth, 40));
            let read = at(line, depth as f64, axes);
            let exact = special(room, depth, 40);
            assert!(
                (read - exact).abs() <= tolerance,
                "room {room} depth {depth}: {read} vs {exact}"
            );
            wrong += usize::from((read - special(room, depth, 50)).abs() > tolerance);
        }
    }
    assert!(wrong >= 8, "a pit rule cut at 50 reads wrong at 41-50");
}

/// Depths are whole: a depth's share is one level step from half a depth before it to
/// half a depth after, never a ramp to the next depth's.
#[test]
fn each_depth_is_a_step_of_its_own() {
    let svg = chart("chart odds goblin-caves --depths 1-10", "steps");
    let axes = axes(&svg, 0.0, 540.0);
    let bottom = points(elements(&svg, "polygon")[0].0);
    let top = &bottom[..bottom.len() / 2];
    assert_eq!(top.len(), 20, "two corners a depth");
    for (depth, corners) in (1..=10).zip(top.chunks(2)) {
        let (left, right) = (axes.0.value(corners[0].0), axes.0.value(corners[1].0));
        assert!(
            (left - (f64::from(depth) - 0.5)).abs() < 0.05,
            "{depth}: {left}"
        );
        assert!(
            (right - (f64::from(depth) + 0.5)).abs() < 0.05,
            "{depth}: {right}"
        );
        assert_eq!(corners[0].1, corners[1].1, "depth {depth} is level");
    }
}

/// The legend stands in its own column, right of the plot: no legend text or sample is
/// over the plot's area (it sat on the goblin caves' data at depths 8-10).
#[test]
fn the_legend_stands_beside_the_plot() {
    let svg = chart("chart odds goblin-caves --depths 1-10", "legend");
    let axes = axes(&svg, 0.0, 540.0);
    // The plot ends at the last depth's right edge, 10.5.
    let plot_right = axes.0.pixel + (10.5 - axes.0.value) / axes.0.per_pixel;
    let labels: Vec<f64> = elements(&svg, "text")
        .into_iter()
        .filter(|(element, _)| attribute(element, "text-anchor") == Some("start"))
        .map(|(element, _)| number(attribute(element, "x").unwrap()))
        .collect();
    assert_eq!(labels.len(), 9);
    assert!(
        labels.iter().all(|&x| x > plot_right),
        "{labels:?} vs {plot_right}"
    );
}

#[test]
fn the_alloc_chart_draws_the_exact_odds_by_race_level() {
    let svg = chart("chart angband alloc 20", "alloc");
    let axes = axes(&svg, 0.0, 540.0);
    let allocator = Allocator::new(Races::shipped());
    let live = UniqueLedger::new();
    let odds = allocator.odds(&DrawRequest::new(20, 20, &live));
    let mut by_level = [0.0; 128];
    for race in &odds.races {
        by_level[usize::from(allocator.races().get(race.race).unwrap().level)] += race.probability;
    }
    let out_of_depth: f64 = by_level[21..].iter().sum();
    assert!(
        legend(&svg).contains(&format!("out of depth: {:.2}%", out_of_depth * 100.0)),
        "{:?}",
        legend(&svg)
    );
    let bars: Vec<(f64, f64, String)> = elements(&svg, "rect")
        .iter()
        .filter_map(|(e, _)| {
            let (x, y) = (number(attribute(e, "x")?), number(attribute(e, "y")?));
            let (w, h) = (
                number(attribute(e, "width")?),
                number(attribute(e, "height")?),
            );
            let level = axes.0.value(x + w / 2.0);
            let value = axes.1.value(y) - axes.1.value(y + h);
            // A bar stands on the axis (the legend's sample does not).
            let on_axis = axes.1.value(y + h).abs() <= axes.1.step();
            (w < 40.0 && h > 0.0 && on_axis)
                .then(|| (level, value, attribute(e, "fill").unwrap().to_owned()))
        })
        .filter(|(level, _, _)| *level > -0.5)
        .collect();
    let tolerance = 3.0 * axes.1.step();
    let (mut seen, mut shifted_misses) = (0, 0);
    for (level, value, fill) in &bars {
        let level = level.round() as usize;
        assert!(
            (value - by_level[level]).abs() <= tolerance,
            "level {level}: {value} vs {}",
            by_level[level]
        );
        // Grouped one level off, the odds would read wrong.
        shifted_misses += usize::from((value - by_level[level + 1]).abs() > tolerance);
        let marked = fill == "#D62728";
        assert_eq!(
            marked,
            level > 20,
            "level {level} is out of depth only past 20"
        );
        seen += 1;
    }
    assert!(seen >= 20, "{bars:?}");
    assert!(shifted_misses >= 10, "levels one off read wrong");
}

/// The least, the mean and the greatest of a member's number over every word, worked out
/// here from the one rule (`member_of`) that the generator also reads.
fn spread(
    t: &denizen_captive::EncounterType,
    map: u32,
    settings: &EncounterSettings,
    value: fn(&denizen_captive::Member) -> u32,
) -> (f64, f64, f64) {
    let values: Vec<f64> = (0..=u16::MAX)
        .map(|r| f64::from(value(&member_of(t, map, settings, r, 0, 0))))
        .collect();
    let least = values.iter().copied().fold(f64::INFINITY, f64::min);
    let greatest = values.iter().copied().fold(0.0, f64::max);
    (
        least,
        values.iter().sum::<f64>() / values.len() as f64,
        greatest,
    )
}

/// Type 4 with the prose's growth: the strength band and mean, armature's and skill's
/// means, each cap, checked map by map (and the next map's numbers read wrong); with no
/// type given, the strongest type is drawn.
#[test]
fn the_encounters_chart_draws_each_maps_members() {
    let svg = chart(
        "chart encounters --type 4 --maps 0-87 --growth prose",
        "encounters",
    );
    let table = EncounterTable::shipped();
    let t = table.get(4).unwrap();
    let settings = EncounterSettings {
        growth: denizen_captive::Growth::Prose,
        ..EncounterSettings::default()
    };
    let strength = axes(&svg, 0.0, 540.0);
    let stats = axes(&svg, 540.0, 1080.0);
    // The strength panel's mean, a step a map (the legend's samples and the caps are
    // two-point lines).
    let lines: Vec<Vec<(f64, f64)>> = elements(&svg, "polyline")
        .iter()
        .map(|(e, _)| points(e))
        .filter(|p| p.len() == 2 * 88)
        .collect();
    assert_eq!(lines.len(), 1, "the strength mean");
    let band: Vec<(f64, f64)> = points(elements(&svg, "polygon")[0].0);
    let (top, bottom) = band.split_at(2 * 88);
    // The caps: long level lines above the axes (which are level lines at 0).
    let caps: Vec<f64> = elements(&svg, "polyline")
        .iter()
        .map(|(e, _)| points(e))
        .filter(|p| p.len() == 2 && p[0].0 < p[1].0 - 100.0 && p[0].1 == p[1].1)
        .map(|p| p[0].1)
        .filter(|&y| {
            let axes = if y < 540.0 { strength } else { stats };
            axes.1.value(y) > 1.0
        })
        .collect();
    assert_eq!(caps.len(), 2, "{caps:?}");
    assert!((strength.1.value(caps[0]) - 65_500.0).abs() <= 3.0 * strength.1.step());
    assert!((stats.1.value(caps[1]) - 253.0).abs() <= 3.0 * stats.1.step());
    // With the prose's growth every member's armature and skill are at the cap from map 1
    // on (not at map 0): the second panel says so and ends two maps later, at map 3,
    // instead of a flat line at the cap to map 87.
    let least = |map: u32| {
        let (armature, _, _) = spread(t, map, &settings, |m| m.armature);
        let (skill, _, _) = spread(t, map, &settings, |m| m.skill);
        armature.min(skill)
    };
    assert!(least(0) < 253.0);
    assert!(
        (1..=87)
            .step_by(7)
            .chain([87])
            .all(|map| least(map) == 253.0)
    );
    assert!(svg.contains(
        "armature and skill of an encounter 4 member by map (all at the cap from map 1)"
    ));
    let stat_means: Vec<Vec<(f64, f64)>> = elements(&svg, "polyline")
        .iter()
        .map(|(e, _)| points(e))
        .filter(|p| p.len() == 2 * 4)
        .collect();
    assert_eq!(
        stat_means.len(),
        2,
        "armature's and skill's means, maps 0-3"
    );
    for map in 0..=3u32 {
        let x = f64::from(map);
        let (_, armature, _) = spread(t, map, &settings, |m| m.armature);
        let (_, skill, _) = spread(t, map, &settings, |m| m.skill);
        assert!((at(&stat_means[0], x, stats) - armature).abs() <= 3.0 * stats.1.step());
        assert!((at(&stat_means[1], x, stats) - skill).abs() <= 3.0 * stats.1.step());
    }
    let mut next_map_misses = 0;
    for map in [10u32, 25, 40, 60, 87] {
        let (least, mean, greatest) = spread(t, map, &settings, |m| m.strength);
        let x = f64::from(map);
        let near =
            |read: f64, exact: f64, axes: (Axis, Axis)| (read - exact).abs() <= 3.0 * axes.1.step();
        assert!(
            near(at(&lines[0], x, strength), mean, strength),
            "map {map} strength mean"
        );
        assert!(
            near(at(top, x, strength), greatest, strength),
            "map {map} strength greatest"
        );
        assert!(
            near(at(bottom, x, strength), least, strength),
            "map {map} strength least"
        );
        // Below the cap, where a map's members are stronger than the map before's.
        if map <= 40 {
            let (_, next, _) = spread(t, map + 1, &settings, |m| m.strength);
            next_map_misses += usize::from(!near(at(&lines[0], x, strength), next, strength));
        }
    }
    assert_eq!(next_map_misses, 3, "the next map's strength reads wrong");

    let strongest = (0..=63u8)
        .filter_map(|id| table.get(id).map(|t| (t.strength, std::cmp::Reverse(id))))
        .max()
        .map(|(_, std::cmp::Reverse(id))| table.get(id).unwrap().name.clone())
        .unwrap();
    let default = chart("chart encounters --maps 0-10", "encounters-default");
    assert!(
        default.contains(&format!("of an {strongest} member")),
        "{strongest}"
    );
}

/// `--png` writes a PNG beside the SVG; a bad request writes nothing.
#[test]
fn png_beside_and_nothing_on_error() {
    let folder = folder("png");
    let file = folder.join("feelings-png.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(["chart", "angband", "feelings", "--png", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let png = std::fs::read(file.with_extension("png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let bad = folder.join("bad.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args(["chart", "odds", "atlantis", "-o"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("atlantis"));
    assert!(!bad.exists());
    std::fs::remove_dir_all(folder).unwrap();
}

/// `-o` never replaces anything but a regular file, and a refused chart leaves nothing:
/// not the SVG when the PNG's place is a folder, no temporary file beside a folder, a
/// link or a device. A name of 254 bytes is taken whole.
#[test]
fn a_chart_replaces_only_regular_files_and_leaves_nothing_when_refused() {
    let folder = folder("refused");
    let run = |args: &[&str], out: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_denizen"))
            .args(["chart", "angband", "feelings"])
            .args(args)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap()
    };
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    // The PNG's place is a folder: neither file is written.
    std::fs::create_dir(folder.join("x.png")).unwrap();
    let out = run(&["--png"], &folder.join("x.svg"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a folder"));
    assert_eq!(listing(), ["x.png"]);
    // A folder, a link and a device are refused and left as they were.
    let link = folder.join("link.svg");
    std::os::unix::fs::symlink(folder.join("elsewhere.svg"), &link).unwrap();
    for (target, what) in [
        (folder.clone(), "is a folder"),
        (link.clone(), "is a symbolic link"),
        (std::path::PathBuf::from("/dev/null"), "not a regular file"),
    ] {
        let out = run(&[], &target);
        assert_eq!(out.status.code(), Some(2), "{}", target.display());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(what) && err.lines().count() == 1, "{err}");
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(listing(), ["link.svg", "x.png"]);
    // The longest name a file may have, and a regular file replaced.
    let long = folder.join(format!("{}.svg", "n".repeat(250)));
    for _ in 0..2 {
        let out = run(&[], &long);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(std::fs::read_to_string(&long).unwrap().starts_with("<svg"));
    assert_eq!(listing().len(), 3, "{:?}", listing());
    std::fs::remove_dir_all(folder).unwrap();
}

/// A chart over a few depths numbers its depth axis with whole depths, each once (five
/// depths were labelled `1 2 2 2 3 4 4 4 5`).
#[test]
fn a_short_depth_axis_is_numbered_once_a_depth() {
    let svg = chart("chart odds goblin-caves --depths 1-5", "five-depths");
    let mut labels: Vec<(f64, String)> = elements(&svg, "text")
        .into_iter()
        .filter(|(element, text)| {
            attribute(element, "text-anchor") == Some("middle") && text.parse::<f64>().is_ok()
        })
        .map(|(element, text)| (number(attribute(element, "x").unwrap()), text))
        .collect();
    labels.sort_by(|a, b| a.0.total_cmp(&b.0));
    let texts: Vec<&str> = labels.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["1", "2", "3", "4", "5"]);
}

/// The gallery the README shows is what the charts draw now: each SVG of `docs/gallery` is
/// the one its line of `scripts/gallery.sh` draws (the script is read, so the two never
/// part).
#[test]
fn the_readmes_gallery_is_drawn_anew() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = std::fs::read_to_string(root.join("scripts/gallery.sh")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut drawn = 0;
    for line in script
        .lines()
        .filter_map(|l| l.strip_prefix("denizen chart "))
    {
        let (args, out) = line.split_once(" -o ").expect("each chart names its file");
        let file = out.trim().trim_matches('"').replace("$out/", "");
        let name = file.trim_end_matches(".svg");
        let args = args.replace(" --png", "");
        let svg = chart(&format!("chart {args}"), &format!("gallery-{name}"));
        let kept = std::fs::read_to_string(root.join("docs/gallery").join(&file)).unwrap();
        assert!(
            svg == kept,
            "docs/gallery/{file} is not what `denizen chart {args}` draws: run scripts/gallery.sh"
        );
        // The PNG beside it (what the README shows) was drawn at the SVG's size: its size,
        // from its header, is the SVG's (its pixels depend on the machine's fonts).
        let png = std::fs::read(root.join(format!("docs/gallery/{name}.png"))).unwrap();
        let header = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        let (svg_open, _) = elements(&kept, "svg")[0];
        let size = |name| attribute(svg_open, name).unwrap().parse::<u32>().unwrap();
        assert_eq!(
            (header(16), header(20)),
            (size("width"), size("height")),
            "docs/gallery/{name}.png"
        );
        drawn += 1;
    }
    assert_eq!(drawn, 5, "the script's charts");
    assert!(readme.contains("docs/gallery/encounters.png"));
}

/// The tables' chart names as many species as `--top` says (every one with `all`), marks
/// the uniques and the species that lead a group, names its files in its title, draws from
/// another table with `--table`, and refuses depths past the floor's.
#[cfg(feature = "tables")]
#[test]
fn the_tables_chart_names_the_top_species_and_marks_uniques_and_leaders() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../denizen_tables/data");
    let b = denizen_tables::starter().unwrap();
    let ledger = denizen_tables::UniqueLedger::new();
    let seen: Vec<usize> = (0..b.species().len())
        .filter(|&s| {
            (1..=20).any(|d| {
                let odds = denizen_tables::odds(
                    &b,
                    d,
                    &ledger,
                    &denizen_tables::Context::new(),
                    denizen_tables::Per::Floor,
                );
                odds.unwrap().expected[s] > 0.0
            })
        })
        .collect();
    let all = chart(
        &format!("chart tables {data} --depths 1-20 --top all"),
        "tables-all",
    );
    let names = legend(&all);
    assert_eq!(names.len(), seen.len(), "{names:?}");
    assert!(names.iter().all(|n| !n.ends_with(" others")));
    for &s in &seen {
        let species = &b.species()[s];
        let shown = names
            .iter()
            .find(|n| *n == &species.name || n.starts_with(&format!("{} (", species.name)))
            .unwrap_or_else(|| panic!("{} is not named: {names:?}", species.name));
        assert_eq!(shown.contains("unique"), species.unique, "{shown}");
    }
    assert!(
        names
            .iter()
            .any(|n| n == "scrapcur packleader (leads a group)"),
        "{names:?}"
    );
    let title = &elements(&all, "text")[0].1;
    assert_eq!(
        title,
        "Expected creatures per floor by depth (starter.tables.ron, starter_mod.tables.ron)"
    );

    let three = chart(
        &format!("chart tables {data} --depths 1-20 --top 3"),
        "tables-3",
    );
    let names = legend(&three);
    assert_eq!(names.len(), 4, "{names:?}");
    assert_eq!(names[0], format!("{} others", seen.len() - 3));

    let wanderers = chart(
        &format!("chart tables {data} --depths 1-20 --table wanderers"),
        "tables-wanderers",
    );
    assert!(
        elements(&wanderers, "text")[0]
            .1
            .contains(", from table `wanderers` (")
    );

    let past = Command::new(env!("CARGO_BIN_EXE_denizen"))
        .args([
            "chart",
            "tables",
            data,
            "--depths",
            "1-251",
            "-o",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert_eq!(past.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&past.stderr),
        "denizen: --depths 1-251: the floor's depths are 1-20\n"
    );
}
