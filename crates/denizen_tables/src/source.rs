//! Where each entry of a bestiary was written: its file, and how that file names it, so
//! errors, warnings and explanations point at what the user wrote.

/// Where an entry of the files was written: the file, and how that file names the entry
/// (`tables[0] `floor``, `replace.species[2] `pup``, a row `append[1] `floor`: rows[3]`).
/// Shown as `file: entry`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Source {
    /// The file, as the load named it.
    pub file: String,
    /// The entry, as its file names it.
    pub entry: String,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.entry)
    }
}

/// Where every entry of a bestiary was written, by id.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sources {
    pub(crate) species: Vec<Source>,
    pub(crate) groups: Vec<Source>,
    pub(crate) tables: Vec<Source>,
    /// Each table's rows.
    pub(crate) rows: Vec<Vec<Source>>,
    pub(crate) loot: Vec<Source>,
    pub(crate) floor: Source,
    pub(crate) wandering: Option<Source>,
    /// Where each branch was written.
    pub(crate) branches: Vec<Source>,
    /// The files merged, in order.
    pub(crate) files: Vec<String>,
}
