//! Text views: the floor with each creature's glyph, whatever rule set spawned it.

use bevy_ecs::prelude::*;

use crate::apply::{Creature, Glyph, GridPos};
use crate::floor::FloorMap;

/// The floor as text: tiles, with each creature's [`Glyph`] on its square (of several
/// creatures on one square, one of them is drawn).
pub fn render_floor(world: &mut World) -> String {
    let mut query = world.query_filtered::<(&GridPos, &Glyph), With<Creature>>();
    let mut creatures = std::collections::HashMap::new();
    for (at, glyph) in query.iter(world) {
        creatures.entry(*at).or_insert(glyph.0);
    }
    world
        .resource::<FloorMap>()
        .0
        .render(|at| creatures.get(&GridPos::from(at)).copied())
}
