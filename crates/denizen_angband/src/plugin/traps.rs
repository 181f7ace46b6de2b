//! Traps sprung: an [`AngbandTrapSpringRequested`] springs the trap with the rules (its
//! kind chosen, rolled, a summoning rune's monsters placed round the player) through the
//! [`arrivals`](denizen_bevy::arrivals) pipeline, the summoned monsters through the apply
//! step.

use bevy_ecs::prelude::*;
use denizen_bevy::arrivals::ArrivalRequest;
use denizen_bevy::floor::{CurrentFloor, FloorId, FloorMap};
use denizen_bevy::pipeline::FloorStreams;
use denizen_core::plan::Origin;

use super::level::spawn_monsters;
use super::messages::{AngbandSprung, AngbandTrapRefusal, AngbandTrapSpringRequested};
use super::resources::{AngbandLastLevel, AngbandRuleset, AngbandTerrain, AngbandUniques};
use crate::request::spring_trap;
use crate::{Monster, Springing, Terrain, UniqueLedger, streams};

/// A trap as the rules sprang it, before its monsters reach the world.
pub struct TrapPlan {
    name: String,
    outcome: Springing,
    monsters: Vec<Monster>,
    live: UniqueLedger,
}

/// Springs one trap on the current floor, which must be an Angband level (made or brought
/// back, classic or the host's); its stream is that level's, its quest flag the last
/// level's.
impl ArrivalRequest for AngbandTrapSpringRequested {
    type Rules = AngbandRuleset;
    type Valid = (AngbandLastLevel, AngbandRuleset);
    type Plan = TrapPlan;
    type Arrival = AngbandSprung;
    type Refusal = AngbandTrapRefusal;

    fn validate(&self, world: &World) -> Result<(FloorId, Self::Valid), AngbandTrapRefusal> {
        let current = world.resource::<CurrentFloor>().0.clone();
        // On a classic level (its terrain held) a trap springs only where it lies; on a
        // host's floor, whose traps are the host's, wherever the host says.
        let terrain = world.resource::<AngbandTerrain>();
        if terrain.depth == current.depth && terrain.at(self.at) != Some(Terrain::Trap) {
            return Err(AngbandTrapRefusal::NoTrap { at: self.at });
        }
        let last = AngbandLastLevel {
            depth: current.depth,
            ..*world.resource::<AngbandLastLevel>()
        };
        let ruleset = world.resource::<AngbandRuleset>().clone();
        Ok((current, (last, ruleset)))
    }

    fn plan(
        &self,
        world: &World,
        (last, ruleset): Self::Valid,
        streams: &mut FloorStreams<'_>,
    ) -> Result<TrapPlan, AngbandTrapRefusal> {
        let mut rng = streams.draw(streams::TRAP);
        let rules = ruleset.rules();
        let mut live = world.resource::<AngbandUniques>().0.clone();
        live.keep_only_uniques_of(rules.races());
        let depth = last.depth.clamp(1, 127) as i32;
        let sprung = spring_trap(
            &rules.traps,
            &mut rng,
            &world.resource::<FloorMap>().0,
            self.at,
            self.armour,
            (depth, last.quest),
            &rules.allocator,
            &mut live,
        );
        Ok(TrapPlan {
            name: sprung.kind.name.clone(),
            outcome: sprung.outcome,
            monsters: sprung.summoned,
            live,
        })
    }

    fn apply(&self, world: &mut World, plan: TrapPlan) -> AngbandSprung {
        world.resource_mut::<AngbandUniques>().0 = plan.live;
        let summoned = spawn_monsters(world, &plan.monsters, Origin::SUMMONING, None);
        AngbandSprung {
            name: plan.name,
            outcome: plan.outcome,
            summoned,
        }
    }
}
