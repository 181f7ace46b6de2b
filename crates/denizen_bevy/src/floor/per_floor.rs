//! The one store of per-floor state: a record of type `T` for each floor that has one,
//! keyed by [`FloorId`], and the one rule that makes records follow their floors. The
//! maps put away are one such store ([`StoredFloors`](super::StoredFloors)), and so are the
//! rule sets' records (Angband's levels put away, the tables' floors).

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
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

/// Makes the records of `maker`'s store follow their floors: a record is forgotten when
/// its floor ends other than put away, and when a floor of its id made by another maker
/// becomes current.
pub(crate) fn follow_floors<T: Send + Sync + 'static>(app: &mut bevy_app::App, maker: Maker) {
    app.add_observer(forget_ended::<T>).add_observer(
        move |entered: On<FloorEntered>, store: ResMut<PerFloor<T>>| {
            if entered.maker != maker {
                forget(store, &entered.floor);
            }
        },
    );
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
fn forget<T: Send + Sync + 'static>(mut store: ResMut<PerFloor<T>>, floor: &FloorId) {
    if store.0.contains_key(floor) {
        store.0.remove(floor);
    }
}
