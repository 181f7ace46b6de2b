//! Temporary stand-in for the classic layout while it is merged.
use crate::cave::{BuiltRoom, Cave, Pos};
use denizen_core::Generator;

/// Switches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutOptions {
    /// Quest level.
    pub quest: bool,
    /// Seal unreachable floor.
    pub seal_unreachable: bool,
}
/// Guards.
pub trait Guards {
    /// Places one guard.
    fn guard(&mut self, cave: &mut Cave, rng: &mut Generator, at: Pos, level: i32);
}
impl Guards for () {
    fn guard(&mut self, _: &mut Cave, _: &mut Generator, _: Pos, _: i32) {}
}
/// A layout.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Cave.
    pub cave: Cave,
    /// Rooms.
    pub rooms: Vec<BuiltRoom>,
    /// Destroyed.
    pub destroyed: bool,
    /// Monster level.
    pub monster_level: i32,
    /// Objects.
    pub objects: Vec<Pos>,
}
/// Generate.
pub fn generate(rng: &mut Generator, depth: i32, _options: &LayoutOptions, guards: &mut impl Guards) -> Layout {
    let mut cave = Cave::new();
    for y in 1..65 { for x in 1..197 { cave.set_terrain(Pos::new(y, x), crate::cave::terrain::FLOOR); } }
    cave.set_player(Pos::new(1, 1));
    guards.guard(&mut cave, rng, Pos::new(30, 30), depth + 2);
    Layout { cave, rooms: Vec::new(), destroyed: false, monster_level: depth, objects: Vec::new() }
}
