//! A reference floor to try a bestiary on: rooms and corridors with a pool in the second
//! room, the first room tagged `safe` with the player in its middle. The `denizen tables
//! floor` command and the tutorial's game populate it.

use denizen_core::fair::below;
use denizen_core::layout::rooms_and_corridors;
use denizen_core::{FloorError, FloorGrid, Rect, Square, SquareTags, StreamPurpose, WorldSeed};

/// A reference floor: its map, the safe room and the player's square.
#[derive(Clone, Debug)]
pub struct ReferenceFloor {
    /// The map.
    pub grid: FloorGrid,
    /// The first room, where nothing is placed (the starter's floors forbid `safe`).
    pub safe: Option<Rect>,
    /// The middle of the first room.
    pub player: Option<Square>,
}

impl ReferenceFloor {
    /// The map's tags with the safe room's.
    pub fn tags(&self) -> SquareTags {
        let mut tags = SquareTags::from_grid(&self.grid);
        if let Some(rect) = self.safe {
            // A layer from a grid holds at most one name per room kind and tile: `safe`
            // is always one more it can take.
            let _ = tags.tag_rect(rect, "safe");
        }
        tags
    }
}

/// The reference floor of a seed, `width` x `height` (64 x 24 for the command's).
pub fn reference_floor(
    seed: WorldSeed,
    width: u32,
    height: u32,
) -> Result<ReferenceFloor, FloorError> {
    let mut rng = seed.stream(StreamPurpose::new("tables-layout"));
    let grid = rooms_and_corridors(&mut |k| below(&mut rng, k).0, width, height)?;
    let safe = grid.rooms().first().map(|r| r.rect);
    let player = safe.map(|r| Square {
        x: r.x + r.width / 2,
        y: r.y + r.height / 2,
    });
    Ok(ReferenceFloor { grid, safe, player })
}
