//! Angband's levels through the pipeline: an [`AngbandFloorRequested`] checked and
//! planned with the rules (again while the autoscummer rejects it), then put in the world
//! in one go; and the level's uniques and record following the floor's end and return.

use crate::cave::terrain;
use crate::layout::ObjectSpot;
use crate::level::{HostPopulation, populate_floor};
use crate::request::{
    Judge, Stock, check_request, is_quest_depth, keep_classic_level, leave_level,
};
use crate::{ArtifactLedger, Feeling, KeptLevel, Monster, UniqueLedger, streams};
use bevy_ecs::prelude::*;
use denizen_core::FloorGrid;
use denizen_core::plan::{Origin, Plan, Spawn};

use super::components::{
    AngbandGold, AngbandMonster, AngbandObject, Energy, HitPoints, SleepCounter, Speed,
};
use super::messages::{
    AngbandFloorPopulated, AngbandFloorRefusal, AngbandFloorRequested, AngbandLevelFeeling,
    AngbandObjectRequested, LevelFloor,
};
use super::resources::{
    AngbandAppraiser, AngbandArtifacts, AngbandLastLevel, AngbandRuleset, AngbandStoredLevels,
    AngbandTerrain, AngbandUniques, StoredLevel,
};
use denizen_bevy::apply::{Batches, apply};
use denizen_bevy::clock::GameClock;
use denizen_bevy::floor::{
    FloorEnd, FloorEnded, FloorEntered, FloorEntry, FloorId, FloorMap, Glyph, Maker, OnFloor,
};
use denizen_bevy::pipeline::{FloorRequest, FloorStreams};

/// One planned level, before it touches the world (what the pipeline carries from
/// planning to applying).
pub struct AngbandFloorPlan {
    monsters: Vec<Monster>,
    objects: Vec<AngbandObjectRequested>,
    built: AngbandFloorPopulated,
    /// The ledger with this level's uniques.
    live: UniqueLedger,
    /// The artifacts made with this level's (none made on a host's floor).
    artifacts: Option<ArtifactLedger>,
    /// The classic level's floor (none on a host's floor).
    floor: Option<FloorGrid>,
    /// Its terrain (empty on a host's floor).
    terrain: AngbandTerrain,
    /// The game turn it was made on.
    made_at: u64,
}

/// The pipeline's steps for an Angband level: the classic level kept by the autoscummer
/// (or the base population of the host's floor), then its floor, monsters, objects, ledger
/// and messages.
impl FloorRequest for AngbandFloorRequested {
    type Rules = AngbandRuleset;
    /// The depth, as the rules checked it, and the rules that checked it.
    type Valid = (i32, AngbandRuleset);
    type Plan = AngbandFloorPlan;
    type Populated = AngbandFloorPopulated;
    type Refusal = AngbandFloorRefusal;

    fn validate(&self, world: &World) -> Result<(FloorId, Self::Valid), AngbandFloorRefusal> {
        let host_floor = match self.floor {
            LevelFloor::Classic => None,
            LevelFloor::Host => Some(&world.resource::<FloorMap>().0),
        };
        let depth = check_request(self.depth, self.force_room, host_floor)
            .map_err(AngbandFloorRefusal::Rules)?;
        let ruleset = world.resource::<AngbandRuleset>().clone();
        Ok((FloorId::new(streams::PLACE, self.depth), (depth, ruleset)))
    }

    fn plan(
        &self,
        world: &World,
        (depth, ruleset): Self::Valid,
        streams: &mut FloorStreams<'_>,
    ) -> AngbandFloorPlan {
        let mut rng = streams.draw(streams::LEVEL);
        let made_at = world.resource::<GameClock>().turns;
        let since = world
            .resource::<AngbandLastLevel>()
            .made_at
            .map(|t| made_at.saturating_sub(t));
        let (rules, settings) = (ruleset.rules(), ruleset.settings());
        let mut ledger = world.resource::<AngbandUniques>().0.clone();
        ledger.keep_only_uniques_of(rules.races());
        let made = match self.floor {
            LevelFloor::Classic => {
                let mut artifacts = world.resource::<AngbandArtifacts>().0.clone();
                let appraiser = world.get_resource::<AngbandAppraiser>().copied();
                let options = settings.level_options(self.quest, self.force_room);
                let appraise = |spot: &ObjectSpot| {
                    appraiser.map(|AngbandAppraiser(appraise)| {
                        appraise(&object_requested(self.depth, spot))
                    })
                };
                let mut judge = Judge {
                    autoscum: settings.autoscum,
                    preserve: settings.preserve,
                    turns_since_last: since,
                    appraise,
                };
                let stock = Stock {
                    allocator: &rules.allocator,
                    uniques: &ledger,
                    objects: &rules.objects,
                    artifacts: &mut artifacts,
                };
                let kept =
                    keep_classic_level(&mut rng, depth, &options, &rules.vaults, stock, &mut judge);
                AngbandFloorPlan {
                    artifacts: Some(artifacts),
                    ..classic(self.depth, kept)
                }
            }
            // A host's floor has no rooms to rate: it is never made again. Validation
            // checked its size on this map (the pipeline holds it aside while the old
            // floor ends), so it is populated.
            LevelFloor::Host => {
                let grid = &world.resource::<FloorMap>().0;
                let population =
                    populate_floor(&mut rng, grid, depth, &rules.allocator, &mut ledger);
                debug_assert!(population.is_ok(), "validation checked the floor's size");
                let population = population.unwrap_or_default();
                let feeling = Feeling::of(population.rating, false, settings.preserve, since);
                hosted(self.depth, population, feeling, ledger)
            }
        };
        AngbandFloorPlan { made_at, ..made }
    }

