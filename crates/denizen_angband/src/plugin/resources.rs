//! The Angband rules the plugin uses, and the live-uniques ledger it keeps.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::cave::{Cave, WIDTH};
use crate::layout::RoomChoice;
use crate::{
    AngbandRules, Appraisal, ArtifactLedger, Autoscum, LevelOptions, Terrain, UniqueLedger,
};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::floor::{FloorId, PerFloor};
use denizen_core::floor::{MAX_SQUARES, Square};
use serde::{Deserialize, Serialize};

/// The Angband rules in use (the allocation table of the races, with its weighted tables
/// built as draws need them, the object rules, the vault templates, the traps) and the
/// plugin's switches. Configuration rather than state: rebuilt from the plugin's builder,
/// never saved.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Debug)]
pub struct AngbandRuleset {
    rules: Arc<AngbandRules>,
    settings: AngbandSettings,
}

impl AngbandRuleset {
    /// The rules, with the plugin's switches.
    pub fn new(rules: AngbandRules, settings: AngbandSettings) -> Self {
        Self {
            rules: Arc::new(rules),
            settings,
        }
    }

    /// The rules.
    pub fn rules(&self) -> &AngbandRules {
        &self.rules
    }

    /// The plugin's switches.
    pub fn settings(&self) -> AngbandSettings {
        self.settings
    }
}

/// The Angband plugin's switches, from its builder, held by [`AngbandRuleset`]. `Default`
/// is faithful to 2.7.9.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Default, Debug, PartialEq)]
pub struct AngbandSettings {
    /// 2.7.9's inner-room guard slip (see
    /// [`LevelOptions::guard_level_slip`](crate::LevelOptions::guard_level_slip)); on by
    /// default.
    pub guard_level_slip: bool,
    /// Floor the player cannot reach (outside vaults) is made rock; off by default.
    pub seal_unreachable: bool,
    /// The autoscummer; off by default.
    pub autoscum: Autoscum,
    /// Preserve mode: no level feels special (the flag is still set), and artifacts left
    /// on a wiped level can be made again. Off by default.
    pub preserve: bool,
    /// Whether a level's objects and gold become entities. On by default.
    pub object_entities: bool,
}

impl Default for AngbandSettings {
    fn default() -> Self {
        Self {
            guard_level_slip: LevelOptions::default().guard_level_slip,
            seal_unreachable: false,
            autoscum: Autoscum::Off,
            preserve: false,
            object_entities: true,
        }
    }
}

impl AngbandSettings {
    /// The level switches of a request: these, with its quest flag and forced room.
    pub fn level_options(&self, quest: bool, force_room: Option<RoomChoice>) -> LevelOptions {
        let mut options = LevelOptions {
            guard_level_slip: self.guard_level_slip,
            ..LevelOptions::default()
        };
        options.layout.seal_unreachable = self.seal_unreachable;
        options.layout.quest = quest;
        options.layout.force_room = force_room;
        options
    }
}

/// The uniques the allocator refuses: alive (placed on a level) or killed. Saved. Call
/// `UniqueLedger::kill` when the player kills a unique: 2.7.9 never makes it again. A
/// ledger read from a save is put in order as it is read, and entries naming no unique
/// of the rules are dropped before the next level draws (a documented mend, not an
/// error).
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandUniques(pub UniqueLedger);

/// The artifacts made in the game: each is made once. Outside preserve mode one left on
/// a level stays made; in preserve mode those still lying on a level when it is wiped
/// (left, replaced or despawned: the `AngbandObject` entities of its floor) can be made
/// again, so a game that keeps its own objects (`object_entities(false)`) gives them back
/// itself (`ArtifactLedger::give_back`). Saved.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandArtifacts(pub ArtifactLedger);

/// The last Angband level made: its depth, whether it is a quest level, and the game turn
/// it was made on (a level made fewer than 1,000 game turns later feels like any other;
/// the plugin reads [`GameClock::turns`](denizen_bevy::clock::GameClock::turns)). Traps sprung
/// are rolled for this level; a level brought back becomes it again (its depth and
/// quest). Saved.
#[derive(Resource, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandLastLevel {
    /// Its depth (0 before the first level).
    pub depth: u32,
    /// Whether it is a quest level.
    pub quest: bool,
    /// The game turn ([`GameClock::turns`](denizen_bevy::clock::GameClock::turns)) it was made
    /// on.
    pub made_at: Option<u64>,
}

/// Each Angband level put away, by floor, in the neutral per-floor store: its quest flag,
/// restored to [`AngbandLastLevel`], and its terrain, restored to [`AngbandTerrain`], when
/// the level is brought back. Saved.
pub type AngbandStoredLevels = PerFloor<StoredLevel>;

/// Angband's levels put away as saves kept them before the per-floor store: by depth
/// alone, each a level of Angband's place then.
#[derive(Reflect)]
pub(super) struct LevelsByDepth(BTreeMap<u32, StoredLevel>);

impl LevelsByDepth {
    /// The levels by floor.
    pub(super) fn by_floor(self) -> AngbandStoredLevels {
        let levels = self.0.into_iter();
        PerFloor(
            levels
                .map(|(depth, level)| (FloorId::new(crate::streams::PLACE, depth), level))
                .collect(),
        )
    }
}

/// What an Angband level put away keeps besides its map and creatures.
#[derive(Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredLevel {
    /// Whether it is a quest level.
    pub quest: bool,
    /// Its terrain.
    pub terrain: AngbandTerrain,
}

