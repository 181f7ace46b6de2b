//! Mod files merged in order: each file adds, replaces, removes and appends by key, and
//! every entry remembers the file that wrote it, so a later error names both files.

use std::collections::HashMap;

use denizen_core::{DataError, quoted};

use crate::file::{
    Appendix, BranchDef, ContextDef, FloorDef, GroupDef, LootDef, Removal, RowDef, SpeciesDef,
    TableDef, TablesFile, WanderingDef,
};

/// The kinds of keyed entries, as errors name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    Species,
    Group,
    Table,
    Loot,
    Branch,
}

impl Kind {
    /// The section that holds it.
    pub(crate) fn section(self) -> &'static str {
        match self {
            Kind::Species => "species",
            Kind::Group => "groups",
            Kind::Table => "tables",
            Kind::Loot => "loot",
            Kind::Branch => "branches",
        }
    }

    /// One entry of the kind, as an error names it ("no group `pack` is loaded").
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Kind::Species => "species",
            Kind::Group => "group",
            Kind::Table => "table",
            Kind::Loot => "loot table",
            Kind::Branch => "branch",
        }
    }

    /// The variant a removal writes.
    fn variant(self) -> &'static str {
        match self {
            Kind::Species => "Species",
            Kind::Group => "Group",
            Kind::Table => "Table",
            Kind::Loot => "Loot",
            Kind::Branch => "Branch",
        }
    }
}

/// An entry that can be checked by itself, before the merge: everything it decides
/// alone (bounds, glyphs, dice, weights), with any key taken for a reference (the
/// compiler implements it with its own checks).
pub(crate) trait Alone: Sized {
    /// Checks the entry as written.
    fn alone(written: &Written<Self>) -> Result<(), DataError>;
}

/// An entry, the file that wrote it and how that file names it (`species[2] `pup``,
/// `replace.tables[0] `floor``, a row `append[1] `floor`: rows[3]`).
#[derive(Clone, Debug)]
pub(crate) struct Written<T> {
    pub(crate) def: T,
    pub(crate) file: String,
    pub(crate) entry: String,
}

/// Entries of one kind in load order, removed ones left as holes so positions hold.
#[derive(Clone, Debug)]
pub(crate) struct Keyed<T> {
    pub(crate) entries: Vec<Option<Written<T>>>,
    index: HashMap<String, usize>,
}

impl<T> Default for Keyed<T> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<T> Keyed<T> {
    /// The entries left, in load order.
    pub(crate) fn live(&self) -> impl Iterator<Item = &Written<T>> {
        self.entries.iter().flatten()
    }

    /// The live entry of `key`.
    fn written(&self, key: &str) -> Option<&Written<T>> {
        let i = *self.index.get(key)?;
        self.entries[i].as_ref()
    }

    fn add(&mut self, key: &str, written: Written<T>) {
        self.index.insert(key.to_owned(), self.entries.len());
        self.entries.push(Some(written));
    }

    /// Removes the entry of `key`; whether there was one.
    fn take(&mut self, key: &str) -> bool {
        self.slot(key).is_some_and(|slot| slot.take().is_some())
    }

    fn slot(&mut self, key: &str) -> Option<&mut Option<Written<T>>> {
        let i = *self.index.get(key)?;
        self.entries.get_mut(i).filter(|e| e.is_some())
    }
}

/// A table as merged: its definition (rows emptied) and its rows, each with its file.
#[derive(Clone, Debug)]
pub(crate) struct MergedTable {
    pub(crate) def: TableDef,
    pub(crate) rows: Vec<Written<RowDef>>,
}

/// Every file merged.
#[derive(Clone, Debug, Default)]
pub(crate) struct Merged {
    pub(crate) species: Keyed<SpeciesDef>,
    pub(crate) groups: Keyed<GroupDef>,
    pub(crate) tables: Keyed<MergedTable>,
    pub(crate) loot: Keyed<LootDef>,
    pub(crate) branches: Keyed<BranchDef>,
    /// Who removed what: the file and how the removal is named there.
    pub(crate) removed: HashMap<(Kind, String), (String, String)>,
    pub(crate) floor: Option<Written<FloorDef>>,
    pub(crate) wandering: Option<Written<WanderingDef>>,
    /// Each file's context declarations, in order (they add up).
    pub(crate) context: Vec<Written<ContextDef>>,
    /// The files applied, in order.
    pub(crate) files: Vec<String>,
}