    fn floor_map(&self, plan: &mut AngbandFloorPlan) -> Option<FloorGrid> {
        plan.floor.take()
    }

    fn apply(
        &self,
        world: &mut World,
        _floor: &FloorId,
        made: AngbandFloorPlan,
    ) -> AngbandFloorPopulated {
        world.resource_mut::<AngbandUniques>().0 = made.live;
        if let Some(artifacts) = made.artifacts {
            world.resource_mut::<AngbandArtifacts>().0 = artifacts;
        }
        *world.resource_mut::<AngbandLastLevel>() = AngbandLastLevel {
            depth: self.depth,
            quest: self.quest,
            made_at: Some(made.made_at),
        };
        *world.resource_mut::<AngbandTerrain>() = made.terrain;
        let objects = world
            .resource::<AngbandRuleset>()
            .settings()
            .object_entities
            .then_some(&made.built);
        let entities = spawn_monsters(world, &made.monsters, Origin::FLOOR_POPULATION, objects);
        let feeling = AngbandLevelFeeling {
            depth: self.depth,
            feeling: made.built.feeling,
        };
        for object in made.objects {
            world.write_message(object);
        }
        world.write_message(feeling);
        AngbandFloorPopulated {
            entities,
            ..made.built
        }
    }
}

/// The level's objects and gold as entities on their squares, spawned with its monsters
/// (so they follow the level's floor as its monsters do).
fn spawn_objects(batches: &mut Batches<'_>, built: &AngbandFloorPopulated) {
    let objects: Vec<_> = built
        .objects
        .iter()
        .map(|(at, object)| (*at, AngbandObject(object.clone())))
        .collect();
    batches.spawn_floor_entities(objects);
    let gold: Vec<_> = built
        .gold
        .iter()
        .map(|(at, gold)| (*at, AngbandGold(*gold)))
        .collect();
    batches.spawn_floor_entities(gold);
}

/// The plan of a classic level: its floor (monsters' squares left to the apply step),
/// rooms, objects and ratings.
fn classic(depth: u32, kept: KeptLevel) -> AngbandFloorPlan {
    let KeptLevel {
        level,
        ledger,
        rating,
        special,
        feeling,
        rejected,
        remade,
    } = kept;
    let mut floor = level.floor();
    for monster in &level.monsters {
        floor.set_occupied(monster.at.square(), false);
    }
    let objects = level
        .layout
        .objects
        .iter()
        .map(|spot| object_requested(depth, spot))
        .collect();
    AngbandFloorPlan {
        built: AngbandFloorPopulated {
            entities: Vec::new(),
            depth,
            rooms: floor.rooms().to_vec(),
            destroyed: level.layout.destroyed,
            player: level.layout.cave.player().map(|p| p.square()),
            monsters: level.monsters.len() as u32,
            population_level: level.population_level as u32,
            monster_rating: level.monster_rating,
            rating,
            special,
            feeling,
            rejected_levels: rejected,
            remade_levels: remade,
            up_stairs: level.layout.cave.squares_of(terrain::UP_STAIRS),
            down_stairs: level.layout.cave.squares_of(terrain::DOWN_STAIRS),
            traps: level.traps.iter().map(|at| at.square()).collect(),
            rubble: level.rubble.iter().map(|at| at.square()).collect(),
            object_rating: level.object_rating().0,
            objects: level
                .objects
                .iter()
                .map(|placed| (placed.at.square(), placed.object.clone()))
                .collect(),
            gold: level
                .gold
                .iter()
                .map(|placed| (placed.at.square(), placed.gold))
                .collect(),
            dens: level
                .dens
                .iter()
                .map(|d| (d.centre.square(), d.kind, d.races.is_some()))
                .collect(),
            failed_draws: level.failed_draws,
            edge_losses: 0,
        },
        monsters: level.monsters,
        objects,
        live: ledger,
        artifacts: None,
        terrain: AngbandTerrain::of_cave(depth, &level.layout.cave),
        floor: Some(floor),
        made_at: 0,
    }
}

