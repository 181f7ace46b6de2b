//! Vault rooms (types 7 and 8, notes 2.7): a template drawn from the vault table, centred
//! on the room, stamped cell by cell. The first pass lays the terrain: every non-space
//! cell becomes vault floor (room and no-teleport flags, never lit), then walls, secret
//! doors, traps and the `*` objects. The second pass places the monsters (through the
//! [`Inhabit`] hook) and the objects of `9`, `8` and `,`.

use super::BuiltRoom;
use super::builder::{Builder, Inhabit};
use super::doors::secret_door;
use super::templates::{VAULT_SLOTS, VaultKind, VaultTemplate, VaultTemplates};
use crate::cave::{Pos, flag, terrain};
use crate::feeling::SpecialRoom;
use crate::rng::{magik, rand0};

/// Slot draws before a vault room stops looking for its kind. A file without the kind is
/// refused before any draw; with one template of the kind in 16 slots, reaching this cap
/// has odds below 1e-280.
const SLOT_DRAW_CAP: u32 = 10_000;

/// A vault room as built: which template, and where its top-left cell lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedVault {
    /// The room's position in [`super::Layout::rooms`].
    pub room: usize,
    /// The template's slot in the vault table.
    pub template: u8,
    /// The grid of the template's cell (0, 0).
    pub top_left: Pos,
}

impl PlacedVault {
    /// The grid of template cell (`dy`, `dx`).
    pub fn grid(&self, dy: i32, dx: i32) -> Pos {
        Pos::new(self.top_left.y + dy, self.top_left.x + dx)
    }
}

/// Draws slots `rand0(16)` until one holds a template of `kind`.
fn choose<'t>(
    rng: &mut denizen_core::Generator,
    templates: &'t VaultTemplates,
    kind: VaultKind,
) -> Option<&'t VaultTemplate> {
    for _ in 0..SLOT_DRAW_CAP {
        let slot = rand0(rng, VAULT_SLOTS as i32) as usize;
        if let Some(t) = templates.slot(slot).filter(|t| t.kind == kind) {
            return Some(t);
        }
    }
    templates.iter().find(|t| t.kind == kind)
}

/// Builds a vault room of `kind` centred on `c`: the template choice, the special
/// feeling roll, the first pass, the template's rating, then the second pass. Returns the record and the template's placement
/// (the caller fills in the room's index).
pub(crate) fn vault<G: Inhabit>(
    b: &mut Builder<'_, G>,
    c: Pos,
    kind: VaultKind,
    templates: &VaultTemplates,
) -> Option<(BuiltRoom, PlacedVault)> {
    let t = choose(b.rng, templates, kind)?;
    // The special feeling: always down to depth 50, then less and less often.
    let room = match kind {
        VaultKind::Lesser => SpecialRoom::LesserVault,
        VaultKind::Greater => SpecialRoom::GreaterVault,
    };
    if room.special_test(b.depth).passes(b.rng) {
        b.special_feeling = true;
    }
    let top_left = Pos::new(c.y - t.height / 2, c.x - t.width / 2);
    for dy in 0..t.height {
        for dx in 0..t.width {
            let symbol = t.cell(dy, dx);
            if symbol == b' ' {
                continue;
            }
            let at = Pos::new(top_left.y + dy, top_left.x + dx);
            b.cave.set_terrain(at, terrain::FLOOR);
            b.cave.add_flags(at, flag::ROOM | flag::ICKY);
            match symbol {
                b'%' => b.cave.set_terrain(at, terrain::OUTER_GRANITE),
                b'#' => b.cave.set_terrain(at, terrain::INNER_GRANITE),
                b'X' => b.cave.set_terrain(at, terrain::INNER_PERMANENT),
                b'+' => secret_door(&mut b.cave, at),
                b'^' => b.place_trap(at),
                b'*' => {
                    if magik(b.rng, 75) {
                        b.place_object(at);
                    } else {
                        b.place_trap(at);
                    }
                }
                _ => {}
            }
        }
    }
    b.room_rating = b.room_rating.saturating_add(t.rating);
    second_pass(b, t, top_left);
    let room = BuiltRoom {
        kind: kind.room(),
        centre: c,
        top_left,
        bottom_right: Pos::new(top_left.y + t.height - 1, top_left.x + t.width - 1),
        lit: false,
    };
    let placed = PlacedVault {
        room: 0,
        template: t.index,
        top_left,
    };
    Some((room, placed))
}

