//! The field checks every Angband data file shares: numbers within bounds, short texts,
//! dice, and an entry's name cut short for its error line.

use denizen_core::{DataError, Dice, Entry};

/// The longest name, flag, blow or dice text an Angband data file may hold, in bytes.
pub const MAX_TEXT: usize = 80;

/// A name cut at [`MAX_TEXT`] bytes (on a character boundary), for an error's entry.
pub(crate) fn excerpt(text: &str) -> &str {
    let end = (0..=MAX_TEXT.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    &text[..end]
}

/// `value` if it lies in `low..=high`, else the entry's error naming `field`.
pub(crate) fn within(
    entry: &Entry<'_>,
    field: &str,
    value: i64,
    low: i64,
    high: i64,
) -> Result<i64, DataError> {
    if (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(entry.invalid(field, format!("{value} is outside {low}..={high}")))
    }
}

/// `text` if it holds 1 to [`MAX_TEXT`] bytes.
pub(crate) fn short<'t>(
    entry: &Entry<'_>,
    field: &str,
    text: &'t str,
) -> Result<&'t str, DataError> {
    if text.is_empty() || text.len() > MAX_TEXT {
        Err(entry.invalid(field, format!("must be 1 to {MAX_TEXT} bytes")))
    } else {
        Ok(text)
    }
}

/// Dice `XdY` of at most 255 dice of 255 sides.
pub(crate) fn dice(entry: &Entry<'_>, field: &str, text: &str) -> Result<Dice, DataError> {
    let dice: Dice = short(entry, field, text)?.parse().map_err(
        |error: denizen_core::rng::DiceParseError| entry.invalid(field, error.to_string()),
    )?;
    if dice.count > 255 || dice.sides > 255 {
        return Err(entry.invalid(field, format!("{dice}: at most 255 dice of 255 sides")));
    }
    Ok(dice)
}

/// A file's entries numbered upwards in file order, with the gaps the original leaves,
/// looked up by number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Numbered<T> {
    items: Vec<T>,
    /// The file position of each number (`None` where the numbering skips).
    slot_of: Vec<Option<u16>>,
}

impl<T> Numbered<T> {
    /// Every entry, in file order.
    pub(crate) fn all(&self) -> &[T] {
        &self.items
    }

    /// The file position of a number.
    pub(crate) fn slot(&self, number: u16) -> Option<usize> {
        self.slot_of
            .get(usize::from(number))
            .copied()
            .flatten()
            .map(usize::from)
    }

    /// The entry with a number.
    pub(crate) fn get(&self, number: u16) -> Option<&T> {
        self.slot(number).map(|slot| &self.items[slot])
    }
}

/// Loads a list of `records` (the file's `list` field, 1 to `max` of them, numbered
/// upwards from 1 to `max`): each is validated with the number of the one before it and
/// its entry (`list[slot] "name"`), and `number` reads a validated entry's number.
pub(crate) fn load_numbered<R, T>(
    file: &str,
    list: &str,
    records: Vec<R>,
    max: usize,
    name: impl Fn(&R) -> &str,
    validate: impl Fn(R, i64, &Entry<'_>) -> Result<T, DataError>,
    number: impl Fn(&T) -> u16,
) -> Result<Numbered<T>, DataError> {
    if records.is_empty() || records.len() > max {
        return Err(DataError::invalid(
            file,
            list,
            list,
            format!("{} entries; a file holds 1 to {max}", records.len()),
        ));
    }
    let mut items: Vec<T> = Vec::with_capacity(records.len());
    for (slot, record) in records.into_iter().enumerate() {
        let label = format!("{list}[{slot}] {:?}", excerpt(name(&record)));
        let after = items.last().map_or(0, |item| i64::from(number(item)));
        items.push(validate(record, after, &Entry::new(file, &label))?);
    }
    let mut slot_of = vec![None; items.last().map_or(0, |item| usize::from(number(item))) + 1];
    for (slot, item) in items.iter().enumerate() {
        slot_of[usize::from(number(item))] = Some(slot as u16);
    }
    Ok(Numbered { items, slot_of })
}

/// An entry's number: above the one before it (`after`) and at most `max`.
pub(crate) fn number_after(
    entry: &Entry<'_>,
    index: i64,
    after: i64,
    max: usize,
) -> Result<u16, DataError> {
    if index <= after || index > max as i64 {
        return Err(entry.invalid(
            "index",
            format!(
                "{index}: entries are numbered upwards in file order, from {} to {max}",
                after + 1
            ),
        ));
    }
    Ok(index as u16)
}

/// Whether a file's flag list (kind, ego item or artifact) names `CURSED`.
pub(crate) fn is_cursed(flags: &[String]) -> bool {
    flags.iter().any(|flag| flag == "CURSED")
}
