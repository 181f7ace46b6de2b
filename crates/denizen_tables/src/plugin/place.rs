//! A floor through the pipeline: the request validated against the bestiary, the floor
//! planned by the rules, the plan's creatures spawned through the one apply step with their
//! followers linked to their leaders.

use std::sync::Arc;

use bevy_ecs::prelude::*;
use denizen_bevy::apply::apply;
use denizen_bevy::clock::GameClock;
use denizen_bevy::floor::{FloorId, FloorMap, Glyph};
use denizen_bevy::pipeline::{FloorRequest, FloorStreams};
use denizen_core::{FloorGrid, SquareTags};

use super::components::{
    Asleep, CreatureData, CreatureTags, FollowerRole, Follows, HomeRegion, OutOfDepth, Possession,
    TablesCreature, TablesHitPoints, Unique,
};
use super::messages::{
    PopulatedRegion, TablesFloorPopulated, TablesFloorRefusal, TablesFloorRequested, Unplaced,
};
use super::resources::{
    MAX_TAG_AREAS, TablesContext, TablesFloor, TablesFloors, TablesRuleset, TablesUniques, TagArea,
    layer,
};
use crate::{
    Bestiary, Context, ContextError, Denizen, FloorPlan, FloorSite, RequestError, TableId,
    check_regions, check_site, has_eligible_row, plan_floor,
};

/// The stream a floor's population draws.
pub(super) const FLOOR_STREAM: &str = "tables_floor";

/// What validation resolved: the bestiary, the table named, the floor's tag layer and the
/// game's context, checked against the bestiary. Planning reads these rather than the
/// resources they came from, so an observer of the old floor's end cannot make what was
/// checked stale (it reads the map, held aside meanwhile, and the uniques' ledger, which
/// changes what is drawn, never whether the floor can be).
pub struct ValidFloor {
    rules: Arc<Bestiary>,
    table: Option<TableId>,
    tags: SquareTags,
    context: Context,
    /// The request as served, when it named a level of a map asset: the level's map,
    /// tags, regions and start in it.
    resolved: Option<Box<TablesFloorRequested>>,
}

/// A plan with the bestiary it was made from: its ids are that bestiary's, whatever an
/// observer of the old floor's end (or a reload) puts in the world meanwhile.
pub struct Planned {
    pub(super) rules: Arc<Bestiary>,
    pub(super) plan: FloorPlan,
    /// The request as served, when it named a level of a map asset.
    pub(super) resolved: Option<Box<TablesFloorRequested>>,
}

impl FloorRequest for TablesFloorRequested {
    type Rules = TablesRuleset;
    type Valid = ValidFloor;
    type Plan = Planned;
    type Populated = TablesFloorPopulated;
    type Refusal = TablesFloorRefusal;

    fn validate(&self, world: &World) -> Result<(FloorId, ValidFloor), TablesFloorRefusal> {
        let resolved = self.on_map_asset(world)?.map(Box::new);
        let request = resolved.as_deref().unwrap_or(self);
        let (floor, mut valid) = request.check(world)?;
        valid.resolved = resolved;
        Ok((floor, valid))
    }

    fn plan(&self, world: &World, valid: ValidFloor, streams: &mut FloorStreams<'_>) -> Planned {
        let request = valid.resolved.as_deref().unwrap_or(self);
        let grid = request.drawn_on(world);
        let ledger = &world.resource::<TablesUniques>().0;
        let terms = crate::FloorTerms {
            depth: request.depth,
            point: request.player,
            table: valid.table,
            context: valid.context,
            regions: request.regions.clone(),
        };
        let mut rng = streams.draw(FLOOR_STREAM);
        // Validation ran every check planning runs (the site, the table, the context) on
        // the same bestiary, map, tags and context: planning cannot refuse.
        let plan = plan_floor(&valid.rules, grid, &valid.tags, terms, ledger, &mut rng);
        debug_assert!(plan.is_ok(), "validation ran planning's checks: {plan:?}");
        let plan = plan.unwrap_or_default();
        Planned {
            rules: valid.rules,
            plan,
            resolved: valid.resolved,
        }
    }

    fn floor_map(&self, plan: &mut Planned) -> Option<FloorGrid> {
        plan.resolved.as_deref().unwrap_or(self).map.clone()
    }

