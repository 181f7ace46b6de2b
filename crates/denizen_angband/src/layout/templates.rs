//! Vault templates: the maps lesser and greater vault rooms are stamped from, loaded from
//! a RON file (Angband 2.7.9's own ship with the crate) and checked so that every
//! template fits the blocks its room reserves and uses only symbols the builder knows.

use serde::Deserialize;

use super::blocks::Footprint;
use super::choice::RoomChoice;
use denizen_core::data::{DataError, DataFile, Entry, load_ron};

/// Angband 2.7.9's vault templates, shipped with the crate.
#[cfg(feature = "shipped")]
pub const ANGBAND_VAULTS: &str = include_str!("../../data/angband.vaults.ron");
/// The name [`VaultTemplates::shipped`] reports in errors.
pub const ANGBAND_VAULTS_FILE: &str = "angband.vaults.ron";

/// Slots of the vault table: a vault room draws slots `0..16` until one of its kind.
pub const VAULT_SLOTS: usize = 16;

/// The symbols a template may use.
pub const VAULT_SYMBOLS: &str = " .%#X+^*&@98,";

/// The longest name a template may have.
pub const MAX_NAME_LEN: usize = 100;

/// The largest rating a template may add (Angband's largest is 45).
pub const MAX_RATING: i32 = 10_000;

/// Which vault room a template is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum VaultKind {
    /// Room type 7: at most 22 x 33 cells, from depth 5.
    Lesser,
    /// Room type 8: at most 44 x 66 cells, from depth 10.
    Greater,
}

impl VaultKind {
    /// The room kind that stamps templates of this kind.
    pub fn room(self) -> RoomChoice {
        match self {
            VaultKind::Lesser => RoomChoice::LesserVault,
            VaultKind::Greater => RoomChoice::GreaterVault,
        }
    }

    /// The most rows and columns a template of this kind may have: its room's reserved
    /// grids.
    pub fn max_size(self) -> (i32, i32) {
        Footprint::of(self.room()).grid_size()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VaultFile {
    templates: Vec<TemplateData>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TemplateData {
    index: u32,
    name: String,
    kind: VaultKind,
    rating: i32,
    height: u32,
    width: u32,
    rows: Vec<String>,
}

/// One vault template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VaultTemplate {
    /// Its slot in the vault table (0..16).
    pub index: u8,
    /// Its name.
    pub name: String,
    /// Lesser or greater.
    pub kind: VaultKind,
    /// What it adds to the level's rating.
    pub rating: i32,
    /// Rows of cells.
    pub height: i32,
    /// Columns of cells.
    pub width: i32,
    cells: Vec<u8>,
}

impl VaultTemplate {
    /// The symbol at row `dy`, column `dx` (a space outside the template).
    pub fn cell(&self, dy: i32, dx: i32) -> u8 {
        if dy < 0 || dx < 0 || dy >= self.height || dx >= self.width {
            return b' ';
        }
        self.cells[(dy * self.width + dx) as usize]
    }

    /// How many cells hold `symbol`.
    pub fn count(&self, symbol: u8) -> usize {
        self.cells.iter().filter(|&&c| c == symbol).count()
    }
}

/// The templates of a vault file, by slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VaultTemplates {
    slots: [Option<VaultTemplate>; VAULT_SLOTS],
}

impl VaultTemplates {
    /// Angband 2.7.9's eleven templates.
    #[cfg(feature = "shipped")]
    pub fn shipped() -> Self {
        Self::from_file(DataFile::new(ANGBAND_VAULTS_FILE, ANGBAND_VAULTS))
            .expect("the embedded vault templates are valid (the test suite loads them)")
    }

    /// Loads and validates a vault file; `file` names it in errors.
    ///
    /// Checks: at most 16 templates, slot indices below 16 and unique, a name of 1 to 100
    /// characters, a rating in `0..=10000`, `height` rows of exactly `width` cells, only
    /// the symbols of [`VAULT_SYMBOLS`], a size that fits the kind's reserved grids
    /// (lesser 22 x 33, greater 44 x 66), and at least one template of each kind.
    pub fn from_file(source: DataFile<'_>) -> Result<Self, DataError> {
        let DataFile { name: file, text } = source;
        let data: VaultFile = load_ron(text, file)?;
        if data.templates.len() > VAULT_SLOTS {
            return Err(DataError::invalid(
                file,
                "templates",
                "templates",
                format!(
                    "{} templates; the table has {VAULT_SLOTS} slots",
                    data.templates.len()
                ),
            ));
        }
        let mut slots: [Option<VaultTemplate>; VAULT_SLOTS] = Default::default();
        for (i, t) in data.templates.into_iter().enumerate() {
            let name = format!("templates[{i}] {:?}", t.name);
            let entry = Entry::new(file, &name);
            let template = validate(t, &entry)?;
            let slot = &mut slots[usize::from(template.index)];
            if slot.is_some() {
                return Err(entry.invalid("index", "another template has this index"));
            }
            *slot = Some(template);
        }
        let templates = Self { slots };
        for kind in [VaultKind::Lesser, VaultKind::Greater] {
            if !templates.has(kind) {
                return Err(DataError::invalid(
                    file,
                    "templates",
                    "kind",
                    format!("no {kind:?} template"),
                ));
            }
        }
        Ok(templates)
    }

