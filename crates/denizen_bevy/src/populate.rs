//! The population system: plan a floor with the rules core, then spawn it in one pass.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_core::construct::{Builder, Identity as IdentityKind, Preference};
use denizen_core::floor::Square;
use denizen_core::populate::{FloorPlan, plan_floor};

use crate::components::{
    Awareness, CombatStats, Disposition, GridPos, Identity, Inventory, MonsterName, Sleep, Species,
};
use crate::messages::{
    FloorGenerated, FloorPopulated, FloorRejected, MonsterSpawned, PlacementFailed,
};
use crate::resources::{Catalogue, Chronicle, CurrentLocation, DenizenRng, FloorMap, UniqueItems};

/// Behaviour switches of population, from the plugin's settings.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PopulationSettings {
    /// Nymph or satyr.
    pub preference: Preference,
    /// Treat the player's square as occupied. Off by default, as in the source.
    pub exclude_player_square: bool,
}

/// The bundle every monster is spawned with.
pub(crate) type MonsterBundle = (
    Species,
    Sleep,
    Inventory,
    Awareness,
    GridPos,
    CombatStats,
    Disposition,
);

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

fn populate(world: &mut World, request: &FloorGenerated) {
    let catalogue = world.resource::<Catalogue>().clone();
    let rules = catalogue.rules();
    let level = match rules
        .locations
        .get(&request.location)
        .and_then(|env| env.level(request.depth).map(|level| (env, level)))
    {
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
    let (env, level) = level;
    let settings = *world.resource::<PopulationSettings>();
    // Construction changes the ledger in place; nothing after planning can fail.
    let mut ledger = std::mem::take(&mut world.resource_mut::<UniqueItems>().0);
    let plan = {
        let mut rng = world
            .resource_mut::<DenizenRng>()
            .next_floor(&request.location, request.depth);
        let chronicle = &world.resource::<Chronicle>().0;
        let grid = &world.resource::<FloorMap>().0;
        let blocked: Vec<Square> = request
            .player
            .filter(|_| settings.exclude_player_square)
            .into_iter()
            .collect();
        let mut builder = Builder {
            catalogue: &rules.catalogue,
            ledger: &mut ledger,
            chronicle,
            preference: settings.preference,
            temple_deity: None,
            difficulty: level.difficulty,
        };
        plan_floor(&mut rng, level, grid, &mut builder, None, &blocked)
    };
    world.resource_mut::<UniqueItems>().0 = ledger;
    *world.resource_mut::<CurrentLocation>() = CurrentLocation {
        environment: env.key.clone(),
        dungeon: env.is_dungeon().then(|| env.key.clone()),
        depth: level.depth,
        difficulty: level.difficulty,
    };
    let (requested, placed, missing) =
        (plan.requested, plan.placements.len() as u32, plan.missing());
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
/// renamed monsters, then one [`MonsterSpawned`] per monster in placement order.
pub(crate) fn spawn(world: &mut World, mut plan: FloorPlan) {
    plan.apply_to(&mut world.resource_mut::<FloorMap>().0);
    let bundles: Vec<MonsterBundle> = plan.placements.iter_mut().map(bundle).collect();
    let ids: Vec<Entity> = world.spawn_batch(bundles).collect();
    for (&id, placement) in ids.iter().zip(&mut plan.placements) {
        let monster = &mut placement.monster;
        if monster.identity != IdentityKind::Ordinary {
            let mut entity = world.entity_mut(id);
            entity.insert(Identity(std::mem::take(&mut monster.identity)));
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
}

/// The components of a planned monster (its possessions moved out of the plan).
fn bundle(placement: &mut denizen_core::populate::Placement) -> MonsterBundle {
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
