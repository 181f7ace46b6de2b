//! Angband 2.7.9 in play: a [`DungeonLevelRequested`] builds the classic level (or takes
//! the host's floor) and populates it, one entity per monster.

pub mod components;
pub mod messages;
pub mod resources;

use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_angband::alloc::MAX_DRAW_LEVEL;
use denizen_angband::layout::{VaultTemplates, shipped_vaults};
use denizen_angband::level::populate_floor;
use denizen_angband::{Allocator, Level, LevelOptions, Monster, Races};
use denizen_core::plan::{Origin, Plan, Spawn};

use crate::apply::apply;
use crate::floor::{FloorId, FloorMap, Glyph, claim_floor, enter_floor};
use crate::streams::DenizenRng;
use crate::{DenizenSystems, denizen_schedule};
use components::{AngbandMonster, Energy, HitPoints, SleepCounter, Speed};
use messages::{AngbandLevelBuilt, AngbandLevelRejected, DungeonLevelRequested, LevelFloor};
use resources::{AngbandRules, AngbandUniques};

/// The location name of Angband floors: level `d` is `FloorId::new("angband", d)`, and
/// its streams are drawn under this name.
pub const ANGBAND_FLOOR: &str = "angband";

/// Angband 2.7.9's levels as a plugin: the host writes [`DungeonLevelRequested`] and, on
/// the next run of the plugins' schedule, gets the level in [`FloorMap`]
/// (unless it brought its own floor), an entity per monster with [`AngbandMonster`],
/// [`HitPoints`], [`Speed`], [`Energy`] and [`SleepCounter`], and an
/// [`AngbandLevelBuilt`]. Adds a default [`DenizenPlugin`](crate::DenizenPlugin) if the
/// host has not.
///
/// The shipped races and vault templates are Angband 2.7.9's, under its non-commercial
/// notice; a game brings its own with [`with_races`](Self::with_races) and
/// [`with_vaults`](Self::with_vaults).
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_bevy::angband::AngbandPlugin;
///
/// App::new().add_plugins((DenizenPlugin::with_seed(7), AngbandPlugin::default()));
/// ```
#[derive(Clone, Debug)]
pub struct AngbandPlugin {
    races: Races,
    vaults: Arc<VaultTemplates>,
    options: LevelOptions,
}

impl Default for AngbandPlugin {
    /// Angband 2.7.9's races and vault templates, every switch faithful.
    fn default() -> Self {
        Self {
            races: Races::shipped(),
            vaults: Arc::new(shipped_vaults().clone()),
            options: LevelOptions::default(),
        }
    }
}

impl AngbandPlugin {
    /// A game's own races (see `Races::from_file`).
    pub fn with_races(mut self, races: Races) -> Self {
        self.races = races;
        self
    }

    /// A game's own vault templates (see `VaultTemplates::from_ron`).
    pub fn with_vaults(mut self, vaults: VaultTemplates) -> Self {
        self.vaults = Arc::new(vaults);
        self
    }

    /// Every level switch at once.
    pub fn with_options(mut self, options: LevelOptions) -> Self {
        self.options = options;
        self
    }

    /// 2.7.9's inner-room guard slip (on by default): see
    /// [`LevelOptions::guard_level_slip`].
    pub fn guard_level_slip(mut self, on: bool) -> Self {
        self.options.guard_level_slip = on;
        self
    }

    /// Turns floor the player cannot reach (outside vaults) into rock (off by default: 2.7.9 does not
    /// check connectivity).
    pub fn seal_unreachable(mut self, on: bool) -> Self {
        self.options.layout.seal_unreachable = on;
        self
    }
}

impl Plugin for AngbandPlugin {
    fn build(&self, app: &mut App) {
        let schedule = denizen_schedule(app);
        app.insert_resource(AngbandRules {
            allocator: Allocator::new(self.races.clone()),
            vaults: self.vaults.clone(),
            options: self.options.clone(),
        })
        .init_resource::<AngbandUniques>()
        .add_message::<DungeonLevelRequested>()
        .add_message::<AngbandLevelBuilt>()
        .add_message::<AngbandLevelRejected>()
        .register_type::<AngbandRules>()
        .register_type::<AngbandUniques>()
        .register_type::<AngbandMonster>()
        .register_type::<HitPoints>()
        .register_type::<Speed>()
        .register_type::<Energy>()
        .register_type::<SleepCounter>()
        .register_type::<DungeonLevelRequested>()
        .register_type::<LevelFloor>()
        .register_type::<AngbandLevelBuilt>()
        .register_type::<AngbandLevelRejected>()
        .add_systems(
            schedule,
            build_levels
                .in_set(DenizenSystems::Levels)
                .run_if(on_message::<DungeonLevelRequested>),
        );
    }
}

