//! Wandering arrivals: the system both check schedules run.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::Plan;
use denizen_omega::place::NoWandering;
use denizen_omega::species::SpeciesId;
use denizen_omega::streams;

use super::populate::{spawn_monsters, with_builder};
use super::resources::{CurrentLocation, OmegaRuleset};
use crate::floor::{CurrentFloor, FloorId, FloorMap};
use crate::pipeline::rules_loading;
use crate::streams::DenizenRng;

/// A wandering creature arrived on the current floor. Written in
/// [`DenizenSystems::Clock`](crate::DenizenSystems::Clock), and also triggered on the new
/// monster, so batch readers and observers both see it.
#[derive(Message, EntityEvent, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct WanderingArrival {
    /// The new monster.
    pub entity: Entity,
    /// Its template.
    pub species: SpeciesId,
    /// Where it arrived.
    pub at: Square,
}

/// A wandering check could not run, said once until the reason changes (a check runs
/// every ten game minutes; the host hears it when the player leaves a dungeon, not every
/// check after). Written in [`DenizenSystems::Clock`](crate::DenizenSystems::Clock).
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct WanderingSkipped {
    /// Why.
    pub reason: WanderingSkip,
}

/// Why a wandering check did not run.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum WanderingSkip {
    /// The current floor is not the Omega location's (another rule set's floor, or none:
    /// a floor put away): Omega's clock-driven work runs only on Omega's floors.
    #[error(
        "the current floor `{} {}` is not Omega's `{} {}`: wandering monsters arrive only on \
         the Omega floor the player is on",
        current.location,
        current.depth,
        location.location,
        location.depth
    )]
    NotOmegaFloor {
        /// The floor `FloorMap` holds.
        current: FloorId,
        /// The floor of the current Omega location.
        location: FloorId,
    },
    /// The rules' data files (feature `assets`) have not loaded yet.
    #[error("the rules' data files have not loaded yet (wait for RulesLoaded)")]
    RulesLoading,
    /// The rules allow no wandering here (not a dungeon).
    #[error("{0}")]
    Rules(NoWandering),
    /// The ordinary pool at the difficulty is empty.
    #[error("no ordinary species at difficulty {0}: nothing can wander in")]
    NothingToDraw(i64),
}

/// The reason last said with [`WanderingSkipped`] (shared by the ten-minute and hourly
/// checks, so the host hears it once).
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub(crate) struct SkipSaid(Option<WanderingSkip>);

/// One wandering check: only while the current floor is the Omega dungeon the player is
/// in; the chance is `R(dungeon depth) < difficulty`, the creature comes from the
/// ordinary pool (not the themed recipe), placed by the floor search, marked wandering,
/// and its square is not turned to water (as in the source).
pub(crate) fn wandering_check(world: &mut World) {
    let location = world.resource::<CurrentLocation>().clone();
    let rules = world.resource::<OmegaRuleset>().clone();
    let current = world.resource::<CurrentFloor>().0.clone();
    let eligible = if rules_loading::<OmegaRuleset>(world) {
        Err(WanderingSkip::RulesLoading)
    } else if current != location.floor() {
        Err(WanderingSkip::NotOmegaFloor {
            current,
            location: location.floor(),
        })
    } else {
        rules
            .rules()
            .wandering(location.place())
            .map_err(WanderingSkip::Rules)
            .and_then(|rule| match rules.ordinary_pool(location.difficulty) {
                Some(pool) => Ok((rule, pool)),
                None => Err(WanderingSkip::NothingToDraw(location.difficulty)),
            })
    };
    let (rule, pool) = match eligible {
        Ok(found) => {
            world.resource_mut::<SkipSaid>().0 = None;
            found
        }
        Err(reason) => {
            let mut said = world.resource_mut::<SkipSaid>();
            if said.0.as_ref() != Some(&reason) {
                said.0 = Some(reason.clone());
                world.write_message(WanderingSkipped { reason });
            }
            return;
        }
    };
    let mut rng = world.resource_mut::<DenizenRng>().next_stream(
        streams::WANDER,
        &location.environment,
        location.depth,
    );
    let arrival = with_builder(
        world,
        &mut rng,
        location.difficulty,
        |rng, builder, world| rule.check(rng, &world.resource::<FloorMap>().0, pool, builder),
    );
    if let Some(spawn) = arrival {
        let at = spawn.at;
        let species = spawn.creature.species;
        let entity = spawn_monsters(world, Plan::one(spawn))[0];
        let arrival = WanderingArrival {
            entity,
            species,
            at,
        };
        world.write_message(arrival);
        world.trigger(arrival);
    }
}
