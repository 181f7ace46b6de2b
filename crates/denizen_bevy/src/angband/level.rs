//! The level system: a [`DungeonLevelRequested`] planned with the rules (again while the
//! autoscummer rejects it), then put in the world in one go.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_angband::alloc::MAX_DRAW_LEVEL;
use denizen_angband::layout::ObjectSpot;
use denizen_angband::level::populate_floor;
use denizen_angband::{Autoscum, Feeling, Level, Monster, UniqueLedger};
use denizen_core::FloorGrid;
use denizen_core::plan::{Origin, Plan, Spawn};

use super::ANGBAND_FLOOR;
use super::components::{AngbandMonster, Energy, HitPoints, SleepCounter, Speed};
use super::messages::{
    AngbandLevelBuilt, AngbandLevelRejected, DungeonLevelRequested, LevelFeeling, LevelFloor,
    ObjectRequested,
};
use super::resources::{AngbandAppraiser, AngbandLastLevel, AngbandRules, AngbandUniques};
use crate::apply::apply;
use crate::clock::GameClock;
use crate::floor::{FloorId, FloorMap, Glyph, claim_floor, enter_floor};
use crate::streams::DenizenRng;

/// One planned level, before it touches the world.
struct Made {
    monsters: Vec<Monster>,
    objects: Vec<ObjectRequested>,
    built: AngbandLevelBuilt,
    /// The ledger with this level's uniques.
    live: UniqueLedger,
    /// The classic level's floor (none on a host's floor).
    floor: Option<FloorGrid>,
}

/// Reads every [`DungeonLevelRequested`] and makes its level.
pub(super) fn build_levels(
    world: &mut World,
    mut cursor: Local<MessageCursor<DungeonLevelRequested>>,
) {
    let requests: Vec<DungeonLevelRequested> = {
        let messages = world.resource::<Messages<DungeonLevelRequested>>();
        cursor.read(messages).copied().collect()
    };
    for request in requests {
        if let Err(reason) = make_level(world, request) {
            world.write_message(AngbandLevelRejected {
                depth: request.depth,
                reason,
            });
        }
    }
}

/// Plans the level until the autoscummer keeps one, then puts it in the world: its floor,
/// its monsters through the one apply step, the ledger, and the messages.
fn make_level(world: &mut World, request: DungeonLevelRequested) -> Result<(), String> {
    let depth = i32::try_from(request.depth)
        .ok()
        .filter(|d| (1..=MAX_DRAW_LEVEL).contains(d))
        .ok_or_else(|| format!("depth {} is outside Angband's 1-127", request.depth))?;
    if let Some(kind) = request.force_room
        && depth < kind.min_depth()
    {
        return Err(format!(
            "a {} needs depth {} or deeper",
            kind.name(),
            kind.min_depth()
        ));
    }
    let floor_id = FloorId::new(ANGBAND_FLOOR, request.depth);
    claim_floor(world, &floor_id)?;
    let now = world.resource::<GameClock>().minutes;
    let since = world
        .resource::<AngbandLastLevel>()
        .made_at
        .map(|t| now.saturating_sub(t));
    let appraiser = world.get_resource::<AngbandAppraiser>().copied();
    let mut rng =
        world
            .resource_mut::<DenizenRng>()
            .next_stream("level", ANGBAND_FLOOR, request.depth);
    let host_floor = match request.floor {
        LevelFloor::Classic => None,
        LevelFloor::Host => Some(
            world
                .get_resource::<FloorMap>()
                .ok_or("no FloorMap to populate")?
                .0
                .clone(),
        ),
    };
    let made = world.resource_scope(
        |world, mut rules: Mut<AngbandRules>| -> Result<Made, String> {
            let rules = &mut *rules;
            let mut ledger = world.resource::<AngbandUniques>().0.clone();
            ledger.keep_only_uniques_of(rules.allocator.races());
            // A host's floor has no rooms to rate: it is never made again.
            let autoscum = if host_floor.is_some() {
                Autoscum::Off
            } else {
                rules.autoscum
            };
            let (made, rejected) = autoscum.keep(depth, || {
                // Each attempt starts from the ledger as it was: a thrown-away level's
                // uniques go back to the pool, and nothing of it reaches the world.
                let mut live = ledger.clone();
                let made = match &host_floor {
                    None => {
                        let mut options = rules.options.clone();
                        options.layout.quest = request.quest;
                        options.layout.force_room = request.force_room;
                        let level = Level::build_with(
                            &mut rng,
                            depth,
                            &options,
                            &mut rules.allocator,
                            &mut live,
                            &rules.vaults,
                        );
                        Ok(classic(request, level, live))
                    }
                    Some(grid) => {
                        populate_floor(&mut rng, grid, depth, &mut rules.allocator, &mut live)
                            .map(|(monsters, rating, failed)| {
                                hosted(request, monsters, rating, failed, live)
                            })
                            .map_err(|e| e.to_string())
                    }
                };
                let Ok(mut made) = made else {
                    // An error ends the attempts: it is reported, not tried again.
                    return (made, Feeling::LooksLikeAnyOther);
                };
                if let Some(AngbandAppraiser(appraise)) = appraiser {
                    for object in &made.objects {
                        let appraisal = appraise(object);
                        made.built.rating = made.built.rating.saturating_add(appraisal.rating);
                        made.built.special |= appraisal.artifact;
                    }
                }
                let built = &mut made.built;
                built.feeling = Feeling::of(built.rating, built.special, rules.preserve, since);
                let feeling = built.feeling;
                (Ok(made), feeling)
            });
            let mut made = made?;
            made.built.rejected_levels = rejected;
            Ok(made)
        },
    )?;
    world.resource_mut::<AngbandUniques>().0 = made.live;
    *world.resource_mut::<AngbandLastLevel>() = AngbandLastLevel {
        depth: request.depth,
        quest: request.quest,
        made_at: Some(now),
    };
    if let Some(floor) = made.floor {
        world.insert_resource(FloorMap(floor));
    }
    enter_floor(world, floor_id);
    spawn_monsters(world, &made.monsters);
    let feeling = LevelFeeling {
        depth: request.depth,
        feeling: made.built.feeling,
    };
    world.write_message(made.built);
    for object in made.objects {
        world.write_message(object);
    }
    world.write_message(feeling);
    Ok(())
}

