//! Where Omega's creatures come from, besides the origins every rule set shares
//! ([`Origin::FLOOR_POPULATION`], [`Origin::WANDERING_ARRIVAL`], [`Origin::SUMMONING`]).

use denizen_core::Origin;

/// A creature a level always has (the Goblin King, an elemental lord), placed before its
/// population.
pub const FIXED_INHABITANT: Origin = Origin::new("FixedInhabitant");
/// A statue that came alive.
pub const WAKING_STATUE: Origin = Origin::new("WakingStatue");
/// A countryside encounter on the tactical map.
pub const COUNTRYSIDE: Origin = Origin::new("Countryside");
/// An arena opponent.
pub const ARENA: Origin = Origin::new("Arena");
