//! Shapes in an editor's pixels to the floor's squares, by the rule of the [crate
//! docs](crate#shapes-to-squares): a square is in a shape when its centre is, a centre on
//! the shape's top or left edge is in it and one on its bottom or right edge is not.

use denizen_core::{Rect, Square, SquareSet};

/// The squares of side `square` pixels whose centres lie in the box from (`left`, `top`)
/// (edges included) to (`right`, `bottom`) (edges excluded); empty when no centre does.
/// Coordinates are pixels from the level's top left corner, the box inside the level.
pub fn rect_squares(left: f64, top: f64, right: f64, bottom: f64, square: f64) -> SquareSet {
    let (x0, x1) = (first_centre(left, square), first_centre(right, square));
    let (y0, y1) = (first_centre(top, square), first_centre(bottom, square));
    if x1 <= x0 || y1 <= y0 {
        return SquareSet::default();
    }
    SquareSet::from(Rect {
        x: x0,
        y: y0,
        width: x1 - x0,
        height: y1 - y0,
    })
}

/// The square holding the point (`x`, `y`) in pixels (a point on a square's top or left
/// edge is in it).
pub fn point_square(x: f64, y: f64, square: f64) -> Square {
    Square {
        x: (x / square).floor() as u32,
        y: (y / square).floor() as u32,
    }
}

/// A shape with an outline that is not a box, in pixels from the level's top left corner.
pub enum Shape<'a> {
    /// The ellipse inside a box.
    Ellipse {
        /// The box's left edge.
        left: f64,
        /// Its top edge.
        top: f64,
        /// Its right edge.
        right: f64,
        /// Its bottom edge.
        bottom: f64,
    },
    /// A polygon, by its corners in order (its edges may cross: a point is inside when a
    /// ray from it crosses the outline an odd number of times).
    Polygon(&'a [(f64, f64)]),
}

/// The squares of side `square` pixels whose centres lie in `shape`. A centre exactly on
/// the outline is in when the shape lies right of it there, and, on a horizontal stretch
/// of outline, when the shape lies below it (the point a hair's breadth right, and a
/// thousandth of that down, is tested), which for a box is the top and left edges rule of
/// [`rect_squares`]. Read row by row: the cost is the rows times the corners, plus the
/// squares found.
pub fn shape_squares(shape: &Shape, square: f64) -> SquareSet {
    let (left, top, right, bottom) = match shape {
        Shape::Ellipse {
            left,
            top,
            right,
            bottom,
        } => (*left, *top, *right, *bottom),
        Shape::Polygon(points) => points.iter().fold(
            (
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ),
            |(l, t, r, b), &(x, y)| (l.min(x), t.min(y), r.max(x), b.max(y)),
        ),
    };
    if !(left < right && top < bottom) {
        return SquareSet::default();
    }
    let nudge = square * 1e-6;
    let (x0, x1) = (first_centre(left, square), first_centre(right, square));
    let (y0, y1) = (first_centre(top, square), first_centre(bottom, square));
    let mut squares = Vec::new();
    for y in y0..y1 {
        let centre_y = (f64::from(y) + 0.5) * square + nudge * 1e-3;
        for (from, to) in spans(shape, centre_y) {
            // The centres whose nudged point lies strictly between `from` and `to`.
            let first = ((from - nudge) / square - 0.5).floor() + 1.0;
            let end = ((to - nudge) / square - 0.5).ceil();
            let first = (first.max(0.0) as u32).max(x0);
            let end = (end.max(0.0) as u32).min(x1);
            squares.extend((first..end).map(|x| Square { x, y }));
        }
    }
    squares.into_iter().collect()
}

/// Where the row at height `y` is inside the shape: open spans of x, left to right.
fn spans(shape: &Shape, y: f64) -> Vec<(f64, f64)> {
    match shape {
        Shape::Ellipse {
            left,
            top,
            right,
            bottom,
        } => {
            let (rx, ry) = ((right - left) / 2.0, (bottom - top) / 2.0);
            let dy = (y - top - ry) / ry;
            if dy * dy >= 1.0 {
                return Vec::new();
            }
            let half = rx * (1.0 - dy * dy).sqrt();
            vec![(left + rx - half, left + rx + half)]
        }
        Shape::Polygon(points) => {
            let edges = points.iter().zip(points.iter().cycle().skip(1));
            let mut crossings: Vec<f64> = edges
                .filter(|&(&(_, ay), &(_, by))| (ay > y) != (by > y))
                .map(|(&(ax, ay), &(bx, by))| ax + (y - ay) / (by - ay) * (bx - ax))
                .collect();
            crossings.sort_by(f64::total_cmp);
            crossings
                .chunks_exact(2)
                .map(|pair| (pair[0], pair[1]))
                .collect()
        }
    }
}

/// The first square whose centre is at or past `edge`: centre `(i + 0.5) * square >= edge`.
fn first_centre(edge: f64, square: f64) -> u32 {
    (edge / square - 0.5).ceil().max(0.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(set: &SquareSet) -> Vec<(u32, u32)> {
        set.iter().map(|s| (s.x, s.y)).collect()
    }

    /// A box whose left edge runs through a column of centres takes that column; one whose
    /// right edge does leaves it: two boxes sharing that edge share no square.
    #[test]
    fn a_centre_on_an_edge_is_in_for_top_and_left_only() {
        // Squares of 16 pixels: centres at 8, 24, 40.
        let left = rect_squares(8.0, 8.0, 24.0, 24.0, 16.0);
        assert_eq!(squares(&left), [(0, 0)]);
        let right = rect_squares(24.0, 8.0, 40.0, 24.0, 16.0);
        assert_eq!(squares(&right), [(1, 0)]);
        // Just short of a centre leaves it out; just past takes it.
        assert_eq!(squares(&rect_squares(8.5, 0.0, 40.0, 16.0, 16.0)), [(1, 0)]);
        assert_eq!(
            squares(&rect_squares(7.5, 0.0, 24.5, 16.0, 16.0)),
            [(0, 0), (1, 0)]
        );
    }

    /// A box between centres holds no square.
    #[test]
    fn a_box_between_centres_is_empty() {
        assert!(rect_squares(9.0, 9.0, 23.0, 23.0, 16.0).is_empty());
    }

    /// A point on a square's top left corner is in that square; just before it, in the
    /// one before.
    #[test]
    fn a_point_is_the_square_holding_it() {
        assert_eq!(point_square(16.0, 32.0, 16.0), Square { x: 1, y: 2 });
        assert_eq!(point_square(15.9, 31.9, 16.0), Square { x: 0, y: 1 });
    }
}
