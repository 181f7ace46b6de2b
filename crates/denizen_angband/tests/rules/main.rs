//! Angband rules tests by topic.

mod alloc;