    fn apply(
        &self,
        world: &mut World,
        floor: &FloorId,
        mut planned: Planned,
    ) -> TablesFloorPopulated {
        let resolved = planned.resolved.take();
        let request = resolved.as_deref().unwrap_or(self);
        request.populate(world, floor, planned)
    }
}

impl TablesFloorRequested {
    /// Every check of a request planning relies on, on the map it is drawn on.
    fn check(&self, world: &World) -> Result<(FloorId, ValidFloor), TablesFloorRefusal> {
        if self.tags.len() > MAX_TAG_AREAS {
            return Err(TablesFloorRefusal::TooManyAreas(self.tags.len()));
        }
        let map = self.drawn_on(world);
        let mut tags = layer(map, &self.tags).map_err(TablesFloorRefusal::Tags)?;
        // A region's kind tags its squares, however the request brought the region.
        (self.regions.tag_into(&mut tags)).map_err(TablesFloorRefusal::Tags)?;
        let rules = world.resource::<TablesRuleset>().0.clone();
        let rules = match &self.branch {
            Some(key) => {
                let id = (rules.branch_by_key(key))
                    .ok_or_else(|| TablesFloorRefusal::UnknownBranch(key.clone()))?;
                Arc::new(rules.in_branch(Some(id)))
            }
            None => rules,
        };
        let site = FloorSite {
            grid: map,
            tags: &tags,
            point: self.player,
        };
        check_site(&rules, site, self.depth).map_err(TablesFloorRefusal::Request)?;
        let context = world.resource::<TablesContext>().0.clone();
        (rules.context().check(&context))
            .map_err(|e| TablesFloorRefusal::Request(RequestError::Draw(e.into())))?;
        let table = self
            .table
            .as_deref()
            .map(|key| named_table(&rules, key, (self.depth, &context)));
        let table = table.transpose()?;
        check_regions(&rules, &self.regions, self.depth, &context)
            .map_err(TablesFloorRefusal::Request)?;
        let valid = ValidFloor {
            rules,
            table,
            tags,
            context,
            resolved: None,
        };
        Ok((self.floor(), valid))
    }

    /// The floor populated: its record kept, its creatures spawned, the answer.
    fn populate(
        &self,
        world: &mut World,
        floor: &FloorId,
        planned: Planned,
    ) -> TablesFloorPopulated {
        // The areas as they lie on the floor: a record (and a save) holds no square off it.
        let grid = &world.resource::<FloorMap>().0;
        let tags = self
            .tags
            .iter()
            .map(|area| TagArea {
                name: area.name.clone(),
                squares: area.squares.clipped(grid.width(), grid.height()),
            })
            .collect();
        let mut record = TablesFloor {
            tags,
            player: self.player,
            branch: self.branch.clone(),
            ..TablesFloor::default()
        };
        record.keep_state(&planned.rules, &planned.plan.state);
        record.seen(world.resource::<GameClock>());
        let mut floors = world.resource_mut::<TablesFloors>();
        floors.0.insert(floor.clone(), record);
        let (placements, out_of_depth) = (planned.plan.placements, planned.plan.out_of_depth);
        let danger = planned.plan.danger;
        let b = &*planned.rules;
        let regions = planned.plan.regions.iter();
        let regions = regions.map(|r| PopulatedRegion {
            id: r.id.clone(),
            kind: r.kind.clone(),
            depth: r.depth,
            table: b.table(r.table).key.clone(),
            placements: r.placements,
            out_of_depth: r.out_of_depth,
            danger: r.danger,
            unplaced: unplaced(b, &r.shortfalls),
        });
        let regions = regions.collect();
        let (placed, unplaced) = spawn_plan(world, planned);
        TablesFloorPopulated {
            placed,
            unplaced,
            placements,
            out_of_depth,
            danger,
            regions,
        }
    }
}

