//! The context a floor is drawn in: flags (`night`, `winter`, `festival`) and named
//! integers (`difficulty`, `day`) a bestiary declares, and the conditions (`when`) its
//! rows put on them. A row whose condition fails is not eligible, exactly as a row out of
//! its depths: the draw and the exact odds read the same test.
//!
//! A game names its context with [`Context`] (by names, so it survives a reload and a
//! save); each request resolves it against the bestiary's declaration, and a name the
//! bestiary does not declare, or an integer out of its range, is refused by name.

use std::collections::{BTreeMap, BTreeSet};

/// The most flags a bestiary may declare.
pub const MAX_FLAGS: usize = 64;
/// The most named integers a bestiary may declare.
pub const MAX_VALUES: usize = 16;
/// The largest magnitude of a context integer, its range's ends and a row's ranges.
pub const MAX_VALUE: i64 = 1_000_000_000;

/// A bestiary's declared context: its flags and named integers, in the files' order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// Flag names.
    pub flags: Vec<String>,
    /// Named integers.
    pub values: Vec<Value>,
}

/// A declared named integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// Its name.
    pub name: String,
    /// The values a request may give it, both ends included.
    pub min: i64,
    /// See `min`.
    pub max: i64,
    /// Its value when a request does not set it.
    pub default: i64,
}

/// A row's condition, resolved against the declaration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct When {
    /// Flags (a bit each, by declaration order) that must all hold.
    pub(crate) all: u64,
    /// Flags of which one must hold (no condition when 0).
    pub(crate) any: u64,
    /// Flags that must not hold.
    pub(crate) none: u64,
    /// Integers (by declaration order) and the range each must fall in.
    pub(crate) ranges: Vec<(usize, i64, i64)>,
}

impl When {
    /// Whether the condition holds in `c`: every `all` flag set, one `any` flag set
    /// (when any are listed), no `none` flag set, and every integer in its range.
    pub(crate) fn holds(&self, c: &Conditions) -> bool {
        c.flags & self.all == self.all
            && (self.any == 0 || c.flags & self.any != 0)
            && c.flags & self.none == 0
            && (self.ranges.iter()).all(|&(i, lo, hi)| (lo..=hi).contains(&c.values[i]))
    }
}

/// A context by name, as a game keeps it: the flags that hold and the integers set. A
/// flag not named is false; an integer not set has its declared default.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Context {
    flags: BTreeSet<String>,
    values: BTreeMap<String, i64>,
}

impl Context {
    /// The empty context: every flag false, every integer its default.
    pub fn new() -> Self {
        Self::default()
    }

    /// This context with `flag` holding.
    pub fn with_flag(mut self, flag: impl Into<String>) -> Self {
        self.flags.insert(flag.into());
        self
    }

    /// This context with `flag` not holding.
    pub fn without_flag(mut self, flag: &str) -> Self {
        self.flags.remove(flag);
        self
    }

    /// This context with the integer `name` set to `value`.
    pub fn with_value(mut self, name: impl Into<String>, value: i64) -> Self {
        self.values.insert(name.into(), value);
        self
    }

    /// The flags that hold, by name.
    pub fn flags(&self) -> impl Iterator<Item = &str> {
        self.flags.iter().map(String::as_str)
    }

    /// The integers set, by name.
    pub fn values(&self) -> impl Iterator<Item = (&str, i64)> {
        self.values.iter().map(|(k, &v)| (k.as_str(), v))
    }
}

/// Why a context cannot be used with a bestiary.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum ContextError {
    /// A flag the bestiary does not declare.
    #[error("context: flag `{0}` is not declared by the bestiary's `context`")]
    Flag(String),
    /// An integer the bestiary does not declare.
    #[error("context: integer `{0}` is not declared by the bestiary's `context`")]
    Value(String),
    /// An integer outside its declared range.
    #[error("context: integer `{name}` is {value}, outside its range {min}-{max}")]
    Range {
        /// The integer's name.
        name: String,
        /// The value given.
        value: i64,
        /// Its range's least value.
        min: i64,
        /// Its range's greatest value.
        max: i64,
    },
}

/// A context resolved against a declaration: a bit per flag and every integer's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Conditions {
    flags: u64,
    values: [i64; MAX_VALUES],
}

impl Conditions {
    /// These conditions with exactly the flags of `flags` set.
    pub(crate) fn with_flags(self, flags: u64) -> Self {
        Self { flags, ..self }
    }
}

