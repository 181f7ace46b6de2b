//! A whole level: the classic layout with its inner-room guards, then the base population
//! drawn at the monster level the rooms left behind.

use denizen_core::{FloorGrid, Generator, Tile};

use crate::alloc::{Allocator, MAX_DRAW_LEVEL, UniqueLedger};
use crate::artifact::ArtifactLedger;
use crate::cave::{Cave, HEIGHT, Pos, WIDTH, terrain};
use crate::layout::{self, Layout, LayoutOptions, VaultTemplates};
use crate::make::{Call, MadeGold, MadeObject, ObjectRules, place_gold};
use crate::population::{
    DenRecord, MAX_MONSTERS, Monster, Populator, Spread, naked_spot, naked_spot_in,
};
use crate::rng::{randint, randnor};

/// The switches of a level; `Default` is faithful to 2.7.9.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelOptions {
    /// The layout's switches.
    pub layout: LayoutOptions,
    /// 2.7.9's inner-room guard slip: after a cross or large room places its guards at
    /// depth + 2, the monster level is "restored" to depth + 2, so the whole base
    /// population is drawn two levels deeper when such a room was the last to touch it
    /// (source notes 7; fixed in 2.8.0). On by default; off draws the population at the
    /// depth.
    pub guard_level_slip: bool,
}

impl Default for LevelOptions {
    fn default() -> Self {
        Self {
            layout: LayoutOptions::default(),
            guard_level_slip: true,
        }
    }
}

/// A built and populated level.
#[derive(Clone, Debug)]
pub struct Level {
    /// The depth.
    pub depth: i32,
    /// The layout: the cave, its rooms, whether it was destroyed.
    pub layout: Layout,
    /// The level the base population was drawn at.
    pub population_level: i32,
    /// Every monster, in the order placed (guards first).
    pub monsters: Vec<Monster>,
    /// How many monsters were made, those the layout took back again included: 2.7.9's
    /// monster mark, which fills its list at [`MAX_MONSTERS`].
    pub monsters_made: usize,
    /// How many of `monsters` the room builders placed (the first ones), with their
    /// groups and escorts; the rest are the base population's.
    pub room_monsters: usize,
    /// The rating out-of-depth monsters added (rooms add theirs next to it).
    pub monster_rating: i32,
    /// Base-population draws that returned no race.
    pub failed_draws: u32,
    /// Guard and escort draws that returned no race.
    pub failed_company_draws: u32,
    /// The nests and pits, with their kinds and races.
    pub dens: Vec<DenRecord>,
    /// The hidden traps, row by row: the random ones and those of rooms and vaults.
    pub traps: Vec<Pos>,
    /// The rubble, in the order placed (outside rooms).
    pub rubble: Vec<Pos>,
    /// The objects, once [`furnish`](Self::furnish)ed: the rooms' first, then the base
    /// population's in rooms and anywhere, in the order made.
    pub objects: Vec<PlacedObject>,
    /// The gold, likewise.
    pub gold: Vec<PlacedGold>,
}

/// An object on a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedObject {
    /// Its grid.
    pub at: Pos,
    /// The object.
    pub object: MadeObject,
    /// The room spot it was made for (its index in the layout's objects), if a room
    /// builder asked for it.
    pub spot: Option<usize>,
}

/// Gold on a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedGold {
    /// Its grid.
    pub at: Pos,
    /// The gold.
    pub gold: MadeGold,
    /// The room spot it was made for, if a room builder asked for it.
    pub spot: Option<usize>,
}

/// The most objects and gold a level holds (2.7.9's 256-slot object list, slot 0 unused):
/// a level that makes this many is made again.
pub const MAX_OBJECTS: usize = 255;
/// The base population's objects in rooms: `randnor(9, 3)`; anywhere and gold:
/// `randnor(3, 3)` each (none when negative).
pub const ROOM_OBJECTS: (i32, i32) = (9, 3);
/// See [`ROOM_OBJECTS`].
pub const LOOSE_OBJECTS: (i32, i32) = (3, 3);

