//! Captive's encounter generator: groups placed by random probes, their type from a
//! cycling cursor checked against the table, members whose stats grow with the map number
//! under hard caps.

use denizen_core::floor::{FloorGrid, Square, Tile};
use fixedbitset::FixedBitSet;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::table::{Category, EncounterTable, EncounterType, FamilyMask, RING};
use denizen_core::rng;

/// Strength never exceeds this.
pub const STRENGTH_CAP: u32 = 65_500;
/// Armature and skill never exceed this.
pub const STAT_CAP: u32 = 253;

/// What a group carries and drops when its bearer dies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Carry {
    /// A map of one floor of the base.
    BaseMap {
        /// The floor (handed out from the last one down).
        floor: u32,
    },
    /// A numbered clipboard (a password), carried by the groups of the dead-end special
    /// stage.
    Clipboard {
        /// Its number, 0, 1, 2, ... in the order that stage makes them.
        index: u32,
    },
    /// The clipboard of a laser door, carried by the group that guards it.
    DoorClipboard {
        /// The door's number (0-7).
        door: u32,
    },
}

impl std::fmt::Display for Carry {
    /// `base map 2`, `clipboard 0`, `door 3 clipboard`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Carry::BaseMap { floor } => write!(f, "base map {floor}"),
            Carry::Clipboard { index } => write!(f, "clipboard {index}"),
            Carry::DoorClipboard { door } => write!(f, "door {door} clipboard"),
        }
    }
}

/// The special stages that make groups with a set cursor (source notes, section 7): each
/// sets the second cursor to its own value first, and gives its group its own item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum SpecialStage {
    /// The prisoner on a space station (cursor 30, so type 31): a normal caller, which
    /// takes a base map while any are left.
    Prisoner,
    /// The guard of a laser door (cursor 5, so type 6), carrying that door's clipboard.
    DoorGuard {
        /// The door's number (Captive has at most 8 laser doors, 0-7; the number is
        /// carried as given).
        door: u32,
    },
    /// A group of the dead-end special stage (cursor 7, so type 8), carrying the next
    /// clipboard of that stage's running count.
    DeadEnd,
}

impl SpecialStage {
    /// The value the stage sets the second cursor to.
    pub fn cursor(self) -> u8 {
        match self {
            SpecialStage::Prisoner => 30,
            SpecialStage::DoorGuard { .. } => 5,
            SpecialStage::DeadEnd => 7,
        }
    }
}

/// A special stage's cell no group can stand on: off the floor, or not open floor
/// (regular groups stand on floor or, for fire types, burning floor; a special stage's
/// group is a normal caller's and needs floor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[error("special stage {index} at ({}, {}): {}", .cell.x, .cell.y, match .tile {
    None => "off the floor".to_owned(),
    Some(tile) => format!("{tile:?}, not floor"),
})]
pub struct SpecialCellRefused {
    /// Its place in the list of special stages, from 0.
    pub index: usize,
    /// The cell.
    pub cell: Square,
    /// What the cell is, `None` when it lies off the floor.
    pub tile: Option<Tile>,
}

/// Checks every special stage's cell against the floor before any group is made, so a
/// request is taken whole or refused whole.
pub fn check_special_cells(
    grid: &FloorGrid,
    specials: &[(Square, SpecialStage)],
) -> Result<(), SpecialCellRefused> {
    for (index, &(cell, _)) in specials.iter().enumerate() {
        let inside = cell.x < grid.width() && cell.y < grid.height();
        let tile = inside.then(|| grid.tile(cell));
        if tile != Some(Tile::Floor) {
            return Err(SpecialCellRefused { index, cell, tile });
        }
    }
    Ok(())
}

/// One member of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Member {
    /// Position code inside the cell (formation slot).
    pub slot: u8,
    /// Strength, at most 65,500.
    pub strength: u32,
    /// Armature, at most 253.
    pub armature: u32,
    /// Skill, at most 253.
    pub skill: u32,
}

/// One encounter group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// Its type id (slot of the table).
    pub type_id: u8,
    /// The cell it stands on.
    pub cell: Square,
    /// Group speed: the type's base plus 0..7.
    pub speed: u32,
    /// The members.
    pub members: Vec<Member>,
    /// What it carries.
    pub carries: Option<Carry>,
}

/// How strength beyond 16 bits is handled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Overflow {
    /// Compute in full and cap at 65,500 (default).
    #[default]
    Saturate,
    /// Faithful: every step is kept to 16 bits as Captive computes it (`base x
    /// multiplier`, then the first sum wrap silently; a carry of the last sum takes half
    /// the map term off the wrapped value), so large bases on late maps wrap to small
    /// values (an original bug).
    Wrap,
}

/// How armature and skill are rolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Growth {
    /// As the generator's code does: base + 0..3, whatever the map (default).
    #[default]
    Code,
    /// As the guide's prose says: they grow with the map like strength (capped at 253).
    Prose,
}

/// The most cells one encounter stage probes: Captive probes 300.
pub const MAX_ATTEMPTS: u32 = 1_000_000;

/// Settings of the encounter stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct EncounterSettings {
    /// Random cells probed (300 in the source); at most [`MAX_ATTEMPTS`] are made
    /// whatever this says (a save or a setting of billions would run for minutes).
    pub attempts: u32,
    /// Cells with a dig number up to this are never used (10 in the source), when the
    /// floor has a dig order.
    pub entrance_clearance: u32,
    /// Bytes of group memory (`8 x (size + 1)` per group); `None` for no limit. The
    /// source's pool is 4,088 bytes.
    pub memory_budget: Option<u32>,
    /// Strength overflow.
    pub overflow: Overflow,
    /// Armature and skill growth.
    pub growth: Growth,
}

impl Default for EncounterSettings {
    fn default() -> Self {
        Self {
            attempts: 300,
            entrance_clearance: 10,
            memory_budget: Some(4_088),
            overflow: Overflow::Saturate,
            growth: Growth::Code,
        }
    }
}

/// Why the stage stopped before its last attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Stop {
    /// No type of this category passes on this map (the source would search forever).
    NoEligibleType(Category),
    /// The group memory is full.
    MemoryFull,
}

/// The groups of one base floor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterPlan {
    /// The map number.
    pub map: u32,
    /// Its family mask.
    pub mask: FamilyMask,
    /// Groups in creation order.
    pub groups: Vec<Group>,
    /// Probes made.
    pub attempts: u32,
    /// Why the stage stopped early, if it did.
    pub stopped: Option<Stop>,
}

/// The state of one map's encounter generation: two cursors, base maps left, the next
/// clipboard number and the memory used.
pub struct BaseEncounters<'a> {
    table: &'a EncounterTable,
    settings: EncounterSettings,
    map: u32,
    mask: FamilyMask,
    normal_cursor: u8,
    special_cursor: u8,
    maps_left: u32,
    next_clipboard: u32,
    memory_used: u32,
}

