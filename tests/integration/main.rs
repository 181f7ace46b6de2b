//! Integration tests of denizen's plugins through the facade's public API, one binary with
//! a module per topic (the rules have their own tests in their crates).

mod encounters;
mod floors;
mod layout;
mod plugin;
mod registration;
mod saves;
mod world;
