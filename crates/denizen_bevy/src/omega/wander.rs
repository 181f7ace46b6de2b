//! Wandering arrivals: the system both check schedules run.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::plan::Plan;
use denizen_omega::species::SpeciesId;
use denizen_omega::wander::WanderRule;

use super::populate::{spawn_monsters, with_builder};
use super::resources::{CurrentLocation, OmegaRuleset};
use crate::floor::FloorMap;
use crate::streams::DenizenRng;
use denizen_core::floor::Square;

/// A wandering creature arrived on the current floor.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
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
/// check after).
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct WanderingSkipped {
    /// Why, in one line.
    pub reason: String,
}

/// The reason last said with [`WanderingSkipped`] (shared by the ten-minute and hourly
/// checks, so the host hears it once).
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub(crate) struct SkipSaid(Option<String>);

/// One wandering check: only while the player is in the current dungeon; the chance is
/// `R(dungeon depth) < difficulty`, the creature comes from the ordinary pool (not the
/// themed recipe), placed by the floor search, marked wandering, and its square is not
/// turned to water (as in the source).
pub(crate) fn wandering_check(world: &mut World) {
    let location = world.resource::<CurrentLocation>().clone();
    let rules = world.resource::<OmegaRuleset>().clone();
    let dungeon = location
        .dungeon
        .clone()
        .filter(|d| *d == location.environment)
        .ok_or_else(|| {
            format!(
                "the current location `{}` is not a dungeon: wandering monsters arrive only \
                 in dungeons",
                location.environment
            )
        })
        .and_then(|key| {
            let env = rules
                .rules()
                .locations
                .get(&key)
                .map_err(|e| e.to_string())?;
            let depths = env.dungeon.as_ref().map_or(0, |d| d.depths);
            rules.ordinary_pool(location.difficulty).ok_or_else(|| {
                format!(
                    "no ordinary species at difficulty {}: nothing can wander in",
                    location.difficulty
                )
            })?;
            Ok((key, depths))
        });
    let (dungeon, max_depth) = match dungeon {
        Ok(found) => {
            world.resource_mut::<SkipSaid>().0 = None;
            found
        }
        Err(reason) => {
            let mut said = world.resource_mut::<SkipSaid>();
            if said.0.as_deref() != Some(reason.as_str()) {
                said.0 = Some(reason.clone());
                world.write_message(WanderingSkipped { reason });
            }
            return;
        }
    };
    let rule = WanderRule {
        max_depth,
        difficulty: location.difficulty,
    };
    let Some(pool) = rules.ordinary_pool(location.difficulty) else {
        return; // Said above.
    };
    let mut rng =
        world
            .resource_mut::<DenizenRng>()
            .next_stream("wander", &dungeon, location.depth);
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
        world.write_message(WanderingArrival {
            entity,
            species,
            at,
        });
    }
}
