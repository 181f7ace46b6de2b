//! What a save holds, checked against itself before the world changes: a save of a state
//! no game can be in is refused whole.

use std::any::TypeId;
use std::collections::HashSet;

use bevy_ecs::prelude::*;
use bevy_reflect::{FromReflect, TypeRegistry};

use super::SaveError;
use super::format::ReadValue;
use super::links::entities_in;
use crate::clock::GameClock;
use crate::floor::{
    CurrentFloor, Dormant, FloorId, FloorMakers, FloorMap, GridPos, Maker, OnFloor, StoredFloors,
};

/// The save's first value of type `T`, if it holds one that reads as `T`.
fn first<T: FromReflect>(values: &[ReadValue]) -> Option<T> {
    values
        .iter()
        .find(|(type_id, _)| *type_id == TypeId::of::<T>())
        .and_then(|(_, value)| T::from_reflect(value.as_ref()))
}

/// Checks what a save holds against itself (see
/// [`SaveError::Impossible`]).
pub(super) fn check_state(
    world: &World,
    registry: &TypeRegistry,
    resources: &[ReadValue],
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    check_clock(resources)?;
    check_floors(world, resources, entities)?;
    check_squares(world, resources, entities)?;
    check_links(registry, entities)
}

/// The clock has checked no boundary it has not reached, and holds fewer turns toward
/// its next minute than its rate.
fn check_clock(resources: &[ReadValue]) -> Result<(), SaveError> {
    let Some(clock) = first::<GameClock>(resources) else {
        return Ok(());
    };
    let impossible = |message| {
        Err(SaveError::Impossible {
            type_path: "GameClock",
            message,
        })
    };
    if clock.boundaries_checked > clock.minutes / 10 {
        return impossible(format!(
            "{} ten-minute boundaries checked at minute {}, which has passed only {}",
            clock.boundaries_checked,
            clock.minutes,
            clock.minutes / 10
        ));
    }
    let rate = clock.turns_per_minute.map_or(1, |rate| rate.get());
    if clock.turns_into_minute >= rate {
        return impossible(format!(
            "{} turns toward the next minute, at {rate} turns a minute",
            clock.turns_into_minute
        ));
    }
    Ok(())
}

/// Every creature stands on its floor's map: the current floor's (the save's own, or the
/// world's when the save has none), or, put away, its stored floor's (unless that was
/// stored empty).
fn check_squares(
    world: &World,
    resources: &[ReadValue],
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    let map = saved_or_current::<FloorMap>(world, resources);
    let current = saved_or_current::<CurrentFloor>(world, resources).unwrap_or_default();
    let stored = saved_or_current::<StoredFloors>(world, resources).unwrap_or_default();
    for (id, components) in entities {
        let (Some(at), Some(on)) = (first::<GridPos>(components), first::<OnFloor>(components))
        else {
            continue;
        };
        // A floor put away before the host filled its map stores an empty one: nothing to
        // check a square against.
        let floor_map = if on.0 == current.0 {
            map.as_ref().map(|m| &m.0)
        } else {
            stored
                .0
                .get(&on.0)
                .filter(|m| m.width() > 0 && m.height() > 0)
        };
        let Some(floor_map) = floor_map else {
            continue;
        };
        let (width, height) = (floor_map.width(), floor_map.height());
        if at.x >= width || at.y >= height {
            return Err(SaveError::Impossible {
                type_path: "GridPos",
                message: format!(
                    "entity {id} stands at ({}, {}), off the {width} x {height} floor it is on",
                    at.x, at.y
                ),
            });
        }
    }
    Ok(())
}

/// The save's value of resource `T`, or else the world's (a save need not hold them all).
fn saved_or_current<T: Resource + FromReflect + Clone>(
    world: &World,
    resources: &[ReadValue],
) -> Option<T> {
    first::<T>(resources).or_else(|| world.get_resource::<T>().cloned())
}

/// The longest rule set name a save's [`FloorMakers`] may hold.
const MAX_MAKER_BYTES: usize = 64;

/// Floor changes keep only the current floor's creatures awake and every put-away
/// creature's floor stored (see [`put_floor_away`](crate::floor::put_floor_away)), so no
/// save holds a creature awake on another floor or put away on a floor not stored. A
/// creature spawned while no floor was current (an arena bout on a host's own map)
/// belongs to no floor and is left alone. The current floor is never also stored. A
/// maker's rule set name keeps its bounds (a maker of a floor neither current nor stored,
/// left by a game that set `CurrentFloor` by hand, is dropped once the save loads).
fn check_floors(
    world: &World,
    resources: &[ReadValue],
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    let current = saved_or_current::<CurrentFloor>(world, resources).unwrap_or_default();
    let stored = saved_or_current::<StoredFloors>(world, resources).unwrap_or_default();
    let impossible = |type_path, message| Err(SaveError::Impossible { type_path, message });
    if current.0 != FloorId::default() && stored.0.contains_key(&current.0) {
        return impossible(
            "CurrentFloor",
            format!("the current floor {} is also put away", current.0),
        );
    }
    for (id, components) in entities {
        let Some(on) = first::<OnFloor>(components) else {
            continue;
        };
        let dormant = components
            .iter()
            .any(|(type_id, _)| *type_id == TypeId::of::<Dormant>());
        if dormant && !stored.0.contains_key(&on.0) {
            return impossible(
                "Dormant",
                format!(
                    "entity {id} is put away on {}, which is not a stored floor",
                    on.0
                ),
            );
        }
        if !dormant && on.0 != current.0 && on.0 != FloorId::default() {
            return impossible(
                "OnFloor",
                format!(
                    "entity {id} is awake on {}, but the current floor is {}",
                    on.0, current.0
                ),
            );
        }
    }
    // Only the save's own: a save without makers gets them guessed once it loads.
    let makers = first::<FloorMakers>(resources).unwrap_or_default();
    for (floor, maker) in &makers.0 {
        if let Maker::RuleSet(name) = maker
            && (name.is_empty()
                || name.len() > MAX_MAKER_BYTES
                || name.chars().any(char::is_control))
        {
            let message = format!(
                "{floor}'s maker: a rule set's name is 1 to {MAX_MAKER_BYTES} bytes, no control characters"
            );
            return impossible("FloorMakers", message);
        }
    }
    Ok(())
}

/// Every entity a saved component names is one of the save's.
fn check_links(
    registry: &TypeRegistry,
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    if let Some((id, _)) = entities
        .iter()
        .find(|(id, _)| Entity::try_from_bits(*id).is_none())
    {
        return Err(SaveError::Impossible {
            type_path: "an entity",
            message: format!("{id} is no entity's id"),
        });
    }
    let saved: HashSet<u64> = entities.iter().map(|(id, _)| *id).collect();
    for (id, components) in entities {
        for (type_id, value) in components {
            let mut linked = Vec::new();
            entities_in(value.as_ref(), &mut linked);
            if let Some(missing) = linked.iter().find(|e| !saved.contains(&e.to_bits())) {
                let type_path = registry
                    .get(*type_id)
                    .map_or("?", |r| r.type_info().type_path_table().short_path());
                return Err(SaveError::Impossible {
                    type_path: "a link",
                    message: format!(
                        "entity {id}'s `{type_path}` names entity {}, which the save does not hold",
                        missing.to_bits()
                    ),
                });
            }
        }
    }
    Ok(())
}