/// The most entries of one kind, rows of one table or items of one loot table the files
/// may give together.
pub const MAX_ENTRIES: usize = 10_000;

impl Merged {
    /// Applies one file: additions, replacements, removals, appendices, then settings.
    /// Each entry is checked as written for what it decides by itself (bounds, glyphs,
    /// dice, weights), whether or not a later file replaces it; references are resolved
    /// after every file is applied, so a later file may still mend one.
    pub(crate) fn apply(&mut self, file: TablesFile, name: &str) -> Result<(), DataError> {
        let TablesFile {
            species,
            groups,
            tables,
            loot,
            replace,
            remove,
            append,
            floor,
            wandering,
            context,
            branches,
        } = file;
        self.files.push(name.to_owned());
        let s = "";
        add_all(
            &mut self.species,
            species,
            (name, s),
            Kind::Species,
            |d| &d.key,
            keep,
        )?;
        add_all(
            &mut self.groups,
            groups,
            (name, s),
            Kind::Group,
            |d| &d.key,
            keep,
        )?;
        add_all(
            &mut self.tables,
            tables,
            (name, s),
            Kind::Table,
            |d| &d.key,
            table,
        )?;
        add_all(
            &mut self.loot,
            loot,
            (name, s),
            Kind::Loot,
            |d| &d.key,
            keep,
        )?;
        add_all(
            &mut self.branches,
            branches,
            (name, s),
            Kind::Branch,
            |d| &d.key,
            keep,
        )?;
        let r = "replace.";
        let species = replace.species;
        replace_all(
            &mut self.species,
            species,
            (name, r),
            Kind::Species,
            |d| &d.key,
            keep,
        )?;
        let groups = replace.groups;
        replace_all(
            &mut self.groups,
            groups,
            (name, r),
            Kind::Group,
            |d| &d.key,
            keep,
        )?;
        let tables = replace.tables;
        replace_all(
            &mut self.tables,
            tables,
            (name, r),
            Kind::Table,
            |d| &d.key,
            table,
        )?;
        let loot = replace.loot;
        replace_all(
            &mut self.loot,
            loot,
            (name, r),
            Kind::Loot,
            |d| &d.key,
            keep,
        )?;
        let branches = replace.branches;
        replace_all(
            &mut self.branches,
            branches,
            (name, r),
            Kind::Branch,
            |d| &d.key,
            keep,
        )?;
        for (i, removal) in remove.into_iter().enumerate() {
            self.remove(removal, i, name)?;
        }
        for (i, appendix) in append.into_iter().enumerate() {
            self.append(appendix, i, name)?;
        }
        if let Some(def) = floor {
            let floor = Written {
                def,
                file: name.to_owned(),
                entry: "floor".to_owned(),
            };
            FloorDef::alone(&floor)?;
            self.floor = Some(floor);
        }
        if let Some(def) = wandering {
            let wandering = Written {
                def,
                file: name.to_owned(),
                entry: "wandering".to_owned(),
            };
            WanderingDef::alone(&wandering)?;
            self.wandering = Some(wandering);
        }
        if let Some(def) = context {
            self.context.push(Written {
                def,
                file: name.to_owned(),
                entry: "context".to_owned(),
            });
        }
        Ok(())
    }

    /// Adds an appendix's rows to the end of a loaded table, each checked as written.
    fn append(&mut self, appendix: Appendix, i: usize, name: &str) -> Result<(), DataError> {
        let entry = format!("append[{i}] {}", quoted(&appendix.table));
        let Some(Some(target)) = self.tables.slot(&appendix.table) else {
            return Err(DataError::invalid(
                name,
                entry,
                "table",
                format!(
                    "no table {} is loaded to append to",
                    quoted(&appendix.table)
                ),
            ));
        };
        if target.def.rows.len() + appendix.rows.len() > MAX_ENTRIES {
            return Err(DataError::invalid(
                name,
                entry,
                "rows",
                format!("the table would hold more than {MAX_ENTRIES} rows"),
            ));
        }
        for (j, def) in appendix.rows.into_iter().enumerate() {
            let row = Written {
                def,
                file: name.to_owned(),
                entry: format!("{entry}: rows[{j}]"),
            };
            RowDef::alone(&row)?;
            target.def.rows.push(row);
        }
        Ok(())
    }