impl<'a> BaseEncounters<'a> {
    /// Starts a map: cursors at 0, one base map for each of `floors` floors.
    pub fn new(
        table: &'a EncounterTable,
        settings: EncounterSettings,
        map: u32,
        floors: u32,
    ) -> Self {
        Self {
            table,
            settings,
            map,
            mask: table.family_mask(map),
            normal_cursor: 0,
            special_cursor: 0,
            maps_left: floors,
            next_clipboard: 0,
            memory_used: 0,
        }
    }

    /// Steps a cursor (+1 mod 64 before each test) to the next accepted type; at most one
    /// turn of the ring, so it always ends.
    fn next_type(&mut self, category: Category) -> Option<u8> {
        let (table, map, mask) = (self.table, self.map, self.mask);
        let cursor = match category {
            Category::Normal => &mut self.normal_cursor,
            Category::Fire | Category::Special => &mut self.special_cursor,
        };
        for _ in 0..RING {
            *cursor = (*cursor + 1) % RING as u8;
            if table.accepts(*cursor, category, map, mask) {
                return Some(*cursor);
            }
        }
        None
    }

    /// The regular stage: up to `attempts` random cells. A cell is used when it is floor or
    /// fire, holds no group or creature, and (with a dig order) lies beyond the entrance
    /// clearance; fire cells get fire types, floor cells normal ones.
    pub fn place<R: Rng + ?Sized>(&mut self, rng: &mut R, grid: &FloorGrid) -> EncounterPlan {
        self.place_after(rng, grid, Vec::new(), None)
    }

    /// The special stages' groups at the cells a game's generator chose for them, in the
    /// order given (Captive makes them before its regular encounters, so the prisoner takes
    /// the first base map), then the regular stage, which leaves their cells alone. Check
    /// the cells first with [`check_special_cells`]: a cell not checked is kept as given,
    /// even off the floor. A
    /// special stage that cannot make its group (no eligible special type, group memory
    /// full) ends the specials; `stopped` reports the first stop of either stage.
    pub fn place_with_specials<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        grid: &FloorGrid,
        specials: &[(Square, SpecialStage)],
    ) -> EncounterPlan {
        let mut groups = Vec::with_capacity(specials.len());
        let mut stopped = None;
        for &(cell, stage) in specials {
            match self.special(rng, cell, stage) {
                Ok(group) => groups.push(group),
                Err(stop) => {
                    stopped = Some(stop);
                    break;
                }
            }
        }
        self.place_after(rng, grid, groups, stopped)
    }

    /// The regular stage after `groups` already stand on the floor.
    fn place_after<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        grid: &FloorGrid,
        mut groups: Vec<Group>,
        earlier_stop: Option<Stop>,
    ) -> EncounterPlan {
        // Cells holding a group, one bit each (a scan of the groups per probe would be
        // quadratic on a large floor with many groups).
        let mut taken = FixedBitSet::with_capacity(grid.width() as usize * grid.height() as usize);
        let inside = |cell: Square| cell.x < grid.width() && cell.y < grid.height();
        let bit = |cell: Square| cell.y as usize * grid.width() as usize + cell.x as usize;
        for g in groups.iter().filter(|g| inside(g.cell)) {
            taken.insert(bit(g.cell));
        }
        let mut stopped = None;
        let mut attempts = 0;
        if grid.width() > 0 && grid.height() > 0 {
            for _ in 0..self.settings.attempts.min(MAX_ATTEMPTS) {
                attempts += 1;
                let cell = Square {
                    x: rng::uniform(rng, grid.width()),
                    y: rng::uniform(rng, grid.height()),
                };
                let category = match grid.tile(cell) {
                    Tile::Floor => Category::Normal,
                    crate::tile::FIRE => Category::Fire,
                    _ => continue,
                };
                let near_entrance = grid
                    .carve_number(cell)
                    .is_some_and(|n| n <= self.settings.entrance_clearance);
                let undug = grid.has_carve_order() && grid.carve_number(cell).is_none();
                if near_entrance || undug || grid.is_occupied(cell) || taken.contains(bit(cell)) {
                    continue;
                }
                let Some(type_id) = self.next_type(category) else {
                    stopped = Some(Stop::NoEligibleType(category));
                    break;
                };
                match self.group(rng, type_id, cell, 0, None) {
                    Some(group) => {
                        taken.insert(bit(cell));
                        groups.push(group);
                    }
                    None => {
                        stopped = Some(Stop::MemoryFull);
                        break;
                    }
                }
            }
        }
        EncounterPlan {
            map: self.map,
            mask: self.mask,
            groups,
            attempts,
            stopped: earlier_stop.or(stopped),
        }
    }

    /// A group made by a special stage at a cell: the second cursor is set to the
    /// stage's value first, and the group carries the stage's item (a base map while any
    /// are left for the prisoner, the door's clipboard for a door guard, the next running
    /// clipboard for the dead-end stage).
    pub fn special<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        cell: Square,
        stage: SpecialStage,
    ) -> Result<Group, Stop> {
        self.special_at(rng, cell, stage, stage.cursor())
    }

    /// [`special`](Self::special) with the second cursor set to `cursor` (taken modulo
    /// 64) instead of the stage's own value.
    fn special_at<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        cell: Square,
        stage: SpecialStage,
        cursor: u8,
    ) -> Result<Group, Stop> {
        self.special_cursor = cursor % RING as u8;
        let type_id = self
            .next_type(Category::Special)
            .ok_or(Stop::NoEligibleType(Category::Special))?;
        let carry = match stage {
            SpecialStage::Prisoner => None,
            SpecialStage::DoorGuard { door } => Some(Carry::DoorClipboard { door }),
            SpecialStage::DeadEnd => Some(Carry::Clipboard {
                index: self.next_clipboard,
            }),
        };
        let group = self
            .group(rng, type_id, cell, 0, carry)
            .ok_or(Stop::MemoryFull)?;
        if stage == SpecialStage::DeadEnd {
            self.next_clipboard = self.next_clipboard.saturating_add(1);
        }
        Ok(group)
    }

    /// A cupboard-trap group at a cell: a normal type from the normal cursor, members a
    /// little stronger (+2 on the strength multiplier), and a base map while any are left.
    pub fn trap<R: Rng + ?Sized>(&mut self, rng: &mut R, cell: Square) -> Result<Group, Stop> {
        let type_id = self
            .next_type(Category::Normal)
            .ok_or(Stop::NoEligibleType(Category::Normal))?;
        self.group(rng, type_id, cell, 2, None)
            .ok_or(Stop::MemoryFull)
    }

    /// One group: size and speed from one 16-bit word, members from rotations of it, at
    /// the bit positions of the source notes (section 6): the group word is the draw
    /// rotated right 5; its bits 4-8 give the size, its low nibble the speed; member `i`
    /// reads the word rotated left 3, then right 5 per member. `None` when the group
    /// memory cannot hold it.
    fn group<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        type_id: u8,
        cell: Square,
        bonus: u32,
        carry: Option<Carry>,
    ) -> Option<Group> {
        let t = self.table.get(type_id)?;
        let word = (rng.next_u32() as u16).rotate_right(5);
        // 1 + five random bits, uniform on 1..=32: full groups are the most common.
        let size = t.max_group.min(1 + u32::from(word.rotate_right(4) & 31));
        let need = 8 * (size + 1);
        let used = self.memory_used.saturating_add(need);
        if self
            .settings
            .memory_budget
            .is_some_and(|budget| used > budget)
        {
            return None;
        }
        self.memory_used = used;
        let speed = t.speed.saturating_add(u32::from(word & 15) / 2);
        let carries = carry.or_else(|| {
            (self.maps_left > 0).then(|| {
                self.maps_left -= 1;
                Carry::BaseMap {
                    floor: self.maps_left,
                }
            })
        });
        let slots = formation(t.max_group);
        let mut r = word.rotate_left(3);
        let members = (0..size as usize)
            .map(|i| {
                let member = self.member(t, r, bonus, slots.get(i).copied().unwrap_or(i as u8));
                r = r.rotate_right(5);
                member
            })
            .collect();
        Some(Group {
            type_id,
            cell,
            speed,
            members,
            carries,
        })
    }

    /// A member of type `t` from its word `r` on this map (see [`member_of`]).
    fn member(&self, t: &EncounterType, r: u16, bonus: u32, slot: u8) -> Member {
        member_of(t, self.map, &self.settings, r, bonus, slot)
    }
}

