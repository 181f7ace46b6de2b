//! The population system: plan a floor with the rules core, then spawn it in one pass.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::construct::{Builder, Identity as IdentityKind, Preference};
use denizen_core::floor::Square;
use denizen_core::populate::{FloorPlan, Placement, plan_fixed, plan_floor, plan_scatter};
use denizen_core::rng::Generator;

use crate::components::{
    Awareness, CombatStats, Disposition, Fixed, GridPos, Identity, Inventory, MonsterBundle,
    MonsterName, Sleep, Species,
};
use crate::messages::{
    FloorGenerated, FloorPopulated, FloorRejected, MonsterSpawned, PlacementFailed,
};
use crate::resources::{
    Catalogue, Chronicle, CompletedDungeons, CurrentLocation, DenizenRng, FloorMap, UniqueItems,
};

/// Behaviour switches of population, from the plugin's settings.
#[derive(Resource, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct PopulationSettings {
    /// Nymph or satyr.
    pub preference: Preference,
    /// Treat the player's square as occupied. Off by default, as in the source.
    pub exclude_player_square: bool,
    /// Keep the source's gap: a cavern-type level whose fixed inhabitant is marked for it
    /// (the volcano's bottom) ignores completion. On by default.
    pub cavern_gap: bool,
}

impl Default for PopulationSettings {
    fn default() -> Self {
        Self {
            preference: Preference::Either,
            exclude_player_square: false,
            cavern_gap: true,
        }
    }
}