/// The second pass (notes 2.7, source notes 6): monsters at depth plus 5 (`&`), 11 (`@`),
/// 9 with a good object at plus 7 (`9`), 40 with a good and great object at plus 20
/// (`8`); for `,` a monster at plus 3 half the time and, independently, an object at
/// plus 7 half the time. Each monster resets the monster level to the depth, as the
/// original does.
fn second_pass<G: Inhabit>(b: &mut Builder<'_, G>, t: &VaultTemplate, top_left: Pos) {
    for dy in 0..t.height {
        for dx in 0..t.width {
            let at = Pos::new(top_left.y + dy, top_left.x + dx);
            let (monster, object) = match t.cell(dy, dx) {
                b'&' => (Some(5), None),
                b'@' => (Some(11), None),
                b'9' => (Some(9), Some((7, true, false))),
                b'8' => (Some(40), Some((20, true, true))),
                b',' => {
                    let monster = magik(b.rng, 50).then_some(3);
                    if let Some(offset) = monster {
                        vault_monster(b, at, offset);
                    }
                    let object = magik(b.rng, 50).then_some((7, false, false));
                    (None, object)
                }
                _ => (None, None),
            };
            if let Some(offset) = monster {
                vault_monster(b, at, offset);
            }
            if let Some((offset, good, great)) = object {
                b.place_object_at(at, b.depth.saturating_add(offset), good, great);
            }
        }
    }
}

/// One vault monster at depth + `offset`, then the monster level back to the depth.
fn vault_monster<G: Inhabit>(b: &mut Builder<'_, G>, at: Pos, offset: i32) {
    let level = b.depth.saturating_add(offset);
    b.inhabitants.vault_monster(&mut b.cave, b.rng, at, level);
    b.monster_level = b.depth;
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};

    /// A lesser vault of every symbol (a space among them) in slot 3, a greater one in 9.
    const EVERY_SYMBOL: &str = r#"(templates: [
        (index: 3, name: "every", kind: Lesser, rating: 5, height: 5, width: 6,
         rows: ["%%%%%%", "%#X+^%", "%*&@9%", "%8,. %", "%%%%%%"]),
        (index: 9, name: "other", kind: Greater, rating: 5, height: 1, width: 1, rows: ["X"]),
    ])"#;

    /// A vault of the kind asked for is centred as notes 2.7 places it (cell (dy, dx) on
    /// (centre - height / 2 + dy, centre - width / 2 + dx)) and stamped cell by cell:
    /// every cell but a space is vault floor (room and no-teleport flags) under its
    /// symbol's terrain, a space is left granite without flags, and a `*` is an object
    /// three times in four, else a trap (as often a trap is rejected).
    #[test]
    fn a_vault_stamps_its_template_cell_by_cell() {
        let templates = VaultTemplates::from_file(denizen_core::DataFile::new(
            "every.vaults.ron",
            EVERY_SYMBOL,
        ))
        .unwrap();
        let t = templates.slot(3).unwrap();
        let c = Pos::new(30, 90);
        let mut stars = [0u64; 2];
        for seed in 0..2_000 {
            let mut rng = WorldSeed(seed).stream(StreamPurpose::new("vault"));
            let mut layout_alone = ();
            let mut b = Builder::new(&mut rng, &mut layout_alone, 20, false);
            let (room, placed) = vault(&mut b, c, VaultKind::Lesser, &templates).unwrap();
            assert_eq!(placed.template, 3);
            assert_eq!(placed.top_left, Pos::new(28, 87));
            assert_eq!(
                (room.top_left, room.bottom_right),
                (placed.top_left, placed.grid(4, 5))
            );
            for dy in 0..t.height {
                for dx in 0..t.width {
                    let at = placed.grid(dy, dx);
                    assert_eq!(at, Pos::new(28 + dy, 87 + dx));
                    let code = b.cave.terrain(at);
                    let symbol = t.cell(dy, dx);
                    if symbol == b' ' {
                        assert_eq!(code, terrain::GRANITE);
                        assert!(!b.cave.has(at, flag::ROOM | flag::ICKY));
                        continue;
                    }
                    assert!(b.cave.has(at, flag::ROOM) && b.cave.has(at, flag::ICKY));
                    let expected = match symbol {
                        b'%' => terrain::OUTER_GRANITE,
                        b'#' => terrain::INNER_GRANITE,
                        b'X' => terrain::INNER_PERMANENT,
                        b'+' => terrain::SECRET_DOOR,
                        b'^' => terrain::TRAP,
                        b'*' => {
                            let object = b.cave.has_object(at);
                            stars[usize::from(!object)] += 1;
                            if object {
                                terrain::FLOOR
                            } else {
                                terrain::TRAP
                            }
                        }
                        _ => terrain::FLOOR,
                    };
                    assert_eq!(code, expected, "{:?} at ({dy}, {dx})", char::from(symbol));
                }
            }
        }
        let p = ChiSquared::against(&stars, [0.75, 0.25]).p_value();
        assert!(p > 1e-6, "{stars:?} p = {p}");
        let p = ChiSquared::against(&stars, [0.5, 0.5]).p_value();
        assert!(p < 1e-6, "as often a trap: {stars:?} p = {p}");
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("vault"));
        let mut layout_alone = ();
        let mut b = Builder::new(&mut rng, &mut layout_alone, 20, false);
        let (_, greater) = vault(&mut b, c, VaultKind::Greater, &templates).unwrap();
        assert_eq!(greater.template, 9);
    }
}