impl Level {
    /// Builds and populates a level at `depth` (held to Angband's 1-127) with the shipped
    /// vault templates: the uniques placed are added to `live`.
    #[cfg(feature = "shipped")]
    pub fn build(
        rng: &mut Generator,
        depth: i32,
        options: &LevelOptions,
        allocator: &Allocator,
        live: &mut UniqueLedger,
    ) -> Self {
        Self::build_with(
            rng,
            depth,
            options,
            allocator,
            live,
            layout::shipped_vaults(),
        )
    }

    /// [`build`](Self::build) with a game's own vault templates.
    pub fn build_with(
        rng: &mut Generator,
        depth: i32,
        options: &LevelOptions,
        allocator: &Allocator,
        live: &mut UniqueLedger,
        vaults: &VaultTemplates,
    ) -> Self {
        let depth = depth.clamp(1, MAX_DRAW_LEVEL);
        let mut populator = Populator::new(allocator, live, depth);
        let mut layout = layout::generate_with(rng, depth, &options.layout, vaults, &mut populator);
        populator.take_back(&mut layout.cave, &layout.removed_guards);
        let population_level = if options.guard_level_slip {
            layout.monster_level
        } else {
            depth
        };
        let room_monsters = populator.monsters.len();
        populator.populate(&mut layout.cave, rng, population_level);
        // Step 12: randint(k) traps on random naked floor, rooms and vaults included.
        let k = (depth / 3).clamp(2, 10);
        for _ in 0..randint(rng, k) {
            if let Some(at) = naked_spot(&layout.cave, rng) {
                layout.cave.set_terrain(at, terrain::TRAP);
            }
        }
        // Step 13: randint(k) rubble on random naked floor outside rooms.
        let mut rubble = Vec::new();
        for _ in 0..randint(rng, k) {
            if let Some(at) = naked_spot_in(&layout.cave, rng, Spread::Corridor) {
                layout.cave.set_terrain(at, terrain::RUBBLE);
                rubble.push(at);
            }
        }
        let traps = layout.cave.grids_of(terrain::TRAP).collect();
        Self {
            traps,
            rubble,
            objects: Vec::new(),
            gold: Vec::new(),
            depth,
            population_level,
            monsters_made: populator.monsters.len() + populator.taken_back,
            room_monsters,
            monsters: populator.monsters,
            monster_rating: populator.rating,
            failed_draws: populator.failed_draws,
            failed_company_draws: populator.failed_company_draws,
            dens: populator.dens,
            layout,
        }
    }

    /// The rating of the rooms and the out-of-depth monsters (the objects add
    /// [`object_rating`](Self::object_rating)).
    pub fn rating(&self) -> i32 {
        self.layout.room_rating.saturating_add(self.monster_rating)
    }

    /// Whether the monster list or the object list filled: 2.7.9 makes such a level
    /// again.
    pub fn is_full(&self) -> bool {
        self.monsters_made >= MAX_MONSTERS || self.objects.len() + self.gold.len() >= MAX_OBJECTS
    }

    /// Makes the level's objects and gold, as 2.7.9 makes them: the room builders'
    /// spots (an object at the spot's level, good or great as the room asks, or gold),
    /// then after the traps and rubble `randnor(9, 3)` objects on room floors,
    /// `randnor(3, 3)` anywhere and `randnor(3, 3)` gold anywhere, each on a random naked
    /// grid. Objects are made at the depth; an artifact made is marked in `ledger`. A draw
    /// that fails leaves its grid empty.
    pub fn furnish(
        &mut self,
        rng: &mut Generator,
        rules: &ObjectRules,
        ledger: &mut ArtifactLedger,
    ) {
        let depth = self.depth;
        for (i, spot) in self.layout.objects.clone().into_iter().enumerate() {
            if spot.gold {
                if let Some(gold) = place_gold(rng, rules.allocator.kinds(), spot.level) {
                    self.gold.push(PlacedGold {
                        at: spot.at,
                        gold,
                        spot: Some(i),
                    });
                }
                continue;
            }
            let call = Call {
                good: spot.good,
                great: spot.great,
            };
            if let Some(object) = rules.place_object(rng, spot.level, depth, call, ledger) {
                self.objects.push(PlacedObject {
                    at: spot.at,
                    object,
                    spot: Some(i),
                });
            }
        }
        let scatters = [
            (ROOM_OBJECTS, Spread::Room, false),
            (LOOSE_OBJECTS, Spread::Anywhere, false),
            (LOOSE_OBJECTS, Spread::Anywhere, true),
        ];
        for ((mean, stand), spread, gold) in scatters {
            for _ in 0..randnor(rng, mean, stand).max(0) {
                let Some(at) = naked_spot_in(&self.layout.cave, rng, spread) else {
                    break;
                };
                if gold {
                    if let Some(gold) = place_gold(rng, rules.allocator.kinds(), depth) {
                        self.layout.cave.set_object(at);
                        self.gold.push(PlacedGold {
                            at,
                            gold,
                            spot: None,
                        });
                    }
                } else if let Some(object) =
                    rules.place_object(rng, depth, depth, Call::default(), ledger)
                {
                    self.layout.cave.set_object(at);
                    self.objects.push(PlacedObject {
                        at,
                        object,
                        spot: None,
                    });
                }
            }
        }
    }