/// The plan of a classic level: its floor (monsters' squares left to the apply step),
/// rooms, objects and ratings.
fn classic(request: DungeonLevelRequested, level: Level, live: UniqueLedger) -> Made {
    let mut floor = level.floor();
    for monster in &level.monsters {
        floor.set_occupied(monster.at.square(), false);
    }
    let objects = objects(request.depth, &level.layout.objects);
    Made {
        built: AngbandLevelBuilt {
            depth: request.depth,
            rooms: floor.rooms().to_vec(),
            destroyed: level.layout.destroyed,
            player: level.layout.cave.player().map(|p| p.square()),
            monsters: level.monsters.len() as u32,
            population_level: level.population_level as u32,
            monster_rating: level.monster_rating,
            rating: level.rating(),
            special: level.layout.special_feeling,
            feeling: Feeling::Boring,
            rejected_levels: 0,
            traps: level.traps.iter().map(|at| at.square()).collect(),
            dens: level
                .dens
                .iter()
                .map(|d| (d.centre.square(), d.kind, d.races.is_some()))
                .collect(),
            failed_draws: level.failed_draws,
        },
        monsters: level.monsters,
        objects,
        live,
        floor: Some(floor),
    }
}

/// The plan of a host's floor: its population and their rating.
fn hosted(
    request: DungeonLevelRequested,
    monsters: Vec<Monster>,
    rating: i32,
    failed: u32,
    live: UniqueLedger,
) -> Made {
    Made {
        built: AngbandLevelBuilt {
            depth: request.depth,
            rooms: Vec::new(),
            destroyed: false,
            player: None,
            monsters: monsters.len() as u32,
            population_level: request.depth,
            monster_rating: rating,
            rating,
            special: false,
            feeling: Feeling::Boring,
            rejected_levels: 0,
            traps: Vec::new(),
            dens: Vec::new(),
            failed_draws: failed,
        },
        monsters,
        objects: Vec::new(),
        live,
        floor: None,
    }
}

/// The object requests of a level's object spots.
fn objects(depth: u32, spots: &[ObjectSpot]) -> Vec<ObjectRequested> {
    spots
        .iter()
        .map(|spot| ObjectRequested {
            depth,
            at: spot.at.square(),
            level: spot.level,
            gold: spot.gold,
            good: spot.good,
            great: spot.great,
        })
        .collect()
}

/// Spawns planned monsters through the apply step, each with its race's glyph.
pub(super) fn spawn_monsters(world: &mut World, monsters: &[Monster]) -> Vec<Entity> {
    spawn_with_origin(world, monsters, Origin::FloorPopulation)
}

/// Spawns monsters with an origin through the apply step.
pub(super) fn spawn_with_origin(
    world: &mut World,
    monsters: &[Monster],
    origin: Origin,
) -> Vec<Entity> {
    let symbols: Vec<char> = {
        let rules = world.resource::<AngbandRules>();
        monsters
            .iter()
            .map(|m| {
                rules
                    .allocator
                    .races()
                    .get(m.race)
                    .map_or('?', |r| r.symbol)
            })
            .collect()
    };
    let plan = Plan {
        spawns: monsters
            .iter()
            .zip(symbols)
            .map(|(m, symbol)| Spawn {
                at: m.at.square(),
                origin,
                creature: (
                    AngbandMonster {
                        race: m.race,
                        placement: m.placement,
                    },
                    Glyph(symbol),
                    HitPoints(m.hp),
                    Speed(m.speed),
                    (Energy(m.energy), SleepCounter(m.sleep)),
                ),
            })
            .collect(),
        tiles: Vec::new(),
    };
    apply(world, plan, |batches, spawns| {
        batches.spawn(
            spawns
                .into_iter()
                .enumerate()
                .map(|(i, s)| (i, s.at, s.creature))
                .collect(),
        );
    })
}
