//! Angband 2.7.9's dungeon as a denizen rule set: the 547 races, the monster allocator with
//! its exact odds, the classic level layout and the level's base population, objects,
//! feelings and traps.
//!
//! Every rule is a pure function of a seeded generator, the data and a request, with no
//! ECS. With the `bevy` feature, the `plugin` module's `AngbandPlugin` turns levels into
//! entities, built on the neutral `denizen_bevy` rule-set API. The shipped races, objects,
//! vault templates and traps (feature `shipped`, on by default; the facade's
//! `angband_data`) are Angband 2.7.9's own and carry its non-commercial notice (see the
//! crate's `NOTICE`); a game turns the feature off and brings its own files in the same
//! format ([`AngbandRules::new`]).

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod alloc;
pub mod artifact;
pub mod cave;
pub mod den;
pub mod ego;
pub mod feeling;
mod fields;
pub mod flags;
pub mod layout;
pub mod level;
pub mod make;
pub mod object;
#[cfg(feature = "bevy")]
pub mod plugin;
pub mod population;
pub mod race;
pub mod request;
pub mod rng;
pub mod rules;
#[cfg(feature = "shipped")]
pub mod sample;
pub mod streams;
pub mod table;
pub mod terrain;
pub mod trap;

pub use alloc::{Allocator, DrawOdds, DrawRequest, RaceFilter, RaceOdds, UniqueLedger};
pub use artifact::{Artifact, ArtifactId, ArtifactLedger, Artifacts};
pub use cave::{Cave, Pos};
pub use den::DenKind;
pub use ego::{Ego, EgoId, Egos};
pub use feeling::{Autoscum, Feeling, SpecialRoom};
pub use flags::{InnateFlags, RaceFlags, SpellFlags};
pub use layout::BuiltRoom;
pub use level::{Level, LevelOptions};
pub use make::{Call, MadeGold, MadeObject, ObjectRules};
pub use object::{KindId, ObjectAllocator, ObjectKind, ObjectKinds, ObjectOdds};
pub use population::{Monster, Placement};
pub use race::{Blow, Race, RaceId, Races};
pub use request::{Appraisal, KeptLevel, LevelRefusal, QUEST_DEPTHS, SprungTrap};
pub use rules::AngbandRules;
pub use terrain::Terrain;
pub use trap::{Springing, TrapKind, Traps};