    /// What the objects add to the rating, and whether one is an artifact (which makes
    /// the level special).
    pub fn object_rating(&self) -> (i32, bool) {
        self.objects
            .iter()
            .fold((0, false), |(rating, artifact), placed| {
                (
                    rating.saturating_add(placed.object.rating),
                    artifact || placed.object.artifact.is_some(),
                )
            })
    }

    /// The level on the neutral floor, rooms recorded and monsters' squares occupied.
    pub fn floor(&self) -> FloorGrid {
        let rooms = self.layout.rooms.iter().map(layout::BuiltRoom::room);
        self.layout.cave.to_floor(rooms)
    }
}

/// Why a host's floor cannot hold an Angband population.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[error("a {width} x {height} floor is larger than Angband's {WIDTH} x {HEIGHT} level")]
pub struct FloorTooLarge {
    /// The floor's width.
    pub width: u32,
    /// The floor's height.
    pub height: u32,
}

/// A host's floor as a cave: floor squares are plain floor, doors open doors, secret
/// doors, stairs and everything else walls; squares the host marked occupied hold a
/// monster of its own. The floor goes in the top-left corner; the rest is granite.
pub fn cave_of_floor(grid: &FloorGrid) -> Result<Cave, FloorTooLarge> {
    if grid.width() > WIDTH as u32 || grid.height() > HEIGHT as u32 {
        return Err(FloorTooLarge {
            width: grid.width(),
            height: grid.height(),
        });
    }
    let mut cave = Cave::new();
    for square in grid.squares() {
        let at = Pos::new(square.y as i32, square.x as i32);
        let code = match grid.tile(square) {
            Tile::Floor => terrain::FLOOR,
            Tile::Door => terrain::OPEN_DOOR,
            Tile::Secret => terrain::SECRET_DOOR,
            Tile::Stairs => terrain::DOWN_STAIRS,
            _ => terrain::GRANITE,
        };
        cave.set_terrain(at, code);
        if grid.is_occupied(square) {
            cave.set_monster(at, usize::from(u16::MAX - 1));
        }
    }
    Ok(cave)
}

/// What the base population made of a host's floor.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostPopulation {
    /// The monsters placed, in order.
    pub monsters: Vec<Monster>,
    /// The rating their out-of-depth levels add.
    pub rating: i32,
    /// Draws that found no race.
    pub failed_draws: u32,
    /// Placements lost because their square lies on the floor's outer ring (column 0,
    /// row 0, and column 197 or row 65 of a floor that wide or tall): 2.7.9 never places a
    /// monster there, its own levels having wall all round.
    pub edge_losses: u32,
}

/// The base population of a host's floor at `depth` (held to Angband's 1-127; no rooms,
/// so no guards and no slip).
pub fn populate_floor(
    rng: &mut Generator,
    grid: &FloorGrid,
    depth: i32,
    allocator: &Allocator,
    live: &mut UniqueLedger,
) -> Result<HostPopulation, FloorTooLarge> {
    let depth = depth.clamp(1, MAX_DRAW_LEVEL);
    let mut cave = cave_of_floor(grid)?;
    let mut populator = Populator::new(allocator, live, depth);
    populator.populate(&mut cave, rng, depth);
    Ok(HostPopulation {
        monsters: populator.monsters,
        rating: populator.rating,
        failed_draws: populator.failed_draws,
        edge_losses: populator.edge_losses,
    })
}
