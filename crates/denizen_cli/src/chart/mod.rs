//! `denizen chart`: the rules' exact odds as pictures, written as SVG (and as PNG with
//! `--png`): a location's species by depth, the chance Angband's special rooms make a level
//! special, one Angband draw by race level, Captive members' numbers by map, and a game's
//! own bestiary's expected counts by depth.

#[cfg(feature = "angband")]
pub mod angband;
#[cfg(feature = "captive")]
pub mod captive;
pub mod data;
mod draw;
#[cfg(feature = "omega")]
pub mod omega;
#[cfg(feature = "tables")]
pub mod tables;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{CliError, io_error, stdout};
use data::Plot;

#[cfg(any(
    feature = "omega",
    feature = "captive",
    feature = "angband",
    feature = "tables"
))]
/// What to draw.
#[derive(Debug, clap::Subcommand)]
pub enum ChartCommand {
    /// The exact share of each species in one placement at each depth of a location, as
    /// stacked areas: the species with the largest shares named, the rest gathered.
    #[cfg(feature = "omega")]
    Odds {
        /// Location key, such as goblin-caves or volcano.
        location: String,
        /// The depths, `FIRST-LAST` (the dungeon's; all of them by default).
        #[arg(long, value_parser = span)]
        depths: Option<(u32, u32)>,
        /// How many species to name (1 to 9); the rest are gathered.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=9))]
        top: u8,
        /// Where to write.
        #[command(flatten)]
        out: ChartOut,
        /// Omega's data files.
        #[command(flatten)]
        data: crate::omega::OmegaData,
    },
    /// Angband 2.7.9's charts.
    #[cfg(feature = "angband")]
    Angband {
        /// Which.
        #[command(subcommand)]
        chart: AngbandChart,
    },
    /// Captive: the strength, armature and skill of one encounter type's members by map
    /// number, least to greatest with the mean, and the caps.
    #[cfg(feature = "captive")]
    Encounters {
        /// The encounter type (0-63); the strongest in the table by default.
        #[arg(long = "type")]
        type_id: Option<u8>,
        /// Armature and skill: as the generator's code rolls them, or growing with the
        /// map as the guide's prose says.
        #[arg(long, value_enum, default_value_t = crate::captive::GrowthArg::Code)]
        growth: crate::captive::GrowthArg,
        /// The maps, `FIRST-LAST` (0 to 127).
        #[arg(long, value_parser = span, default_value = "0-87")]
        maps: (u32, u32),
        /// Where to write.
        #[command(flatten)]
        out: ChartOut,
    },
    /// A game's own bestiary: the expected count of each species per floor by depth,
    /// stacked (as `denizen tables chart`), from its files or their folder.
    #[cfg(feature = "tables")]
    Tables(tables::ChartArgs),
}

/// Angband 2.7.9's charts.
#[cfg(feature = "angband")]
#[derive(Debug, clap::Subcommand)]
pub enum AngbandChart {
    /// The chance that a nest, a pit, a lesser and a greater vault make the level special,
    /// by depth 1 to 127.
    Feelings {
        /// Where to write.
        #[command(flatten)]
        out: ChartOut,
    },
    /// The exact odds of one draw at a depth by race level, the out-of-depth share marked.
    Alloc {
        /// The depth (1 to 127), which is also the draw's monster level.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=127))]
        depth: i32,
        /// Where to write.
        #[command(flatten)]
        out: ChartOut,
    },
}

/// Where a chart goes.
#[derive(Debug, clap::Args)]
pub struct ChartOut {
    /// The SVG file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub file: PathBuf,
    /// Also write a PNG beside it (the same name ending in `.png`).
    #[arg(long)]
    pub png: bool,
}

#[cfg(any(
    feature = "omega",
    feature = "captive",
    feature = "angband",
    feature = "tables"
))]
impl ChartCommand {
    /// Whether it reads Omega's data files.
    #[cfg(feature = "omega")]
    pub fn reads_omega_data(&self) -> bool {
        matches!(self, ChartCommand::Odds { .. })
    }
}

/// `FIRST-LAST`, in order, each at most 127.
#[cfg(any(feature = "omega", feature = "captive"))]
fn span(text: &str) -> Result<(u32, u32), String> {
    let usage = || {
        format!(
            "{}: expected FIRST-LAST, such as 1-10",
            denizen_core::quoted(text)
        )
    };
    let (first, last) = text.split_once('-').ok_or_else(usage)?;
    let (first, last): (u32, u32) = (
        first.trim().parse().map_err(|_| usage())?,
        last.trim().parse().map_err(|_| usage())?,
    );
    if first > last || last > 127 {
        return Err(format!(
            "{}: FIRST must not pass LAST, nor LAST 127",
            denizen_core::quoted(text)
        ));
    }
    Ok((first, last))
}

