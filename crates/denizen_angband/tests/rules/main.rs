//! Angband rules tests by topic.

mod alloc;
mod data_errors;
mod layout;
mod levels;
mod magic;
mod objects;
mod original;
mod specials;
mod traps;
