//! The bounds every text of a bestiary keeps, wherever it comes from: a key, a name, a
//! tag, a role, an item. The files are checked against them when they load, and a save's
//! creatures against the same when it is read, so a save holds nothing a file could not.

/// The longest key: keys are names in a file, not text.
pub const MAX_KEY_BYTES: usize = 64;
/// The longest name (a species') or item.
pub const MAX_NAME_BYTES: usize = 200;
/// The longest tag or role.
pub const MAX_TAG_BYTES: usize = 64;
/// The most tags a species or a rule lists.
pub const MAX_TAG_NAMES: usize = 32;
/// The most values of a species' `data`.
pub const MAX_DATA: usize = 32;

/// A key: 1 to [`MAX_KEY_BYTES`] letters, digits, `_` or `-`.
pub(crate) fn key(key: &str) -> Result<(), String> {
    let fits = !key.is_empty()
        && key.len() <= MAX_KEY_BYTES
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    fits.then_some(())
        .ok_or_else(|| format!("a key is 1 to {MAX_KEY_BYTES} letters, digits, `_` or `-`"))
}

/// A text of at most `max` bytes with no control character.
pub(crate) fn text(text: &str, max: usize) -> Result<(), String> {
    (text.len() <= max && !text.chars().any(char::is_control))
        .then_some(())
        .ok_or_else(|| format!("at most {max} bytes, no control characters"))
}

/// A list of tags: at most [`MAX_TAG_NAMES`], each a text of at most [`MAX_TAG_BYTES`];
/// the error names the tag at fault by its place.
pub(crate) fn tags(names: &[String]) -> Result<(), (Option<usize>, String)> {
    if names.len() > MAX_TAG_NAMES {
        return Err((None, format!("at most {MAX_TAG_NAMES} tags")));
    }
    for (i, name) in names.iter().enumerate() {
        text(name, MAX_TAG_BYTES).map_err(|problem| (Some(i), problem))?;
    }
    Ok(())
}

/// A species' data: at most [`MAX_DATA`] values, each named by a key, each text at most
/// [`MAX_NAME_BYTES`] bytes (integers are any `i64`); the error names the value at fault.
pub(crate) fn data(
    data: &std::collections::BTreeMap<String, crate::Datum>,
) -> Result<(), (Option<&str>, String)> {
    if data.len() > MAX_DATA {
        return Err((None, format!("at most {MAX_DATA} values")));
    }
    for (name, value) in data {
        key(name).map_err(|problem| (Some(name.as_str()), problem))?;
        if let crate::Datum::Str(t) = value {
            text(t, MAX_NAME_BYTES).map_err(|problem| (Some(name.as_str()), problem))?;
        }
    }
    Ok(())
}

/// A glyph: a character that shows and takes its own cell.
pub(crate) fn glyph(glyph: char) -> Result<(), String> {
    denizen_core::data::visible_glyph(glyph)
        .then_some(())
        .ok_or_else(|| {
            format!(
                "a glyph is a visible character that takes its own cell, not {}",
                glyph.escape_unicode()
            )
        })
}
