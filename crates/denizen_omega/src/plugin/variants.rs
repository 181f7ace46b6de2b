//! Construction variants in play: the arena's opponents and were-humans' change of form.

use crate::construct::{CHAMPION, Identity, Monster};
use crate::streams;
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryData;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Plan, Spawn};

use super::components::{
    Awareness, CombatStats, Disposition, Inventory, MonsterName, Sleep, Species, Statuses,
};
use super::populate::spawn_monsters;
use super::resources::{OmegaChronicle, OmegaMoonPhase, OmegaRuleset};
use denizen_bevy::arrivals::{
    ArrivalFloor, ArrivalRequest, Arrived, NotOurFloor, RulesNotReady, RulesRefused,
    RulesStillLoading,
};
use denizen_bevy::floor::{FloorId, Glyph};
use denizen_bevy::pipeline::FloorStreams;
use denizen_bevy::streams::DenizenRng;

/// Bring on the next arena opponent at a square (the source's arena puts it at (60, 7)).
/// Served in `OmegaSystems::Arrivals` and answered with an [`OmegaArenaBout`]. Its stream
/// is the bout's own (keyed by the opponent counter), so each opponent is the same whatever
/// floor the arena is.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaArenaBoutRequested {
    /// Opponents fought so far (0-15 follow the fixed sequence).
    pub counter: u32,
    /// The player's arena rank (1-4 meet the Champion after the sequence; 0 for none).
    pub rank: u32,
    /// Where the opponent enters.
    pub at: Square,
}

/// Why an [`OmegaArenaBoutRequested`] was refused.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum OmegaArenaRefusal {
    /// The rules have no arena: a game's own bestiary that lacks Omega's arena species
    /// brings its own variants (`OmegaRules::with_variants`).
    #[error(
        "the rules have no arena: a game's own bestiary that lacks Omega's arena species \
         brings its own variants (OmegaRules::with_variants)"
    )]
    NoArena,
    /// The rules' data files (feature `assets`) have not loaded yet.
    #[error("{0}")]
    RulesLoading(RulesStillLoading),
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal, until the files are mended.
    #[error("{0}")]
    RulesRefused(RulesRefused),
    /// Never for a bout, which comes onto any floor ([`ArrivalFloor::Any`]): the
    /// arrivals pipeline's refusal of another rule set's floor, which every refusal holds.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
}

impl From<NotOurFloor> for OmegaArenaRefusal {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<RulesNotReady> for OmegaArenaRefusal {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(loading) => Self::RulesLoading(loading),
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// The answer to an [`OmegaArenaBoutRequested`]: the opponent that entered, or why none
/// did.
pub type OmegaArenaBout = Arrived<OmegaArenaBoutRequested>;

/// Triggered by the host on a monster when it takes its special-ability turn; a
/// were-human that is hostile, or on moon phase 6, changes form.
#[derive(EntityEvent, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaSpecialTurn {
    /// The monster.
    pub entity: Entity,
}

impl ArrivalRequest for OmegaArenaBoutRequested {
    type Rules = OmegaRuleset;
    type Valid = OmegaRuleset;
    type Plan = Monster;
    type Arrival = Entity;
    type Refusal = OmegaArenaRefusal;

    fn comes_onto(&self) -> ArrivalFloor {
        ArrivalFloor::Any
    }

    fn validate(&self, world: &World) -> Result<(FloorId, OmegaRuleset), OmegaArenaRefusal> {
        let rules = world.resource::<OmegaRuleset>().clone();
        if rules.rules().variants.is_none() {
            return Err(OmegaArenaRefusal::NoArena);
        }
        Ok((FloorId::new(streams::ARENA, self.counter), rules))
    }

    fn plan(
        &self,
        world: &World,
        rules: OmegaRuleset,
        streams: &mut FloorStreams<'_>,
    ) -> Result<Monster, OmegaArenaRefusal> {
        let variants = rules
            .rules()
            .variants
            .as_ref()
            .ok_or(OmegaArenaRefusal::NoArena)?;
        let champion = world.resource::<OmegaChronicle>().0.holder(CHAMPION);
        let mut rng = streams.draw(streams::ARENA);
        Ok(variants.arena_opponent(
            &mut rng,
            &rules.rules().bestiary,
            self.counter,
            self.rank,
            &champion,
        ))
    }

    fn apply(&self, world: &mut World, monster: Monster) -> Entity {
        let plan = Plan::one(Spawn {
            at: self.at,
            origin: crate::origin::ARENA,
            creature: monster,
        });
        spawn_monsters(world, plan)[0]
    }
}

/// What a were-human's change of form reads and changes.
#[derive(QueryData)]
#[query_data(mutable)]
pub(crate) struct WereParts {
    species: &'static mut Species,
    stats: &'static mut CombatStats,
    awareness: &'static Awareness,
    sleep: &'static mut Sleep,
    inventory: &'static Inventory,
    disposition: &'static mut Disposition,
    statuses: &'static mut Statuses,
    glyph: &'static mut Glyph,
}

/// Observer: a were-human's special turn.
pub(crate) fn were_turn(
    turn: On<OmegaSpecialTurn>,
    rules: Res<OmegaRuleset>,
    moon: Res<OmegaMoonPhase>,
    mut rng: ResMut<DenizenRng>,
    mut monsters: Query<WereParts>,
    mut commands: Commands,
) {
    let Some(variants) = rules.rules().variants.as_ref() else {
        return;
    };
    let Ok(mut were) = monsters.get_mut(turn.entity) else {
        return;
    };
    if !variants.were_changes(were.species.form, were.disposition.hostile, moon.0) {
        return;
    }
    let mut monster = Monster {
        species: were.species.id,
        form: were.species.form,
        name: None,
        identity: Identity::Ordinary,
        stats: were.stats.0,
        awareness: were.awareness.0,
        sleep_rating: were.sleep.rating,
        status: were.statuses.whole(*were.sleep, *were.disposition),
        possessions: were.inventory.0.clone(),
    };
    let mut stream = rng.next_stream(streams::WERE, streams::WERE, 0);
    let bestiary = &rules.rules().bestiary;
    variants.change_form(&mut stream, bestiary, &mut monster);
    were.species.form = monster.form;
    were.glyph.0 = bestiary.get(monster.form).glyph;
    were.stats.0 = monster.stats;
    // The form's flags are ORed in, awake among them where the form starts awake.
    let (awake, disposition, statuses) = Statuses::split(monster.status);
    were.sleep.awake = awake;
    *were.disposition = disposition;
    *were.statuses = statuses;
    if let Some(name) = monster.name {
        commands.entity(turn.entity).insert(MonsterName(name));
    }
}
