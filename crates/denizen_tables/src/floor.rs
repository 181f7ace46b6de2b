//! A floor's plan: its placements drawn ([`crate::sample`]), then each unit placed on the
//! floor's squares under its placement rules, each creature rolled (hit points, sleep,
//! what it carries), each follower linked to its leader.

use crate::ledger::FloorState;
use crate::pick::row_at;
use crate::rules::{OddsError, check_depth, check_table};
use denizen_core::fair::below;
use denizen_core::regions::Regions;
use denizen_core::{FloorGrid, Generator, Origin, Plan, Spawn, Square, SquareSet, SquareTags};

use crate::bestiary::{Bestiary, GroupId, ItemRef, LootId, Place, SpeciesId, TableId};
use crate::context::{Conditions, Context};
use crate::draw::{Member, Sampler, Unit};
use crate::ledger::Spent;
use crate::ledger::UniqueLedger;
use crate::place::{Rule, Squares};
use crate::region;
use crate::sample::{FloorDraw, draw_floor};
use crate::walk::{self, Draw, Here};

/// What a floor is asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FloorTerms {
    /// Its depth: one of the floor's depths.
    pub depth: u32,
    /// The point least distances count from (the player), when there is one.
    pub point: Option<Square>,
    /// The table its placements draw from instead of the floor's (a dungeon of its own
    /// in the same bestiary); the floor's count, out-of-depth rule and placement rules
    /// stay.
    pub table: Option<TableId>,
    /// The context it is drawn in (night, winter, a difficulty): rows whose `when` fails
    /// in it are not eligible.
    pub context: Context,
    /// The floor's regions (a level editor's lairs and camps): each of a kind the floor's
    /// rules name is populated from its own draw, after the floor's own placements. Their
    /// kinds tag squares as the tag layer given has them ([`Regions::tag_into`]; the
    /// plugin's requests tag them).
    pub regions: Regions,
}

/// One creature of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denizen {
    /// Its species.
    pub species: SpeciesId,
    /// Hit points, rolled.
    pub hit_points: u32,
    /// Whether it starts asleep.
    pub asleep: bool,
    /// What it carries.
    pub carries: Option<ItemRef>,
    /// Whom it follows: its leader's place in the plan's spawns, and the group and
    /// follower kind (the role) it follows in.
    pub follows: Option<Following>,
    /// Whether its placement went out of depth.
    pub out_of_depth: bool,
    /// The id of the region it was drawn for; none for the floor's own placements.
    pub region: Option<String>,
}

/// A follower's link to its leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Following {
    /// The leader's place in [`Plan::spawns`].
    pub leader: usize,
    /// The group (a row's group, or the leader's escort).
    pub group: GroupId,
    /// The follower kind's place in the group (its role: [`Bestiary::role`]).
    pub kind: u16,
}

/// Why a drawn creature is not on the floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Shortfall {
    /// No square of the floor met its placement rules.
    NoSquare,
    /// No free square near its leader met its rules: fewer followers came.
    NoRoomNearLeader,
    /// Its leader found no square, so the group did not come.
    LeaderUnplaced,
}

/// A floor's plan, with what could not be placed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FloorPlan {
    /// The creatures and their squares.
    pub plan: Plan<Denizen>,
    /// The unique species placed: the game marks them alive in its ledger.
    pub uniques: Vec<SpeciesId>,
    /// Each creature drawn but not placed, and why (never placed anywhere else).
    pub shortfalls: Vec<(SpeciesId, Shortfall)>,
    /// How many placements the floor had.
    pub placements: u32,
    /// How many went out of depth.
    pub out_of_depth: u32,
    /// The floor's danger: the costs of every creature drawn, and of those placed.
    pub danger: Danger,
    /// What the floor's draw leaves for its wandering arrivals: its bags and the counts
    /// of its capped species and groups (empty for an arrival, whose state is the
    /// caller's).
    pub state: FloorState,
    /// Each region populated, in the order drawn ((kind, id) order). `placements`,
    /// `out_of_depth` and `danger.budget` above are the floor's own draw's; `danger`'s
    /// sums and `shortfalls` count the regions' too.
    pub regions: Vec<RegionPlan>,
}

/// What one region of a floor drew and placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionPlan {
    /// The region's id.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its depth: the floor's plus its `depth_offset`.
    pub depth: u32,
    /// The table it drew from.
    pub table: TableId,
    /// How many placements it had.
    pub placements: u32,
    /// How many went out of depth.
    pub out_of_depth: u32,
    /// Its danger: what it drew, what it placed, and the budget it rolled.
    pub danger: Danger,
    /// Each creature drawn for it but not placed, and why (never placed outside it).
    pub shortfalls: Vec<(SpeciesId, Shortfall)>,
}