/// A member of type `t` on map `map` from its 16-bit word `r`: strength from `r`,
/// armature from the low 2 bits of `r` rotated right 5, skill from those of `r` rotated
/// right 8; `bonus` is added to the map term (a special stage's groups). The one
/// description both the generator and [`member_range`] read.
pub fn member_of(
    t: &EncounterType,
    map: u32,
    settings: &EncounterSettings,
    r: u16,
    bonus: u32,
    slot: u8,
) -> Member {
    let (armature_bits, skill_bits) = (
        u32::from(r.rotate_right(5) & 3),
        u32::from(r.rotate_right(8) & 3),
    );
    let r = u64::from(r);
    let m = u64::from(map.saturating_add(1).min(127));
    let k = 3 * m - 2 + u64::from(bonus);
    let d = u64::from(if map <= 16 { map / 2 } else { map / 4 });
    let extra = (r * d) >> 16;
    // In full: past the cap, half the map term comes off, then the cap.
    let grow = |base: u32, cap: u32| -> u32 {
        let s0 = u64::from(base) * k;
        let s = s0 + ((s0 * r) >> 16) + extra;
        if s > u64::from(cap) {
            (s - extra / 2).min(u64::from(cap)) as u32
        } else {
            s as u32
        }
    };
    let strength = match settings.overflow {
        Overflow::Saturate => grow(t.strength, STRENGTH_CAP),
        Overflow::Wrap => {
            // Every step in 16 bits, as Captive computes it: the product and the
            // first sum wrap silently; a carry of the last sum (or a result past the
            // cap) takes half the map term off the wrapped value.
            let s0 = (u64::from(t.strength) * k) & 0xFFFF;
            let c = (s0 + ((s0 * r) >> 16)) & 0xFFFF;
            let sum = c + extra;
            let cap = u64::from(STRENGTH_CAP);
            if sum > 0xFFFF || (sum & 0xFFFF) > cap {
                (sum & 0xFFFF)
                    .checked_sub(extra / 2)
                    .map_or(cap, |v| v.min(cap)) as u32
            } else {
                sum as u32
            }
        }
    };
    // Skill is capped at 253 as the guide says; the transcription caps only armature,
    // which no shipped base (skill at most 241, + 0..3) can tell apart.
    let (armature, skill) = match settings.growth {
        Growth::Code => (
            t.armature.saturating_add(armature_bits).min(STAT_CAP),
            t.skill.saturating_add(skill_bits).min(STAT_CAP),
        ),
        Growth::Prose => (grow(t.armature, STAT_CAP), grow(t.skill, STAT_CAP)),
    };
    Member {
        slot,
        strength,
        armature,
        skill,
    }
}

/// The least, mean and greatest of one of a member's numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The least value.
    pub least: u32,
    /// The mean value.
    pub mean: f64,
    /// The greatest value.
    pub greatest: u32,
}

/// What a member of one type on one map can be: its strength, armature and skill over all
/// 65,536 words, each as likely as the others (a group's word is 16 random bits, and each
/// member's word is that word rotated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemberRange {
    /// Strength, at most [`STRENGTH_CAP`].
    pub strength: Spread,
    /// Armature, at most [`STAT_CAP`].
    pub armature: Spread,
    /// Skill, at most [`STAT_CAP`].
    pub skill: Spread,
}

/// The exact range of a regular group's member of type `t` on map `map` ([`member_of`]
/// over every word).
pub fn member_range(t: &EncounterType, map: u32, settings: &EncounterSettings) -> MemberRange {
    let members: Vec<Member> = (0..=u16::MAX)
        .map(|r| member_of(t, map, settings, r, 0, 0))
        .collect();
    let spread = |value: fn(&Member) -> u32| {
        let values = members.iter().map(value);
        Spread {
            least: values.clone().min().unwrap_or(0),
            mean: values.clone().map(f64::from).sum::<f64>() / members.len() as f64,
            greatest: values.max().unwrap_or(0),
        }
    };
    MemberRange {
        strength: spread(|m| m.strength),
        armature: spread(|m| m.armature),
        skill: spread(|m| m.skill),
    }
}