    /// The template in a slot.
    pub fn slot(&self, index: usize) -> Option<&VaultTemplate> {
        self.slots.get(index).and_then(Option::as_ref)
    }

    /// Every template, by slot.
    pub fn iter(&self) -> impl Iterator<Item = &VaultTemplate> {
        self.slots.iter().flatten()
    }

    /// Whether any template is of `kind`.
    pub fn has(&self, kind: VaultKind) -> bool {
        self.iter().any(|t| t.kind == kind)
    }
}

fn validate(t: TemplateData, entry: &Entry<'_>) -> Result<VaultTemplate, DataError> {
    let index = u8::try_from(t.index)
        .ok()
        .filter(|&i| usize::from(i) < VAULT_SLOTS)
        .ok_or_else(|| entry.invalid("index", format!("{} is not below {VAULT_SLOTS}", t.index)))?;
    let name_len = t.name.chars().count();
    if name_len == 0 || name_len > MAX_NAME_LEN {
        return Err(entry.invalid("name", format!("must have 1 to {MAX_NAME_LEN} characters")));
    }
    if !(0..=MAX_RATING).contains(&t.rating) {
        return Err(entry.invalid("rating", format!("{} is not in 0..={MAX_RATING}", t.rating)));
    }
    let (max_h, max_w) = t.kind.max_size();
    let height = i32::try_from(t.height).unwrap_or(i32::MAX);
    let width = i32::try_from(t.width).unwrap_or(i32::MAX);
    if !(1..=max_h).contains(&height) {
        return Err(entry.invalid(
            "height",
            format!(
                "{} is not in 1..={max_h} for a {:?} vault",
                t.height, t.kind
            ),
        ));
    }
    if !(1..=max_w).contains(&width) {
        return Err(entry.invalid(
            "width",
            format!("{} is not in 1..={max_w} for a {:?} vault", t.width, t.kind),
        ));
    }
    if t.rows.len() != t.height as usize {
        return Err(entry.invalid(
            "rows",
            format!("{} rows; height is {}", t.rows.len(), t.height),
        ));
    }
    let mut cells = Vec::with_capacity((height * width) as usize);
    for (r, row) in t.rows.iter().enumerate() {
        if let Some(bad) = row.chars().find(|&c| !VAULT_SYMBOLS.contains(c)) {
            return Err(entry.invalid(
                format!("rows[{r}]"),
                format!("unknown symbol {bad:?} (known: {VAULT_SYMBOLS:?})"),
            ));
        }
        if row.len() != t.width as usize {
            return Err(entry.invalid(
                format!("rows[{r}]"),
                format!("{} cells; width is {}", row.len(), t.width),
            ));
        }
        cells.extend_from_slice(row.as_bytes());
    }
    Ok(VaultTemplate {
        index,
        name: t.name,
        kind: t.kind,
        rating: t.rating,
        height,
        width,
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_has_seven_lesser_and_four_greater() {
        let t = VaultTemplates::shipped();
        let lesser: Vec<u8> = t
            .iter()
            .filter(|v| v.kind == VaultKind::Lesser)
            .map(|v| v.index)
            .collect();
        let greater: Vec<u8> = t
            .iter()
            .filter(|v| v.kind == VaultKind::Greater)
            .map(|v| v.index)
            .collect();
        assert_eq!(lesser, [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(greater, [10, 11, 12, 13]);
        let sizes: Vec<(i32, i32, i32)> = t.iter().map(|v| (v.height, v.width, v.rating)).collect();
        assert_eq!(sizes[1], (14, 20, 5));
        assert_eq!(
            sizes[7..],
            [(17, 39, 45), (18, 40, 35), (18, 40, 25), (15, 40, 25)]
        );
        // The catalogue's counts of the huge greater vault.
        let huge = t.slot(10).unwrap();
        assert_eq!(
            (huge.count(b'&'), huge.count(b'8'), huge.count(b'+')),
            (61, 70, 2)
        );
    }
}