/// A floor's danger: the sum of its creatures' costs ([`Species::cost`](crate::Species)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Danger {
    /// Every creature drawn, placed or not.
    pub drawn: u64,
    /// The creatures placed.
    pub placed: u64,
    /// The budget a budgeted floor rolled (what it spent is `drawn`); none for a floor
    /// with a count, and for a wandering arrival.
    pub budget: Option<u64>,
}

/// Why a floor cannot be planned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum RequestError {
    /// The depth is not one of the floor's, or the table not one of the bestiary's.
    #[error("{0}")]
    Draw(OddsError),
    /// The tag layer is not the size of the floor.
    #[error("the tag layer is {tags_width}x{tags_height}, the floor {width}x{height}")]
    TagsSize {
        /// The layer's width.
        tags_width: u32,
        /// The layer's height.
        tags_height: u32,
        /// The floor's width.
        width: u32,
        /// The floor's height.
        height: u32,
    },
}

/// Where a plan is made: the floor, its tags and the request's point.
#[derive(Clone, Copy)]
pub struct FloorSite<'f> {
    /// The floor.
    pub grid: &'f FloorGrid,
    /// Its tags.
    pub tags: &'f SquareTags,
    /// The point least distances count from.
    pub point: Option<Square>,
}

/// Whether a floor can be planned at `depth` on `site`: the depth is one of the floor's and
/// the tag layer is the floor's size (what [`plan_floor`] and [`plan_arrival`] check
/// first, for a caller that must refuse a request before anything changes).
pub fn check_site(b: &Bestiary, site: FloorSite<'_>, depth: u32) -> Result<(), RequestError> {
    check_depth(b, depth).map_err(RequestError::Draw)?;
    let (grid, tags) = (site.grid, site.tags);
    if (tags.width(), tags.height()) != (grid.width(), grid.height()) {
        return Err(RequestError::TagsSize {
            tags_width: tags.width(),
            tags_height: tags.height(),
            width: grid.width(),
            height: grid.height(),
        });
    }
    Ok(())
}

/// Whether the regions a floor's rules populate can be drawn at `depth` in `context`:
/// each one's fields (`depth_offset`, `table`, `count`) are ones its rule lets it set, and
/// say what its rule can draw (what [`plan_floor`] checks first).
pub fn check_regions(
    b: &Bestiary,
    regions: &Regions,
    depth: u32,
    context: &Context,
) -> Result<(), RequestError> {
    let c = resolve(b, context)?;
    region::resolve(b, regions, (depth, &c)).map_err(|e| RequestError::Draw(e.into()))?;
    Ok(())
}

/// Plans a floor at `request.depth` in `request.context`: the uniques `ledger` leaves
/// available may come. The floor's own placements are drawn and placed first, off the
/// squares of regions their rules keep closed; then each region a rule populates, in
/// (kind, id) order, drawn and placed inside its squares from its own stream.
/// Creatures carry the origin [`Origin::FLOOR_POPULATION`].
pub fn plan_floor(
    b: &Bestiary,
    grid: &FloorGrid,
    tags: &SquareTags,
    request: FloorTerms,
    ledger: &UniqueLedger,
    rng: &mut Generator,
) -> Result<FloorPlan, RequestError> {
    let site = FloorSite {
        grid,
        tags,
        point: request.point,
    };
    check_site(b, site, request.depth)?;
    let table = request.table.unwrap_or(b.floor().table);
    check_table(b, table).map_err(RequestError::Draw)?;
    let c = resolve(b, &request.context)?;
    let regions = region::resolve(b, &request.regions, (request.depth, &c))
        .map_err(|e| RequestError::Draw(e.into()))?;
    let (mut spent, mut state) = (Spent::new(b, ledger), FloorState::new());
    let origin = Origin::FLOOR_POPULATION;
    let general = Draw::floor(b, (table, request.depth));
    let drawn = draw_floor((b, c), general, (&mut spent, &mut state.bags), rng, None);
    let mut placing = Placing::new(b, site, &drawn);
    let closed: Vec<&SquareSet> = (regions.iter())
        .filter(|r| !r.rule.open)
        .map(|r| &r.region.squares)
        .collect();
    if !closed.is_empty() {
        placing.squares.close(&closed);
    }
    placing.place(&drawn, (&b.floor().place, origin), None, rng);
    for r in &regions {
        let mut rng = region::stream(rng, &r.region.id);
        let drawn = draw_floor(
            (b, c),
            r.draw(),
            (&mut spent, &mut state.bags),
            &mut rng,
            None,
        );
        placing.squares.only(&r.region.squares);
        placing.region(r, &drawn, origin, &mut rng);
    }
    spent.keep_counts(b, &mut state);
    let mut plan = placing.finish();
    plan.state = state;
    Ok(plan)
}

