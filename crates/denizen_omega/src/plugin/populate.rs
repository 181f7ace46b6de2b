//! Omega's floors through the pipeline: plan a floor with the rules, then apply it in one
//! pass; and the location following the current floor.

use bevy_ecs::prelude::*;
use denizen_bevy::apply::apply;
use denizen_bevy::floor::{FloorEntered, FloorEntry, FloorId, FloorMap, Glyph};
use denizen_bevy::pipeline::{FloorRequest, FloorStreams};
use denizen_core::floor::Square;
use denizen_core::plan::{Plan, Spawn};

use super::components::{
    ArenaOpponent, Awareness, CombatStats, Fixed, Inventory, MonsterBundle, MonsterIdentity,
    MonsterName, Sleep, Species, Statuses,
};
use super::messages::{OmegaFloorPopulated, OmegaFloorRefusal, OmegaFloorRequested};
use super::resources::{
    OmegaChronicle, OmegaCompletedDungeons, OmegaCurrentLocation, OmegaRuleset, OmegaUniqueItems,
};
use crate::construct::{Builder, Identity, Monster};
use crate::objects::ItemLedger;
use crate::place::FloorRef;
use crate::populate::{LevelPlan, LevelRequest, plan_level};
use crate::streams;

/// Runs `plan` with a construction [`Builder`] over the rules in use, the world's chronicle
/// and a copy of its unique-item ledger, at a difficulty (in a temple of `temple_deity`).
/// Reads the world only: the ledger as construction left it comes back with the plan, for
/// [`keep_ledger`] to put in the world when the plan is applied.
pub(crate) fn construct<T>(
    world: &World,
    rules: &OmegaRuleset,
    temple_deity: Option<u8>,
    difficulty: i64,
    plan: impl FnOnce(&mut Builder<'_>) -> T,
) -> (T, ItemLedger) {
    let mut ledger = world.resource::<OmegaUniqueItems>().0.clone();
    let mut builder = Builder {
        bestiary: &rules.rules().bestiary,
        ledger: &mut ledger,
        chronicle: &world.resource::<OmegaChronicle>().0,
        preference: rules.settings().preference,
        temple_deity,
        difficulty,
    };
    let planned = plan(&mut builder);
    (planned, ledger)
}

/// Puts a plan's unique-item ledger in the world, if construction changed it (an unchanged
/// ledger is left alone, so its change detection means a change).
pub(crate) fn keep_ledger(world: &mut World, ledger: ItemLedger) {
    if world.resource::<OmegaUniqueItems>().0 != ledger {
        world.resource_mut::<OmegaUniqueItems>().0 = ledger;
    }
}

/// Whether `floor` is named as one of Omega's places: how a save from before makers were
/// kept tells Omega's floors ([`GuessFrom::Name`](denizen_bevy::save::GuessFrom::Name)).
pub(crate) fn omega_place(world: &World, floor: &FloorId) -> bool {
    (world.get_resource::<OmegaRuleset>()).is_some_and(|r| {
        r.rules()
            .floor_request(&floor.location, floor.depth, None)
            .is_ok()
    })
}

/// Observer: [`OmegaCurrentLocation`] follows the current floor. A floor brought back that
/// is one of Omega's makes its location current again (rebuilt from the rules for the
/// floor's location and depth; a temple's deity is not kept: name it again with the next
/// request); any other floor entered (another rule set's, new or brought back) leaves the
/// player in no Omega place, so the location is a new game's. A new Omega floor set the
/// location when it was applied. Whose floor it is comes from its
/// [`Maker`](denizen_bevy::floor::Maker).
pub(crate) fn follow_floor(
    entered: On<FloorEntered>,
    rules: Res<OmegaRuleset>,
    mut location: ResMut<OmegaCurrentLocation>,
) {
    let floor = &entered.floor;
    let ours = match entered.entry {
        _ if !entered.maker.is(super::NAME) => false,
        FloorEntry::New => location.floor() == *floor,
        FloorEntry::BroughtBack => {
            let rules = rules.rules();
            match rules.floor_request(&floor.location, floor.depth, None) {
                Ok(at) => {
                    let (environment, level) = rules.floor(at);
                    *location = OmegaCurrentLocation::at(environment, level, None);
                    true
                }
                Err(_) => false,
            }
        }
    };
    if !ours && *location != OmegaCurrentLocation::default() {
        *location = OmegaCurrentLocation::default();
    }
}

/// What validation resolved for an Omega floor: the rules in use and the floor in them.
pub struct OmegaFloor {
    ruleset: OmegaRuleset,
    at: FloorRef,
}

/// An Omega floor as planned: the fixed inhabitants and population, the unique-item
/// ledger as construction left it, and where the player now is.
pub struct OmegaFloorPlan {
    level: LevelPlan,
    ledger: ItemLedger,
    location: OmegaCurrentLocation,
}

/// The pipeline's steps for an Omega floor: fixed inhabitants, then the population by
/// the floor search (or scattered, for environments that scatter), then one apply and the
/// answer; or the answer saying why not.
impl FloorRequest for OmegaFloorRequested {
    type Rules = OmegaRuleset;
    type Valid = OmegaFloor;
    type Plan = OmegaFloorPlan;
    type Populated = OmegaFloorPopulated;
    type Refusal = OmegaFloorRefusal;

    fn validate(&self, world: &World) -> Result<(FloorId, OmegaFloor), OmegaFloorRefusal> {
        let ruleset = world.resource::<OmegaRuleset>().clone();
        let at = ruleset
            .rules()
            .floor_request(&self.location, self.depth, self.deity)
            .map_err(OmegaFloorRefusal::Rules)?;
        let (environment, level) = ruleset.rules().floor(at);
        let map = &world.resource::<FloorMap>().0;
        let (width, height) = (map.width(), map.height());
        match environment.scatter {
            None if width == 0 || height == 0 => return Err(OmegaFloorRefusal::EmptyMap),
            Some(s) if width < s.width || height < s.height => {
                return Err(OmegaFloorRefusal::MapTooSmall {
                    width,
                    height,
                    needs_width: s.width,
                    needs_height: s.height,
                });
            }
            _ => {}
        }
        let floor = FloorId::new(environment.key.clone(), level.depth);
        Ok((floor, OmegaFloor { ruleset, at }))
    }

    fn plan(
        &self,
        world: &World,
        valid: OmegaFloor,
        streams: &mut FloorStreams<'_>,
    ) -> OmegaFloorPlan {
        let OmegaFloor { ruleset, at } = valid;
        let (environment, level) = ruleset.rules().floor(at);
        let settings = ruleset.settings();
        let completed = world
            .resource::<OmegaCompletedDungeons>()
            .0
            .contains(&environment.key);
        let blocked: Vec<Square> = self
            .player
            .filter(|_| settings.exclude_player_square)
            .into_iter()
            .collect();
        // Fixed inhabitants draw from their own stream, so the population is the same
        // whether or not they are placed; only levels that have one open it.
        let mut fixed_rng = environment
            .has_fixed_at(level.depth)
            .then(|| streams.draw(streams::FIXED));
        let mut rng = streams.draw(streams::FLOOR);
        let request = LevelRequest {
            environment,
            level,
            grid: &world.resource::<FloorMap>().0,
            completed,
            cavern_gap: settings.cavern_gap && self.cavern,
            blocked: &blocked,
        };
        let (level_plan, ledger) =
            construct(world, &ruleset, self.deity, level.difficulty, |builder| {
                plan_level(&mut rng, fixed_rng.as_mut(), &request, builder)
            });
        OmegaFloorPlan {
            level: level_plan,
            ledger,
            location: OmegaCurrentLocation::at(environment, level, self.deity),
        }
    }

    fn apply(
        &self,
        world: &mut World,
        _floor: &FloorId,
        plan: OmegaFloorPlan,
    ) -> OmegaFloorPopulated {
        let OmegaFloorPlan {
            level,
            ledger,
            location,
        } = plan;
        keep_ledger(world, ledger);
        *world.resource_mut::<OmegaCurrentLocation>() = location;
        let population = &level.population;
        let (requested, placed, missing) = (
            population.requested,
            population.plan.spawns.len() as u32,
            population.missing(),
        );
        let fixed_missing = level.fixed_missing.clone();
        let entities = spawn_monsters(world, level.into_plan());
        OmegaFloorPopulated {
            entities,
            requested,
            placed,
            missing,
            fixed_missing,
        }
    }
}

/// Applies a plan of Omega monsters through the one apply step, one batch per shape: the
/// monster's bundle, with [`MonsterName`] and [`MonsterIdentity`] where construction gave
/// them; then [`Fixed`] on fixed inhabitants and [`ArenaOpponent`] on arena opponents
/// (rare, so inserted one by one). Returns the entities in plan order.
pub(crate) fn spawn_monsters(world: &mut World, plan: Plan<Monster>) -> Vec<Entity> {
    let rules = world.resource::<OmegaRuleset>().clone();
    apply(world, plan, |batches, spawns| {
        let mut plain = Vec::with_capacity(spawns.len());
        let (mut named, mut identified, mut both) = (Vec::new(), Vec::new(), Vec::new());
        let mut marked = Vec::new();
        for (i, spawn) in spawns.into_iter().enumerate() {
            let Spawn {
                at,
                origin,
                creature: mut monster,
            } = spawn;
            if matches!(
                origin,
                crate::origin::FIXED_INHABITANT | crate::origin::ARENA
            ) {
                marked.push((i, origin));
            }
            let glyph = monster.glyph(&rules.rules().bestiary);
            let name = monster.name.take().map(MonsterName);
            let identity = std::mem::take(&mut monster.identity);
            let identity = (identity != Identity::Ordinary).then_some(MonsterIdentity(identity));
            let base = bundle(glyph, monster);
            match (name, identity) {
                (None, None) => plain.push((i, at, base)),
                (Some(name), None) => named.push((i, at, (base, name))),
                (None, Some(identity)) => identified.push((i, at, (base, identity))),
                (Some(name), Some(identity)) => both.push((i, at, (base, name, identity))),
            }
        }
        batches.spawn(plain);
        batches.spawn(named);
        batches.spawn(identified);
        batches.spawn(both);
        for (i, origin) in marked {
            let entity = batches.entity(i);
            let mut entity = batches.world().entity_mut(entity);
            match origin {
                crate::origin::ARENA => entity.insert(ArenaOpponent),
                _ => entity.insert(Fixed),
            };
        }
    })
}

/// The components of a planned monster.
fn bundle(glyph: char, m: Monster) -> MonsterBundle {
    let (awake, disposition, statuses) = Statuses::split(m.status);
    (
        Species {
            id: m.species,
            form: m.form,
        },
        Glyph(glyph),
        Sleep {
            rating: m.sleep_rating,
            awake,
        },
        Inventory(m.possessions),
        Awareness(m.awareness),
        CombatStats(m.stats),
        disposition,
        statuses,
    )
}
