//! Angband 2.7.9's dungeon as a denizen rule set: the 547 races, the monster allocator with
//! its exact odds, the classic level layout and the level's base population.
//!
//! Every rule is a pure function of a seeded generator, the data and a request; there is
//! no ECS here (the `denizen_bevy` plugin turns levels into entities). The shipped races
//! and vault templates are Angband 2.7.9's own and carry its non-commercial notice (see
//! the crate's `NOTICE`); a game brings its own files in the same format to use the rules
//! without them.

#![forbid(unsafe_code)]
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
pub mod population;
pub mod race;
pub mod request;
pub mod rng;
pub mod sample;
pub mod streams;
pub mod table;
pub mod terrain;
pub mod trap;

pub use alloc::{Allocator, DrawOdds, DrawRequest, RaceFilter, RaceOdds, UniqueLedger};
pub use artifact::{Artifact, ArtifactId, ArtifactLedger, Artifacts};
pub use cave::{BuiltRoom, Cave, Pos};
pub use den::DenKind;
pub use ego::{Ego, EgoId, Egos};
pub use feeling::{Autoscum, Feeling, SpecialRoom};
pub use flags::{InnateFlags, RaceFlags, SpellFlags};
pub use level::{Level, LevelOptions};
pub use make::{Call, MadeGold, MadeObject, ObjectRules};
pub use object::{KindId, ObjectAllocator, ObjectKind, ObjectKinds, ObjectOdds};
pub use population::{Monster, Placement};
pub use race::{Blow, Race, RaceId, Races};
pub use request::{Appraisal, KeptLevel, LevelRefusal, QUEST_DEPTHS, SprungTrap};
pub use terrain::Terrain;
pub use trap::{Springing, TrapKind, Traps};