/// Plans one arrival from `table` at `depth` in `context` (a wandering arrival: no
/// out-of-depth branch), placed under `place`'s rules added to its own, with `origin`.
pub fn plan_arrival(
    b: &Bestiary,
    site: FloorSite<'_>,
    (table, depth): (TableId, u32),
    (place, origin): (&Place, Origin),
    (ledger, context, state): (&UniqueLedger, &Context, &mut FloorState),
    rng: &mut Generator,
) -> Result<FloorPlan, RequestError> {
    check_site(b, site, depth)?;
    let c = resolve(b, context)?;
    let mut spent = Spent::new(b, ledger);
    spent.start_from(b, state);
    let mut units = Vec::new();
    let here = Here { depth, deep: false };
    let mut sampler = Sampler::new((b, &c), rng, (&mut spent, &mut state.bags), &mut units);
    walk::table(&mut sampler, (), table, here);
    spent.keep_counts(b, state);
    let drawn = FloorDraw {
        units,
        placements: 1,
        out_of_depth: 0,
        budget: None,
    };
    let mut placing = Placing::new(b, site, &drawn);
    placing.place(&drawn, (place, origin), None, rng);
    Ok(placing.finish())
}

/// A request's context resolved against the bestiary's declaration.
fn resolve(b: &Bestiary, context: &Context) -> Result<Conditions, RequestError> {
    (b.context().resolve(context)).map_err(|e| RequestError::Draw(e.into()))
}

/// A plan being placed: the floor's squares as its creatures take them, and the plan.
struct Placing<'a, 'f> {
    b: &'a Bestiary,
    squares: Squares<'f>,
    out: FloorPlan,
}

impl<'a, 'f> Placing<'a, 'f> {
    /// A plan of the draw `first` (the floor's own, or an arrival's) on `site`.
    fn new(b: &'a Bestiary, site: FloorSite<'f>, first: &FloorDraw<'_>) -> Self {
        let creatures = first.units.iter().map(|u| 1 + u.followers.len()).sum();
        let out = FloorPlan {
            plan: Plan {
                spawns: Vec::with_capacity(creatures),
                tiles: Vec::new(),
            },
            placements: first.placements,
            out_of_depth: first.out_of_depth,
            danger: Danger {
                budget: first.budget.map(u64::from),
                ..Danger::default()
            },
            ..FloorPlan::default()
        };
        Self {
            b,
            squares: Squares::new(site.grid, site.tags, site.point),
            out,
        }
    }

    /// Places every unit drawn, in order, under `extra`'s rules added to each's own, with
    /// `origin`; each creature marked with `region`.
    fn place(
        &mut self,
        drawn: &FloorDraw<'_>,
        (extra, origin): (&Place, Origin),
        region: Option<&str>,
        rng: &mut Generator,
    ) {
        let mut rules = vec![None; self.b.species().len()];
        for unit in &drawn.units {
            let mut placer = Placer {
                b: self.b,
                squares: &mut self.squares,
                rules: &mut rules,
                out: &mut self.out,
                origin,
                region,
                rng: &mut *rng,
            };
            placer.unit(unit, extra);
        }
    }

    /// Places a region's draw inside it, and reports it.
    fn region(
        &mut self,
        r: &region::RegionDraw<'_>,
        drawn: &FloorDraw<'_>,
        origin: Origin,
        rng: &mut Generator,
    ) {
        let (short, placed) = (self.out.shortfalls.len(), self.out.danger.placed);
        let id = r.region.id.as_str();
        self.place(drawn, (&r.rule.rules.place, origin), Some(id), rng);
        let placed = self.out.danger.placed - placed;
        let shortfalls = self.out.shortfalls[short..].to_vec();
        self.out.regions.push(RegionPlan {
            id: id.to_owned(),
            kind: r.region.kind.clone(),
            depth: r.depth,
            table: r.table,
            placements: drawn.placements,
            out_of_depth: drawn.out_of_depth,
            danger: Danger {
                drawn: placed + cost(self.b, &shortfalls),
                placed,
                budget: drawn.budget.map(u64::from),
            },
            shortfalls,
        });
    }

