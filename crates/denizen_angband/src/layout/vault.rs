//! Vault rooms (types 7 and 8, notes 2.7): a template drawn from the vault table, centred
//! on the room, stamped cell by cell. This is the original's first pass, the terrain:
//! every non-space cell becomes vault floor (room and no-teleport flags, never lit), then
//! walls, secret doors, traps and the `*` objects. The second pass (monsters and the
//! objects of `9`, `8` and `,`) belongs to the population rules, which find the template
//! and its corner in [`PlacedVault`].

use super::builder::{Builder, Guards};
use super::doors::secret_door;
use super::templates::{VAULT_SLOTS, VaultKind, VaultTemplate, VaultTemplates};
use crate::cave::{BuiltRoom, Pos, flag, terrain};
use crate::rng::{rand0, randint};

/// Slot draws before a vault room stops looking for its kind. A file without the kind is
/// refused before any draw; with one template of the kind in 16 slots, reaching this cap
/// has odds below 1e-280.
const SLOT_DRAW_CAP: u32 = 10_000;

/// The symbols the second pass reads: monsters and their objects.
pub const MONSTER_SYMBOLS: &str = "&@98,";

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
/// feeling roll, then the first pass. Returns the record and the template's placement
/// (the caller fills in the room's index).
pub(crate) fn vault<G: Guards>(
    b: &mut Builder<'_, G>,
    c: Pos,
    kind: VaultKind,
    templates: &VaultTemplates,
) -> Option<(BuiltRoom, PlacedVault)> {
    let t = choose(b.rng, templates, kind)?;
    // The special feeling: always down to depth 50, then less and less often.
    if b.depth <= 50 {
        b.special_feeling = true;
    } else {
        let span = i64::from(b.depth) - 40;
        let sides = (span * span + 1).min(i64::from(i32::MAX)) as i32;
        if randint(b.rng, sides) < 400 {
            b.special_feeling = true;
        }
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
                    if rand0(b.rng, 100) < 75 {
                        b.place_object(at);
                    } else {
                        b.place_trap(at);
                    }
                }
                _ => {}
            }
        }
    }
    // The original's second pass resets the monster level after each vault monster.
    if MONSTER_SYMBOLS.bytes().any(|s| t.count(s) > 0) {
        b.monster_level = b.depth;
    }
    let room = BuiltRoom {
        kind: kind.room().room_kind(),
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
