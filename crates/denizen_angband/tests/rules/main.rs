//! Angband rules tests by topic.

mod alloc;
mod layout;
mod levels;
mod specials;
mod traps;
