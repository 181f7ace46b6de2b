//! Time-of-day and season flags from a game clock: a day split into named parts (`night`,
//! `dawn`, `day`, `dusk`) and a year into named seasons, each as long as the game says.
//! [`Calendar::context_at`] sets the part's and the season's flags on a [`Context`] (and
//! clears the calendar's other flags), so a game that keeps its context in minutes of
//! game time needs one call before each request.

use crate::context::Context;

/// The most parts of a day or seasons of a year.
pub const MAX_PARTS: usize = 24;

/// A day's parts and a year's seasons, in order from midnight and from the year's first
/// day.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calendar {
    /// Each part of the day and its length in minutes (the day is their sum).
    parts: Vec<(String, u32)>,
    /// Each season and its length in days (the year is their sum).
    seasons: Vec<(String, u32)>,
}

/// Why a calendar cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CalendarError {
    /// No parts or seasons, or more than [`MAX_PARTS`].
    #[error("a calendar has 1 to {MAX_PARTS} parts of a day and 1 to {MAX_PARTS} seasons")]
    Count,
    /// A part or season of length 0.
    #[error("`{0}` has length 0")]
    Empty(String),
}

impl Calendar {
    /// A calendar of `parts` (name, minutes) and `seasons` (name, days). A name may come
    /// twice (night before dawn and after dusk).
    pub fn new(
        parts: Vec<(String, u32)>,
        seasons: Vec<(String, u32)>,
    ) -> Result<Self, CalendarError> {
        for list in [&parts, &seasons] {
            if list.is_empty() || list.len() > MAX_PARTS {
                return Err(CalendarError::Count);
            }
            if let Some((name, _)) = list.iter().find(|(_, n)| *n == 0) {
                return Err(CalendarError::Empty(name.clone()));
            }
        }
        Ok(Self { parts, seasons })
    }

    /// A 24-hour day (night to 05:00, dawn to 06:00, day to 19:00, dusk to 20:00, then
    /// night) and a year of four seasons of 91 days from spring (364 days).
    pub fn standard() -> Self {
        let named = |list: &[(&str, u32)]| list.iter().map(|&(n, l)| (n.to_owned(), l)).collect();
        Self {
            parts: named(&[
                ("night", 300),
                ("dawn", 60),
                ("day", 780),
                ("dusk", 60),
                ("night", 240),
            ]),
            seasons: named(&[
                ("spring", 91),
                ("summer", 91),
                ("autumn", 91),
                ("winter", 91),
            ]),
        }
    }

    /// The part of the day and the season at `minutes` of game time.
    pub fn at(&self, minutes: u64) -> (&str, &str) {
        let day: u64 = self.parts.iter().map(|p| u64::from(p.1)).sum();
        let year: u64 = self.seasons.iter().map(|s| u64::from(s.1)).sum();
        (
            find(&self.parts, minutes % day),
            find(&self.seasons, (minutes / day) % year),
        )
    }

    /// `context` with the part of the day's and the season's flags at `minutes` set and
    /// the calendar's other flags cleared.
    pub fn context_at(&self, context: Context, minutes: u64) -> Context {
        let (part, season) = self.at(minutes);
        let names = self
            .parts
            .iter()
            .chain(&self.seasons)
            .map(|(n, _)| n.as_str());
        names
            .fold(context, |c, n| c.without_flag(n))
            .with_flag(part)
            .with_flag(season)
    }
}

/// The name whose span holds `at` (lengths laid end to end from 0; `at` below their sum).
fn find(list: &[(String, u32)], mut at: u64) -> &str {
    for (name, length) in list {
        if at < u64::from(*length) {
            return name;
        }
        at -= u64::from(*length);
    }
    // Unreachable for `at` below the sum; the last name otherwise.
    list.last().map_or("", |(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The standard calendar at the edges of its parts and seasons.
    #[test]
    fn the_standard_calendar_changes_at_its_edges() {
        let c = Calendar::standard();
        let day = 24 * 60;
        for (minutes, part, season) in [
            (0, "night", "spring"),
            (299, "night", "spring"),
            (300, "dawn", "spring"),
            (359, "dawn", "spring"),
            (360, "day", "spring"),
            (1139, "day", "spring"),
            (1140, "dusk", "spring"),
            (1200, "night", "spring"),
            (day - 1, "night", "spring"),
            (90 * day + 600, "day", "spring"),
            (91 * day, "night", "summer"),
            (273 * day, "night", "winter"),
            (364 * day, "night", "spring"),
        ] {
            assert_eq!(c.at(minutes), (part, season), "minute {minutes}");
        }
    }

    #[test]
    fn the_calendar_sets_its_flags_and_clears_its_others() {
        let c = Calendar::standard();
        let before = Context::new().with_flag("day").with_flag("festival");
        let after = c.context_at(before, 100);
        assert_eq!(
            after.flags().collect::<Vec<_>>(),
            ["festival", "night", "spring"]
        );
    }

    #[test]
    fn empty_calendars_are_refused() {
        let day = vec![("day".to_owned(), 10)];
        assert_eq!(
            Calendar::new(vec![], day.clone()),
            Err(CalendarError::Count)
        );
        let empty = vec![("day".to_owned(), 10), ("dusk".to_owned(), 0)];
        assert_eq!(
            Calendar::new(empty, day),
            Err(CalendarError::Empty("dusk".to_owned()))
        );
    }
}
