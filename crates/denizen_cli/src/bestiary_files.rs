//! A game's bestiary files as the `denizen tables` and `denizen chart tables` commands read
//! them: named one by one or as a folder, merged in order, with the uniques the game's
//! ledger holds killed.

use std::path::PathBuf;

use denizen_core::{DataFile, quoted, read_data_file};
use denizen_tables::{Bestiary, Context, TableId, UniqueLedger};

use crate::error::{CliError, io_error, shown};

/// The bestiary's files, merged in order, and the uniques the game's ledger holds.
#[derive(Debug, clap::Args)]
pub struct Files {
    /// The files, base first, then mods in order. A folder stands for its `*.tables.ron`
    /// files in the order of their names (the asset folder a game loads them from).
    #[arg(required = true, num_args = 1..=denizen_tables::MAX_FILES)]
    pub files: Vec<PathBuf>,
    /// A unique the game reports killed (repeat for more): left out of every draw.
    #[arg(long, value_name = "SPECIES")]
    pub killed: Vec<String>,
}

/// The context a draw is made in: `--when night,winter --set difficulty=3`. Flags not
/// named are false; integers not set keep their declared defaults.
#[derive(Debug, clap::Args)]
pub struct ContextArgs {
    /// Context flags that hold, comma-separated.
    #[arg(long, value_name = "FLAG,...", value_delimiter = ',')]
    pub when: Vec<String>,
    /// A context integer, `NAME=VALUE` (repeat for more).
    #[arg(long, value_name = "NAME=VALUE", value_parser = name_value)]
    pub set: Vec<(String, i64)>,
}

impl ContextArgs {
    /// The context named, checked against the bestiary's declaration.
    pub(crate) fn context(&self, b: &Bestiary) -> Result<Context, CliError> {
        let flags = self.when.iter().fold(Context::new(), |c, f| c.with_flag(f));
        let context = (self.set.iter()).fold(flags, |c, (name, v)| c.with_value(name, *v));
        b.context()
            .check(&context)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(context)
    }
}

/// `NAME=VALUE`, the value an integer.
fn name_value(text: &str) -> Result<(String, i64), String> {
    let usage = || {
        format!(
            "{}: expected NAME=VALUE, such as difficulty=3",
            quoted(text)
        )
    };
    let (name, value) = text.split_once('=').ok_or_else(usage)?;
    let value = value.trim().parse().map_err(|_| usage())?;
    Ok((name.trim().to_owned(), value))
}

/// `FIRST-LAST`, in order.
pub(crate) fn depth_span(text: &str) -> Result<(u32, u32), String> {
    let usage = || format!("{}: expected FIRST-LAST, such as 1-20", quoted(text));
    let (first, last) = text.split_once('-').ok_or_else(usage)?;
    let first: u32 = first.trim().parse().map_err(|_| usage())?;
    let last: u32 = last.trim().parse().map_err(|_| usage())?;
    if first > last {
        return Err(format!("{}: FIRST must not pass LAST", quoted(text)));
    }
    Ok((first, last))
}

/// The files named, each folder replaced by its `*.tables.ron` files in the order of their
/// names.
pub(crate) fn paths(named: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut paths = Vec::new();
    for path in named {
        if !path.is_dir() {
            paths.push(path.clone());
            continue;
        }
        let mut found = Vec::new();
        for entry in std::fs::read_dir(path).map_err(io_error(path))? {
            let file = entry.map_err(io_error(path))?.path();
            let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
                return Err(CliError::Usage(format!(
                    "{}: the file's name is not UTF-8, so whether it is a *.tables.ron file cannot be told (rename it, or move it out of the folder)",
                    shown(&file)
                )));
            };
            if name.ends_with(".tables.ron") && file.is_file() {
                found.push(file);
            }
        }
        if found.is_empty() {
            return Err(CliError::Usage(format!(
                "{}: the folder holds no *.tables.ron file",
                shown(path)
            )));
        }
        found.sort();
        paths.extend(found);
    }
    Ok(paths)
}

/// Loads the files, and the ledger of the killed uniques named.
pub(crate) fn load(files: &Files) -> Result<(Bestiary, UniqueLedger), CliError> {
    let paths = paths(&files.files)?;
    let texts = paths
        .iter()
        .map(|path| read_data_file(path).map_err(io_error(path)))
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = paths.iter().map(|p| shown(p)).collect();
    let data: Vec<DataFile<'_>> = names
        .iter()
        .zip(&texts)
        .map(|(n, t)| DataFile::new(n, t))
        .collect();
    let bestiary = denizen_tables::load(&data)?;
    let mut ledger = UniqueLedger::new();
    for key in &files.killed {
        match bestiary.species_by_key(key) {
            Some(s) if bestiary.species_of(s).unique => ledger.killed(key),
            _ => {
                return Err(CliError::Usage(format!(
                    "--killed {}: no unique species of that key",
                    quoted(key)
                )));
            }
        }
    }
    Ok((bestiary, ledger))
}

/// Species in key order, with their ids' places.
pub(crate) fn by_key(b: &Bestiary) -> Vec<usize> {
    let mut order: Vec<usize> = (0..b.species().len()).collect();
    order.sort_by(|&x, &y| b.species()[x].key.cmp(&b.species()[y].key));
    order
}

/// The bestiary seen from the branch `--branch KEY` names (the default when none is).
pub(crate) fn in_branch(b: Bestiary, key: Option<&str>) -> Result<Bestiary, CliError> {
    let Some(key) = key else { return Ok(b) };
    let id = b.branch_by_key(key).ok_or_else(|| {
        let known: Vec<String> = b.branches().iter().map(|b| quoted(&b.key)).collect();
        let known = match known.is_empty() {
            true => "the files declare none".to_owned(),
            false => format!("the files declare {}", known.join(", ")),
        };
        CliError::Usage(format!(
            "--branch {}: no branch of that key ({known})",
            quoted(key)
        ))
    })?;
    Ok(b.in_branch(Some(id)))
}

/// The table `--table KEY` names, if given.
pub(crate) fn table_of(b: &Bestiary, key: Option<&str>) -> Result<Option<TableId>, CliError> {
    key.map(|key| {
        b.table_by_key(key).ok_or_else(|| {
            CliError::Usage(format!("--table {}: no table of that key", quoted(key)))
        })
    })
    .transpose()
}
