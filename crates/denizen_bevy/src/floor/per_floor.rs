//! The one store of per-floor state: a record of type `T` for each floor that has one,
//! keyed by [`FloorId`], and the one rule that makes records follow their floors. The
//! maps put away are one such store ([`StoredFloors`](super::StoredFloors)), and so are the
//! rule sets' records (Angband's levels put away, the tables' floors).

use std::any::TypeId;
use std::collections::{BTreeMap, HashMap};
use std::ops::DerefMut;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::FloorGrid;
use serde::{Deserialize, Serialize};

use super::{FloorEnd, FloorEnded, FloorEntered, FloorId, Maker};

/// A record of type `T` for each floor that has one, in the floors' order (so equal
/// worlds save the same bytes). A rule set keeps its per-floor state here with
/// [`RuleSetApp::keep_per_floor`](crate::rule_set::RuleSetApp::keep_per_floor), which
/// also makes the records follow their floors.
#[derive(Resource, Reflect, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(where T: Serialize + for<'de> Deserialize<'de> + Clone + std::fmt::Debug + PartialEq)]
pub struct PerFloor<T: Send + Sync + 'static>(pub BTreeMap<FloorId, T>);

impl<T: Send + Sync + 'static> Default for PerFloor<T> {
    fn default() -> Self {
        Self(BTreeMap::new())
    }
}

/// The stores kept per floor: whose records each type holds (the maps put away are the
/// host's), and how to forget a floor's record in each.
#[derive(Resource, Reflect, Clone, Default)]
#[reflect(opaque)]
pub(crate) struct KeptStores {
    makers: HashMap<TypeId, Maker>,
    forgetters: Vec<fn(&mut World, &FloorId)>,
}

impl KeptStores {
    /// Marks the maps put away ([`StoredFloors`](super::StoredFloors)) as kept by the
    /// floor functions, so no rule set takes that type for its records.
    pub(crate) fn hold_stored_floors(&mut self) {
        self.makers.insert(TypeId::of::<FloorGrid>(), Maker::Host);
    }
}

/// Makes the records of `maker`'s store follow their floors: a record is forgotten when
/// its floor ends other than put away (told or not: a floor that held nothing ends
/// without a [`FloorEnded`]), when the game leaves it for another floor of its own, and
/// when a floor of its id made by another maker becomes current. Keeping the same store
/// for the same maker again changes nothing.
///
/// # Panics
///
/// If another maker keeps records of type `T` already (the maps put away are the
/// host's): each rule set keeps records of a type of its own.
pub(crate) fn follow_floors<T: Send + Sync + 'static>(app: &mut bevy_app::App, maker: Maker) {
    let mut kept = app.world_mut().get_resource_or_init::<KeptStores>();
    match kept.makers.get(&TypeId::of::<T>()) {
        Some(keeper) if *keeper == maker => return,
        Some(keeper) => panic!(
            "{maker} cannot keep per-floor records of `{}`: {keeper} keeps them; keep a type of \
             the rule set's own",
            std::any::type_name::<T>()
        ),
        None => {}
    }
    kept.makers.insert(TypeId::of::<T>(), maker.clone());
    kept.forgetters.push(forget_in::<T>);
    app.add_observer(forget_ended::<T>).add_observer(
        move |entered: On<FloorEntered>, store: ResMut<PerFloor<T>>| {
            if entered.maker != maker {
                forget(store, &entered.floor);
            }
        },
    );
}

/// Forgets `floor`'s record in every store kept per floor: the floor is gone (ended, or
/// left by the game for its own), whether or not a [`FloorEnded`] told of it.
pub(crate) fn forget_records(world: &mut World, floor: &FloorId) {
    let forgetters = (world.get_resource::<KeptStores>()).map(|kept| kept.forgetters.clone());
    for forget in forgetters.into_iter().flatten() {
        forget(world, floor);
    }
}

/// Forgets `floor`'s record in `PerFloor<T>`.
fn forget_in<T: Send + Sync + 'static>(world: &mut World, floor: &FloorId) {
    if let Some(store) = world.get_resource_mut::<PerFloor<T>>() {
        forget(store, floor);
    }
}

/// Observer: a floor ends. Left, replaced or despawned, its record is forgotten; put
/// away, it is kept for its return.
fn forget_ended<T: Send + Sync + 'static>(ended: On<FloorEnded>, store: ResMut<PerFloor<T>>) {
    if ended.end != FloorEnd::PutAway {
        forget(store, &ended.floor);
    }
}

/// Removes `floor`'s record, leaving the store unchanged (not marked changed) when it has
/// none.
fn forget<T: Send + Sync + 'static>(
    mut store: impl DerefMut<Target = PerFloor<T>>,
    floor: &FloorId,
) {
    if store.0.contains_key(floor) {
        store.0.remove(floor);
    }
}