impl TablesFloorRequested {
    /// The request as served when it names a level of a map asset (features `maps` and
    /// `assets`): [`on_level`](Self::on_level) of that level, with this request's table,
    /// branch and tag areas, and its player and regions when it gives them. None when it
    /// names no map asset.
    #[cfg(all(feature = "maps", feature = "assets"))]
    fn on_map_asset(&self, world: &World) -> Result<Option<Self>, TablesFloorRefusal> {
        use denizen_bevy::assets::bevy_asset::{AssetServer, Assets, LoadState};
        use denizen_bevy::assets::maps::EditorMap;
        let Some(named) = &self.map_level else {
            return Ok(None);
        };
        let maps = world.get_resource::<Assets<EditorMap>>();
        let Some(map) = maps.and_then(|maps| maps.get(&named.map)) else {
            let server = world.get_resource::<AssetServer>();
            return Err(match server.map(|s| s.load_state(&named.map)) {
                Some(LoadState::Failed(e)) => TablesFloorRefusal::MapRefused(e.to_string()),
                Some(LoadState::Loading) => TablesFloorRefusal::MapLoading,
                _ => TablesFloorRefusal::MapNotLoaded,
            });
        };
        let level = match named.level.as_deref() {
            Some(name) => map.level(Some(name)),
            None => map.at_depth(self.depth).or_else(|| map.level(None)),
        };
        let level = level.ok_or_else(|| {
            let names = map.levels().iter().map(|l| l.name.clone()).collect();
            TablesFloorRefusal::NoSuchLevel {
                map: map.path().to_owned(),
                level: named.level.clone().unwrap_or_default(),
                levels: names,
            }
        })?;
        let mut served = Self::on_level(self.location.clone(), self.depth, level);
        served.table = self.table.clone();
        served.branch = self.branch.clone();
        served.tags.extend(self.tags.iter().cloned());
        served.player = self.player.or(served.player);
        if !self.regions.is_empty() {
            served.regions = self.regions.clone();
        }
        Ok(Some(served))
    }

    /// Without map assets, a request names none.
    #[cfg(not(all(feature = "maps", feature = "assets")))]
    fn on_map_asset(&self, _world: &World) -> Result<Option<Self>, TablesFloorRefusal> {
        Ok(None)
    }

    /// The map the floor is drawn on: the request's, or the host's `FloorMap`.
    fn drawn_on<'w>(&'w self, world: &'w World) -> &'w FloorGrid {
        self.map.as_ref().unwrap_or(&world.resource::<FloorMap>().0)
    }
}

/// The table `key` names, if it has a row at `depth` in the game's context (the floor's
/// own table has one at every floor depth in the default context: the load's lint sees
/// to it, and names the contexts that leave it none).
fn named_table(
    b: &Bestiary,
    key: &str,
    (depth, context): (u32, &Context),
) -> Result<TableId, TablesFloorRefusal> {
    let table = b
        .table_by_key(key)
        .ok_or_else(|| TablesFloorRefusal::UnknownTable(key.to_owned()))?;
    let refused = |e: ContextError| TablesFloorRefusal::Request(RequestError::Draw(e.into()));
    if !has_eligible_row(b, table, depth, context).map_err(refused)? {
        return Err(TablesFloorRefusal::NothingToDraw {
            table: key.to_owned(),
            depth,
        });
    }
    Ok(table)
}

/// A creature's components every creature has, besides what the apply step adds.
type CreatureBundle = (TablesCreature, Glyph, TablesHitPoints, CreatureTags);

/// Spawns a plan (a floor's or an arrival's) through the one apply step: one batch of the
/// creatures, then the components only some have (data, sleep, possessions, unique identity,
/// out of depth, a follower's role) and each follower's link to its leader, all before any
/// `MonsterSpawned`. Marks the uniques placed alive. Returns the creatures in plan order
/// and what was drawn but not placed.
pub(super) fn spawn_plan(world: &mut World, planned: Planned) -> (Vec<Entity>, Vec<Unplaced>) {
    let Planned { rules, plan, .. } = planned;
    let b = &*rules;
    let mut ledger = world.resource_mut::<TablesUniques>();
    for &unique in &plan.uniques {
        ledger.0.alive(&b.species_of(unique).key);
    }
    let unplaced = unplaced(b, &plan.shortfalls);
    let kinds: Vec<(&str, &str)> = (plan.regions.iter())
        .map(|r| (r.id.as_str(), r.kind.as_str()))
        .collect();
    let placed = apply(world, plan.plan, |batches, spawns| {
        let mut rare = Rare {
            kinds,
            ..Rare::default()
        };
        let creatures: Vec<_> = spawns
            .into_iter()
            .enumerate()
            .map(|(i, spawn)| {
                rare.note(b, i, &spawn.creature);
                (i, spawn.at, bundle(b, &spawn.creature))
            })
            .collect();
        let ids: Vec<usize> = (0..creatures.len()).collect();
        batches.spawn(creatures);
        let entities: Vec<Entity> = ids.into_iter().map(|i| batches.entity(i)).collect();
        rare.insert(batches.world(), &entities);
        let links = rare
            .follows
            .iter()
            .map(|&(f, l)| (entities[f], entities[l]));
        batches.link::<Follows>(links);
    });
    (placed, unplaced)
}

