//! Construction variants in play: the arena's opponents and were-humans' change of form.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Origin, Plan, Spawn};
use denizen_omega::construct::{CHAMPION, Identity, Monster};
use denizen_omega::streams;

use super::components::{
    Awareness, CombatStats, Disposition, Inventory, MonsterName, Sleep, Species,
};
use super::populate::spawn_monsters;
use super::resources::{MoonPhase, OmegaChronicle, OmegaRuleset};
use crate::floor::Glyph;
use crate::pipeline::{read_requests, rules_loading};
use crate::streams::DenizenRng;

/// Bring on the next arena opponent at a square (the source's arena puts it at (60, 7)).
/// Served in `OmegaSystems::Arrivals`.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct ArenaBoutRequested {
    /// Opponents fought so far (0-15 follow the fixed sequence).
    pub counter: u32,
    /// The player's arena rank (1-4 meet the Champion after the sequence; 0 for none).
    pub rank: u32,
    /// Where the opponent enters.
    pub at: Square,
}

/// An [`ArenaBoutRequested`] that was refused (written in `OmegaSystems::Arrivals`).
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct ArenaRejected {
    /// The bout's opponent counter.
    pub counter: u32,
    /// Why.
    pub reason: ArenaRefusal,
}

/// Why an [`ArenaBoutRequested`] was refused.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum ArenaRefusal {
    /// The rules have no arena: a game's own bestiary that lacks Omega's arena species
    /// brings its own variants (`OmegaRules::with_variants`).
    #[error(
        "the rules have no arena: a game's own bestiary that lacks Omega's arena species \
         brings its own variants (OmegaRules::with_variants)"
    )]
    NoArena,
    /// The rules' data files (feature `assets`) have not loaded yet.
    #[error("the rules' data files have not loaded yet (wait for RulesLoaded)")]
    RulesLoading,
}

/// Triggered by the host on a monster when it takes its special-ability turn; a
/// were-human that is hostile, or on moon phase 6, changes form.
#[derive(EntityEvent, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct SpecialTurn {
    /// The monster.
    pub entity: Entity,
}

/// Serves every new [`ArenaBoutRequested`].
pub(crate) fn arena_bouts(world: &mut World, mut cursor: Local<MessageCursor<ArenaBoutRequested>>) {
    for bout in read_requests(world, &mut cursor) {
        let rules = world.resource::<OmegaRuleset>().clone();
        let loading = rules_loading::<OmegaRuleset>(world);
        let variants = match (loading, rules.rules().variants.as_ref()) {
            (false, Some(variants)) => variants,
            (loading, _) => {
                let reason = if loading {
                    ArenaRefusal::RulesLoading
                } else {
                    ArenaRefusal::NoArena
                };
                world.write_message(ArenaRejected {
                    counter: bout.counter,
                    reason,
                });
                continue;
            }
        };
        let champion = world.resource::<OmegaChronicle>().0.holder(CHAMPION);
        let mut rng = world.resource_mut::<DenizenRng>().next_stream(
            streams::ARENA,
            streams::ARENA,
            bout.counter,
        );
        let monster = variants.arena_opponent(
            &mut rng,
            &rules.rules().bestiary,
            bout.counter,
            bout.rank,
            &champion,
        );
        spawn_monsters(
            world,
            Plan::one(Spawn {
                at: bout.at,
                origin: Origin::Arena,
                creature: monster,
            }),
        );
    }
}

/// Observer: a were-human's special turn.
pub(crate) fn were_turn(
    turn: On<SpecialTurn>,
    rules: Res<OmegaRuleset>,
    moon: Res<MoonPhase>,
    mut rng: ResMut<DenizenRng>,
    mut monsters: Query<(
        &mut Species,
        &mut CombatStats,
        &Awareness,
        &Sleep,
        &Inventory,
        &mut Disposition,
        &mut Glyph,
    )>,
    mut commands: Commands,
) {
    let Some(variants) = rules.rules().variants.as_ref() else {
        return;
    };
    let Ok((mut species, mut stats, awareness, sleep, inventory, mut disposition, mut glyph)) =
        monsters.get_mut(turn.entity)
    else {
        return;
    };
    if !variants.were_changes(species.form, disposition.hostile, moon.0) {
        return;
    }
    let mut monster = Monster {
        species: species.id,
        form: species.form,
        name: None,
        identity: Identity::Ordinary,
        stats: stats.0,
        awareness: awareness.0,
        sleep_rating: sleep.rating,
        awake: sleep.awake,
        hostile: disposition.hostile,
        wandering: disposition.wandering,
        possessions: inventory.0.clone(),
    };
    let mut stream = rng.next_stream(streams::WERE, streams::WERE, 0);
    let bestiary = &rules.rules().bestiary;
    variants.change_form(&mut stream, bestiary, &mut monster);
    species.form = monster.form;
    glyph.0 = bestiary.get(monster.form).glyph;
    stats.0 = monster.stats;
    disposition.hostile = monster.hostile;
    if let Some(name) = monster.name {
        commands.entity(turn.entity).insert(MonsterName(name));
    }
}
