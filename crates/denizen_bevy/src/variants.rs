//! Construction variants in play: the arena's opponents and were-humans' change of form.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::construct::{Identity as IdentityKind, Monster};
use denizen_core::floor::Square;
use denizen_core::populate::Placement;

use crate::components::{
    Awareness, CombatStats, Disposition, Inventory, MonsterName, Sleep, Species,
};
use crate::populate::spawn_one;
use crate::resources::{Catalogue, Chronicle, DenizenRng, MoonPhase};

/// Bring on the next arena opponent at a square (the source's arena puts it at (60, 7)).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct ArenaBout {
    /// Opponents fought so far (0-15 follow the fixed sequence).
    pub counter: u32,
    /// The player's arena rank (1-4 meet the Champion after the sequence; 0 for none).
    pub rank: u32,
    /// Where the opponent enters.
    pub at: Square,
}

/// Marks an arena opponent.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct ArenaOpponent;

/// Triggered by the host on a monster when it takes its special-ability turn; a
/// were-human that is hostile, or on moon phase 6, changes form.
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecialTurn {
    /// The monster.
    pub entity: Entity,
}

pub(crate) fn arena_bouts(world: &mut World, mut cursor: Local<MessageCursor<ArenaBout>>) {
    let requests: Vec<ArenaBout> = {
        let messages = world.resource::<Messages<ArenaBout>>();
        cursor.read(messages).copied().collect()
    };
    for bout in requests {
        let catalogue = world.resource::<Catalogue>().clone();
        let Some(variants) = catalogue.rules().variants.as_ref() else {
            continue;
        };
        let champion = world
            .resource::<Chronicle>()
            .0
            .officeholders
            .get(11)
            .map_or_else(|| "the Champion".to_owned(), |o| o.name.clone());
        let mut rng =
            world
                .resource_mut::<DenizenRng>()
                .next_stream("arena", "arena", bout.counter);
        let monster = variants.arena_opponent(
            &mut rng,
            &catalogue.rules().catalogue,
            bout.counter,
            bout.rank,
            &champion,
        );
        let entity = spawn_one(
            world,
            Placement {
                square: bout.at,
                monster,
            },
        );
        world.entity_mut(entity).insert(ArenaOpponent);
    }
}

/// Observer: a were-human's special turn.
pub(crate) fn were_turn(
    turn: On<SpecialTurn>,
    catalogue: Res<Catalogue>,
    moon: Res<MoonPhase>,
    mut rng: ResMut<DenizenRng>,
    mut monsters: Query<(
        &mut Species,
        &mut CombatStats,
        &Awareness,
        &Sleep,
        &Inventory,
        &mut Disposition,
    )>,
    mut commands: Commands,
) {
    let Some(variants) = catalogue.rules().variants.as_ref() else {
        return;
    };
    let Ok((mut species, mut stats, awareness, sleep, inventory, mut disposition)) =
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
        identity: IdentityKind::Ordinary,
        stats: stats.0,
        awareness: awareness.0,
        sleep_rating: sleep.rating,
        awake: sleep.awake,
        hostile: disposition.hostile,
        wandering: disposition.wandering,
        possessions: inventory.0.clone(),
    };
    let mut stream = rng.next_stream("were", "were", 0);
    variants.change_form(&mut stream, &catalogue.rules().catalogue, &mut monster);
    species.form = monster.form;
    stats.0 = monster.stats;
    disposition.hostile = monster.hostile;
    if let Some(name) = monster.name {
        commands.entity(turn.entity).insert(MonsterName(name));
    }
}
