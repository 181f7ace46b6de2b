//! Captive's encounter stage through the pipeline: plan a base floor's groups with the
//! rules, spawn the groups, then apply their members through the one apply step.

use crate::base::{STREAM_KIND, STREAM_PLACE};
use crate::{BaseEncounters, Carry, EncounterPlan, check_special_cells};
use bevy_ecs::lifecycle::Despawn;
use bevy_ecs::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Plan, Spawn};

use super::components::{Carries, EncounterGroup, EncounterMember, EncounterStats, MemberOf};
use super::messages::{
    CaptiveCarryDropped, CaptiveFloorPopulated, CaptiveFloorRefusal, CaptiveFloorRequested,
};
use super::resources::CaptiveRuleset;
use denizen_bevy::apply::apply;
use denizen_bevy::floor::{FloorEnding, FloorId, FloorMap, Glyph, GridPos, OnFloor};
use denizen_bevy::pipeline::{FloorRequest, FloorStreams};

/// Observer: a despawned bearer drops its base map or clipboard (not when its whole floor
/// ends: [`FloorEnding`]).
pub(crate) fn drop_on_death(
    death: On<Despawn<Carries>>,
    bearers: Query<(&Carries, &GridPos, Option<&OnFloor>)>,
    ending: Option<Res<FloorEnding>>,
    mut dropped: MessageWriter<CaptiveCarryDropped>,
) {
    if let Ok((carries, at, floor)) = bearers.get(death.entity)
        && !floor.is_some_and(|on| ending.as_ref().is_some_and(|e| e.ends(&on.0)))
    {
        dropped.write(CaptiveCarryDropped {
            carry: carries.0,
            at: Square::from(*at),
            floor: floor.map(|f| f.0.clone()).unwrap_or_default(),
        });
    }
}

/// The pipeline's steps for a base floor: the map's groups planned on its floor, then
/// spawned; the base floor is `("base", map)`.
impl FloorRequest for CaptiveFloorRequested {
    type Rules = CaptiveRuleset;
    type Valid = CaptiveRuleset;
    type Plan = EncounterPlan;
    type Populated = CaptiveFloorPopulated;
    type Refusal = CaptiveFloorRefusal;

    fn validate(&self, world: &World) -> Result<(FloorId, CaptiveRuleset), CaptiveFloorRefusal> {
        let specials: Vec<_> = self.specials.iter().map(|s| (s.cell, s.stage)).collect();
        check_special_cells(&world.resource::<FloorMap>().0, &specials)
            .map_err(CaptiveFloorRefusal::SpecialCell)?;
        let rules = world.resource::<CaptiveRuleset>().clone();
        Ok((FloorId::new(STREAM_PLACE, self.map), rules))
    }

    fn plan(
        &self,
        world: &World,
        rules: CaptiveRuleset,
        streams: &mut FloorStreams<'_>,
    ) -> EncounterPlan {
        let grid = &world.resource::<FloorMap>().0;
        let specials: Vec<_> = self.specials.iter().map(|s| (s.cell, s.stage)).collect();
        let mut rng = streams.draw(STREAM_KIND);
        BaseEncounters::new(rules.rules(), rules.settings(), self.map, self.floors)
            .place_with_specials(&mut rng, grid, &specials)
    }

    fn apply(
        &self,
        world: &mut World,
        _floor: &FloorId,
        plan: EncounterPlan,
    ) -> CaptiveFloorPopulated {
        let rules = world.resource::<CaptiveRuleset>().clone();
        CaptiveFloorPopulated {
            entities: spawn_groups(world, &rules, &plan),
            groups: plan.groups.len() as u32,
            stopped: plan.stopped,
        }
    }
}

/// Spawns a plan's groups and members through the one apply step: the groups as the
/// floor's entities that are not creatures (one batch), then the members (one batch for
/// bearers, one for the rest), the first of a carrying group holding [`Carries`]; then each
/// member linked to its group ([`MemberOf`]), all before any `MonsterSpawned`. Returns the
/// members in plan order.
fn spawn_groups(world: &mut World, rules: &CaptiveRuleset, plan: &EncounterPlan) -> Vec<Entity> {
    let (members, carried, group_of) = members_of(rules, plan);
    apply(world, members, |batches, spawns| {
        let groups = batches.spawn_floor_entities(
            plan.groups
                .iter()
                .map(|g| {
                    let group = EncounterGroup {
                        type_id: g.type_id,
                        speed: g.speed,
                    };
                    (g.cell, group)
                })
                .collect(),
        );
        let (mut bearers, mut others) = (Vec::new(), Vec::with_capacity(spawns.len()));
        for ((i, spawn), carry) in spawns.into_iter().enumerate().zip(carried) {
            match carry {
                Some(carry) => bearers.push((i, spawn.at, (spawn.creature, Carries(carry)))),
                None => others.push((i, spawn.at, spawn.creature)),
            }
        }
        batches.spawn(bearers);
        batches.spawn(others);
        let links: Vec<(Entity, Entity)> = group_of
            .iter()
            .enumerate()
            .map(|(i, &group)| (batches.entity(i), groups[group]))
            .collect();
        batches.link::<MemberOf>(links);
    })
}

/// The members' plan, in group order, with what each carries and its group's place in the
/// plan's groups.
type MemberPlan = (Plan<MemberBundle>, Vec<Option<Carry>>, Vec<usize>);

/// A member's components, besides what a carrier and the apply step add.
type MemberBundle = (EncounterMember, Glyph, EncounterStats);

fn members_of(rules: &CaptiveRuleset, plan: &EncounterPlan) -> MemberPlan {
    let mut members = Plan::default();
    let (mut carried, mut group_of) = (Vec::new(), Vec::new());
    for (g, group) in plan.groups.iter().enumerate() {
        let glyph = Glyph(rules.rules().get(group.type_id).map_or('?', |t| t.glyph));
        for (i, member) in group.members.iter().enumerate() {
            carried.push(group.carries.filter(|_| i == 0));
            group_of.push(g);
            members.spawns.push(Spawn {
                at: group.cell,
                origin: crate::ENCOUNTER_GROUP,
                creature: (
                    EncounterMember {
                        type_id: group.type_id,
                    },
                    glyph,
                    EncounterStats(*member),
                ),
            });
        }
    }
    (members, carried, group_of)
}