/// Creatures drawn but not placed, by species key.
fn unplaced(b: &Bestiary, shortfalls: &[(crate::SpeciesId, crate::Shortfall)]) -> Vec<Unplaced> {
    (shortfalls.iter())
        .map(|&(species, why)| Unplaced {
            species: b.species_of(species).key.clone(),
            why,
        })
        .collect()
}

/// The components every creature has.
fn bundle(b: &Bestiary, creature: &Denizen) -> CreatureBundle {
    let species = b.species_of(creature.species);
    (
        TablesCreature {
            species: species.key.clone(),
        },
        Glyph(species.glyph),
        TablesHitPoints(creature.hit_points),
        CreatureTags(species.tags.clone()),
    )
}

/// The components only some creatures of a plan have, by plan position, each inserted in
/// one batch.
#[derive(Default)]
struct Rare<'p> {
    /// The plan's regions: each id and kind.
    kinds: Vec<(&'p str, &'p str)>,
    homes: Vec<(usize, HomeRegion)>,
    asleep: Vec<usize>,
    data: Vec<(usize, CreatureData)>,
    carries: Vec<(usize, Possession)>,
    unique: Vec<(usize, Unique)>,
    deep: Vec<usize>,
    roles: Vec<(usize, FollowerRole)>,
    /// Each follower and its leader.
    follows: Vec<(usize, usize)>,
}

impl Rare<'_> {
    /// Notes what creature `i` has beyond the common bundle.
    fn note(&mut self, b: &Bestiary, i: usize, creature: &Denizen) {
        let species = b.species_of(creature.species);
        if creature.asleep {
            self.asleep.push(i);
        }
        if !species.data.is_empty() {
            self.data.push((i, CreatureData(species.data.clone())));
        }
        if let Some(item) = creature.carries {
            let carries = Possession {
                loot: b.loot(item.loot).key.clone(),
                item: b.item_name(item).to_owned(),
            };
            self.carries.push((i, carries));
        }
        if species.unique {
            self.unique.push((i, Unique(species.key.clone())));
        }
        if creature.out_of_depth {
            self.deep.push(i);
        }
        let kind = |id: &str| self.kinds.iter().find(|(i, _)| *i == id).map(|(_, k)| *k);
        if let Some(id) = &creature.region {
            let home = HomeRegion {
                id: id.clone(),
                kind: kind(id).unwrap_or_default().to_owned(),
            };
            self.homes.push((i, home));
        }
        if let Some(follows) = creature.follows {
            let role = FollowerRole {
                group: b.group(follows.group).key.clone(),
                role: b.role(follows.group, follows.kind).to_owned(),
            };
            self.roles.push((i, role));
            self.follows.push((i, follows.leader));
        }
    }

    /// Inserts the noted components on the plan's entities. One an observer of the spawns
    /// despawned meanwhile is skipped (as [`Batches::link`](denizen_bevy::apply::Batches::link)
    /// skips it).
    fn insert(&mut self, world: &mut World, entities: &[Entity]) {
        let marks = |list: &[usize]| list.iter().map(|&i| (i, ())).collect::<Vec<_>>();
        insert(world, entities, marks(&self.asleep), |()| Asleep);
        insert(world, entities, marks(&self.deep), |()| OutOfDepth);
        insert(world, entities, std::mem::take(&mut self.data), |c| c);
        insert(world, entities, std::mem::take(&mut self.carries), |c| c);
        insert(world, entities, std::mem::take(&mut self.unique), |c| c);
        insert(world, entities, std::mem::take(&mut self.roles), |c| c);
        insert(world, entities, std::mem::take(&mut self.homes), |c| c);
    }
}

/// Inserts a component on the plan's entities at the positions listed, in one batch.
fn insert<T, C: Component>(
    world: &mut World,
    entities: &[Entity],
    list: Vec<(usize, T)>,
    make: impl Fn(T) -> C,
) {
    let batch: Vec<(Entity, C)> = list
        .into_iter()
        .map(|(i, value)| (entities[i], make(value)))
        .collect();
    // An entity despawned by an observer of the spawns is left out; the rest are in.
    let _ = world.try_insert_batch(batch);
}
