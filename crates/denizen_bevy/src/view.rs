//! Text views: the floor with each creature's glyph, whatever rule set spawned it.

use bevy_ecs::prelude::*;

use crate::floor::{Creature, Dormant, FloorMap, Glyph, GridPos};

/// The floor as text: tiles, with each creature's [`Glyph`] on its square (of several
/// creatures on one square, one of them is drawn; creatures of floors put away are not),
/// then a line naming the tiles drawn
/// (tile glyphs are never creature glyphs).
pub fn render_floor(world: &mut World) -> String {
    let mut query =
        world.query_filtered::<(&GridPos, &Glyph), (With<Creature>, Without<Dormant>)>();
    let mut creatures = std::collections::HashMap::new();
    for (at, glyph) in query.iter(world) {
        creatures.entry(*at).or_insert(glyph.0);
    }
    let floor = &world.resource::<FloorMap>().0;
    let map = floor.render(|at| creatures.get(&GridPos::from(at)).copied());
    format!("{map}{}\n", floor.legend())
}
