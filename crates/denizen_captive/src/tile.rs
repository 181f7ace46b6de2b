//! What Captive adds to a base floor besides the tiles every rule set knows.

use denizen_core::Tile;

/// Burning floor: only fire creatures live here.
pub const FIRE: Tile = Tile::Feature('^');
/// A ladder between floors: never holds a group.
pub const LADDER: Tile = Tile::Feature('<');