/// Position codes of members inside a cell, by the type's largest group: 5, 4, 2 and 1
/// have their own lists, every other maximum (9 included) the nine-member list. Members
/// past the end of their list (a game's types larger than 9) take their own number.
fn formation(max_group: u32) -> &'static [u8] {
    match max_group {
        5 => &[0, 6, 4, 8, 2],
        4 => &[0, 6, 8, 2],
        2 => &[0x13, 0x15],
        1 => &[0x14],
        _ => &[0, 8, 6, 2, 7, 4, 1, 3, 5],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Slot;
    use denizen_core::rng::{StreamPurpose, WorldSeed};
    use proptest::prelude::*;

    /// A special stage's cell must be floor on the map: the last column and row inside
    /// are taken, one past either is off the floor, a wall is refused as a wall, and the
    /// first bad cell of the list is the one named.
    #[test]
    fn special_cells_are_checked_against_the_floor() {
        let mut grid = open_floor(5, 4, Tile::Floor);
        grid.set(Square { x: 1, y: 1 }, Tile::Wall);
        let stage = SpecialStage::Prisoner;
        let at = |x, y| (Square { x, y }, stage);
        assert_eq!(check_special_cells(&grid, &[at(4, 3), at(0, 0)]), Ok(()));
        let refused = |cells: &[(Square, SpecialStage)]| {
            let error = check_special_cells(&grid, cells).unwrap_err();
            (error.index, error.cell, error.tile)
        };
        assert_eq!(
            refused(&[at(0, 0), at(5, 0)]),
            (1, Square { x: 5, y: 0 }, None)
        );
        assert_eq!(refused(&[at(0, 4)]), (0, Square { x: 0, y: 4 }, None));
        assert_eq!(
            refused(&[at(1, 1), at(9, 9)]),
            (0, Square { x: 1, y: 1 }, Some(Tile::Wall))
        );
    }

    /// A caller that skips the check: a special cell off the floor (inside one axis only)
    /// keeps its group where it was asked, and takes no cell of the floor from the
    /// regular stage: on a floor whose one open cell is (0, 3), the cell one row on from
    /// (6, 2), a regular group still stands there.
    #[test]
    fn an_unchecked_special_cell_off_the_floor_is_kept_as_given() {
        let mut grid = open_floor(6, 6, Tile::Wall);
        let open = Square { x: 0, y: 3 };
        grid.set(open, Tile::Floor);
        let table = EncounterTable::shipped();
        for cell in [Square { x: 2, y: 6 }, Square { x: 6, y: 2 }] {
            let mut rng = WorldSeed(10).stream(StreamPurpose::new("unchecked"));
            let plan = BaseEncounters::new(&table, EncounterSettings::default(), 10, 1)
                .place_with_specials(&mut rng, &grid, &[(cell, SpecialStage::Prisoner)]);
            assert_eq!(plan.groups[0].cell, cell);
            assert!(plan.groups[1..].iter().any(|g| g.cell == open), "{cell:?}");
        }
        // A special group on the one open cell leaves the regular stage nothing.
        let mut rng = WorldSeed(10).stream(StreamPurpose::new("unchecked"));
        let plan = BaseEncounters::new(&table, EncounterSettings::default(), 10, 1)
            .place_with_specials(&mut rng, &grid, &[(open, SpecialStage::Prisoner)]);
        assert_eq!(plan.groups.len(), 1);
    }

    /// What a group carries, as the command line prints it.
    #[test]
    fn carried_items_read_as_their_names() {
        let names = [
            Carry::BaseMap { floor: 2 },
            Carry::Clipboard { index: 0 },
            Carry::DoorClipboard { door: 3 },
        ]
        .map(|carry| carry.to_string());
        assert_eq!(names, ["base map 2", "clipboard 0", "door 3 clipboard"]);
    }

    fn open_floor(width: u32, height: u32, tile: Tile) -> FloorGrid {
        let mut grid = FloorGrid::new(width, height).unwrap();
        for s in grid.squares().collect::<Vec<_>>() {
            grid.set(s, tile);
        }
        grid
    }

    fn run(map: u32, grid: &FloorGrid, settings: EncounterSettings, seed: u64) -> EncounterPlan {
        let table = EncounterTable::shipped();
        let mut rng = WorldSeed(seed).stream(StreamPurpose::new("encounters"));
        BaseEncounters::new(&table, settings, map, 3).place(&mut rng, grid)
    }

    #[test]
    fn map_zero_alternates_types_2_and_12() {
        let plan = run(
            0,
            &open_floor(64, 32, Tile::Floor),
            EncounterSettings::default(),
            1,
        );
        let types: Vec<u8> = plan.groups.iter().map(|g| g.type_id).collect();
        assert!(types.len() > 20);
        for (i, t) in types.iter().enumerate() {
            assert_eq!(*t, if i % 2 == 0 { 2 } else { 12 }, "{types:?}");
        }
    }

    #[test]
    fn groups_walk_the_eligible_types_round_robin() {
        // Map 5 has mask 6; the notes list the normal types of mask 6 with their earliest
        // maps, which leaves these with earliest map <= 5, in id order.
        let eligible = [10, 11, 12, 13, 14, 15, 16, 17, 21, 22, 25, 32];
        let settings = EncounterSettings {
            memory_budget: None,
            ..EncounterSettings::default()
        };
        let plan = run(5, &open_floor(64, 32, Tile::Floor), settings, 2);
        assert!(plan.groups.len() > 2 * eligible.len());
        for (i, g) in plan.groups.iter().enumerate() {
            assert_eq!(g.type_id, eligible[i % eligible.len()]);
        }
    }

    #[test]
    fn fire_cells_get_fire_types_only() {
        let mut grid = open_floor(64, 32, Tile::Floor);
        for s in grid.squares().filter(|s| s.x % 2 == 0).collect::<Vec<_>>() {
            grid.set(s, crate::tile::FIRE);
        }
        let table = EncounterTable::shipped();
        for map in [0, 3, 5, 10] {
            let plan = run(map, &grid, EncounterSettings::default(), 3);
            for g in &plan.groups {
                let category = table.get(g.type_id).unwrap().category;
                let expected = match grid.tile(g.cell) {
                    crate::tile::FIRE => Category::Fire,
                    _ => Category::Normal,
                };
                assert_eq!(category, expected, "map {map}");
            }
            assert!(
                plan.groups
                    .iter()
                    .any(|g| grid.tile(g.cell) == crate::tile::FIRE)
            );
        }
    }

    #[test]
    fn caps_hold_at_map_200_and_wrap_is_a_switch() {
        let table = EncounterTable::shipped();
        let grid = open_floor(64, 32, Tile::Floor);
        // Map 200 is a planet base whose mask admits the family-1 types with base 300.
        let map = (200..260)
            .find(|&m| m % 11 != 10 && table.family_mask(m).admits(1))
            .unwrap();
        let settings = EncounterSettings {
            memory_budget: None,
            ..EncounterSettings::default()
        };
        let plan = run(map, &grid, settings, 4);
        let mut capped = 0;
        for g in &plan.groups {
            for m in &g.members {
                assert!(
                    m.strength <= STRENGTH_CAP && m.armature <= STAT_CAP && m.skill <= STAT_CAP
                );
                capped += usize::from(m.strength == STRENGTH_CAP);
            }
        }
        assert!(capped > 0, "base 300 x 379 exceeds the cap");
        let prose = run(
            map,
            &grid,
            EncounterSettings {
                growth: Growth::Prose,
                ..settings
            },
            4,
        );
        assert!(
            prose
                .groups
                .iter()
                .flat_map(|g| &g.members)
                .any(|m| m.armature == STAT_CAP)
        );
        // Faithful wrap: base 300 on map 80 keeps 300 x 241 to 16 bits, 6,764.
        let map80 = 80;
        assert!(table.family_mask(map80).admits(1), "map 80 admits family 1");
        let wrap = run(
            map80,
            &grid,
            EncounterSettings {
                overflow: Overflow::Wrap,
                ..settings
            },
            5,
        );
        let big = wrap
            .groups
            .iter()
            .find(|g| table.get(g.type_id).unwrap().strength == 300)
            .unwrap();
        for m in &big.members {
            assert!(
                (6_764..2 * 6_764 + 40).contains(&m.strength),
                "{}",
                m.strength
            );
        }
    }

    #[test]
    fn a_quarter_of_nine_groups_are_short() {
        // Type 2 has groups up to 9: size = min(9, uniform 1..=32), so 24/32 are full.
        let table = EncounterTable::shipped();
        let mut rng = WorldSeed(6).stream(StreamPurpose::new("sizes"));
        let (mut nines, n) = (0u32, 20_000u32);
        let mut base = BaseEncounters::new(
            &table,
            EncounterSettings {
                memory_budget: None,
                ..Default::default()
            },
            0,
            0,
        );
        for _ in 0..n {
            let g = base.group(&mut rng, 2, Square::default(), 0, None).unwrap();
            assert!((1..=9).contains(&g.members.len()));
            nines += u32::from(g.members.len() == 9);
        }
        let share = f64::from(nines) / f64::from(n);
        let sigma = (0.75f64 * 0.25 / f64::from(n)).sqrt();
        assert!((share - 0.75).abs() < 4.0 * sigma, "{share}");
    }

    #[test]
    fn base_maps_then_memory_then_clearance() {
        let grid = open_floor(64, 32, Tile::Floor);
        let plan = run(0, &grid, EncounterSettings::default(), 7);
        let carried: Vec<Option<Carry>> = plan.groups.iter().take(4).map(|g| g.carries).collect();
        assert_eq!(
            carried,
            [
                Some(Carry::BaseMap { floor: 2 }),
                Some(Carry::BaseMap { floor: 1 }),
                Some(Carry::BaseMap { floor: 0 }),
                None
            ]
        );
        // 4,088 bytes: the stage stops when the next group no longer fits.
        assert_eq!(plan.stopped, Some(Stop::MemoryFull));
        let used: u32 = plan
            .groups
            .iter()
            .map(|g| 8 * (g.members.len() as u32 + 1))
            .sum();
        assert!(used <= 4_088 && used + 80 > 4_088, "{used}");

        let mut dug = grid.clone();
        dug.carve_from(Square { x: 0, y: 0 });
        let plan = run(0, &dug, EncounterSettings::default(), 8);
        assert!(
            plan.groups
                .iter()
                .all(|g| dug.carve_number(g.cell).unwrap() > 10)
        );
    }

    /// The special stages' items (source notes, sections 5 and 7): the prisoner is a
    /// normal caller and takes a base map while any are left; a laser door's guard
    /// carries that door's clipboard; only the dead-end stage counts its clipboards.
    #[test]
    fn special_stages_carry_their_own_items() {
        let table = EncounterTable::shipped();
        let mut rng = WorldSeed(9).stream(StreamPurpose::new("special"));
        let mut station = BaseEncounters::new(&table, EncounterSettings::default(), 10, 1);
        let at = Square { x: 3, y: 3 };
        let mut make = |stage| station.special(&mut rng, at, stage).unwrap();
        let prisoner = make(SpecialStage::Prisoner);
        let guard = make(SpecialStage::DoorGuard { door: 3 });
        let first = make(SpecialStage::DeadEnd);
        let other_guard = make(SpecialStage::DoorGuard { door: 0 });
        let second = make(SpecialStage::DeadEnd);
        let second_prisoner = make(SpecialStage::Prisoner);
        assert_eq!([prisoner.type_id, guard.type_id, first.type_id], [31, 6, 8]);
        let carried: Vec<Option<Carry>> =
            [prisoner, guard, first, other_guard, second, second_prisoner]
                .iter()
                .map(|g| g.carries)
                .collect();
        assert_eq!(
            carried,
            [
                Some(Carry::BaseMap { floor: 0 }),
                Some(Carry::DoorClipboard { door: 3 }),
                Some(Carry::Clipboard { index: 0 }),
                Some(Carry::DoorClipboard { door: 0 }),
                Some(Carry::Clipboard { index: 1 }),
                None,
            ]
        );
        // On a planet base the prisoner's family is not allowed: the cursor goes on round
        // the ring to the door guard.
        let mut base = BaseEncounters::new(&table, EncounterSettings::default(), 0, 1);
        assert_eq!(
            base.special(&mut rng, at, SpecialStage::Prisoner)
                .unwrap()
                .type_id,
            6
        );
        let no_specials = EncounterTable::new(
            vec![Slot::Empty; RING],
            vec![],
            FamilyMask(8),
            vec![FamilyMask(3)],
        )
        .unwrap();
        let mut none = BaseEncounters::new(&no_specials, EncounterSettings::default(), 0, 1);
        assert_eq!(
            none.special(&mut rng, at, SpecialStage::Prisoner)
                .unwrap_err(),
            Stop::NoEligibleType(Category::Special)
        );
    }

    /// One type of each category, all of group size `max`, for tests that need a known
    /// table.
    fn one_type_table(max: u32) -> EncounterTable {
        type_at(1, max)
    }

    /// A table whose one type, of group size `max`, is in slot `slot`.
    fn type_at(slot: usize, max: u32) -> EncounterTable {
        let mut slots = vec![Slot::Empty; RING];
        slots[slot] = Slot::Type(EncounterType {
            name: "one".into(),
            glyph: 'o',
            category: Category::Normal,
            max_group: max,
            armature: 10,
            strength: 10,
            speed: 3,
            skill: 10,
            min_map: 0,
            family: 0,
            flags: 0,
        });
        EncounterTable::new(
            slots,
            vec![FamilyMask(3)],
            FamilyMask(8),
            vec![FamilyMask(3)],
        )
        .unwrap()
    }

    /// Floors with no squares give no groups, whatever their other side.
    #[test]
    fn empty_floors_give_no_groups() {
        let table = EncounterTable::shipped();
        for (w, h) in [(0, 0), (5, 0), (0, 5)] {
            let plan = BaseEncounters::new(&table, EncounterSettings::default(), 3, 3).place(
                &mut WorldSeed(1).stream(StreamPurpose::new("empty")),
                &FloorGrid::new(w, h).unwrap(),
            );
            assert!(plan.groups.is_empty() && plan.attempts == 0, "{w} x {h}");
        }
    }

    /// "A cell holds at most one group": 300 attempts on a 4 x 3 floor hit the same
    /// cells again and again, and never place a second group there.
    #[test]
    fn a_cell_holds_at_most_one_group() {
        let table = one_type_table(1);
        let settings = EncounterSettings {
            memory_budget: None,
            ..EncounterSettings::default()
        };
        let grid = open_floor(4, 3, Tile::Floor);
        let plan = BaseEncounters::new(&table, settings, 0, 0)
            .place(&mut WorldSeed(2).stream(StreamPurpose::new("crowd")), &grid);
        let mut cells: Vec<Square> = plan.groups.iter().map(|g| g.cell).collect();
        assert_eq!(cells.len(), 12, "every cell once");
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), 12);
    }

    /// Groups stand only where a creature could: not on a square a creature already holds,
    /// and, on a floor with a dig order, not on a square the digger never reached (the
    /// source's floor is all dug from the entrance).
    #[test]
    fn groups_avoid_taken_and_undug_squares() {
        let table = one_type_table(1);
        let settings = EncounterSettings {
            memory_budget: None,
            entrance_clearance: 0,
            ..EncounterSettings::default()
        };
        let mut grid = open_floor(8, 8, Tile::Floor);
        for y in 0..8 {
            grid.set(Square { x: 4, y }, Tile::Wall);
            grid.set_occupied(Square { x: 1, y }, true);
        }
        grid.carve_from(Square { x: 0, y: 0 });
        let plan = BaseEncounters::new(&table, settings, 0, 0)
            .place(&mut WorldSeed(5).stream(StreamPurpose::new("dug")), &grid);
        assert!(plan.groups.len() > 10);
        for g in &plan.groups {
            assert!(
                g.cell.x < 4,
                "beyond the wall the digger never reached: {:?}",
                g.cell
            );
            assert_ne!(g.cell.x, 1, "a creature stands there: {:?}", g.cell);
        }
    }

    /// The second cursor is 6 bits: a start value wraps modulo 64 (250 is 58, so the
    /// next accepted type is the first special one after 58, round the ring).
    #[test]
    fn the_special_cursor_wraps_at_64() {
        let table = EncounterTable::shipped();
        let at = Square { x: 1, y: 1 };
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("wrap"));
        let mut from = |cursor| {
            BaseEncounters::new(&table, EncounterSettings::default(), 10, 0)
                .special_at(&mut rng, at, SpecialStage::DeadEnd, cursor)
                .unwrap()
                .type_id
        };
        assert_eq!(from(250), from(58));
        assert_eq!(from(94), from(30));
        assert_eq!(from(30), 31);
    }

    /// The type cursor walks a ring of exactly 64 slots: from slot 0 it reaches a type in
    /// the last slot, 63, and one in slot 0 itself after a whole turn (a ring of 63 never
    /// reaches 63; one of 65 takes a 65th step the turn does not have).
    #[test]
    fn the_type_cursor_walks_a_ring_of_64() {
        for slot in [63, 0] {
            let table = type_at(slot, 1);
            let mut station = BaseEncounters::new(&table, EncounterSettings::default(), 0, 0);
            assert_eq!(station.next_type(Category::Normal), Some(slot as u8));
            assert_eq!(
                station.next_type(Category::Normal),
                Some(slot as u8),
                "a turn on"
            );
        }
    }

    /// A group takes `8 x (size + 1)` bytes and fits while the pool has that many left:
    /// a budget of exactly two single-member groups holds two, not one and not three.
    #[test]
    fn the_memory_pool_holds_groups_that_fit_exactly() {
        let table = one_type_table(1);
        for (budget, groups) in [(31, 1), (32, 2), (47, 2), (48, 3)] {
            let settings = EncounterSettings {
                memory_budget: Some(budget),
                ..EncounterSettings::default()
            };
            let plan = BaseEncounters::new(&table, settings, 0, 0).place(
                &mut WorldSeed(4).stream(StreamPurpose::new("pool")),
                &open_floor(64, 32, Tile::Floor),
            );
            assert_eq!(plan.groups.len(), groups, "budget {budget}");
            assert_eq!(plan.stopped, Some(Stop::MemoryFull));
        }
    }

    /// A member's range on map 0, worked out from the notes' formula: the map term is 1
    /// and nothing is added, so each word gives the base plus the base's share of the
    /// word; deeper maps are stronger; the strongest type on the deepest map stays under
    /// both caps, armature and skill growing as the prose says.
    #[test]
    fn a_members_range_on_map_0_is_its_base_and_a_word_share_more() {
        let table = EncounterTable::shipped();
        let t = table.get(1).unwrap();
        let range = member_range(t, 0, &EncounterSettings::default());
        let base = u64::from(t.strength);
        assert_eq!(range.strength.least, t.strength);
        assert_eq!(
            u64::from(range.strength.greatest),
            base + base * 65_535 / 65_536
        );
        let mean = (0..65_536u64)
            .map(|r| base + base * r / 65_536)
            .sum::<u64>() as f64
            / 65_536.0;
        assert!((range.strength.mean - mean).abs() < 1e-9);
        // Armature and skill take two bits each, 0..=3 over the base, each equally often.
        assert_eq!(
            (range.armature.least, range.armature.greatest),
            (t.armature, t.armature + 3)
        );
        assert!((range.skill.mean - (f64::from(t.skill) + 1.5)).abs() < 1e-9);
        // Deeper maps are stronger, and nothing passes the caps.
        let deep = member_range(t, 80, &EncounterSettings::default());
        assert!(deep.strength.least > range.strength.greatest);
        let strongest = (0..64)
            .filter_map(|id| table.get(id))
            .max_by_key(|t| t.strength)
            .unwrap();
        let prose = EncounterSettings {
            growth: Growth::Prose,
            ..EncounterSettings::default()
        };
        let capped = member_range(strongest, 127, &prose);
        assert_eq!(
            (capped.strength.greatest, capped.skill.greatest),
            (STRENGTH_CAP, STAT_CAP),
            "the deepest map reaches both caps and passes neither"
        );
    }

    /// Past the cap, half of the map term is taken off before clamping (source notes,
    /// individuals): map 60, base 181 (`S0` = 32,761, `d` = 15). With `r` = 65,477 the
    /// sum is 65,506 and the map term 14, giving 65,499; with `r` = 65,465 the sum is
    /// exactly 65,500, which is not past the cap and stays.
    #[test]
    fn strength_past_the_cap_loses_half_the_map_term() {
        let table = one_type_table(1);
        let base = BaseEncounters::new(&table, EncounterSettings::default(), 60, 0);
        let t = EncounterType {
            strength: 181,
            ..table.get(1).unwrap().clone()
        };
        assert_eq!(base.member(&t, 65_477, 0, 0).strength, 65_499);
        assert_eq!(base.member(&t, 65_465, 0, 0).strength, 65_500);
        assert_eq!(
            base.member(&t, 0, 0, 0).strength,
            32_761,
            "r = 0 adds nothing"
        );
    }

    #[test]
    fn trap_groups_are_stronger() {
        let table = EncounterTable::shipped();
        let settings = EncounterSettings::default();
        let at = Square::default();
        for seed in 0..50 {
            let mut a = WorldSeed(seed).stream(StreamPurpose::new("trap"));
            let mut b = WorldSeed(seed).stream(StreamPurpose::new("trap"));
            let trap = BaseEncounters::new(&table, settings, 6, 0)
                .trap(&mut a, at)
                .unwrap();
            let plain = BaseEncounters::new(&table, settings, 6, 0)
                .group(&mut b, trap.type_id, at, 0, None)
                .unwrap();
            // Map 6: multiplier 3 x 7 - 2 = 19 for regular groups, 21 for traps.
            for (t, p) in trap.members.iter().zip(&plain.members) {
                assert!(t.strength > p.strength);
            }
            // Exactly the notes' bonus of 2 (k = 3m - 2 + 2): the same words with a
            // bonus of 2 make the same members, with 1 or 3 other ones.
            let with = |bonus| {
                let mut c = WorldSeed(seed).stream(StreamPurpose::new("trap"));
                BaseEncounters::new(&table, settings, 6, 0)
                    .group(&mut c, trap.type_id, at, bonus, None)
                    .unwrap()
                    .members
            };
            assert_eq!(trap.members, with(2));
            assert_ne!(trap.members, with(1));
            assert_ne!(trap.members, with(3));
        }
    }

    /// The first ten cells dug from the entrance never hold a regular group (notes: a
    /// cell whose dig number is at most 10 is skipped): on a row dug from its west end
    /// (numbers 1 to 12), groups stand only on the 11th and 12th cells.
    #[test]
    fn the_entrance_clears_exactly_ten_cells() {
        let mut row = open_floor(12, 1, Tile::Floor);
        row.carve_from(Square { x: 0, y: 0 });
        assert_eq!(row.carve_number(Square { x: 9, y: 0 }), Some(10));
        let mut cells = std::collections::BTreeSet::new();
        for seed in 0..40 {
            for group in run(0, &row, EncounterSettings::default(), seed).groups {
                cells.insert(group.cell.x);
            }
        }
        assert_eq!(cells, [10, 11].into());
    }

    /// A cupboard trap's members count the notes' bonus of 2 in the map term (k = 3m - 2 +
    /// 2): on map 0 (m = 1) with the word 0 a member of base strength 10 is 10 x 3 = 30,
    /// where a regular group's is 10 x 1 = 10 (a bonus of 1 would make 20, of 3, 40).
    #[test]
    fn a_trap_adds_2_to_the_map_term() {
        let table = one_type_table(9);
        let settings = EncounterSettings::default();
        let mut station = BaseEncounters::new(&table, settings, 0, 0);
        let trap = station.trap(&mut Word(0), Square::default()).unwrap();
        assert!(!trap.members.is_empty());
        assert!(trap.members.iter().all(|m| m.strength == 30), "{trap:?}");
        let plain = BaseEncounters::new(&table, settings, 0, 0)
            .group(&mut Word(0), 1, Square::default(), 0, None)
            .unwrap();
        assert!(plain.members.iter().all(|m| m.strength == 10), "{plain:?}");
    }

    /// A type of these bases for member tests.
    fn based(strength: u32, armature: u32) -> EncounterType {
        EncounterType {
            name: "based".into(),
            glyph: 'b',
            category: Category::Normal,
            max_group: 1,
            armature,
            strength,
            speed: 3,
            skill: 10,
            min_map: 0,
            family: 0,
            flags: 0,
        }
    }

    /// The map term's constants where an off-by-one changes the member (notes: m =
    /// min(map + 1, 127), k = 3m - 2, d = map/2 while map <= 16 else map/4, the extra
    /// (r d) >> 16), worked by hand for base strength 10 and the word 0xFFFF: map 16 has
    /// k 49, d 8: 490 + 489 + 7 = 986; map 17 has k 52, d 4: 520 + 519 + 3 = 1042. Base 1
    /// and the word 0: 3 x 127 - 2 = 379 at map 126 and at every map past it.
    #[test]
    fn the_map_terms_thresholds_hold_at_their_edges() {
        let settings = EncounterSettings::default();
        let strength = |base, map, r| member_of(&based(base, 10), map, &settings, r, 0, 0).strength;
        assert_eq!(strength(10, 16, 0xFFFF), 986);
        assert_eq!(strength(10, 17, 0xFFFF), 1042);
        for map in [126, 127, 128, 1_000] {
            assert_eq!(strength(1, map, 0), 379, "map {map}");
        }
        assert_eq!(strength(1, 125, 0), 376);
    }

    /// Armature and skill stop at 253 (0xFD), not 254: base 252 plus the word's armature
    /// bits 3 (0x0060 rotated right 5) is 255, kept to 253; base 250 + 3 is 253 uncut.
    #[test]
    fn armature_stops_at_253() {
        let settings = EncounterSettings::default();
        let armature = |base| member_of(&based(10, base), 0, &settings, 0x0060, 0, 0).armature;
        assert_eq!(armature(252), 253);
        assert_eq!(armature(250), 253);
        assert_eq!(armature(249), 252);
    }

    /// A generator that returns one word.
    struct Word(u32);

    impl rand::TryRng for Word {
        type Error = std::convert::Infallible;

        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.0)
        }

        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(u64::from(self.0))
        }

        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0);
            Ok(())
        }
    }

    /// The bit positions of the source notes (section 6), worked by hand for a type of
    /// at most 9 with bases 10 and speed 3 on map 0 (strength `10 + 10 r / 65536`).
    /// Word 0x0421: the group word `a` = ror(w, 5) = 0x0821; size = (ror(a, 4) & 31) + 1
    /// = 3; speed 3 + (1 >> 1). Member 1: r = rol(a, 3) = 0x4108, strength 12; armature
    /// 10 + (ror(r, 5) = 0x4208) & 3 = 10; skill 10 + (ror(0x4208, 3) = 0x0841) & 3 = 11.
    /// The next two follow from ror(r, 5): r = 0x4208, then 0x4210.
    #[test]
    fn members_read_the_sources_bits() {
        let table = one_type_table(9);
        let mut base = BaseEncounters::new(&table, EncounterSettings::default(), 0, 0);
        let stats = |g: &Group| -> Vec<(u32, u32, u32)> {
            g.members
                .iter()
                .map(|m| (m.strength, m.armature, m.skill))
                .collect()
        };
        let g = base
            .group(&mut Word(0x0421), 1, Square::default(), 0, None)
            .unwrap();
        assert_eq!((g.members.len(), g.speed), (3, 3));
        assert_eq!(stats(&g), [(12, 10, 11), (12, 10, 12), (12, 10, 12)]);
        // Every maximum but 5, 4, 2 and 1 takes its slots from the nine-member list.
        let slots: Vec<u8> = g.members.iter().map(|m| m.slot).collect();
        assert_eq!(slots, [0, 8, 6]);
        let g = base
            .group(&mut Word(0xB6D3), 1, Square::default(), 0, None)
            .unwrap();
        assert_eq!((g.members.len(), g.speed), (9, 6));
        assert_eq!(
            stats(&g),
            [
                (19, 11, 11),
                (16, 13, 13),
                (14, 11, 11),
                (18, 13, 13),
                (13, 12, 12),
                (18, 13, 12),
                (17, 12, 12),
                (16, 11, 11),
                (17, 13, 10)
            ]
        );
        let three = one_type_table(3);
        let g = BaseEncounters::new(&three, EncounterSettings::default(), 0, 0)
            .group(&mut Word(0xB6D3), 1, Square::default(), 0, None)
            .unwrap();
        let slots: Vec<u8> = g.members.iter().map(|m| m.slot).collect();
        assert_eq!(slots, [0, 8, 6]);
    }

    /// Captive's 16-bit strength (`Overflow::Wrap`) for base 300 on map 58: `S0` =
    /// 300 x 175 = 52,500 and `d` = 14. The exact distribution over all 65,536 words is
    /// worked out here from the source notes' arithmetic, step by step; about three
    /// quarters of members end below `S0` and under 0.1% at the cap. Members drawn by
    /// the generator (one per group, so the draws are independent) follow it.
    #[test]
    fn wrapped_strength_follows_the_sources_arithmetic() {
        let notes = |r: u64| -> u64 {
            let s0: u64 = 300 * 175; // 52,500: fits 16 bits, so the first step does not wrap here.
            let c = (s0 + s0 * r / 65_536) % 65_536;
            let e = r * 14 / 65_536;
            if c + e > 65_535 || (c + e) % 65_536 > 65_500 {
                let v = ((c + e) % 65_536) as i64 - (e / 2) as i64;
                if v < 0 { 65_500 } else { v.min(65_500) as u64 }
            } else {
                c + e
            }
        };
        // Sixteen bins of 4,096 strength values each (the last one holds the cap).
        let bin = |s: u64| (s / 4_096) as usize;
        let mut exact = [0.0f64; 16];
        let (mut below, mut capped) = (0u32, 0u32);
        for r in 0..65_536u64 {
            let s = notes(r);
            exact[bin(s)] += 1.0 / 65_536.0;
            below += u32::from(s < 52_500);
            capped += u32::from(s == 65_500);
        }
        let below = f64::from(below) / 65_536.0;
        let capped = f64::from(capped) / 65_536.0;
        assert!((0.74..0.76).contains(&below), "{below}");
        assert!(capped > 0.0 && capped < 0.001, "{capped}");

        let mut table = one_type_table(1);
        let mut strong = table.get(1).unwrap().clone();
        strong.strength = 300;
        let mut slots = vec![Slot::Empty; RING];
        slots[1] = Slot::Type(strong);
        table = EncounterTable::new(
            slots,
            vec![FamilyMask(3)],
            FamilyMask(8),
            vec![FamilyMask(3)],
        )
        .unwrap();
        let settings = EncounterSettings {
            overflow: Overflow::Wrap,
            memory_budget: None,
            ..EncounterSettings::default()
        };
        let mut base = BaseEncounters::new(&table, settings, 58, 0);
        let mut rng = WorldSeed(58).stream(StreamPurpose::new("wrap"));
        let mut counts = [0u64; 16];
        for _ in 0..40_000 {
            let g = base.group(&mut rng, 1, Square::default(), 0, None).unwrap();
            counts[bin(u64::from(g.members[0].strength))] += 1;
        }
        let p = denizen_core::ChiSquared::against(&counts, exact.iter().copied()).p_value();
        assert!(p > 1e-6, "p = {p}: {counts:?}");
        // Word by word: base 300 on map 58, base 250 there (whose carries take off half
        // of a map term of 6 or 7), and base 300 on map 80, where `300 x 241` wraps at the
        // first step.
        for (strength, map) in [(300, 58), (250, 58), (300, 80)] {
            let k = 3 * (u64::from(map) + 1) - 2;
            let d = u64::from(map) / 4;
            let notes = |r: u64| -> u64 {
                let s0 = u64::from(strength) * k % 65_536;
                let c = (s0 + s0 * r / 65_536) % 65_536;
                let e = r * d / 65_536;
                if c + e > 65_535 || (c + e) % 65_536 > 65_500 {
                    let v = ((c + e) % 65_536) as i64 - (e / 2) as i64;
                    if v < 0 { 65_500 } else { v.min(65_500) as u64 }
                } else {
                    c + e
                }
            };
            let encounters = BaseEncounters::new(&table, settings, map, 0);
            let mut based = table.get(1).unwrap().clone();
            based.strength = strength;
            for r in 0..=u16::MAX {
                let member = encounters.member(&based, r, 0, 0);
                assert_eq!(
                    u64::from(member.strength),
                    notes(u64::from(r)),
                    "base {strength}, map {map}, word {r}"
                );
            }
        }
    }

    /// A stage told to probe billions of cells (a corrupted save) stops at
    /// `MAX_ATTEMPTS`, and a huge floor full of groups is no slower per probe.
    #[test]
    fn attempts_are_bounded() {
        let table = EncounterTable::shipped();
        let settings = EncounterSettings {
            attempts: u32::MAX,
            ..EncounterSettings::default()
        };
        let walls = FloorGrid::from_rows(&["###", "###"]).unwrap();
        let mut rng = WorldSeed(5).stream(StreamPurpose::new("attempts"));
        let plan = BaseEncounters::new(&table, settings, 3, 1).place(&mut rng, &walls);
        assert_eq!((plan.attempts, plan.groups.len()), (MAX_ATTEMPTS, 0));
        assert_eq!(plan.stopped, None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Any table and any grid: the stage ends, within its attempts, without panicking.
        #[test]
        fn no_table_or_floor_loops_or_panics(
            raw in proptest::collection::vec((0u8..4, 0u32..12, 0u8..10, 0u32..400, 0u32..20), RING),
            rows in proptest::collection::vec(proptest::collection::vec(0u8..4, 1..20), 0..12),
            map in 0u32..300,
            seed in any::<u64>(),
            budget in proptest::option::of(0u32..5000),
        ) {
            let slots = raw.iter().map(|&(kind, max, family, strength, min_map)| match kind {
                0 => Slot::Empty,
                1 => Slot::Placeholder,
                k => Slot::Type(EncounterType {
                    name: String::new(), glyph: 'x',
                    category: if k == 2 { Category::Normal } else { Category::Fire },
                    max_group: max, armature: strength % 300, strength, speed: 3, skill: strength % 250,
                    min_map, family, flags: 0,
                }),
            }).collect();
            let table = EncounterTable::new(
                slots,
                [3, 5].map(FamilyMask).to_vec(),
                FamilyMask(8),
                [3, 5, 6].map(FamilyMask).to_vec(),
            ).unwrap();
            let width = rows.first().map_or(0, |r| r.len());
            let text: Vec<String> = rows.iter().map(|r| (0..width).map(|i| match r.get(i).copied().unwrap_or(0) {
                0 => '#', 1 => '.', 2 => '^', _ => 'H',
            }).collect()).collect();
            let refs: Vec<&str> = text.iter().map(String::as_str).collect();
            let grid = FloorGrid::from_rows(&refs).unwrap_or_default();
            let settings = EncounterSettings { memory_budget: budget, ..EncounterSettings::default() };
            let mut rng = WorldSeed(seed).stream(StreamPurpose::new("prop"));
            let plan = BaseEncounters::new(&table, settings, map, 2).place(&mut rng, &grid);
            prop_assert!(plan.attempts <= 300);
            // One group a cell: a probe that lands on a taken cell is refused.
            let mut cells: Vec<Square> = plan.groups.iter().map(|g| g.cell).collect();
            cells.sort_by_key(|c| (c.y, c.x));
            cells.dedup();
            prop_assert_eq!(cells.len(), plan.groups.len());
            for g in &plan.groups {
                prop_assert!(matches!(grid.tile(g.cell), Tile::Floor | crate::tile::FIRE));
                for m in &g.members {
                    prop_assert!(m.strength <= STRENGTH_CAP && m.armature <= STAT_CAP && m.skill <= STAT_CAP);
                }
            }
        }
    }
}
