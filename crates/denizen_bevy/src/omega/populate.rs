//! Omega's population systems: plan a floor with the rules, then apply it in one pass.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Origin, Plan};
use denizen_core::rng::Generator;
use denizen_omega::construct::{Builder, Identity, Monster};
use denizen_omega::populate::{plan_fixed, plan_floor, plan_scatter};

use super::components::{
    ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterBundle,
    MonsterIdentity, MonsterName, Sleep, Species,
};
use super::messages::{FloorGenerated, FloorPopulated, FloorRejected, PlacementFailed};
use super::resources::{
    CompletedDungeons, CurrentLocation, OmegaChronicle, OmegaRuleset, OmegaSettings, UniqueItems,
};
use crate::apply::{Glyph, apply};
use crate::floor::FloorMap;
use crate::streams::DenizenRng;

/// Runs `plan` with a construction [`Builder`] over the world's rules, chronicle and
/// unique-item ledger at a difficulty. The ledger is taken out for the call and put back.
pub(crate) fn with_builder<T>(
    world: &mut World,
    rng: &mut Generator,
    difficulty: i64,
    plan: impl FnOnce(&mut Generator, &mut Builder<'_>, &World) -> T,
) -> T {
    let rules = world.resource::<OmegaRuleset>().0.clone();
    let settings = *world.resource::<OmegaSettings>();
    let mut ledger = std::mem::take(&mut world.resource_mut::<UniqueItems>().0);
    let out = {
        let chronicle = &world.resource::<OmegaChronicle>().0;
        let mut builder = Builder {
            bestiary: &rules.bestiary,
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
/// scattered, for environments that scatter), then one apply and the messages.
pub(crate) fn populate(world: &mut World, request: &FloorGenerated) {
    let rules = world.resource::<OmegaRuleset>().0.clone();
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
    let settings = *world.resource::<OmegaSettings>();
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
    let (fixed, floor) = with_builder(world, &mut rng, level.difficulty, |rng, builder, world| {
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
        let mut blocked: Vec<Square> = fixed.iter().map(|p| p.at).collect();
        blocked.extend(request.player.filter(|_| settings.exclude_player_square));
        let floor = match &env.scatter {
            // The countryside's tactical map: coordinates without a search.
            Some(scatter) => plan_scatter(rng, level, scatter, builder),
            None => plan_floor(rng, level, grid, builder, None, &blocked),
        };
        (fixed, floor)
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
    let (requested, placed, missing) = (
        floor.requested,
        floor.plan.spawns.len() as u32,
        floor.missing(),
    );
    let mut plan = Plan {
        spawns: fixed,
        tiles: Vec::new(),
    };
    plan.spawns.extend(floor.plan.spawns);
    plan.tiles = floor.plan.tiles;
    spawn_monsters(world, plan);
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

/// What a planned monster gets besides its bundle: a name, an identity and the marker of
/// its origin, each only when it has one.
struct Extras {
    name: Option<String>,
    identity: Identity,
    origin: Origin,
}

/// Applies a plan of Omega monsters through the one apply step: each monster's bundle,
/// then a name, an identity, [`Fixed`] for fixed inhabitants and [`ArenaOpponent`] for
/// arena opponents where they apply. Returns the entities in plan order.
pub(crate) fn spawn_monsters(world: &mut World, plan: Plan<Monster>) -> Vec<Entity> {
    let rules = world.resource::<OmegaRuleset>().0.clone();
    let mut extras = Vec::with_capacity(plan.spawns.len());
    let mut plan = plan;
    for spawn in &mut plan.spawns {
        extras.push(Extras {
            name: spawn.creature.name.take(),
            identity: std::mem::take(&mut spawn.creature.identity),
            origin: spawn.origin,
        });
    }
    let plan = plan.map(|monster| bundle(&rules.bestiary.get(monster.form).glyph, monster));
    apply(world, plan, |world, i, entity| {
        let extra = &mut extras[i];
        let marker = matches!(extra.origin, Origin::FixedInhabitant | Origin::Arena);
        if extra.name.is_none() && extra.identity == Identity::Ordinary && !marker {
            return;
        }
        let mut entity = world.entity_mut(entity);
        if let Some(name) = extra.name.take() {
            entity.insert(MonsterName(name));
        }
        if extra.identity != Identity::Ordinary {
            entity.insert(MonsterIdentity(std::mem::take(&mut extra.identity)));
        }
        match extra.origin {
            Origin::FixedInhabitant => {
                entity.insert(Fixed);
            }
            Origin::Arena => {
                entity.insert(ArenaOpponent);
            }
            _ => {}
        }
    })
}

/// The components of a planned monster.
fn bundle(glyph: &char, m: Monster) -> MonsterBundle {
    (
        Species {
            id: m.species,
            form: m.form,
        },
        Glyph(*glyph),
        Sleep {
            rating: m.sleep_rating,
            awake: m.awake,
        },
        Inventory(m.possessions),
        Awareness(m.awareness),
        CombatStats(m.stats),
        Disposition {
            hostile: m.hostile,
            wandering: m.wandering,
        },
    )
}
