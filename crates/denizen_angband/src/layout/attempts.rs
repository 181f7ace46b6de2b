//! The 50 room attempts (notes 1.5-1.9 and source notes 1.4): each draws a block, aligns
//! it, walks the kind chain and builds the first kind that is deep enough, allowed (one
//! nest or pit per level) and fits the free blocks. A destroyed level tries only simple
//! rooms.

use super::BuiltRoom;
use super::blocks::{BlockMap, draw_block};
use super::builder::{Builder, Inhabit};
use super::choice::{AttemptRoll, RoomChoice};
use super::nest::nest_or_pit;
use super::rooms::{cross, large, overlap, simple};
use super::templates::{VaultKind, VaultTemplates};
use super::vault::{PlacedVault, vault};

/// Placement attempts per level (`DUN_ROOMS`).
pub const ROOM_ATTEMPTS: u32 = 50;

/// The rooms of a level, in build order, and its vaults.
pub(crate) struct Rooms {
    pub(crate) built: Vec<BuiltRoom>,
    pub(crate) vaults: Vec<PlacedVault>,
}

/// Runs the attempts. With a forced kind, the attempts try only it until one is built.
pub(crate) fn place_rooms<G: Inhabit>(
    b: &mut Builder<'_, G>,
    destroyed: bool,
    templates: &VaultTemplates,
    forced: Option<RoomChoice>,
) -> Rooms {
    let mut state = Attempts {
        blocks: BlockMap::default(),
        rooms: Rooms {
            built: Vec::new(),
            vaults: Vec::new(),
        },
        crowded: false,
    };
    // A kind this level can never build (too shallow, or no template of it) forces
    // nothing.
    let mut forced = forced.filter(|&kind| !destroyed && buildable(b.depth, templates, kind));
    for _ in 0..ROOM_ATTEMPTS {
        let (by, bx) = draw_block(b.rng);
        if destroyed {
            state.try_build(b, templates, (by, bx), RoomChoice::Simple);
            continue;
        }
        if let Some(kind) = forced {
            // Until the forced room stands, attempts build nothing else.
            if state.try_build(b, templates, (by, bx), kind) {
                forced = None;
            }
            continue;
        }
        let roll = AttemptRoll::draw(b.rng, b.depth);
        for kind in roll.candidates(b.depth) {
            if state.try_build(b, templates, (by, bx), kind) {
                break;
            }
        }
    }
    state.rooms
}

/// The vault kind of a room kind, if it is a vault.
fn vault_kind(kind: RoomChoice) -> Option<VaultKind> {
    match kind {
        RoomChoice::LesserVault => Some(VaultKind::Lesser),
        RoomChoice::GreaterVault => Some(VaultKind::Greater),
        _ => None,
    }
}

/// Whether a level at `depth` can ever build `kind`: deep enough, and a template of its
/// kind if it is a vault.
fn buildable(depth: i32, templates: &VaultTemplates, kind: RoomChoice) -> bool {
    depth >= kind.min_depth() && vault_kind(kind).is_none_or(|v| templates.has(v))
}

/// The attempts' state: the reserved blocks, the rooms so far, and whether the level has
/// its nest or pit.
struct Attempts {
    blocks: BlockMap,
    rooms: Rooms,
    crowded: bool,
}

impl Attempts {
    /// `room_build`: refuses without a draw when the kind is too deep, a second nest or pit,
    /// has no template, or its blocks are off the grid or taken; otherwise builds it (it
    /// cannot fail after that) and reserves its blocks.
    fn try_build<G: Inhabit>(
        &mut self,
        b: &mut Builder<'_, G>,
        templates: &VaultTemplates,
        (by, bx): (i32, i32),
        kind: RoomChoice,
    ) -> bool {
        if !buildable(b.depth, templates, kind) {
            return false;
        }
        let nest_like = matches!(kind, RoomChoice::Nest | RoomChoice::Pit);
        if nest_like && self.crowded {
            return false;
        }
        let vault_kind = vault_kind(kind);
        let Some(rect) = self.blocks.fits(by, bx, kind) else {
            return false;
        };
        let c = rect.centre();
        let room = match (kind, vault_kind) {
            (_, Some(v)) => match vault(b, c, v, templates) {
                Some((room, mut placed)) => {
                    placed.room = self.rooms.built.len();
                    self.rooms.vaults.push(placed);
                    room
                }
                None => return false,
            },
            (RoomChoice::Simple, _) => simple(b, c),
            (RoomChoice::Overlap, _) => overlap(b, c),
            (RoomChoice::Cross, _) => cross(b, c),
            (RoomChoice::Large, _) => large(b, c),
            (RoomChoice::Nest, _) => nest_or_pit(b, c, false),
            (RoomChoice::Pit, _) => nest_or_pit(b, c, true),
            (RoomChoice::LesserVault | RoomChoice::GreaterVault, None) => return false,
        };
        self.rooms.built.push(room);
        self.blocks.reserve(rect);
        if nest_like {
            self.crowded = true;
        }
        true
    }
}
