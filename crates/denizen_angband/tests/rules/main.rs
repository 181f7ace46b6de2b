//! Angband rules tests by topic.
