//! Text views of any rule set's creatures: the floor with each creature's glyph, and what
//! each rule set says of its own creatures (their name, colour, sleep and hit points), so a
//! game's screen and messages need not know which rule set made a creature.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

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

/// What a rule set says of one of its creatures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// Its name, as the player reads it ("goblin", "Grip, Farmer Maggot's Dog").
    pub name: String,
    /// Its colour, one of [`COLOURS`].
    pub colour: &'static str,
    /// Asleep now.
    pub asleep: bool,
    /// Its hit points, where its rule set has them.
    pub hit_points: Option<i32>,
}

/// The colours a [`Description`] names: the sixteen of a text terminal, by the names a
/// game maps to its own palette.
pub const COLOURS: [&str; 16] = [
    "black",
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "white",
    "grey",
    "light red",
    "light green",
    "light yellow",
    "light blue",
    "light magenta",
    "light cyan",
    "bright white",
];

/// How a rule set describes a creature: `None` for an entity that is not one of its own.
/// Each rule set registers its own with [`RuleSet::describer`](crate::RuleSet::describer).
pub type Describer = fn(&World, Entity) -> Option<Description>;

/// The describers of the rule sets added, in order. Configuration, never saved.
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(opaque, Debug)]
pub struct Describers(pub(crate) Vec<Describer>);

/// What the rule set that made a creature says of it; `None` for an entity no rule set
/// describes.
pub fn describe(world: &World, entity: Entity) -> Option<Description> {
    let describers = world.get_resource::<Describers>()?;
    describers
        .0
        .iter()
        .find_map(|describe| describe(world, entity))
}

/// One line per creature awake on the current floor, in map order (top to bottom, left to
/// right), whatever its rule set: glyph, name, square, awake or asleep, hit points. Each
/// rule set's own roster says more (Omega's possessions, Captive's groups, Angband's
/// objects).
pub fn roster(world: &mut World) -> String {
    let mut query =
        world.query_filtered::<(Entity, &Glyph, &GridPos), (With<Creature>, Without<Dormant>)>();
    let mut rows: Vec<(Entity, Glyph, GridPos)> =
        query.iter(world).map(|(e, g, p)| (e, *g, *p)).collect();
    rows.sort_by_key(|&(entity, _, at)| (at.y, at.x, entity));
    let mut text = String::new();
    for (entity, glyph, at) in rows {
        let description = describe(world, entity);
        let name = description.as_ref().map_or("?", |d| d.name.as_str());
        let asleep = description.as_ref().is_some_and(|d| d.asleep);
        let hit_points = description
            .as_ref()
            .and_then(|d| d.hit_points)
            .map_or_else(|| "-".to_owned(), |hp| format!("{hp} hp"));
        let sleep = if asleep { "asleep" } else { "awake" };
        text.push_str(&format!(
            "{} {name:<28} ({:>2},{:>2})  {sleep:<6}  {hit_points}\n",
            glyph.0, at.x, at.y
        ));
    }
    text
}