/// What a request made, before it touches the world.
struct Made {
    monsters: Vec<Monster>,
    built: AngbandLevelBuilt,
    /// The classic level's floor, for a classic request.
    floor: Option<denizen_core::FloorGrid>,
}

/// Reads every [`DungeonLevelRequested`] and makes its level.
fn build_levels(world: &mut World, mut cursor: Local<MessageCursor<DungeonLevelRequested>>) {
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

/// Plans a level with the rules, then puts it in the world: its floor, its monsters
/// through the one apply step, and the [`AngbandLevelBuilt`] message.
fn make_level(world: &mut World, request: DungeonLevelRequested) -> Result<(), String> {
    let depth = i32::try_from(request.depth)
        .ok()
        .filter(|d| (1..=MAX_DRAW_LEVEL).contains(d))
        .ok_or_else(|| format!("depth {} is outside Angband's 1-127", request.depth))?;
    let floor_id = FloorId::new(ANGBAND_FLOOR, request.depth);
    claim_floor(world, &floor_id)?;
    let mut rng =
        world
            .resource_mut::<DenizenRng>()
            .next_stream("level", ANGBAND_FLOOR, request.depth);
    let made = world.resource_scope(
        |world, mut rules: Mut<AngbandRules>| -> Result<Made, String> {
            let rules = &mut *rules;
            // A working copy: a level that fails leaves the ledger as it was.
            let mut live = world.resource::<AngbandUniques>().0.clone();
            live.keep_only_uniques_of(rules.allocator.races());
            match request.floor {
                LevelFloor::Classic => {
                    let mut options = rules.options.clone();
                    options.layout.quest = request.quest;
                    let level = Level::build_with(
                        &mut rng,
                        depth,
                        &options,
                        &mut rules.allocator,
                        &mut live,
                        &rules.vaults,
                    );
                    world.resource_mut::<AngbandUniques>().0 = live;
                    let mut floor = level.floor();
                    for monster in &level.monsters {
                        floor.set_occupied(monster.at.square(), false);
                    }
                    Ok(Made {
                        built: AngbandLevelBuilt {
                            depth: request.depth,
                            rooms: floor.rooms().to_vec(),
                            destroyed: level.layout.destroyed,
                            player: level.layout.cave.player().map(|p| p.square()),
                            monsters: level.monsters.len() as u32,
                            population_level: level.population_level as u32,
                            monster_rating: level.monster_rating,
                            failed_draws: level.failed_draws,
                        },
                        monsters: level.monsters,
                        floor: Some(floor),
                    })
                }
                LevelFloor::Host => {
                    let grid = &world
                        .get_resource::<FloorMap>()
                        .ok_or("no FloorMap to populate")?
                        .0;
                    let (monsters, rating, failed) =
                        populate_floor(&mut rng, grid, depth, &mut rules.allocator, &mut live)
                            .map_err(|e| e.to_string())?;
                    world.resource_mut::<AngbandUniques>().0 = live;
                    Ok(Made {
                        built: AngbandLevelBuilt {
                            depth: request.depth,
                            rooms: Vec::new(),
                            destroyed: false,
                            player: None,
                            monsters: monsters.len() as u32,
                            population_level: request.depth,
                            monster_rating: rating,
                            failed_draws: failed,
                        },
                        monsters,
                        floor: None,
                    })
                }
            }
        },
    )?;
    if let Some(floor) = made.floor {
        world.insert_resource(FloorMap(floor));
    }
    enter_floor(world, floor_id);
    let symbols: Vec<char> = {
        let rules = world.resource::<AngbandRules>();
        made.monsters
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
        spawns: made
            .monsters
            .iter()
            .zip(symbols)
            .map(|(m, symbol)| Spawn {
                at: m.at.square(),
                origin: Origin::FloorPopulation,
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
    });
    world.write_message(made.built);
    Ok(())
}

/// The Angband types most games need: `use denizen_bevy::angband::prelude::*;`.
pub mod prelude {
    pub use super::AngbandPlugin;
    pub use super::components::{AngbandMonster, Energy, HitPoints, SleepCounter, Speed};
    pub use super::messages::{
        AngbandLevelBuilt, AngbandLevelRejected, DungeonLevelRequested, LevelFloor, QUEST_DEPTHS,
    };
    pub use super::resources::{AngbandRules, AngbandUniques};
}