    /// The plan, its danger drawn summed.
    fn finish(mut self) -> FloorPlan {
        self.out.danger.drawn = self.out.danger.placed + cost(self.b, &self.out.shortfalls);
        self.out
    }
}

/// The summed cost of creatures not placed.
fn cost(b: &Bestiary, shortfalls: &[(SpeciesId, Shortfall)]) -> u64 {
    (shortfalls.iter())
        .map(|&(s, _)| u64::from(b.species_of(s).cost))
        .sum()
}

/// One unit's placing.
struct Placer<'a, 'f> {
    b: &'a Bestiary,
    squares: &'a mut Squares<'f>,
    /// Per species: its rules with the floor's (or the arrival's), resolved once a plan.
    rules: &'a mut [Option<Rule>],
    out: &'a mut FloorPlan,
    origin: Origin,
    /// The region it is placed in, when it is.
    region: Option<&'a str>,
    rng: &'a mut Generator,
}

impl Placer<'_, '_> {
    fn unit(&mut self, unit: &Unit<'_>, extra: &Place) {
        let out_of_depth = unit.out_of_depth;
        let leader = unit.leader.species;
        let rule = self.rule(unit, &unit.leader, extra);
        let Some(at) = self.squares.anywhere(rule, self.rng) else {
            self.out.shortfalls.push((leader, Shortfall::NoSquare));
            for f in &unit.followers {
                self.out
                    .shortfalls
                    .push((f.species, Shortfall::LeaderUnplaced));
            }
            return;
        };
        let leader_index = self.spawn(leader, at, None, out_of_depth);
        if !unit.followers.is_empty() {
            self.squares.near(at, unit.radius);
        }
        for f in &unit.followers {
            let rule = self.rule(unit, f, extra);
            match self.squares.nearest(rule) {
                Some(at) => {
                    let follows = f.follows.map(|(group, kind)| Following {
                        leader: leader_index,
                        group,
                        kind,
                    });
                    self.spawn(f.species, at, follows, out_of_depth);
                }
                None => self
                    .out
                    .shortfalls
                    .push((f.species, Shortfall::NoRoomNearLeader)),
            }
        }
    }

    /// The placement rules of a unit's member: its species' and the floor's (or the
    /// arrival's), then the rows' that drew the unit and its follower kind's.
    fn rule(&mut self, unit: &Unit<'_>, m: &Member<'_>, extra: &Place) -> Rule {
        let s = m.species.index();
        let base = match self.rules[s] {
            Some(rule) => rule,
            None => {
                let species = &self.b.species_of(m.species).place;
                let rule = self.squares.rule([species, extra]);
                self.rules[s] = Some(rule);
                rule
            }
        };
        unit.rows
            .iter()
            .copied()
            .chain(m.place)
            .filter(|p| !p.is_empty())
            .fold(base, |rule, place| self.squares.and(rule, place))
    }

    /// A creature rolled and placed; its place in the plan.
    fn spawn(
        &mut self,
        s: SpeciesId,
        at: Square,
        follows: Option<Following>,
        out_of_depth: bool,
    ) -> usize {
        self.squares.take(at);
        let species = self.b.species_of(s);
        let hit_points = species.hit_points.roll(self.rng);
        let asleep = species.asleep.roll(self.rng);
        let carries = species
            .possessions
            .and_then(|(loot, chance)| chance.roll(self.rng).then(|| item(self.b, loot, self.rng)));
        if species.unique {
            self.out.uniques.push(s);
        }
        self.out.danger.placed += u64::from(species.cost);
        let creature = Denizen {
            species: s,
            hit_points,
            asleep,
            carries,
            follows,
            out_of_depth,
            region: self.region.map(str::to_owned),
        };
        self.out.plan.spawns.push(Spawn {
            at,
            origin: self.origin,
            creature,
        });
        self.out.plan.spawns.len() - 1
    }
}

/// One item of a loot table, by weight.
fn item(b: &Bestiary, loot: LootId, rng: &mut Generator) -> ItemRef {
    let items: Vec<(usize, u64)> = b
        .loot(loot)
        .items
        .iter()
        .enumerate()
        .map(|(i, (_, w))| (i, u64::from(*w)))
        .collect();
    let total: u64 = items.iter().map(|&(_, w)| w).sum();
    // Weights are 1 or more (checked at load), so the total is too and a row is found.
    let index = row_at(&items, u64::from(below(rng, total as u32).0)).unwrap_or(0);
    ItemRef {
        loot,
        index: index as u32,
    }
}
