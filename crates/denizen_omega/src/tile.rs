//! What Omega adds to a floor besides the tiles every rule set knows.

use denizen_core::Tile;

/// A statue, which may come alive (Omega's waking statues): never chosen for placement.
pub const STATUE: Tile = Tile::Feature('*');