/// The plan of a host's floor: its population (monsters, their rating, failed draws).
fn hosted(
    depth: u32,
    population: HostPopulation,
    feeling: Feeling,
    live: UniqueLedger,
) -> AngbandFloorPlan {
    AngbandFloorPlan {
        built: AngbandFloorPopulated {
            entities: Vec::new(),
            depth,
            rooms: Vec::new(),
            destroyed: false,
            player: None,
            monsters: population.monsters.len() as u32,
            population_level: depth,
            monster_rating: population.rating,
            rating: population.rating,
            special: false,
            feeling,
            rejected_levels: 0,
            remade_levels: 0,
            up_stairs: Vec::new(),
            down_stairs: Vec::new(),
            traps: Vec::new(),
            rubble: Vec::new(),
            object_rating: 0,
            objects: Vec::new(),
            gold: Vec::new(),
            dens: Vec::new(),
            failed_draws: population.failed_draws,
            edge_losses: population.edge_losses,
        },
        monsters: population.monsters,
        objects: Vec::new(),
        live,
        artifacts: None,
        terrain: AngbandTerrain::default(),
        floor: None,
        made_at: 0,
    }
}

/// The object request of a level's object spot.
fn object_requested(depth: u32, spot: &ObjectSpot) -> AngbandObjectRequested {
    AngbandObjectRequested {
        depth,
        at: spot.at.square(),
        level: spot.level,
        gold: spot.gold,
        good: spot.good,
        great: spot.great,
    }
}

/// Whether a floor made by `maker` is an Angband level: one the plugin made, classic or on
/// the host's floor (a level of a save from before makers were kept is Angband's when it
/// is at Angband's place, `angband`).
pub(super) fn is_level(maker: &Maker) -> bool {
    maker.is(super::NAME)
}

/// Observer: an Angband level ends. Put away, its record (quest flag and terrain) is kept
/// for its return (replaced, left or despawned, the per-floor store forgets it).
pub(super) fn level_ended(
    ended: On<FloorEnded>,
    last: Res<AngbandLastLevel>,
    mut stored: ResMut<AngbandStoredLevels>,
    mut terrain: ResMut<AngbandTerrain>,
) {
    let floor = &ended.floor;
    if !is_level(&ended.maker) {
        return;
    }
    // The terrain held is this level's only if it is the one ending.
    let held = if terrain.depth == floor.depth {
        std::mem::take(&mut *terrain)
    } else {
        AngbandTerrain::default()
    };
    if ended.end == FloorEnd::PutAway {
        let level = StoredLevel {
            quest: last.quest,
            terrain: held,
        };
        stored.0.insert(floor.clone(), level);
    }
}

/// Observer: an Angband level is wiped (replaced, left or despawned; not put away). Its
/// monsters are gone, so its living uniques go back to the allocator (2.7.9 wipes a level
/// on leaving, and every unique not killed can appear again); in preserve mode the
/// artifacts still lying on it can be made again.
pub(super) fn level_wiped(
    ended: On<FloorEnded>,
    monsters: Query<(&AngbandMonster, &OnFloor)>,
    objects: Query<(&AngbandObject, &OnFloor)>,
    rules: Res<AngbandRuleset>,
    mut uniques: ResMut<AngbandUniques>,
    mut artifacts: ResMut<AngbandArtifacts>,
) {
    let floor = &ended.floor;
    if !is_level(&ended.maker) || ended.end == FloorEnd::PutAway {
        return;
    }
    if rules.settings().preserve {
        let lying = objects.iter().filter(|(_, on)| on.0 == *floor);
        for artifact in lying.filter_map(|(object, _)| object.0.artifact) {
            artifacts.0.give_back(artifact);
        }
    }
    let races = monsters
        .iter()
        .filter(|(_, on)| on.0 == *floor)
        .map(|(monster, _)| monster.race);
    leave_level(&mut uniques.0, races);
}

/// Observer: an Angband level brought back is the one traps spring on again: the last
/// level's depth and quest follow it (when it was made stays the newest level's, for the
/// 1,000-turn rule).
pub(super) fn level_entered(
    entered: On<FloorEntered>,
    mut last: ResMut<AngbandLastLevel>,
    mut stored: ResMut<AngbandStoredLevels>,
    mut terrain: ResMut<AngbandTerrain>,
) {
    let floor = &entered.floor;
    if entered.entry != FloorEntry::BroughtBack || !is_level(&entered.maker) {
        return;
    }
    let level = stored.0.remove(floor).unwrap_or_else(|| StoredLevel {
        quest: is_quest_depth(floor.depth),
        terrain: AngbandTerrain::default(),
    });
    last.depth = floor.depth;
    last.quest = level.quest;
    *terrain = level.terrain;
}

/// Spawns planned monsters with an origin through the apply step, each with its race's
/// glyph, and a level's objects and gold with them when given.
pub(super) fn spawn_monsters(
    world: &mut World,
    monsters: &[Monster],
    origin: Origin,
    objects: Option<&AngbandFloorPopulated>,
) -> Vec<Entity> {
    let symbols: Vec<char> = {
        let rules = world.resource::<AngbandRuleset>().rules();
        monsters
            .iter()
            .map(|m| rules.races().get(m.race).map_or('?', |r| r.symbol))
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
        if let Some(built) = objects {
            spawn_objects(batches, built);
        }
    })
}
