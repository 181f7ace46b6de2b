//! Captive's encounter stage through the pipeline: plan a base floor's groups with the
//! rules, spawn the groups, then apply their members through the one apply step.

use bevy_ecs::lifecycle::Despawn;
use bevy_ecs::prelude::*;
use denizen_captive::base::{STREAM_KIND, STREAM_PLACE};
use denizen_captive::{BaseEncounters, Carry, EncounterPlan, check_special_cells};
use denizen_core::floor::Square;
use denizen_core::plan::{Origin, Plan, Spawn};
use denizen_core::rng::Generator;

use super::components::{Carries, EncounterGroup, EncounterMember, EncounterStats, MemberOf};
use super::messages::{
    CarryDropped, EncounterRefusal, EncountersPlaced, EncountersRejected, EncountersRequested,
};
use super::resources::CaptiveRuleset;
use crate::apply::{Batches, apply};
use crate::floor::{
    CurrentFloor, FloorEnding, FloorId, FloorMap, Glyph, GridPos, OnFloor, logging_floor_ends,
    settle_late_spawns,
};
use crate::pipeline::{FloorRequest, rules_loading};
use crate::streams::StreamKey;

/// Observer: a despawned bearer drops its base map or clipboard (not when its whole floor
/// ends: [`FloorEnding`]).
pub(crate) fn drop_on_death(
    death: On<Despawn<Carries>>,
    bearers: Query<(&Carries, &GridPos, Option<&OnFloor>)>,
    ending: Option<Res<FloorEnding>>,
    mut dropped: MessageWriter<CarryDropped>,
) {
    if let Ok((carries, at, floor)) = bearers.get(death.entity)
        && !floor.is_some_and(|on| ending.as_ref().is_some_and(|e| e.ends(&on.0)))
    {
        dropped.write(CarryDropped {
            carry: carries.0,
            at: Square::from(*at),
            floor: floor.map(|f| f.0.clone()).unwrap_or_default(),
        });
    }
}

/// The pipeline's steps for a base floor: the map's groups planned on its floor, then
/// spawned; the base floor is `("base", map)`.
impl FloorRequest for EncountersRequested {
    type Rejection = EncounterRefusal;
    type Plan = EncounterPlan;

    fn validate(&self, world: &World) -> Result<FloorId, EncounterRefusal> {
        if rules_loading::<CaptiveRuleset>(world) {
            return Err(EncounterRefusal::RulesLoading);
        }
        let specials: Vec<_> = self.specials.iter().map(|s| (s.cell, s.stage)).collect();
        check_special_cells(&world.resource::<FloorMap>().0, &specials)
            .map_err(EncounterRefusal::SpecialCell)?;
        Ok(FloorId::new(STREAM_PLACE, self.map))
    }

    fn stream<'a>(&'a self, _floor: &'a FloorId) -> StreamKey<'a> {
        StreamKey {
            kind: STREAM_KIND,
            place: STREAM_PLACE,
            depth: self.map,
        }
    }

    fn plan(&self, world: &mut World, _floor: &FloorId, rng: &mut Generator) -> EncounterPlan {
        let rules = world.resource::<CaptiveRuleset>();
        let grid = &world.resource::<FloorMap>().0;
        let specials: Vec<_> = self.specials.iter().map(|s| (s.cell, s.stage)).collect();
        BaseEncounters::new(&rules.table, rules.settings, self.map, self.floors)
            .place_with_specials(rng, grid, &specials)
    }

    fn apply(&self, world: &mut World, _floor: &FloorId, plan: EncounterPlan) {
        let rules = world.resource::<CaptiveRuleset>().clone();
        spawn_groups(world, &rules, &plan);
        world.write_message(EncountersPlaced {
            map: self.map,
            groups: plan.groups.len() as u32,
            stopped: plan.stopped,
        });
    }

    fn reject(&self, world: &mut World, reason: EncounterRefusal) {
        world.write_message(EncountersRejected {
            map: self.map,
            reason,
        });
    }
}

/// Spawns a plan's groups (one batch), then their members through the apply step (one
/// batch for bearers, one for the rest), the first of a carrying group holding
/// [`Carries`]; then relates each member to its group.
///
/// The relation comes last, in one batch of live pairs, because an observer of the
/// members' spawns may end the floor meanwhile: a relation spawned with its member would
/// have its group's side queued before that and applied after, on a despawned group.
fn spawn_groups(world: &mut World, rules: &CaptiveRuleset, plan: &EncounterPlan) {
    logging_floor_ends(world, |world| {
        let floor = world.resource::<CurrentFloor>().0.clone();
        let groups = spawn_group_entities(world, plan, &floor);
        let (members, carried, group_of) = members_of(rules, plan, &groups);
        apply(world, members, |batches, spawns| {
            let (mut bearers, mut others) = (Vec::new(), Vec::with_capacity(spawns.len()));
            for ((i, spawn), carry) in spawns.into_iter().enumerate().zip(carried) {
                match carry {
                    Some(carry) => bearers.push((i, spawn.at, (spawn.creature, Carries(carry)))),
                    None => others.push((i, spawn.at, spawn.creature)),
                }
            }
            batches.spawn(bearers);
            batches.spawn(others);
            relate_members(batches, &group_of);
        });
        // Groups spawned before an observer of their spawns ended the floor go with it.
        settle_late_spawns(world, &floor, &groups);
    });
}

/// The plan's groups, one batch, on `floor`.
fn spawn_group_entities(world: &mut World, plan: &EncounterPlan, floor: &FloorId) -> Vec<Entity> {
    let floor = OnFloor(floor.clone());
    world
        .spawn_batch(plan.groups.iter().map(|g| {
            (
                EncounterGroup {
                    type_id: g.type_id,
                    speed: g.speed,
                },
                GridPos::from(g.cell),
                floor.clone(),
            )
        }))
        .collect()
}

/// The members' plan, in group order, with what each carries and its group's entity.
type MemberPlan = (Plan<MemberBundle>, Vec<Option<Carry>>, Vec<Entity>);

/// A member's components, besides what a carrier and the apply step add.
type MemberBundle = (EncounterMember, Glyph, EncounterStats);

fn members_of(rules: &CaptiveRuleset, plan: &EncounterPlan, groups: &[Entity]) -> MemberPlan {
    let mut members = Plan::default();
    let (mut carried, mut group_of) = (Vec::new(), Vec::new());
    for (group, &entity) in plan.groups.iter().zip(groups) {
        let glyph = Glyph(rules.table.get(group.type_id).map_or('?', |t| t.glyph));
        for (i, member) in group.members.iter().enumerate() {
            carried.push(group.carries.filter(|_| i == 0));
            group_of.push(entity);
            members.spawns.push(Spawn {
                at: group.cell,
                origin: Origin::EncounterGroup,
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

/// Relates each member to its group, in one batch of the pairs still alive (an observer
/// of the members' spawns may have ended the floor).
fn relate_members(batches: &mut Batches<'_>, group_of: &[Entity]) {
    let links: Vec<(Entity, MemberOf)> = group_of
        .iter()
        .enumerate()
        .map(|(i, &group)| (batches.entity(i), MemberOf(group)))
        .collect();
    let world = batches.world();
    let live = |&(member, MemberOf(group)): &(Entity, MemberOf)| {
        world.get_entity(member).is_ok() && world.get_entity(group).is_ok()
    };
    let links: Vec<_> = links.into_iter().filter(live).collect();
    world.insert_batch(links);
}
