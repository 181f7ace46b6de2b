//! The neutral denizen plugin: what every rule set's plugin builds on, naming none of them.
//!
//! [`DenizenPlugin`] holds the world seed and stream ledger ([`DenizenRng`]), the current
//! floor ([`FloorMap`]) with the floors put away, the [`GameClock`](clock::GameClock) and
//! its check schedules, and the [`DenizenSystems`] phases. Around it, the public rule-set
//! API, which the shipped rule sets (Omega, Captive and Angband, each a `bevy` feature of
//! its own rules crate) use exactly as a game's own rule set does:
//!
//! - [`rule_set`]: a rule set's place among the others (its sets in the phases, in the order
//!   the rule sets were added) and its requests, so one written while its plugin is
//!   missing stops the app naming the plugin;
//! - [`pipeline`]: the one pipeline every floor request goes through;
//! - [`arrivals`]: the one pipeline every arrival on the current floor goes through
//!   (summons, statues, bouts, traps, wandering on the clock), answered with one shape;
//! - [`apply`]: the one apply step: occupancy, tiles, one batch per shape, non-creature
//!   floor entities, the batch's own links, then [`MonsterSpawned`];
//! - [`floor`]: floors ended, entered, put away and brought back; occupancy;
//! - [`save`]: saves of every registered type, with a hook to check a rule set's own state;
//! - `assets` (feature `assets`): data files as Bevy assets, followed and swapped in;
//! - [`streams`]: the world seed's stream ledger;
//! - [`view`]: a floor as text, and what each creature is whatever its rule set
//!   ([`describe`](view::describe), [`roster`](view::roster), through each rule set's
//!   [`Describer`](view::Describer)).
//!
//! Every creature spawned carries an [`Origin`]: an open name, the shared ones constants
//! ([`Origin::FLOOR_POPULATION`], ...), each rule set's own made with [`Origin::new`].
//!
//! The host fills [`FloorMap`], writes a rule set's request message, and on the next run of
//! the plugins' schedule gets one entity per creature and a [`MonsterSpawned`] event on
//! each. The rules run in the pure rule-set crates; plugins only turn their plans into
//! entities.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod apply;
pub mod arrivals;
#[cfg(feature = "assets")]
pub mod assets;
pub mod clock;
pub mod floor;
pub mod pipeline;
mod plugin;
pub mod rule_set;
pub mod save;
pub mod streams;
pub mod view;

pub use apply::MonsterSpawned;
pub use denizen_core::plan::Origin;
pub use floor::{Creature, CurrentFloor, Dormant, FloorId, FloorMap, Glyph, GridPos, OnFloor};
pub use plugin::{DenizenPlugin, DenizenSystems, denizen_schedule};
pub use rule_set::{RuleSet, RuleSetApp};
pub use save::SaveWithDenizen;
pub use streams::{DenizenRng, StreamKey};

/// The neutral types most games need, in one glob import that never clashes:
/// `use denizen_bevy::prelude::*;` (the facade's prelude adds every rule set's).
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use crate::assets::{DataRejected, RulesLoaded};
    pub use crate::clock::{ChecksSkipped, GameClock, HourlyCheck, TenMinuteCheck};
    pub use crate::floor::{
        FloorCommands, FloorEnd, FloorEnded, FloorEnding, FloorEntered, FloorEntry, FloorHeld,
        PerFloor, StoredFloors, bring_floor_back, despawn_floor, enter_floor, put_floor_away,
    };
    pub use crate::pipeline::{FloorServed, NotOurFloor};
    pub use crate::save::{SaveLoaded, SaveWithDenizen};
    pub use crate::view::{Description, describe, render_floor, roster};
    pub use crate::{
        Creature, CurrentFloor, DenizenPlugin, DenizenRng, DenizenSystems, Dormant, FloorId,
        FloorMap, Glyph, GridPos, MonsterSpawned, OnFloor, Origin, StreamKey,
    };
    pub use denizen_core::floor::{FloorGrid, Room, Square, Tile};
}
