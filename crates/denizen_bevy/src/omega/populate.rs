//! Omega's population systems: plan a floor with the rules, then apply it in one pass.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Origin, Plan, Spawn};
use denizen_core::rng::Generator;
use denizen_omega::Bestiary;
use denizen_omega::construct::{Builder, Identity, Monster};
use denizen_omega::populate::{LevelRequest, plan_level};

use super::components::{
    ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterBundle,
    MonsterIdentity, MonsterName, Sleep, Species,
};
use super::messages::{FloorGenerated, FloorPopulated, FloorRejected, PlacementFailed};
use super::resources::{
    CompletedDungeons, CurrentLocation, OmegaChronicle, OmegaRuleset, OmegaSettings, UniqueItems,
};
use crate::apply::apply;
use crate::floor::{FloorId, FloorMap, Glyph, bring_floor_back, claim_floor, enter_floor};
use crate::streams::DenizenRng;

/// Runs `plan` with a construction [`Builder`] over the world's rules, chronicle and
/// unique-item ledger at a difficulty. The ledger is taken out for the call and put back.
pub(crate) fn with_builder<T>(
    world: &mut World,
    rng: &mut Generator,
    difficulty: i64,
    plan: impl FnOnce(&mut Generator, &mut Builder<'_>, &World) -> T,
) -> T {
    let rules = world.resource::<OmegaRuleset>().clone();
    let settings = *world.resource::<OmegaSettings>();
    let temple_deity = world.resource::<CurrentLocation>().deity;
    let mut ledger = std::mem::take(&mut world.resource_mut::<UniqueItems>().0);
    let out = {
        let chronicle = &world.resource::<OmegaChronicle>().0;
        let mut builder = Builder {
            bestiary: &rules.rules().bestiary,
            ledger: &mut ledger,
            chronicle,
            preference: settings.preference,
            temple_deity,
            difficulty,
        };
        plan(rng, &mut builder, world)
    };
    world.resource_mut::<UniqueItems>().0 = ledger;
    out
}

/// Brings a stored Omega floor back ([`bring_floor_back`]) and makes its location current
/// again: [`CurrentLocation`] is rebuilt from the rules for the floor's location and depth
/// (a temple's deity is not kept: name it again with the next request). `false`, and
/// nothing changed, when the floor was never stored or the rules do not know it.
pub fn return_to_floor(world: &mut World, floor: &FloorId) -> bool {
    let rules = world.resource::<OmegaRuleset>().clone();
    let Ok((env, level)) = rules
        .rules()
        .locations
        .get(&floor.location)
        .and_then(|env| env.level(floor.depth).map(|level| (env, level)))
    else {
        return false;
    };
    if !bring_floor_back(world, floor) {
        return false;
    }
    *world.resource_mut::<CurrentLocation>() = CurrentLocation {
        environment: env.key.clone(),
        dungeon: env.is_dungeon().then(|| env.key.clone()),
        depth: level.depth,
        difficulty: level.difficulty,
        deity: None,
    };
    true
}

/// A temple's deity names one of the bestiary's deities (numbered from 1), or there is
/// none.
pub(crate) fn deity_fits(bestiary: &Bestiary, deity: Option<u8>) -> Result<(), String> {
    let deities = bestiary.names().deities.len();
    match deity {
        Some(d) if !(1..=deities).contains(&usize::from(d)) => Err(format!(
            "deity {d} is not one of the bestiary's {deities} deities (numbered from 1)"
        )),
        _ => Ok(()),
    }
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
/// scattered, for environments that scatter), then one apply and the messages; or a
/// [`FloorRejected`] saying why not.
pub(crate) fn populate(world: &mut World, request: &FloorGenerated) {
    let rules = world.resource::<OmegaRuleset>().clone();
    let found = rules
        .rules()
        .locations
        .get(&request.location)
        .and_then(|env| env.level(request.depth).map(|level| (env, level)));
    let empty = {
        let map = &world.resource::<FloorMap>().0;
        map.width() == 0 || map.height() == 0
    };
    let found = found.map_err(|e| e.to_string()).and_then(|found| {
        deity_fits(&rules.rules().bestiary, request.deity)?;
        if empty && found.0.scatter.is_none() {
            return Err("FloorMap is empty: fill it with the floor before sending \
                        FloorGenerated"
                .into());
        }
        Ok(found)
    });
    // FloorMap holds one floor: a second floor in one run would share the map.
    let found = found.and_then(|(env, level)| {
        claim_floor(world, &FloorId::new(env.key.clone(), level.depth))?;
        Ok((env, level))
    });
    let (env, level) = match found {
        Ok(found) => found,
        Err(reason) => {
            world.write_message(FloorRejected {
                location: request.location.clone(),
                depth: request.depth,
                reason,
            });
            return;
        }
    };
    let settings = *world.resource::<OmegaSettings>();
    let completed = world.resource::<CompletedDungeons>().0.contains(&env.key);
    let blocked: Vec<Square> = request
        .player
        .filter(|_| settings.exclude_player_square)
        .into_iter()
        .collect();
    // Fixed inhabitants draw from their own stream, so the population is the same
    // whether or not they are placed; only levels that have one open it.
    let mut fixed_rng = env.has_fixed_at(level.depth).then(|| {
        world
            .resource_mut::<DenizenRng>()
            .next_stream("fixed", &request.location, request.depth)
    });
    let mut rng = world
        .resource_mut::<DenizenRng>()
        .next_floor(&request.location, request.depth);
    let mut location = world.resource_mut::<CurrentLocation>();
    if location.environment != env.key {
        location.environment.clone_from(&env.key);
    }
    if env.is_dungeon() && location.dungeon.as_deref() != Some(env.key.as_str()) {
        location.dungeon = Some(env.key.clone());
    }
    location.depth = level.depth;
    location.difficulty = level.difficulty;
    location.deity = request.deity;
    enter_floor(world, FloorId::new(env.key.clone(), level.depth));
    let plan = with_builder(world, &mut rng, level.difficulty, |rng, builder, world| {
        let level_request = LevelRequest {
            environment: env,
            level,
            grid: &world.resource::<FloorMap>().0,
            completed,
            cavern_gap: settings.cavern_gap && request.cavern,
            blocked: &blocked,
        };
        plan_level(rng, fixed_rng.as_mut(), &level_request, builder)
    });
    let population = &plan.population;
    let (requested, placed, missing) = (
        population.requested,
        population.plan.spawns.len() as u32,
        population.missing(),
    );
    let fixed_missing = plan.fixed_missing.clone();
    spawn_monsters(world, plan.into_plan());
    world.write_message(FloorPopulated {
        location: request.location.clone(),
        depth: request.depth,
        requested,
        placed,
    });
    if missing > 0 || !fixed_missing.is_empty() {
        world.write_message(PlacementFailed {
            location: request.location.clone(),
            depth: request.depth,
            placed,
            missing,
            fixed_missing,
        });
    }
}

/// Applies a plan of Omega monsters through the one apply step, one batch per shape: the
/// monster's bundle, with [`MonsterName`] and [`MonsterIdentity`] where construction gave
/// them; then [`Fixed`] on fixed inhabitants and [`ArenaOpponent`] on arena opponents
/// (rare, so inserted one by one). Returns the entities in plan order.
pub(crate) fn spawn_monsters(world: &mut World, plan: Plan<Monster>) -> Vec<Entity> {
    let rules = world.resource::<OmegaRuleset>().clone();
    apply(world, plan, |batches, spawns| {
        let mut plain = Vec::with_capacity(spawns.len());
        let (mut named, mut identified, mut both) = (Vec::new(), Vec::new(), Vec::new());
        let mut marked = Vec::new();
        for (i, spawn) in spawns.into_iter().enumerate() {
            let Spawn {
                at,
                origin,
                creature: mut monster,
            } = spawn;
            if matches!(origin, Origin::FixedInhabitant | Origin::Arena) {
                marked.push((i, origin));
            }
            let glyph = monster.glyph(&rules.rules().bestiary);
            let name = monster.name.take().map(MonsterName);
            let identity = std::mem::take(&mut monster.identity);
            let identity = (identity != Identity::Ordinary).then_some(MonsterIdentity(identity));
            let base = bundle(glyph, monster);
            match (name, identity) {
                (None, None) => plain.push((i, at, base)),
                (Some(name), None) => named.push((i, at, (base, name))),
                (None, Some(identity)) => identified.push((i, at, (base, identity))),
                (Some(name), Some(identity)) => both.push((i, at, (base, name, identity))),
            }
        }
        batches.spawn(plain);
        batches.spawn(named);
        batches.spawn(identified);
        batches.spawn(both);
        for (i, origin) in marked {
            let entity = batches.entity(i);
            let mut entity = batches.world().entity_mut(entity);
            match origin {
                Origin::Arena => entity.insert(ArenaOpponent),
                _ => entity.insert(Fixed),
            };
        }
    })
}

/// The components of a planned monster.
fn bundle(glyph: char, m: Monster) -> MonsterBundle {
    (
        Species {
            id: m.species,
            form: m.form,
        },
        Glyph(glyph),
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