impl Declared {
    /// The flag's bit, by name.
    pub(crate) fn flag(&self, name: &str) -> Option<u64> {
        (self.flags.iter().position(|f| f == name)).map(|i| 1 << i)
    }

    /// The integer's place, by name.
    pub(crate) fn value(&self, name: &str) -> Option<usize> {
        self.values.iter().position(|v| v.name == name)
    }

    /// Every flag false and every integer its default.
    pub(crate) fn defaults(&self) -> Conditions {
        let mut values = [0; MAX_VALUES];
        for (i, v) in self.values.iter().enumerate() {
            values[i] = v.default;
        }
        Conditions { flags: 0, values }
    }

    /// Whether `context` may be used with the bestiary: every name it gives declared and
    /// every integer in its range.
    pub fn check(&self, context: &Context) -> Result<(), ContextError> {
        self.resolve(context).map(drop)
    }

    /// `context` resolved: every name declared and every integer in its range.
    pub(crate) fn resolve(&self, context: &Context) -> Result<Conditions, ContextError> {
        let mut c = self.defaults();
        for name in &context.flags {
            c.flags |= self
                .flag(name)
                .ok_or_else(|| ContextError::Flag(name.clone()))?;
        }
        for (name, &value) in &context.values {
            let i = self
                .value(name)
                .ok_or_else(|| ContextError::Value(name.clone()))?;
            let v = &self.values[i];
            if !(v.min..=v.max).contains(&value) {
                return Err(ContextError::Range {
                    name: name.clone(),
                    value,
                    min: v.min,
                    max: v.max,
                });
            }
            c.values[i] = value;
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared() -> Declared {
        Declared {
            flags: vec!["night".into(), "winter".into(), "festival".into()],
            values: vec![Value {
                name: "difficulty".into(),
                min: 1,
                max: 5,
                default: 3,
            }],
        }
    }

    /// Each part of a condition against the flags and integers at its edges.
    #[test]
    fn a_condition_holds_by_each_of_its_parts() {
        let d = declared();
        let at = |flags: &[&str], difficulty: i64| {
            let c = flags.iter().fold(Context::new(), |c, f| c.with_flag(*f));
            d.resolve(&c.with_value("difficulty", difficulty)).unwrap()
        };
        let (night, winter, festival) = (1, 2, 4);
        let all = When {
            all: night | winter,
            ..When::default()
        };
        assert!(all.holds(&at(&["night", "winter"], 3)));
        assert!(!all.holds(&at(&["night"], 3)));
        let any = When {
            any: night | winter,
            ..When::default()
        };
        assert!(any.holds(&at(&["winter"], 3)));
        assert!(!any.holds(&at(&["festival"], 3)));
        let none = When {
            none: festival,
            ..When::default()
        };
        assert!(none.holds(&at(&["night"], 3)));
        assert!(!none.holds(&at(&["festival"], 3)));
        let range = When {
            ranges: vec![(0, 2, 4)],
            ..When::default()
        };
        assert_eq!(
            (1..=5)
                .map(|v| range.holds(&at(&[], v)))
                .collect::<Vec<_>>(),
            [false, true, true, true, false]
        );
        // An unset integer is its default (3), in range.
        assert!(range.holds(&d.resolve(&Context::new()).unwrap()));
        assert!(When::default().holds(&at(&[], 1)));
    }

    #[test]
    fn a_context_lists_what_it_sets_and_checks_against_the_declaration() {
        let c = Context::new()
            .with_flag("night")
            .with_value("difficulty", 4);
        assert_eq!(c.flags().collect::<Vec<_>>(), ["night"]);
        assert_eq!(c.values().collect::<Vec<_>>(), [("difficulty", 4)]);
        assert_eq!(declared().check(&c), Ok(()));
        let dusk = c.with_flag("dusk");
        assert_eq!(
            declared().check(&dusk),
            Err(ContextError::Flag("dusk".into()))
        );
    }

    #[test]
    fn undeclared_names_and_values_out_of_range_are_refused() {
        let d = declared();
        assert_eq!(
            d.resolve(&Context::new().with_flag("dusk")),
            Err(ContextError::Flag("dusk".into()))
        );
        assert_eq!(
            d.resolve(&Context::new().with_value("day", 1)),
            Err(ContextError::Value("day".into()))
        );
        for (value, ok) in [(0, false), (1, true), (5, true), (6, false)] {
            let resolved = d.resolve(&Context::new().with_value("difficulty", value));
            assert_eq!(resolved.is_ok(), ok, "{value}");
        }
    }
}
