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
