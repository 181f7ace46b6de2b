//! The 50 room attempts (notes 1.5-1.9 and source notes 1.4): each draws a block, aligns
//! it, walks the kind chain and builds the first kind that is deep enough, allowed (one
//! nest or pit per level) and fits the free blocks. A destroyed level tries only simple
//! rooms.

use super::blocks::{BlockMap, draw_block};
use super::builder::{Builder, Inhabit};
use super::choice::{AttemptRoll, RoomChoice};
use super::nest::nest_or_pit;
use super::rooms::{cross, large, overlap, simple};
use super::templates::{VaultKind, VaultTemplates};
use super::vault::{PlacedVault, vault};
use crate::cave::BuiltRoom;

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
    let mut blocks = BlockMap::default();
    let mut rooms = Rooms {
        built: Vec::new(),
        vaults: Vec::new(),
    };
    let mut crowded = false;
    // A kind this level can never build (too shallow, or no template of it) forces
    // nothing.
    let buildable = |kind: RoomChoice| {
        b.depth >= kind.min_depth()
            && match kind {
                RoomChoice::LesserVault => templates.has(VaultKind::Lesser),
                RoomChoice::GreaterVault => templates.has(VaultKind::Greater),
                _ => true,
            }
    };
    let mut forced = forced.filter(|&kind| !destroyed && buildable(kind));
    for _ in 0..ROOM_ATTEMPTS {
        let (by, bx) = draw_block(b.rng);
        if destroyed {
            try_build(
                b,
                &mut blocks,
                &mut rooms,
                &mut crowded,
                templates,
                (by, bx),
                RoomChoice::Simple,
            );
            continue;
        }
        if let Some(kind) = forced {
            // Until the forced room stands, attempts build nothing else.
            if try_build(
                b,
                &mut blocks,
                &mut rooms,
                &mut crowded,
                templates,
                (by, bx),
                kind,
            ) {
                forced = None;
            }
            continue;
        }
        let roll = AttemptRoll::draw(b.rng, b.depth);
        for kind in roll.candidates(b.depth) {
            if try_build(
                b,
                &mut blocks,
                &mut rooms,
                &mut crowded,
                templates,
                (by, bx),
                kind,
            ) {
                break;
            }
        }
    }
    rooms
}

/// `room_build`: refuses without a draw when the kind is too deep, a second nest or pit,
/// has no template, or its blocks are off the grid or taken; otherwise builds it (it
/// cannot fail after that) and reserves its blocks.
fn try_build<G: Inhabit>(
    b: &mut Builder<'_, G>,
    blocks: &mut BlockMap,
    rooms: &mut Rooms,
    crowded: &mut bool,
    templates: &VaultTemplates,
    (by, bx): (i32, i32),
    kind: RoomChoice,
) -> bool {
    if b.depth < kind.min_depth() {
        return false;
    }
    let nest_like = matches!(kind, RoomChoice::Nest | RoomChoice::Pit);
    if nest_like && *crowded {
        return false;
    }
    let vault_kind = match kind {
        RoomChoice::LesserVault => Some(VaultKind::Lesser),
        RoomChoice::GreaterVault => Some(VaultKind::Greater),
        _ => None,
    };
    if vault_kind.is_some_and(|v| !templates.has(v)) {
        return false;
    }
    let Some(rect) = blocks.fits(by, bx, kind) else {
        return false;
    };
    let c = rect.centre();
    let room = match (kind, vault_kind) {
        (_, Some(v)) => match vault(b, c, v, templates) {
            Some((room, mut placed)) => {
                placed.room = rooms.built.len();
                rooms.vaults.push(placed);
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
    rooms.built.push(room);
    blocks.reserve(rect);
    if nest_like {
        *crowded = true;
    }
    true
}