    fn remove(&mut self, removal: Removal, i: usize, name: &str) -> Result<(), DataError> {
        let (kind, key) = match removal {
            Removal::Species(k) => (Kind::Species, k),
            Removal::Group(k) => (Kind::Group, k),
            Removal::Table(k) => (Kind::Table, k),
            Removal::Loot(k) => (Kind::Loot, k),
            Removal::Branch(k) => (Kind::Branch, k),
        };
        let found = match kind {
            Kind::Species => self.species.take(&key),
            Kind::Group => self.groups.take(&key),
            Kind::Table => self.tables.take(&key),
            Kind::Loot => self.loot.take(&key),
            Kind::Branch => self.branches.take(&key),
        };
        let entry = format!("remove[{i}] {}({})", kind.variant(), quoted(&key));
        if !found {
            return Err(DataError::invalid(
                name,
                entry,
                "",
                format!("no {} {} is loaded to remove", kind.noun(), quoted(&key)),
            ));
        }
        self.removed.insert((kind, key), (name.to_owned(), entry));
        Ok(())
    }
}

/// An entry as written, unchanged.
fn keep<D>(def: D, _file: &str, _entry: &str) -> D {
    def
}

/// A table definition as merged: its rows moved out, each with the file and its name
/// there.
fn table(mut def: TableDef, file: &str, entry: &str) -> MergedTable {
    let rows = std::mem::take(&mut def.rows)
        .into_iter()
        .enumerate()
        .map(|(j, def)| Written {
            def,
            file: file.to_owned(),
            entry: format!("{entry}: rows[{j}]"),
        })
        .collect();
    MergedTable { def, rows }
}

/// How a file names its `i`th entry of `kind`, under `prefix` (`replace.` or none).
fn entry_name(prefix: &str, kind: Kind, i: usize, key: &str) -> String {
    format!("{prefix}{}[{i}] {}", kind.section(), quoted(key))
}

/// Adds entries whose keys must be new, each checked as written.
fn add_all<D, T: Alone>(
    keyed: &mut Keyed<T>,
    defs: Vec<D>,
    (name, prefix): (&str, &str),
    kind: Kind,
    key: impl Fn(&D) -> &String,
    into: impl Fn(D, &str, &str) -> T,
) -> Result<(), DataError> {
    for (i, def) in defs.into_iter().enumerate() {
        let k = key(&def).clone();
        let entry = entry_name(prefix, kind, i, &k);
        check_key(&k, name, &entry)?;
        if let Some(earlier) = keyed.written(&k) {
            let problem = if earlier.file == name {
                format!(
                    "{} also names an entry of this file: a key names one entry",
                    earlier.entry
                )
            } else {
                format!(
                    "already loaded from {}: a later file changes it under `replace`",
                    earlier.file
                )
            };
            return Err(DataError::invalid(name, entry, "key", problem));
        }
        if keyed.entries.len() >= MAX_ENTRIES {
            return Err(DataError::invalid(
                name,
                entry,
                "key",
                format!("more than {MAX_ENTRIES} {} in all", kind.section()),
            ));
        }
        let written = Written {
            def: into(def, name, &entry),
            file: name.to_owned(),
            entry,
        };
        T::alone(&written)?;
        keyed.add(&k, written);
    }
    Ok(())
}

/// Replaces entries whose keys must be loaded, each checked as written.
fn replace_all<D, T: Alone>(
    keyed: &mut Keyed<T>,
    defs: Vec<D>,
    (name, prefix): (&str, &str),
    kind: Kind,
    key: impl Fn(&D) -> &String,
    into: impl Fn(D, &str, &str) -> T,
) -> Result<(), DataError> {
    for (i, def) in defs.into_iter().enumerate() {
        let k = key(&def).clone();
        let entry = entry_name(prefix, kind, i, &k);
        let Some(slot) = keyed.slot(&k) else {
            return Err(DataError::invalid(
                name,
                entry,
                "key",
                format!("no {} {} is loaded to replace", kind.noun(), quoted(&k)),
            ));
        };
        let written = Written {
            def: into(def, name, &entry),
            file: name.to_owned(),
            entry,
        };
        T::alone(&written)?;
        *slot = Some(written);
    }
    Ok(())
}

fn check_key(key: &str, file: &str, entry: &str) -> Result<(), DataError> {
    crate::bounds::key(key).map_err(|problem| DataError::invalid(file, entry, "key", problem))
}
