//! What the lint warns of ([`crate::lint`]), each with the entry it is about.

use std::fmt;

use denizen_core::quoted;

use crate::weight::Depths;

/// A problem the lint found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// Depths inside a table's span (its rows' shallowest to deepest) where no row is
    /// eligible: a draw there brings nothing.
    NoEligibleRow {
        /// The table.
        table: String,
        /// The depths, as ranges.
        depths: Vec<Depths>,
    },
    /// A row whose weight is 0 at every depth of its range: it never comes.
    ZeroWeight {
        /// The table.
        table: String,
        /// The row's place.
        row: usize,
    },
    /// A row whose shape rounds its weight down to 0 at some depths of its range.
    RoundsToZero {
        /// The table.
        table: String,
        /// The row's place.
        row: usize,
        /// The depths, as ranges.
        depths: Vec<Depths>,
    },
    /// A species no table reaches from the floor's or the wandering table.
    Unreached {
        /// The species.
        species: String,
    },
    /// A follower whose table has no eligible row at any depth where its group comes.
    FollowerNeverEligible {
        /// The group.
        group: String,
        /// The follower kind's place.
        follower: usize,
    },
    /// A row naming a table at depths where that table has no eligible row: a draw of the
    /// row there brings nothing.
    NestedEmpty {
        /// The table whose row it is.
        table: String,
        /// The row's place.
        row: usize,
        /// The table it names.
        nested: String,
        /// The depths, as ranges.
        depths: Vec<Depths>,
    },
    /// A unique the wandering table can bring.
    UniqueWanders {
        /// The species.
        species: String,
    },
    /// Floor depths whose out-of-depth boost reaches past every row of the floor's
    /// table: there the boost never happens.
    BoostBeyondRows {
        /// The floor depths, as ranges.
        depths: Vec<Depths>,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::NoEligibleRow { table, depths } => {
                write!(
                    f,
                    "table {}: no eligible row at depths {}",
                    quoted(table),
                    ranges(depths)
                )
            }
            Warning::ZeroWeight { table, row } => {
                write!(
                    f,
                    "table {}: rows[{row}] has weight 0 at every depth of its range",
                    quoted(table)
                )
            }
            Warning::RoundsToZero { table, row, depths } => write!(
                f,
                "table {}: rows[{row}]'s shape rounds its weight to 0 at depths {}",
                quoted(table),
                ranges(depths)
            ),
            Warning::Unreached { species } => {
                write!(f, "species {}: no table reaches it", quoted(species))
            }
            Warning::FollowerNeverEligible { group, follower } => write!(
                f,
                "group {}: followers[{follower}] is never eligible at the group's depths",
                quoted(group)
            ),
            Warning::NestedEmpty {
                table,
                row,
                nested,
                depths,
            } => write!(
                f,
                "table {}: rows[{row}] names table {}, which has no eligible row at depths {}",
                quoted(table),
                quoted(nested),
                ranges(depths)
            ),
            Warning::UniqueWanders { species } => {
                write!(
                    f,
                    "species {}: a unique in the wandering table",
                    quoted(species)
                )
            }
            Warning::BoostBeyondRows { depths } => write!(
                f,
                "floor: the out-of-depth boost at depths {} reaches past every row of the floor's table",
                ranges(depths)
            ),
        }
    }
}

/// Depth ranges as a message shows them: `3, 5-7`.
pub(crate) fn ranges(depths: &[Depths]) -> String {
    depths
        .iter()
        .map(|d| {
            if d.min() == d.max() {
                d.min().to_string()
            } else {
                d.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
