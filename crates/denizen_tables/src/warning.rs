//! What the lint warns of ([`crate::lint`]), each with the entry it is about.

use std::fmt;

use denizen_core::quoted;

use crate::source::Source;
use crate::weight::Depths;

/// A problem the lint found, with where the files wrote what it is about ([`Source`]:
/// the file and the entry as that file names it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// Depths inside a table's span (its rows' shallowest to deepest) where no row is
    /// eligible: a draw there brings nothing.
    NoEligibleRow {
        /// The table.
        table: String,
        /// Where the table was written.
        at: Source,
        /// The depths, as ranges.
        depths: Vec<Depths>,
    },
    /// A row whose weight is 0 at every depth of its range: it never comes.
    ZeroWeight {
        /// The table.
        table: String,
        /// Where the row was written.
        at: Source,
        /// What the row draws (`species `pup``).
        what: String,
    },
    /// A row whose shape rounds its weight down to 0 at some depths of its range.
    RoundsToZero {
        /// The table.
        table: String,
        /// Where the row was written.
        at: Source,
        /// What the row draws (`species `pup``).
        what: String,
        /// The depths, as ranges.
        depths: Vec<Depths>,
    },
    /// A species the floor's table can bring whose cost is more than any budget the floor
    /// can roll: every placement bringing it is discarded.
    CostOverBudget {
        /// The species.
        species: String,
        /// Where it was written.
        at: Source,
        /// Its cost.
        cost: u32,
        /// The floor (the default one, or a branch's) whose budget it passes.
        floor: Source,
        /// The largest budget the floor can roll.
        budget: u32,
    },
    /// A species no table reaches from the floor's or the wandering table.
    Unreached {
        /// The species.
        species: String,
        /// Where it was written.
        at: Source,
    },
    /// A follower whose table has no eligible row at any depth where its group comes.
    FollowerNeverEligible {
        /// The group.
        group: String,
        /// Where the group was written.
        at: Source,
        /// The follower kind's place in the group.
        follower: usize,
        /// The table the follower is drawn from.
        table: String,
    },
    /// A row naming a table at depths where that table has no eligible row: a draw of the
    /// row there brings nothing.
    NestedEmpty {
        /// The table whose row it is.
        table: String,
        /// Where the row was written.
        at: Source,
        /// The table it names.
        nested: String,
        /// The depths, as ranges.
        depths: Vec<Depths>,
    },
    /// A unique the wandering table can bring.
    UniqueWanders {
        /// The species.
        species: String,
        /// Where it was written.
        at: Source,
    },
    /// Floor depths whose out-of-depth boost reaches past every row of the floor's
    /// table: there the boost never happens.
    BoostBeyondRows {
        /// Where the floor's rules were written.
        at: Source,
        /// The floor depths, as ranges.
        depths: Vec<Depths>,
    },
    /// A row whose `when` can never hold (a flag both needed and forbidden, every `any`
    /// flag forbidden, a range outside its integer's declared one): it never comes.
    WhenNeverHolds {
        /// The table.
        table: String,
        /// Where the row was written.
        at: Source,
        /// Why.
        why: String,
    },
    /// A row whose `when` range reaches past its integer's declared range: the part
    /// outside can never be asked for.
    WhenPastRange {
        /// The table.
        table: String,
        /// Where the row was written.
        at: Source,
        /// The integer.
        value: String,
        /// The row's range.
        range: (i64, i64),
        /// The declared range.
        declared: (i64, i64),
    },
    /// Floor depths where, with the context flags `flags` set and the others not (the
    /// integers at their defaults), no row of the floor's table is eligible: a floor there
    /// in that context brings nothing.
    ContextGap {
        /// Where the floor's table was written.
        at: Source,
        /// The flags set in the first such combination.
        flags: Vec<String>,
        /// How many other combinations leave depths empty.
        others: usize,
        /// The depths of the first combination, as ranges.
        depths: Vec<Depths>,
        /// When the rows name more flags than every combination is tried for, how many
        /// combinations were (none set, and each alone).
        checked: Option<usize>,
    },
}

impl Warning {
    /// Where the files wrote what it is about.
    pub fn at(&self) -> &Source {
        match self {
            Warning::NoEligibleRow { at, .. }
            | Warning::ZeroWeight { at, .. }
            | Warning::RoundsToZero { at, .. }
            | Warning::Unreached { at, .. }
            | Warning::CostOverBudget { at, .. }
            | Warning::FollowerNeverEligible { at, .. }
            | Warning::NestedEmpty { at, .. }
            | Warning::UniqueWanders { at, .. }
            | Warning::BoostBeyondRows { at, .. }
            | Warning::WhenNeverHolds { at, .. }
            | Warning::WhenPastRange { at, .. }
            | Warning::ContextGap { at, .. } => at,
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::NoEligibleRow { at, depths, .. } => {
                write!(f, "{at}: no eligible row at depths {}", ranges(depths))
            }
            Warning::ZeroWeight { at, what, .. } => {
                write!(f, "{at} ({what}): weight 0 at every depth of its range")
            }
            Warning::RoundsToZero {
                at, what, depths, ..
            } => write!(
                f,
                "{at} ({what}): its shape rounds its weight to 0 at depths {}",
                ranges(depths)
            ),
            Warning::Unreached { at, .. } => write!(f, "{at}: no table reaches this species"),
            Warning::CostOverBudget {
                at,
                cost,
                floor,
                budget,
                ..
            } => write!(
                f,
                "{at}: field `cost`: {cost} is more than {budget}, the largest budget of {}: every placement bringing it is discarded",
                floor.entry
            ),
            Warning::FollowerNeverEligible {
                at,
                follower,
                table,
                ..
            } => write!(
                f,
                "{at}: field `followers[{follower}].member`: table {} is never eligible at the group's depths",
                quoted(table)
            ),
            Warning::NestedEmpty {
                at, nested, depths, ..
            } => write!(
                f,
                "{at} (table {}): that table has no eligible row at depths {}",
                quoted(nested),
                ranges(depths)
            ),
            Warning::UniqueWanders { at, .. } => {
                write!(f, "{at}: a unique in the wandering table")
            }
            Warning::BoostBeyondRows { at, depths } => write!(
                f,
                "{at}: the out-of-depth boost at depths {} reaches past every row of the floor's table",
                ranges(depths)
            ),
            Warning::WhenNeverHolds { at, why, .. } => {
                write!(f, "{at}: field `when` can never hold: {why}")
            }
            Warning::WhenPastRange {
                at,
                value,
                range,
                declared,
                ..
            } => write!(
                f,
                "{at}: field `when.values`: {} {}-{} reaches past its declared range {}-{}",
                quoted(value),
                range.0,
                range.1,
                declared.0,
                declared.1
            ),
            Warning::ContextGap {
                at,
                flags,
                others,
                depths,
                checked,
            } => {
                let set = match flags.is_empty() {
                    true => "no context flag".to_owned(),
                    false => format!("context flags {}", flags.join(", ")),
                };
                write!(
                    f,
                    "{at}: with {set} set, no row is eligible at floor depths {}",
                    ranges(depths)
                )?;
                match others {
                    0 => {}
                    1 => write!(f, " (1 other combination leaves depths empty too)")?,
                    n => write!(f, " ({n} other combinations leave depths empty too)")?,
                }
                if let Some(n) = checked {
                    write!(
                        f,
                        " ({n} combinations checked: none set, and each flag alone)"
                    )?;
                }
                Ok(())
            }
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
