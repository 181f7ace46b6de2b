//! A reference floor layout for examples, tools and tests: rooms joined by corridors, a pool
//! of water, secret squares and stairs. Games bring their own generators; this one only
//! gives every rule set the same kind of floor to show its population on.

use crate::floor::{FloorError, FloorGrid, Rect, Room, Square, Tile};

/// Rooms joined by corridors on a `width` x `height` floor, with a pool of water in the
/// second room, a secret square in every third corridor and stairs in the last room; the
/// rooms are recorded as ordinary rooms (an empty kind).
///
/// `draw(k)` gives a value in `0..k` (`k` is at least 1); the rule set supplies its own
/// random helper, so its reference floors follow its own draws. Floors smaller than 8 x 8
/// stay solid wall; sizes past [`MAX_SQUARES`](crate::floor::MAX_SQUARES) are an error.
pub fn rooms_and_corridors(
    draw: &mut impl FnMut(u32) -> u32,
    width: u32,
    height: u32,
) -> Result<FloorGrid, FloorError> {
    let mut grid = FloorGrid::new(width, height)?;
    if width < 8 || height < 8 {
        return Ok(grid);
    }
    let mut rooms: Vec<Rect> = Vec::new();
    for _ in 0..60 {
        if rooms.len() == 9 {
            break;
        }
        let w = 4 + draw((width / 5).clamp(1, 9));
        let h = 3 + draw((height / 5).clamp(1, 5));
        if w + 2 >= width || h + 2 >= height {
            continue;
        }
        let x = 1 + draw(width - w - 1);
        let y = 1 + draw(height - h - 1);
        let clear = rooms.iter().all(|r| {
            x + w + 1 < r.x || r.x + r.width + 1 < x || y + h + 1 < r.y || r.y + r.height + 1 < y
        });
        if clear {
            rooms.push(Rect {
                x,
                y,
                width: w,
                height: h,
            });
        }
    }
    for room in &rooms {
        for at in room.squares() {
            grid.set(at, Tile::Floor);
        }
    }
    rooms.sort_by_key(|r| r.x);
    let centre = |r: &Rect| (r.x + r.width / 2, r.y + r.height / 2);
    for (n, pair) in rooms.windows(2).enumerate() {
        let (ax, ay) = centre(&pair[0]);
        let (bx, by) = centre(&pair[1]);
        let mut path = Vec::new();
        for x in ax.min(bx)..=ax.max(bx) {
            path.push(Square { x, y: ay });
        }
        for y in ay.min(by)..=ay.max(by) {
            path.push(Square { x: bx, y });
        }
        for (i, at) in path.iter().enumerate() {
            if grid.tile(*at) == Tile::Wall {
                // Every third corridor hides one square behind a secret passage.
                let secret = n % 3 == 2 && i == path.len() / 2;
                grid.set(*at, if secret { Tile::Secret } else { Tile::Floor });
            }
        }
    }
    if let Some(r) = rooms.get(1) {
        for y in r.y + 1..r.y + r.height.min(3) {
            for x in r.x + 1..r.x + r.width.min(4) {
                grid.set(Square { x, y }, Tile::Water);
            }
        }
    }
    if let Some(r) = rooms.last() {
        grid.set(Square { x: r.x, y: r.y }, Tile::Stairs);
    }
    for rect in rooms {
        grid.add_room(Room::new("", rect));
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{StreamPurpose, WorldSeed, uniform};

    #[test]
    fn the_layout_has_rooms_water_secrets_and_stairs() {
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("layout"));
        let grid = rooms_and_corridors(&mut |k| uniform(&mut rng, k), 64, 24).unwrap();
        let text = grid.render(|_| None);
        assert_eq!(text.lines().count(), 24);
        assert!(grid.acceptable_count() > 150, "{text}");
        assert!(
            text.contains('~') && text.contains(':') && text.contains('>'),
            "{text}"
        );
        assert!((2..=9).contains(&grid.rooms().len()), "{text}");
        for room in grid.rooms() {
            let dug = room.rect.squares().filter(|&s| grid.tile(s) != Tile::Wall);
            assert_eq!(dug.count() as u32, room.rect.width * room.rect.height);
        }
    }

    #[test]
    fn small_floors_stay_solid() {
        let grid = rooms_and_corridors(&mut |_| 0, 7, 30).unwrap();
        assert_eq!(grid.acceptable_count(), 0);
        assert!(grid.rooms().is_empty());
        assert!(rooms_and_corridors(&mut |_| 0, u32::MAX, 2).is_err());
    }
}
