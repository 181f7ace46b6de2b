//! Omega's square search (`findspace`): where a new creature of a floor's population or a
//! wandering arrival stands.

use denizen_core::floor::{FloorGrid, FreeSquares, Square};
use rand::Rng;

use crate::rng;

/// The most probes the square search makes before it takes the first free square in
/// row order instead. With one acceptable square on a 100 x 100 floor a probe finds it
/// with chance at least 1/10,000, so on such floors the fallback has a chance below
/// e^-100 of ever being used; it exists for floors where a probe almost never succeeds
/// (a 2000 x 2000 floor whose only free square is in its corner), on which the source
/// would probe for minutes.
pub const MAX_PROBES: u32 = 1_000_000;

/// Omega's `findspace`: a random square; if it is not acceptable (open floor, nobody on
/// it), alternately scan right along its row or down its column for the first acceptable
/// one, and repeat.
///
/// Not uniform: squares just right of or below blocked runs are favoured. Returns `None`
/// at once when no square is acceptable (the source would search forever; nothing is
/// drawn). After [`MAX_PROBES`] failed probes it returns the first free square in row
/// order: a deviation from the source, which would keep probing, so a floor with a free
/// square is never reported full.
pub fn find_space<R: Rng + ?Sized>(grid: &FloorGrid, rng: &mut R) -> Option<Square> {
    // A full floor needs no copy of its free squares (and the search draws nothing).
    if grid.free_count() == 0 {
        return None;
    }
    find_free(&grid.free_squares(), rng)
}

/// [`find_space`] over a planner's set of free squares (the floor's, less the squares
/// taken since): the same probes, the same scans, the same draws.
pub fn find_free<R: Rng + ?Sized>(free: &FreeSquares, rng: &mut R) -> Option<Square> {
    search(free, rng, MAX_PROBES)
}

/// The search with a probe budget of `probes`.
fn search<R: Rng + ?Sized>(free: &FreeSquares, rng: &mut R, probes: u32) -> Option<Square> {
    if free.count() == 0 {
        return None;
    }
    let mut along_row = true;
    for _ in 0..probes {
        let at = Square {
            x: rng::range(rng, free.width()),
            y: rng::range(rng, free.height()),
        };
        if free.contains(at) {
            return Some(at);
        }
        let found = if along_row {
            free.next_in_row(at)
        } else {
            free.next_in_column(at)
        };
        along_row = !along_row;
        if found.is_some() {
            return found;
        }
    }
    free.first()
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::floor::Tile;
    use denizen_core::rng::{StreamPurpose, WorldSeed};

    #[test]
    fn a_full_floor_is_known_at_once_and_draws_nothing() {
        let mut grid = FloorGrid::from_rows(&["#.#", "#.#"]).unwrap();
        assert_eq!(grid.free_count(), 2);
        grid.set_occupied(Square { x: 1, y: 0 }, true);
        grid.set(Square { x: 1, y: 1 }, Tile::Wall);
        assert_eq!(grid.free_count(), 0);
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("full"));
        let before = rng.get_word_pos();
        assert_eq!(find_space(&grid, &mut rng), None);
        assert_eq!(rng.get_word_pos(), before, "no draw on a full floor");
        grid.set_occupied(Square { x: 1, y: 0 }, false);
        assert_eq!(grid.free_count(), 1);
        assert_eq!(find_space(&grid, &mut rng), Some(Square { x: 1, y: 0 }));
    }

    #[test]
    fn search_finds_the_only_free_square_and_reports_a_full_floor() {
        let mut grid = FloorGrid::from_rows(&["#####", "#..:#", "#~..#", "#####"]).unwrap();
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("space"));
        for at in [
            Square { x: 1, y: 1 },
            Square { x: 2, y: 1 },
            Square { x: 2, y: 2 },
        ] {
            grid.set_occupied(at, true);
        }
        assert_eq!(grid.acceptable_count(), 1);
        for _ in 0..50 {
            assert_eq!(find_space(&grid, &mut rng), Some(Square { x: 3, y: 2 }));
        }
        grid.set_occupied(Square { x: 3, y: 2 }, true);
        assert_eq!(find_space(&grid, &mut rng), None);
        assert_eq!(find_space(&FloorGrid::new(0, 0).unwrap(), &mut rng), None);
    }

    #[test]
    fn a_square_only_a_direct_probe_reaches_is_still_found() {
        // The only free square is the first: no row or column scan reaches it, so the
        // search keeps probing (over a hundred probes on average) until one lands on it.
        let mut grid = FloorGrid::from_rows(&["..........", ".........."]).unwrap();
        for at in grid.squares().skip(1).collect::<Vec<_>>() {
            grid.set_occupied(at, true);
        }
        let mut rng = WorldSeed(5).stream(StreamPurpose::new("corner"));
        for _ in 0..20 {
            assert_eq!(find_space(&grid, &mut rng), Some(Square { x: 0, y: 0 }));
        }
    }

    /// The audit's floor: 2000 x 2000 with only its corner open. A probe finds the corner
    /// about once in a million, so the search often spends its budget; the fallback then
    /// takes the first free square, and the floor is never reported full. (A budget of 8
    /// probes here: the full budget takes a minute in a test build.)
    #[test]
    fn a_free_square_is_found_even_when_probes_almost_never_reach_it() {
        let mut grid = FloorGrid::new(2000, 2000).unwrap();
        grid.set(Square { x: 0, y: 0 }, Tile::Floor);
        let free = grid.free_squares();
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("corner"));
        for _ in 0..3 {
            assert_eq!(search(&free, &mut rng, 8), Some(Square { x: 0, y: 0 }));
        }
        // A floor with two free squares far from the probes' reach: the first in row order.
        grid.set(Square { x: 1999, y: 1999 }, Tile::Floor);
        grid.set(Square { x: 5, y: 0 }, Tile::Floor);
        let free = grid.free_squares();
        assert_eq!(search(&free, &mut rng, 0), Some(Square { x: 0, y: 0 }));
    }

    #[test]
    fn the_search_favours_squares_after_blocked_runs() {
        // Row 0: a wall run then two floor squares; the first after the run collects the
        // scans of every probe that lands on the run.
        let grid = FloorGrid::from_rows(&["######..", "########"]).unwrap();
        let mut rng = WorldSeed(2).stream(StreamPurpose::new("bias"));
        let mut first = 0;
        for _ in 0..4000 {
            if find_space(&grid, &mut rng) == Some(Square { x: 6, y: 0 }) {
                first += 1;
            }
        }
        assert!(first > 3000, "{first}");
    }
}