/// The current Angband level's terrain, beside `FloorMap` (which shows every wall, vein
/// and rubble as `Wall`, every door as `Door` and both staircases as `Stairs`): what each
/// square is, a vein with treasure, a locked door and its strength, up or down stairs.
/// Empty before the first classic level and on a host's floor; it follows levels put away
/// and brought back. Saved as one line of two-digit hexadecimal terrain codes per row, so a
/// save can be read and diffed; a saved terrain whose rows are ragged or not hexadecimal is
/// refused.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TerrainRows", into = "TerrainRows")]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandTerrain {
    /// The level's depth (0 while no level's terrain is held).
    pub depth: u32,
    /// The map's width: square `(x, y)` is at `y * width + x`.
    width: u32,
    /// 2.7.9's terrain code of each square, row by row.
    codes: Vec<u8>,
}

/// [`AngbandTerrain`] as it is saved: each row's codes as two hexadecimal digits apiece.
#[derive(Serialize, Deserialize)]
struct TerrainRows {
    depth: u32,
    rows: Vec<String>,
}

impl From<AngbandTerrain> for TerrainRows {
    fn from(terrain: AngbandTerrain) -> Self {
        let rows = terrain
            .codes
            .chunks(terrain.width.max(1) as usize)
            .map(|row| row.iter().map(|code| format!("{code:02x}")).collect())
            .collect();
        Self {
            depth: terrain.depth,
            rows,
        }
    }
}

impl TryFrom<TerrainRows> for AngbandTerrain {
    type Error = String;

    fn try_from(saved: TerrainRows) -> Result<Self, Self::Error> {
        let width = saved.rows.first().map_or(0, String::len) / 2;
        let squares = width as u64 * saved.rows.len() as u64;
        if squares > MAX_SQUARES {
            return Err(format!("a terrain of more than {MAX_SQUARES} squares"));
        }
        let mut codes = Vec::with_capacity(squares as usize);
        for (y, row) in saved.rows.iter().enumerate() {
            if row.len() != width * 2 {
                return Err(format!(
                    "terrain row {y} holds {} characters, the first row {}",
                    row.len(),
                    width * 2
                ));
            }
            for (x, pair) in row.as_bytes().chunks(2).enumerate() {
                let code = (pair.iter().all(u8::is_ascii_hexdigit))
                    .then(|| std::str::from_utf8(pair).ok())
                    .flatten()
                    .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                    .ok_or_else(|| {
                        format!("terrain row {y}, square {x}: not a two-digit hexadecimal code")
                    })?;
                codes.push(code);
            }
        }
        Ok(Self {
            depth: saved.depth,
            width: width as u32,
            codes,
        })
    }
}

impl AngbandTerrain {
    /// The terrain of a classic level's cave at `depth`.
    pub(crate) fn of_cave(depth: u32, cave: &Cave) -> Self {
        Self {
            depth,
            width: WIDTH as u32,
            codes: cave.terrain_codes().to_vec(),
        }
    }

    /// What a square is; `None` off the level (or with no level held).
    pub fn at(&self, at: Square) -> Option<Terrain> {
        (at.x < self.width)
            .then(|| at.y as usize * self.width as usize + at.x as usize)
            .and_then(|i| self.codes.get(i))
            .map(|&code| Terrain::of(code))
    }

    /// Every square of the level with its terrain, row by row.
    pub fn squares(&self) -> impl Iterator<Item = (Square, Terrain)> + '_ {
        let width = self.width.max(1) as usize;
        self.codes.iter().enumerate().map(move |(i, &code)| {
            let at = Square {
                x: (i % width) as u32,
                y: (i / width) as u32,
            };
            (at, Terrain::of(code))
        })
    }
}

/// A game's own object rules, asked about each object a level's rooms ask for while the
/// level is made: what it says replaces what the rules' own object on that spot adds to
/// the rating, the feeling and the autoscummer (a game that makes its own objects).
/// Without it the rules' objects count.
#[derive(Resource, Reflect, Clone, Copy)]
#[reflect(opaque)]
pub struct AngbandAppraiser(pub fn(&super::messages::AngbandObjectRequested) -> Appraisal);

impl std::fmt::Debug for AngbandAppraiser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AngbandAppraiser")
    }
}

/// The check [`load`](denizen_bevy::save::load) runs on every save before it changes the
/// world: every monster's race, and every object's kind, ego item and artifact, are the
/// rules' (a save of other data is refused, not loaded as unknown monsters and objects).
/// Checked once the data files, if any, have loaded.
pub(super) fn check_ids(
    world: &World,
    save: &denizen_bevy::save::SaveContents<'_>,
) -> Result<(), denizen_bevy::save::SaveError> {
    use super::components::{AngbandMonster, AngbandObject};
    if denizen_bevy::pipeline::rules_loading::<AngbandRuleset>(world) {
        return Ok(());
    }
    let rules = world.resource::<AngbandRuleset>().rules();
    let refuse = |type_path, id: u64, what: String| {
        Err(denizen_bevy::save::SaveError::Impossible {
            type_path,
            message: format!("entity {id} is of {what}, which the rules do not have"),
        })
    };
    for (id, monster) in save.components::<AngbandMonster>() {
        if rules.races().get(monster.race).is_none() {
            return refuse("AngbandMonster", id, format!("race {}", monster.race.0));
        }
    }
    let objects = &rules.objects;
    for (id, AngbandObject(object)) in save.components::<AngbandObject>() {
        if objects.allocator.kinds().get(object.kind).is_none() {
            return refuse("AngbandObject", id, format!("kind {}", object.kind.0));
        }
        if let Some(ego) = object.ego.filter(|&e| objects.egos.get(e).is_none()) {
            return refuse("AngbandObject", id, format!("ego item {}", ego.0));
        }
        if let Some(artifact) = object
            .artifact
            .filter(|&a| objects.artifacts.get(a).is_none())
        {
            return refuse("AngbandObject", id, format!("artifact {}", artifact.0));
        }
    }
    Ok(())
}
