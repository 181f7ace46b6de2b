//! Omega's floors through the pipeline: plan a floor with the rules, then apply it in one
//! pass; and the location following floors brought back.

use bevy_ecs::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Origin, Plan, Spawn};
use denizen_core::rng::Generator;
use denizen_omega::construct::{Builder, Identity, Monster};
use denizen_omega::populate::{LevelPlan, LevelRequest, plan_level};
use denizen_omega::streams;

use super::components::{
    ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterBundle,
    MonsterIdentity, MonsterName, Sleep, Species,
};
use super::messages::{
    OmegaFloorPopulated, OmegaFloorRefusal, OmegaFloorRejected, OmegaFloorRequested,
    PlacementFailed,
};
use super::resources::{
    CompletedDungeons, CurrentLocation, OmegaChronicle, OmegaRuleset, UniqueItems,
};
use crate::apply::apply;
use crate::floor::{FloorEntered, FloorEntry, FloorId, FloorMap, Glyph};
use crate::pipeline::{FloorRequest, rules_loading};
use crate::streams::{DenizenRng, StreamKey};

/// Runs `plan` with a construction [`Builder`] over the world's rules, chronicle and
/// unique-item ledger at a difficulty. The ledger is taken out for the call and put back.
pub(crate) fn with_builder<T>(
    world: &mut World,
    rng: &mut Generator,
    difficulty: i64,
    plan: impl FnOnce(&mut Generator, &mut Builder<'_>, &World) -> T,
) -> T {
    let rules = world.resource::<OmegaRuleset>().clone();
    let settings = rules.settings();
    let temple_deity = world.resource::<CurrentLocation>().deity;
    let mut ledger = std::mem::take(&mut world.resource_mut::<UniqueItems>().0);
    let out = {
        let chronicle = &world.resource::<OmegaChronicle>().0;
        let mut builder = Builder {
            bestiary: &rules.rules().bestiary,
            ledger: &mut ledger,
            chronicle,
            preference: settings.preference,
            temple_deity,
            difficulty,
        };
        plan(rng, &mut builder, world)
    };
    world.resource_mut::<UniqueItems>().0 = ledger;
    out
}

/// Observer: a floor brought back that is one of Omega's makes its location current
/// again: [`CurrentLocation`] is rebuilt from the rules for the floor's location and depth
/// (a temple's deity is not kept: name it again with the next request).
pub(crate) fn follow_floor(
    entered: On<FloorEntered>,
    rules: Res<OmegaRuleset>,
    mut location: ResMut<CurrentLocation>,
) {
    if entered.entry != FloorEntry::BroughtBack {
        return;
    }
    let floor = &entered.floor;
    if let Ok((env, level)) = rules
        .rules()
        .floor_request(&floor.location, floor.depth, None)
    {
        *location = CurrentLocation::at(env, level, None);
    }
}

/// The pipeline's steps for an Omega floor: fixed inhabitants, then the population by
/// the floor search (or scattered, for environments that scatter), then one apply and the
/// messages; or an [`OmegaFloorRejected`] saying why not.
impl FloorRequest for OmegaFloorRequested {
    type Rejection = OmegaFloorRefusal;
    /// `None` only if the rules were replaced between validation and planning (by an
    /// observer of the floor's end): nothing is placed then.
    type Plan = Option<LevelPlan>;

    fn validate(&self, world: &World) -> Result<FloorId, OmegaFloorRefusal> {
        if rules_loading::<OmegaRuleset>(world) {
            return Err(OmegaFloorRefusal::RulesLoading);
        }
        let rules = world.resource::<OmegaRuleset>();
        let (env, level) = rules
            .rules()
            .floor_request(&self.location, self.depth, self.deity)
            .map_err(OmegaFloorRefusal::Rules)?;
        let map = &world.resource::<FloorMap>().0;
        if (map.width() == 0 || map.height() == 0) && env.scatter.is_none() {
            return Err(OmegaFloorRefusal::EmptyMap);
        }
        Ok(FloorId::new(env.key.clone(), level.depth))
    }

    fn stream<'a>(&'a self, _floor: &'a FloorId) -> StreamKey<'a> {
        StreamKey {
            kind: streams::FLOOR,
            place: &self.location,
            depth: self.depth,
        }
    }

    fn plan(&self, world: &mut World, _floor: &FloorId, rng: &mut Generator) -> Option<LevelPlan> {
        let ruleset = world.resource::<OmegaRuleset>().clone();
        let (env, level) = ruleset
            .rules()
            .floor_request(&self.location, self.depth, self.deity)
            .ok()?;
        let settings = ruleset.settings();
        let completed = world.resource::<CompletedDungeons>().0.contains(&env.key);
        let blocked: Vec<Square> = self
            .player
            .filter(|_| settings.exclude_player_square)
            .into_iter()
            .collect();
        // Fixed inhabitants draw from their own stream, so the population is the same
        // whether or not they are placed; only levels that have one open it.
        let mut fixed_rng = env.has_fixed_at(level.depth).then(|| {
            world.resource_mut::<DenizenRng>().next_stream(
                streams::FIXED,
                &self.location,
                self.depth,
            )
        });
        *world.resource_mut::<CurrentLocation>() = CurrentLocation::at(env, level, self.deity);
        Some(with_builder(
            world,
            rng,
            level.difficulty,
            |rng, builder, world| {
                let level_request = LevelRequest {
                    environment: env,
                    level,
                    grid: &world.resource::<FloorMap>().0,
                    completed,
                    cavern_gap: settings.cavern_gap && self.cavern,
                    blocked: &blocked,
                };
                plan_level(rng, fixed_rng.as_mut(), &level_request, builder)
            },
        ))
    }

    fn apply(&self, world: &mut World, _floor: &FloorId, plan: Option<LevelPlan>) {
        let Some(plan) = plan else {
            return;
        };
        let population = &plan.population;
        let (requested, placed, missing) = (
            population.requested,
            population.plan.spawns.len() as u32,
            population.missing(),
        );
        let fixed_missing = plan.fixed_missing.clone();
        spawn_monsters(world, plan.into_plan());
        world.write_message(OmegaFloorPopulated {
            location: self.location.clone(),
            depth: self.depth,
            requested,
            placed,
        });
        if missing > 0 || !fixed_missing.is_empty() {
            world.write_message(PlacementFailed {
                location: self.location.clone(),
                depth: self.depth,
                placed,
                missing,
                fixed_missing,
            });
        }
    }

    fn reject(&self, world: &mut World, reason: OmegaFloorRefusal) {
        world.write_message(OmegaFloorRejected {
            location: self.location.clone(),
            depth: self.depth,
            reason,
        });
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
            if matches!(origin, Origin::FixedInhabitant | Origin::Arena) {
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
                Origin::Arena => entity.insert(ArenaOpponent),
                _ => entity.insert(Fixed),
            };
        }
    })
}

/// The components of a planned monster.
fn bundle(glyph: char, m: Monster) -> MonsterBundle {
    (
        Species {
            id: m.species,
            form: m.form,
        },
        Glyph(glyph),
        Sleep {
            rating: m.sleep_rating,
            awake: m.awake,
        },
        Inventory(m.possessions),
        Awareness(m.awareness),
        CombatStats(m.stats),
        Disposition {
            hostile: m.hostile,
            wandering: m.wandering,
        },
    )
}
