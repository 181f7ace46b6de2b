//! Mod files merged in order: each file adds, replaces, removes and appends by key, and
//! every entry remembers the file that wrote it, so a later error names both files.

use std::collections::HashMap;

use denizen_core::{DataError, quoted};

use crate::file::{
    FloorDef, GroupDef, LootDef, Removal, RowDef, SpeciesDef, TableDef, TablesFile, WanderingDef,
};

/// The kinds of keyed entries, as errors name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    Species,
    Group,
    Table,
    Loot,
}

impl Kind {
    /// The section that holds it.
    pub(crate) fn section(self) -> &'static str {
        match self {
            Kind::Species => "species",
            Kind::Group => "groups",
            Kind::Table => "tables",
            Kind::Loot => "loot",
        }
    }

    /// One entry of the kind, as an error names it ("no group `pack` is loaded").
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Kind::Species => "species",
            Kind::Group => "group",
            Kind::Table => "table",
            Kind::Loot => "loot table",
        }
    }

    /// The variant a removal writes.
    fn variant(self) -> &'static str {
        match self {
            Kind::Species => "Species",
            Kind::Group => "Group",
            Kind::Table => "Table",
            Kind::Loot => "Loot",
        }
    }
}

/// An entry and the file that wrote it.
#[derive(Clone, Debug)]
pub(crate) struct Written<T> {
    pub(crate) def: T,
    pub(crate) file: String,
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

    fn file_of(&self, key: &str) -> Option<&str> {
        let i = *self.index.get(key)?;
        self.entries[i].as_ref().map(|w| w.file.as_str())
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
    /// Who removed what: the file and how the removal is named there.
    pub(crate) removed: HashMap<(Kind, String), (String, String)>,
    pub(crate) floor: Option<Written<FloorDef>>,
    pub(crate) wandering: Option<Written<WanderingDef>>,
}

/// The most entries of one kind, rows of one table or items of one loot table the files
/// may give together.
pub const MAX_ENTRIES: usize = 10_000;

impl Merged {
    /// Applies one file: additions, replacements, removals, appendices, then settings.
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
        } = file;
        add_all(
            &mut self.species,
            species,
            name,
            Kind::Species,
            |d| &d.key,
            |d| d,
        )?;
        add_all(
            &mut self.groups,
            groups,
            name,
            Kind::Group,
            |d| &d.key,
            |d| d,
        )?;
        add_all(
            &mut self.tables,
            tables,
            name,
            Kind::Table,
            |d| &d.key,
            |d| table(d, name),
        )?;
        add_all(&mut self.loot, loot, name, Kind::Loot, |d| &d.key, |d| d)?;
        replace_all(
            &mut self.species,
            replace.species,
            name,
            Kind::Species,
            |d| &d.key,
            |d| d,
        )?;
        replace_all(
            &mut self.groups,
            replace.groups,
            name,
            Kind::Group,
            |d| &d.key,
            |d| d,
        )?;
        replace_all(
            &mut self.tables,
            replace.tables,
            name,
            Kind::Table,
            |d| &d.key,
            |d| table(d, name),
        )?;
        replace_all(
            &mut self.loot,
            replace.loot,
            name,
            Kind::Loot,
            |d| &d.key,
            |d| d,
        )?;
        for (i, removal) in remove.into_iter().enumerate() {
            self.remove(removal, i, name)?;
        }
        for (i, appendix) in append.into_iter().enumerate() {
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
            let rows = appendix.rows.into_iter().map(|def| Written {
                def,
                file: name.to_owned(),
            });
            target.def.rows.extend(rows);
            if target.def.rows.len() > MAX_ENTRIES {
                return Err(DataError::invalid(
                    name,
                    entry,
                    "rows",
                    format!("the table would hold more than {MAX_ENTRIES} rows"),
                ));
            }
        }
        if let Some(def) = floor {
            self.floor = Some(Written {
                def,
                file: name.to_owned(),
            });
        }
        if let Some(def) = wandering {
            self.wandering = Some(Written {
                def,
                file: name.to_owned(),
            });
        }
        Ok(())
    }

    fn remove(&mut self, removal: Removal, i: usize, name: &str) -> Result<(), DataError> {
        let (kind, key) = match removal {
            Removal::Species(k) => (Kind::Species, k),
            Removal::Group(k) => (Kind::Group, k),
            Removal::Table(k) => (Kind::Table, k),
            Removal::Loot(k) => (Kind::Loot, k),
        };
        let found = match kind {
            Kind::Species => self.species.take(&key),
            Kind::Group => self.groups.take(&key),
            Kind::Table => self.tables.take(&key),
            Kind::Loot => self.loot.take(&key),
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

/// A table definition as merged: its rows moved out, each with the file.
fn table(mut def: TableDef, name: &str) -> MergedTable {
    let rows = std::mem::take(&mut def.rows)
        .into_iter()
        .map(|def| Written {
            def,
            file: name.to_owned(),
        })
        .collect();
    MergedTable { def, rows }
}

/// Adds entries whose keys must be new.
fn add_all<D, T>(
    keyed: &mut Keyed<T>,
    defs: Vec<D>,
    name: &str,
    kind: Kind,
    key: impl Fn(&D) -> &String,
    into: impl Fn(D) -> T,
) -> Result<(), DataError> {
    for (i, def) in defs.into_iter().enumerate() {
        let k = key(&def).clone();
        let entry = format!("{}[{i}] {}", kind.section(), quoted(&k));
        check_key(&k, name, &entry)?;
        if let Some(earlier) = keyed.file_of(&k) {
            return Err(DataError::invalid(
                name,
                entry,
                "key",
                format!("already loaded from {earlier}: a later file changes it under `replace`"),
            ));
        }
        if keyed.entries.len() >= MAX_ENTRIES {
            return Err(DataError::invalid(
                name,
                entry,
                "key",
                format!("more than {MAX_ENTRIES} {} in all", kind.section()),
            ));
        }
        keyed.add(
            &k,
            Written {
                def: into(def),
                file: name.to_owned(),
            },
        );
    }
    Ok(())
}

/// Replaces entries whose keys must be loaded.
fn replace_all<D, T>(
    keyed: &mut Keyed<T>,
    defs: Vec<D>,
    name: &str,
    kind: Kind,
    key: impl Fn(&D) -> &String,
    into: impl Fn(D) -> T,
) -> Result<(), DataError> {
    for (i, def) in defs.into_iter().enumerate() {
        let k = key(&def).clone();
        let entry = format!("replace.{}[{i}] {}", kind.section(), quoted(&k));
        let Some(slot) = keyed.slot(&k) else {
            return Err(DataError::invalid(
                name,
                entry,
                "key",
                format!("no {} {} is loaded to replace", kind.noun(), quoted(&k)),
            ));
        };
        *slot = Some(Written {
            def: into(def),
            file: name.to_owned(),
        });
    }
    Ok(())
}

/// The longest key: keys are names in a file, not text.
const MAX_KEY_BYTES: usize = 64;

fn check_key(key: &str, file: &str, entry: &str) -> Result<(), DataError> {
    let fit = !key.is_empty()
        && key.len() <= MAX_KEY_BYTES
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if fit {
        Ok(())
    } else {
        Err(DataError::invalid(
            file,
            entry,
            "key",
            format!("a key is 1 to {MAX_KEY_BYTES} letters, digits, `_` or `-`"),
        ))
    }
}