#[cfg(any(
    feature = "omega",
    feature = "captive",
    feature = "angband",
    feature = "tables"
))]
/// Draws the chart asked for (Omega's with the data files given before the command,
/// `before`), writes it, and says where.
pub fn run(
    chart: &ChartCommand,
    #[cfg(feature = "omega")] before: &crate::omega::OmegaData,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let (plots, to): (Vec<Plot>, &ChartOut) = match chart {
        #[cfg(feature = "omega")]
        ChartCommand::Odds {
            location,
            depths,
            top,
            out,
            data,
        } => {
            let rules = crate::omega::load_rules(&data.or(before))?;
            (
                vec![omega::odds_by_depth(
                    &rules,
                    location,
                    *depths,
                    usize::from(*top),
                )?],
                out,
            )
        }
        #[cfg(feature = "angband")]
        ChartCommand::Angband {
            chart: AngbandChart::Feelings { out },
        } => (vec![angband::feeling_chances()], out),
        #[cfg(feature = "angband")]
        ChartCommand::Angband {
            chart: AngbandChart::Alloc { depth, out },
        } => (vec![angband::alloc_by_level(*depth)], out),
        #[cfg(feature = "captive")]
        ChartCommand::Encounters {
            type_id,
            growth,
            maps,
            out,
        } => {
            let plots = captive::member_stats(*type_id, (*growth).into(), *maps)?;
            (plots.to_vec(), out)
        }
        #[cfg(feature = "tables")]
        ChartCommand::Tables(args) => (vec![tables::plot(args)?], &args.out),
    };
    write_chart(&plots, to, out)
}

/// Writes a chart's plots where asked, and says where.
pub(crate) fn write_chart(
    plots: &[Plot],
    to: &ChartOut,
    out: &mut impl Write,
) -> Result<(), CliError> {
    write_picture(draw::svg(plots)?, to, out)
}

/// Writes a picture drawn as SVG (a chart, a floor's map), and its PNG when asked, or a
/// report page (never with a PNG), and says where.
pub(crate) fn write_picture(
    svg: String,
    to: &ChartOut,
    out: &mut impl Write,
) -> Result<(), CliError> {
    for file in write(svg, to)? {
        writeln!(out, "wrote {}", file.display()).map_err(stdout)?;
    }
    Ok(())
}

/// Writes the SVG, and the PNG when asked: all drawn first, every destination checked
/// (absent, or a regular file: never a folder, a link, a device or a pipe), then each
/// written beside its place under a short temporary name and renamed into it only once
/// every one is written whole, so a refused or failed write leaves none of them.
fn write(svg: String, to: &ChartOut) -> Result<Vec<PathBuf>, CliError> {
    let mut files = vec![(to.file.clone(), svg.clone().into_bytes())];
    if to.png {
        let png = to.file.with_extension("png");
        if png == to.file {
            return Err(CliError::Usage(format!(
                "{}: -o names the SVG; --png writes the same name ending in .png beside it",
                to.file.display()
            )));
        }
        files.push((png, rasterise(&svg)?));
    }
    for (path, _) in &files {
        replaceable(path)?;
    }
    // In the destination's folder (a rename stays on one file system), short enough for
    // any name the destination may have.
    let partial = |path: &Path, i: usize| {
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        let name = format!(".denizen-{}-{i}.partial", std::process::id());
        folder.map_or_else(|| PathBuf::from(&name), |f| f.join(&name))
    };
    let mut written = Vec::new();
    for (i, (path, bytes)) in files.iter().enumerate() {
        let result = std::fs::write(partial(path, i), bytes);
        written.push(partial(path, i));
        if let Err(e) = result {
            written.iter().for_each(|p| drop(std::fs::remove_file(p)));
            return Err(io_error(path)(e));
        }
    }
    for (i, (path, _)) in files.iter().enumerate() {
        if let Err(e) = std::fs::rename(partial(path, i), path) {
            written.iter().for_each(|p| drop(std::fs::remove_file(p)));
            return Err(io_error(path)(e));
        }
    }
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

/// Whether a chart may be written at `path`: nothing there, or a regular file it replaces.
fn replaceable(path: &Path) -> Result<(), CliError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) => {
            let what = if meta.is_dir() {
                "a folder"
            } else if meta.file_type().is_symlink() {
                "a symbolic link"
            } else {
                "not a regular file (a device or a pipe)"
            };
            Err(CliError::Usage(format!(
                "{}: is {what}: a chart, picture or page replaces only a regular file",
                denizen_core::quoted(&path.display().to_string())
            )))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error(path)(e)),
    }
}

/// The SVG drawn as a PNG, its text in the system's fonts (the charts ask for
/// `sans-serif`, which is the first sans-serif face the system has; a system with no
/// fonts gets the picture without its text).
fn rasterise(svg: &str) -> Result<Vec<u8>, CliError> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    let mut families: Vec<String> = fonts
        .faces()
        .flat_map(|face| face.families.iter().map(|(name, _)| name.clone()))
        .filter(|name| name.contains("Sans") && !name.contains("Mono"))
        .collect();
    families.sort_unstable();
    if let Some(sans) = families.first() {
        fonts.set_sans_serif_family(sans.clone());
    }
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| CliError::Chart(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| CliError::Chart("the chart has no area".into()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| CliError::Chart(e.to_string()))
}