/// Runs `plan` with a construction [`Builder`] over the world's rules, chronicle and
/// unique-item ledger at a difficulty. The ledger is taken out for the call and put back.
pub(crate) fn with_builder<T>(
    world: &mut World,
    rng: &mut Generator,
    difficulty: i64,
    plan: impl FnOnce(&mut Generator, &mut Builder<'_>, &World) -> T,
) -> T {
    let catalogue = world.resource::<Catalogue>().clone();
    let settings = *world.resource::<PopulationSettings>();
    let mut ledger = std::mem::take(&mut world.resource_mut::<UniqueItems>().0);
    let out = {
        let chronicle = &world.resource::<Chronicle>().0;
        let mut builder = Builder {
            catalogue: &catalogue.rules().catalogue,
            ledger: &mut ledger,
            chronicle,
            preference: settings.preference,
            temple_deity: None,
            difficulty,
        };
        plan(rng, &mut builder, world)
    };
    world.resource_mut::<UniqueItems>().0 = ledger;
    out
}

/// Reads every [`FloorGenerated`] and populates each floor in turn.
pub(crate) fn populate_floors(world: &mut World, mut cursor: Local<MessageCursor<FloorGenerated>>) {
    let requests: Vec<FloorGenerated> = {
        let messages = world.resource::<Messages<FloorGenerated>>();
        cursor.read(messages).cloned().collect()
    };
    for request in requests {
        populate(world, &request);
    }
}

/// Populates one floor: fixed inhabitants, then the population by the floor search (or
/// scattered, for environments that scatter), then the spawn and the messages.
pub(crate) fn populate(world: &mut World, request: &FloorGenerated) {
    let catalogue = world.resource::<Catalogue>().clone();
    let rules = catalogue.rules();
    let found = rules
        .locations
        .get(&request.location)
        .and_then(|env| env.level(request.depth).map(|level| (env, level)));
    let (env, level) = match found {
        Ok(found) => found,
        Err(e) => {
            world.write_message(FloorRejected {
                location: request.location.clone(),
                depth: request.depth,
                reason: e.to_string(),
            });
            return;
        }
    };
    let settings = *world.resource::<PopulationSettings>();
    let completed = world.resource::<CompletedDungeons>().0.contains(&env.key);
    let fixed = env.dungeon.as_ref().map_or(&[][..], |d| &d.fixed[..]);
    // Fixed inhabitants draw from their own stream, so the population is the same
    // whether or not they are placed; only levels that have one open it.
    let mut fixed_rng = fixed.iter().any(|f| f.depth == level.depth).then(|| {
        world
            .resource_mut::<DenizenRng>()
            .next_stream("fixed", &request.location, request.depth)
    });
    let mut rng = world
        .resource_mut::<DenizenRng>()
        .next_floor(&request.location, request.depth);
    let (fixed, plan) = with_builder(world, &mut rng, level.difficulty, |rng, builder, world| {
        let grid = &world.resource::<FloorMap>().0;
        let fixed = match fixed_rng.as_mut() {
            Some(fixed_rng) => plan_fixed(
                fixed_rng,
                fixed,
                level.depth,
                grid,
                builder,
                completed,
                settings.cavern_gap && request.cavern,
            ),
            None => Vec::new(),
        };
        let mut blocked: Vec<Square> = fixed.iter().map(|p| p.square).collect();
        blocked.extend(request.player.filter(|_| settings.exclude_player_square));
        let plan = match &env.scatter {
            // The countryside's tactical map: coordinates without a search.
            Some(scatter) => plan_scatter(rng, level, scatter, builder),
            None => plan_floor(rng, level, grid, builder, None, &blocked),
        };
        (fixed, plan)
    });
    let mut location = world.resource_mut::<CurrentLocation>();
    let dungeon = if env.is_dungeon() {
        Some(env.key.clone())
    } else {
        location.dungeon.take()
    };
    *location = CurrentLocation {
        environment: env.key.clone(),
        dungeon,
        depth: level.depth,
        difficulty: level.difficulty,
    };
    let (requested, placed, missing) =
        (plan.requested, plan.placements.len() as u32, plan.missing());
    let residents = spawn(
        world,
        FloorPlan {
            requested: fixed.len() as u32,
            placements: fixed,
            water: Vec::new(),
        },
    );
    for entity in residents {
        world.entity_mut(entity).insert(Fixed);
    }
    spawn(world, plan);
    world.write_message(FloorPopulated {
        location: request.location.clone(),
        depth: request.depth,
        requested,
        placed,
    });
    if missing > 0 {
        world.write_message(PlacementFailed {
            location: request.location.clone(),
            depth: request.depth,
            placed,
            missing,
        });
    }
}

/// Applies a plan: the floor first, then one batch of entities, then the names of
/// renamed monsters, then one [`MonsterSpawned`] per monster in placement order. Returns
/// the new entities in placement order.
pub(crate) fn spawn(world: &mut World, mut plan: FloorPlan) -> Vec<Entity> {
    plan.apply_to(&mut world.resource_mut::<FloorMap>().0);
    let bundles: Vec<MonsterBundle> = plan.placements.iter_mut().map(bundle).collect();
    let ids: Vec<Entity> = world.spawn_batch(bundles).collect();
    for (&id, placement) in ids.iter().zip(&mut plan.placements) {
        let monster = &mut placement.monster;
        if monster.identity != IdentityKind::Ordinary || monster.name.is_some() {
            let mut entity = world.entity_mut(id);
            if monster.identity != IdentityKind::Ordinary {
                entity.insert(Identity(std::mem::take(&mut monster.identity)));
            }
            if let Some(name) = monster.name.take() {
                entity.insert(MonsterName(name));
            }
        }
    }
    for (&entity, placement) in ids.iter().zip(&plan.placements) {
        world.trigger(MonsterSpawned {
            entity,
            species: placement.monster.species,
        });
    }
    ids
}

/// Spawns one placement (an arrival, a summons) without touching the floor's tiles
/// beyond marking its square occupied.
pub(crate) fn spawn_one(world: &mut World, placement: Placement) -> Entity {
    let plan = FloorPlan {
        requested: 1,
        placements: vec![placement],
        water: Vec::new(),
    };
    spawn(world, plan)[0]
}

/// The components of a planned monster (its possessions moved out of the plan).
fn bundle(placement: &mut Placement) -> MonsterBundle {
    let m = &mut placement.monster;
    (
        Species {
            id: m.species,
            form: m.form,
        },
        Sleep {
            rating: m.sleep_rating,
            awake: m.awake,
        },
        Inventory(std::mem::take(&mut m.possessions)),
        Awareness(m.awareness),
        GridPos {
            x: placement.square.x,
            y: placement.square.y,
        },
        CombatStats(m.stats),
        Disposition {
            hostile: m.hostile,
            wandering: m.wandering,
        },
    )
}
