//! The game: a stack of floors from three rule sets, the player walking them, and the
//! monsters the plugins placed waking, closing in and fighting. The game's own rules here
//! (waking, walking, a bump attack) are deliberately simple: the population is the point.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::angband::Terrain;
use denizen::bevy::save::{self, SaveWithDenizen};
use denizen::floor::Rect;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// One floor of the dungeon's stack, from the top down.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    /// An Omega dungeon's floor, kept as it was left.
    Omega(&'static str, u32),
    /// An Angband level, made anew on every entry as 2.7.9 makes it.
    Angband(u32),
    /// A Captive base map with its encounter groups, kept as it was left.
    Captive(u32),
    /// A floor of the game's own bestiary (the tables' starter), made anew on every entry:
    /// its living uniques go back to the pool when it is left.
    Tables(&'static str, u32),
    /// A level drawn in Tiled (the project's marsh), populated by the tables' starter:
    /// its lair and camp from their own tables, inside them; made anew on every entry.
    Drawn(&'static str, u32),
}

/// The dungeon, top to bottom: two floors of Omega's sewers, an Angband level, a Captive
/// base, the drowned forest of the tables' starter bestiary, and the marsh drawn in Tiled.
pub const PLACES: [Place; 6] = [
    Place::Omega("sewers", 1),
    Place::Omega("sewers", 2),
    Place::Angband(5),
    Place::Captive(4),
    Place::Tables("drowned forest", 8),
    Place::Drawn("the marsh", 5),
];

impl Place {
    /// The place as the status line names it.
    pub fn title(self) -> String {
        match self {
            Place::Omega(location, depth) => format!("Omega: {location} {depth}"),
            Place::Angband(depth) => format!("Angband: level {depth}"),
            Place::Captive(map) => format!("Captive: base map {map}"),
            Place::Tables(location, depth) => format!("Tables: {location} {depth}"),
            Place::Drawn(location, depth) => format!("Tables: {location} {depth} (drawn in Tiled)"),
        }
    }
}

/// How the game is set up.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The world seed.
    pub seed: u64,
    /// Angband's autoscummer.
    pub autoscum: Autoscum,
    /// Where `S` saves and `L` loads.
    pub save_file: PathBuf,
}

/// The player: the game's own state, saved beside denizen's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The square.
    pub at: Square,
    /// Hit points.
    pub hp: i32,
    /// Which of [`PLACES`] the player is on.
    pub place: usize,
    /// Turns taken.
    pub turn: u64,
    /// Traps the player has found, on the current Angband level.
    pub traps: Vec<Square>,
    /// The floor each place kept was given, once visited.
    pub floors: BTreeMap<usize, FloorId>,
}

/// The player's most hit points.
pub const MAX_HP: i32 = 120;

/// A save: denizen's part and the player's, both plain RON.
#[derive(Serialize, Deserialize)]
struct SaveFile {
    /// The world seed the game was started with (the game's own dice follow it).
    seed: u64,
    denizen: Box<ron::value::RawValue>,
    player: Player,
}

/// Damage a monster has taken: the game's own component, saved with denizen's creatures.
#[derive(Component, bevy_reflect::Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component)]
struct Wounds(i32);

/// A creature on the current floor as the game shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The entity.
    pub entity: Entity,
    /// Its square.
    pub at: Square,
    /// The character drawn for it.
    pub glyph: char,
    /// Its name.
    pub name: String,
    /// Its colour, as a name the view knows.
    pub colour: &'static str,
    /// Whether it sleeps.
    pub asleep: bool,
    /// What it carries (a Captive group's bearer, a tables creature), if anything.
    pub carries: Option<String>,
    /// Its pack: the leader it follows, or how many follow it.
    pub pack: Option<String>,
}

/// The game: the app with denizen's plugins, the player and the message log.
pub struct Game {
    app: App,
    settings: Settings,
    /// The player.
    pub player: Player,
    /// Messages, oldest first.
    pub log: Vec<String>,
    /// Whether the help screen is showing.
    pub help: bool,
    /// Whether the game has ended (the player quit).
    pub over: bool,
}

/// Game minutes pass at ten game turns each; a step is one minute.
const TURNS_PER_STEP: u64 = 10;

impl Game {
    /// A new game on the top floor.
    pub fn new(settings: Settings) -> Self {
        let mut game = Self {
            app: app(&settings),
            settings,
            player: Player {
                at: Square { x: 0, y: 0 },
                hp: MAX_HP,
                place: 0,
                turn: 0,
                traps: Vec::new(),
                floors: BTreeMap::new(),
            },
            log: Vec::new(),
            help: false,
            over: false,
        };
        game.say("You enter the sewers. Press ? for help.".into());
        game.enter(0, true);
        game
    }

    /// The place the player is on.
    pub fn place(&self) -> Place {
        PLACES[self.player.place]
    }

    /// The world, for the view.
    pub fn world(&self) -> &World {
        self.app.world()
    }

    fn say(&mut self, line: String) {
        self.log.push(line);
    }

    /// Carries out one action, with the turns it takes.
    pub fn act(&mut self, action: crate::keys::Action) {
        use crate::keys::Action;
        if self.help {
            self.help = false;
            return;
        }
        match action {
            Action::Move(dx, dy) => {
                self.step(dx, dy);
            }
            Action::Down => self.travel(true),
            Action::Up => self.travel(false),
            Action::Wait => self.turn(),
            Action::Rest => self.rest(),
            Action::Summon => self.summon(),
            Action::Save => self.save(),
            Action::Load => self.load(),
            Action::Help => self.help = true,
            Action::Quit => self.over = true,
        }
    }

    /// A step by `(dx, dy)`, or an attack on the monster there. Whether the player moved.
    fn step(&mut self, dx: i32, dy: i32) -> bool {
        let Some(to) = offset(self.player.at, dx, dy) else {
            return false;
        };
        if let Some(monster) = self.creatures().into_iter().find(|c| c.at == to) {
            self.attack(&monster);
            self.turn();
            return false;
        }
        if !self.passable(to) {
            return false;
        }
        self.player.at = to;
        self.turn();
        self.spring_trap();
        true
    }

    /// Walks toward the down (or up) stairs, one turn a step, and takes them on arrival;
    /// stops when a monster stands in the way or something happens.
    fn travel(&mut self, down: bool) {
        for _ in 0..500 {
            if self.on_stairs(down) {
                return self.take_stairs(down);
            }
            let Some((dx, dy)) = self.path_to_stairs(down) else {
                self.say("There is no way to those stairs.".into());
                return;
            };
            let (log, place) = (self.log.len(), self.player.place);
            let moved = self.step(dx, dy);
            if !moved || self.log.len() != log || self.player.place != place {
                return;
            }
        }
    }

    /// Rests up to an hour, until something happens.
    fn rest(&mut self) {
        let log = self.log.len();
        for _ in 0..60 {
            self.turn();
            self.player.hp = (self.player.hp + 1).min(MAX_HP);
            if self.log.len() != log {
                return;
            }
        }
        self.say("You rest for an hour.".into());
    }

    /// Reads a scroll of summoning: on an Omega floor a friend answers.
    fn summon(&mut self) {
        if !matches!(self.place(), Place::Omega(..)) {
            self.say("Nothing answers the scroll here.".into());
            return self.turn();
        }
        let request =
            OmegaSummonRequested::new(self.player.turn, self.player.at, SummonKind::Ordinary);
        self.app.world_mut().write_message(request.friendly());
        self.turn();
    }

    /// One turn: the clock moves, the monsters act, the plugins run, and their answers
    /// become messages.
    fn turn(&mut self) {
        // A loaded game may be at any turn: the count stops at its largest.
        self.player.turn = self.player.turn.saturating_add(1);
        if self.player.turn.is_multiple_of(4) {
            self.player.hp = (self.player.hp + 1).min(MAX_HP);
        }
        self.app
            .world_mut()
            .resource_mut::<GameClock>()
            .advance_turns(TURNS_PER_STEP);
        self.monsters_act();
        // Wanderers on a tables floor keep their distance from where the player is now.
        let (world, at) = (self.app.world_mut(), self.player.at);
        let floor = world.resource::<CurrentFloor>().0.clone();
        if let Some(record) = world.resource_mut::<TablesFloors>().0.get_mut(&floor) {
            record.player = Some(at);
        }
        self.update();
    }

    /// Runs the plugins once and reads what they answered.
    fn update(&mut self) {
        self.app.update();
        let world = self.app.world();
        let mut lines = Vec::new();
        for check in current::<OmegaWanderingChecked>(world) {
            if let Some(arrival) = check.arrival() {
                lines.push(format!("{} wanders in.", self.named(arrival.entity)));
            }
        }
        for check in current::<TablesWandered>(world) {
            if let Some(&leader) = check.arrival().and_then(|a| a.entities.first()) {
                lines.push(format!("{} wanders in.", self.named(leader)));
            }
        }
        for answer in current::<OmegaSummoned>(world) {
            lines.push(match answer.outcome {
                Ok(summon) => format!("{} answers the summons.", self.named(summon.entity)),
                Err(why) => format!("Nothing answers the summons ({why:?})."),
            });
        }
        for feeling in current::<AngbandLevelFeeling>(world) {
            lines.push(feeling.message().to_owned());
        }
        for dropped in current::<CaptiveCarryDropped>(world) {
            lines.push(format!("It drops its {}.", dropped.carry));
        }
        let sprung: Vec<AngbandSprung> = current::<AngbandTrapSprung>(world)
            .iter()
            .filter_map(|answer| answer.arrival().cloned())
            .collect();
        for trap in &sprung {
            lines.push(format!("You set off {}!", trap.name));
        }
        self.log.extend(lines);
        for trap in sprung {
            self.suffer(&trap);
        }
    }

    /// What a sprung trap does to the player.
    fn suffer(&mut self, trap: &AngbandSprung) {
        let outcome = &trap.outcome;
        if outcome.damage > 0 {
            self.player.hp -= outcome.damage;
            self.say(format!("It hurts: {} damage.", outcome.damage));
        }
        if !trap.summoned.is_empty() {
            self.say(format!(
                "{} monsters appear around you!",
                trap.summoned.len()
            ));
        }
        if outcome.falls && self.player.place + 1 < PLACES.len() {
            self.say("You fall through a trap door!".into());
            self.enter(self.player.place + 1, true);
        }
        self.player.hp = self.player.hp.max(1);
    }

    /// Springs a hidden Angband trap under the player.
    fn spring_trap(&mut self) {
        let at = self.player.at;
        let hidden = self
            .world()
            .get_resource::<AngbandTerrain>()
            .and_then(|t| t.at(at))
            == Some(Terrain::Trap);
        if matches!(self.place(), Place::Angband(_)) && hidden && !self.player.traps.contains(&at) {
            self.player.traps.push(at);
            let request = AngbandTrapSpringRequested { at, armour: 10 };
            self.app.world_mut().write_message(request);
            self.update();
        }
    }

    /// The player's bump attack.
    fn attack(&mut self, monster: &Seen) {
        let mut rng = self.dice();
        let damage = 3 + (rng.next_u32() % 8) as i32;
        let world = self.app.world_mut();
        let hp = hit_points(world, monster.entity);
        let mut entity = world.entity_mut(monster.entity);
        let wounds = entity.get::<Wounds>().copied().unwrap_or_default().0 + damage;
        if wounds < hp {
            entity.insert(Wounds(wounds));
            self.say(format!("You hit {}.", article(&monster.name, "the")));
            return;
        }
        if let Some(race) = world.get::<AngbandMonster>(monster.entity).map(|m| m.race) {
            world.resource_mut::<AngbandUniques>().0.kill(race);
        }
        if let Some(unique) = world.get::<Unique>(monster.entity).cloned() {
            world.write_message(TablesUniqueKilled { unique: unique.0 });
        }
        world.despawn(monster.entity);
        self.say(format!("You kill {}.", article(&monster.name, "the")));
    }

    /// The awake monsters close in and strike; sleepers near the player may wake.
    fn monsters_act(&mut self) {
        let mut rng = self.dice();
        let player = self.player.at;
        for monster in self.creatures() {
            let distance = chebyshev(monster.at, player);
            if monster.asleep {
                if self.wakes(monster.entity, distance, &mut rng) {
                    self.say(format!("{} wakes up.", article(&monster.name, "The")));
                }
                continue;
            }
            if distance == 1 {
                let damage = 1 + (rng.next_u32() % 3) as i32;
                self.player.hp = (self.player.hp - damage).max(1);
                self.say(format!("{} hits you.", article(&monster.name, "The")));
            } else if let Some(goal) = self.goal(&monster, distance) {
                let to = Square {
                    x: step_toward(monster.at.x, goal.x),
                    y: step_toward(monster.at.y, goal.y),
                };
                let map = &self.world().resource::<FloorMap>().0;
                if to != player && map.is_acceptable(to) {
                    self.app
                        .world_mut()
                        .entity_mut(monster.entity)
                        .insert(GridPos { x: to.x, y: to.y });
                }
            }
        }
    }

    /// Where an awake monster `distance` from the player heads: the player, within eight
    /// squares; else a follower keeps within two squares of its leader, so a pack moves
    /// together.
    fn goal(&self, monster: &Seen, distance: u32) -> Option<Square> {
        if distance <= 8 {
            return Some(self.player.at);
        }
        let world = self.world();
        let leader = world.get::<Follows>(monster.entity)?.0;
        let at = world.get::<GridPos>(leader)?;
        let at = Square { x: at.x, y: at.y };
        (chebyshev(monster.at, at) > 2).then_some(at)
    }

    /// Whether a sleeping monster `distance` away wakes this turn: Omega's sleepers
    /// within six squares one time in three, Angband's as their sleep counter runs out
    /// (faster the nearer the player).
    fn wakes(&mut self, entity: Entity, distance: u32, rng: &mut impl Rng) -> bool {
        let world = self.app.world_mut();
        if let Some(mut sleep) = world.get_mut::<Sleep>(entity) {
            if distance <= 6 && rng.next_u32().is_multiple_of(3) {
                sleep.awake = true;
                return true;
            }
        } else if let Some(mut counter) = world.get_mut::<SleepCounter>(entity)
            && distance <= 10
        {
            counter.0 = (counter.0 - 10 * (11 - distance as i32)).max(0);
            return counter.0 == 0;
        } else if world.get::<Asleep>(entity).is_some()
            && distance <= 6
            && rng.next_u32().is_multiple_of(3)
        {
            world.entity_mut(entity).remove::<Asleep>();
            return true;
        }
        false
    }

    /// The stream of the game's own dice for this turn: a function of the seed and the
    /// turn, so a loaded game rolls what the saved one would have.
    fn dice(&self) -> denizen::rng::Generator {
        WorldSeed(self.settings.seed).stream(StreamPurpose::new("play").with(self.player.turn))
    }

    /// Whether the player can stand on `at`.
    fn passable(&self, at: Square) -> bool {
        let map = &self.world().resource::<FloorMap>().0;
        at.x < map.width()
            && at.y < map.height()
            && matches!(
                map.tile(at),
                Tile::Floor
                    | Tile::Door
                    | Tile::Secret
                    | Tile::Stairs
                    | Tile::Water
                    | denizen::captive::tile::FIRE
                    | denizen::captive::tile::LADDER
            )
    }

    /// The up and down stairs of the current floor.
    pub fn stairs(&self) -> (Vec<Square>, Vec<Square>) {
        let world = self.world();
        let map = &world.resource::<FloorMap>().0;
        let stairs: Vec<Square> = map
            .squares()
            .filter(|&s| map.tile(s) == Tile::Stairs)
            .collect();
        if let Place::Angband(_) = self.place() {
            let terrain = world.resource::<AngbandTerrain>();
            let of = |kind| {
                stairs
                    .iter()
                    .copied()
                    .filter(|&s| terrain.at(s) == Some(kind))
                    .collect()
            };
            return (of(Terrain::UpStairs), of(Terrain::DownStairs));
        }
        // The game marked the first free square of a kept floor as its up stairs and the
        // last as its down stairs.
        let up = stairs.first().copied().into_iter().collect();
        let down = stairs.last().copied().into_iter().collect();
        (up, down)
    }

    fn on_stairs(&self, down: bool) -> bool {
        let (up_stairs, down_stairs) = self.stairs();
        let stairs = if down { down_stairs } else { up_stairs };
        stairs.contains(&self.player.at)
    }

    /// The first step of a shortest walk to the nearest stairs of the kind, around walls
    /// and found traps (monsters in the way are fought on arrival).
    fn path_to_stairs(&self, down: bool) -> Option<(i32, i32)> {
        let (up, down_stairs) = self.stairs();
        let targets = if down { down_stairs } else { up };
        let map = &self.world().resource::<FloorMap>().0;
        let width = map.width() as usize;
        let index = |s: Square| s.y as usize * width + s.x as usize;
        let mut first: Vec<Option<(i32, i32)>> = vec![None; width * map.height() as usize];
        let mut queue = VecDeque::from([self.player.at]);
        let mut seen = vec![false; first.len()];
        seen[index(self.player.at)] = true;
        while let Some(at) = queue.pop_front() {
            if targets.contains(&at) {
                return first[index(at)];
            }
            for (dx, dy) in NEIGHBOURS {
                let Some(next) = offset(at, dx, dy) else {
                    continue;
                };
                if next.x >= map.width() || next.y >= map.height() || seen[index(next)] {
                    continue;
                }
                if !self.passable(next) || self.player.traps.contains(&next) {
                    continue;
                }
                seen[index(next)] = true;
                first[index(next)] = first[index(at)].or(Some((dx, dy)));
                queue.push_back(next);
            }
        }
        None
    }

    /// Takes the stairs the player stands on.
    fn take_stairs(&mut self, down: bool) {
        let place = self.player.place;
        match (down, place) {
            (false, 0) => self.say("The way out is barred: the dungeon holds you.".into()),
            (true, p) if p + 1 == PLACES.len() => {
                self.say("These stairs lead nowhere deeper.".into());
            }
            (true, p) => self.enter(p + 1, true),
            (false, p) => self.enter(p - 1, false),
        }
    }

    /// Leaves the current floor (kept floors are put away, an Angband level wiped) and
    /// arrives on another, by its up stairs when going down and its down stairs when
    /// going up.
    fn enter(&mut self, place: usize, going_down: bool) {
        let was = self.place();
        let world = self.app.world_mut();
        let leaving = world.resource::<CurrentFloor>().0.clone();
        if leaving != FloorId::default() {
            match was {
                // Made anew on the next entry: put away first, so that no floor is left
                // current to be stored by the next floor change, then forgotten.
                Place::Angband(_) | Place::Tables(..) | Place::Drawn(..) => {
                    put_floor_away(world);
                    despawn_floor(world, &leaving);
                }
                _ => {
                    put_floor_away(world);
                }
            }
        }
        self.player.place = place;
        self.player.traps.clear();
        let kept = self.player.floors.get(&place).cloned();
        let brought_back = kept.is_some_and(|floor| bring_floor_back(self.app.world_mut(), &floor));
        if !brought_back {
            self.request(place);
        }
        let (up, down) = self.stairs();
        let arrival = if going_down { up } else { down };
        let angband_start = current::<AngbandFloorServed>(self.world())
            .last()
            .and_then(|answer| answer.populated()?.player);
        self.player.at = match self.place() {
            Place::Angband(_) if !brought_back => angband_start,
            _ => arrival.first().copied(),
        }
        .unwrap_or(Square { x: 1, y: 1 });
        let floor = self.world().resource::<CurrentFloor>().0.clone();
        self.player.floors.insert(place, floor);
        let title = self.place().title();
        self.say(format!("You arrive on {title}."));
    }

    /// Asks the plugins for a place's floor, made for the first time.
    fn request(&mut self, place: usize) {
        let (seed, visit) = (WorldSeed(self.settings.seed), self.player.turn);
        let world = self.app.world_mut();
        match PLACES[place] {
            Place::Omega(location, depth) => {
                world.insert_resource(FloorMap(with_stairs(reference_floor(
                    seed, location, depth,
                ))));
                world.write_message(OmegaFloorRequested::new(location, depth));
            }
            Place::Angband(depth) => {
                world.write_message(AngbandFloorRequested::new(depth));
            }
            Place::Captive(map) => {
                let base = with_stairs(denizen::captive::reference_base(seed, map));
                world.insert_resource(FloorMap(base));
                world.write_message(CaptiveFloorRequested::new(map, 3));
            }
            Place::Tables(location, depth) => {
                let (forest, up, safe) = forest(seed, visit);
                world.insert_resource(FloorMap(forest));
                let request = TablesFloorRequested::new(location, depth).player(up);
                let request = match safe {
                    Some(room) => request.tag("safe", room),
                    None => request,
                };
                world.write_message(request);
            }
            Place::Drawn(location, depth) => {
                let level = match marsh() {
                    Ok(level) => level,
                    Err(why) => {
                        // The level is the example's own and read by its tests; were it
                        // broken, the floor would be a bare room.
                        self.say(format!("The marsh could not be read: {why}"));
                        let room = FloorGrid::from_rows(&["#####", "#...#", "#####"]);
                        denizen::maps::EditorLevel {
                            name: "the marsh".into(),
                            grid: room.unwrap_or_default(),
                            tags: Default::default(),
                            regions: Default::default(),
                            marks: Vec::new(),
                            fields: Default::default(),
                        }
                    }
                };
                let world = self.app.world_mut();
                let grid = with_stairs(level.grid.clone());
                let up = grid.squares().find(|&s| grid.tile(s) == Tile::Stairs);
                let request = TablesFloorRequested::on_level(location, depth, &level).on_map(grid);
                let request = match up {
                    Some(up) => request.player(up),
                    None => request,
                };
                world.write_message(request);
            }
        }
        self.update();
    }

    /// The creatures awake on the current floor, in a fixed order.
    pub fn creatures(&self) -> Vec<Seen> {
        let world = self.world();
        let Some(mut query) = world
            .try_query_filtered::<(Entity, &GridPos, &Glyph), (With<Creature>, Without<Dormant>)>()
        else {
            return Vec::new();
        };
        let mut seen: Vec<Seen> = query
            .iter(world)
            .map(|(entity, at, glyph)| {
                let (name, colour, asleep) = describe(world, entity);
                Seen {
                    entity,
                    at: Square { x: at.x, y: at.y },
                    glyph: glyph.0,
                    name,
                    colour,
                    asleep,
                    carries: world
                        .get::<Carries>(entity)
                        .map(|c| c.0.to_string())
                        .or_else(|| world.get::<Possession>(entity).map(|p| p.item.clone())),
                    pack: pack(world, entity),
                }
            })
            .collect();
        seen.sort_by_key(|c| (c.at, c.entity));
        seen
    }

    /// A creature's name with its article, for the log.
    fn named(&self, entity: Entity) -> String {
        let (name, _, _) = describe(self.world(), entity);
        let a = if name.starts_with(|c: char| "aeiouAEIOU".contains(c)) {
            "An"
        } else {
            "A"
        };
        article(&name, a)
    }

    /// Saves the game: denizen's part and the player's, beside each other.
    fn save(&mut self) {
        let result = save::save(self.world())
            .map_err(|e| e.to_string())
            .and_then(|text| {
                ron::value::RawValue::from_boxed_ron(text.into()).map_err(|e| e.to_string())
            })
            .and_then(|denizen| {
                let file = SaveFile {
                    seed: self.settings.seed,
                    denizen,
                    player: self.player.clone(),
                };
                ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::new())
                    .map_err(|e| e.to_string())
            })
            .and_then(|text| {
                std::fs::write(&self.settings.save_file, text).map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => self.say("Game saved.".into()),
            Err(why) => self.say(format!("The game could not be saved: {why}")),
        }
    }

    /// Loads the saved game into a fresh app, or says why not and changes nothing.
    fn load(&mut self) {
        let loaded = std::fs::read_to_string(&self.settings.save_file)
            .map_err(|e| e.to_string())
            .and_then(|text| ron::from_str::<SaveFile>(&text).map_err(|e| e.to_string()))
            .and_then(|file| {
                let settings = Settings {
                    seed: file.seed,
                    ..self.settings.clone()
                };
                let mut app = app(&settings);
                app.update();
                save::load(app.world_mut(), file.denizen.get_ron()).map_err(|e| e.to_string())?;
                check_player(&file.player, app.world())?;
                Ok((app, settings, file.player))
            });
        match loaded {
            Ok((app, settings, player)) => {
                self.app = app;
                self.settings = settings;
                self.player = player;
                self.say("Game loaded.".into());
            }
            Err(why) => self.say(format!("The game could not be loaded: {why}")),
        }
    }
}

/// A saved player the loaded world can hold: on one of the places, standing on its floor.
fn check_player(player: &Player, world: &World) -> Result<(), String> {
    let map = &world.resource::<FloorMap>().0;
    if player.place >= PLACES.len() {
        return Err(format!(
            "the player is on place {}, of {}",
            player.place,
            PLACES.len()
        ));
    }
    if player.at.x >= map.width() || player.at.y >= map.height() {
        return Err(format!(
            "the player stands at ({}, {}), off the {} x {} floor",
            player.at.x,
            player.at.y,
            map.width(),
            map.height()
        ));
    }
    if player.hp < 1 || player.hp > MAX_HP {
        return Err(format!(
            "the player has {} hit points, of {MAX_HP}",
            player.hp
        ));
    }
    Ok(())
}

/// A creature's name with an article: a proper name (capitalised, as a unique's is) stands
/// alone, a kind's name takes `article` ("The", "the", "A", "An").
pub fn article(name: &str, article: &str) -> String {
    if name.starts_with(char::is_uppercase) {
        name.to_owned()
    } else {
        format!("{article} {name}")
    }
}

/// The game's app: denizen's plugins on every rule set, the player's square kept free on
/// Omega floors, a clock of ten turns a minute.
fn app(settings: &Settings) -> App {
    let mut app = App::new();
    app.add_plugins(
        DenizenPlugins::with_seed(settings.seed)
            .set(OmegaPlugin::default().exclude_player_square(true))
            .set(AngbandPlugin::default().autoscum(settings.autoscum)),
    );
    app.insert_resource(GameClock::at(8 * 60).with_turns_per_minute(TURNS_PER_STEP))
        .save_with_denizen::<Wounds>();
    app
}

/// A floor of the drowned forest for the visit starting at `turn`: rooms and corridors with
/// a pool, the first open square its up stairs and the room around them safe, the last
/// open square its down stairs (the bottom of the dungeon has none to take).
fn forest(seed: WorldSeed, turn: u64) -> (FloorGrid, Square, Option<Rect>) {
    let mut rng = seed.stream(StreamPurpose::new("play-forest").with(turn));
    let mut draw = |k: u32| rng.next_u32() % k;
    let mut grid = denizen::layout::rooms_and_corridors(&mut draw, 64, 24)
        .unwrap_or_else(|_| FloorGrid::from_rows(&["#####", "#...#", "#####"]).unwrap());
    let stairs: Vec<Square> = grid
        .squares()
        .filter(|&s| grid.tile(s) == Tile::Stairs)
        .collect();
    for at in stairs {
        grid.set(at, Tile::Floor);
    }
    let grid = with_stairs(grid);
    let up = grid
        .squares()
        .find(|&s| grid.tile(s) == Tile::Stairs)
        .unwrap_or(Square { x: 1, y: 1 });
    let safe = grid.rooms().iter().map(|r| r.rect).find(|r| r.contains(up));
    (grid, up, safe)
}

/// The project's marsh, drawn in Tiled: its map and the tileset it names, read with
/// `denizen::maps` (its lair and camp are regions the starter's rules populate).
pub fn marsh() -> Result<denizen::maps::EditorLevel, String> {
    const MAP: &str = include_str!("../../crates/denizen_maps/data/marsh.tmx");
    const TILES: &str = include_str!("../../crates/denizen_maps/data/terrain.tsx");
    let mapping = denizen::maps::TileMapping::default();
    let read = denizen::maps::tmx::read(MAP, "marsh.tmx", &mapping, &mut |name| match name {
        "terrain.tsx" => Ok(TILES.to_owned()),
        other => Err(denizen::maps::MapError {
            file: other.to_owned(),
            place: String::new(),
            field: None,
            message: "not shipped with the example".to_owned(),
        }),
    });
    read.map_err(|e| e.to_string())
}

/// A tables creature's pack, as the view shows it: whom it follows, or how many follow it.
fn pack(world: &World, entity: Entity) -> Option<String> {
    if let Some(follows) = world.get::<Follows>(entity) {
        let (leader, _, _) = describe(world, follows.0);
        return Some(format!("follows {}", article(&leader, "the")));
    }
    let followers = world.get::<Followers>(entity)?.followers().len();
    Some(format!("leads {followers}"))
}

/// A kept floor with its stairs: the first open square up, the last down.
fn with_stairs(mut floor: FloorGrid) -> FloorGrid {
    let open: Vec<Square> = floor
        .squares()
        .filter(|&s| floor.tile(s) == Tile::Floor)
        .collect();
    if let (Some(&up), Some(&down)) = (open.first(), open.last()) {
        floor.set(up, Tile::Stairs);
        floor.set(down, Tile::Stairs);
    }
    floor
}

/// A creature's name, colour and sleep, as its rule set describes it.
fn describe(world: &World, entity: Entity) -> (String, &'static str, bool) {
    match denizen::bevy::view::describe(world, entity) {
        Some(d) => (d.name, d.colour, d.asleep),
        None => ("creature".into(), "white", false),
    }
}

/// A monster's hit points, as its rule set has them (a Captive guard's strength counts in
/// hundreds here, as the player's blows do not).
fn hit_points(world: &World, entity: Entity) -> i32 {
    let hit_points = denizen::bevy::view::describe(world, entity).and_then(|d| d.hit_points);
    match hit_points {
        Some(strength) if world.get::<EncounterStats>(entity).is_some() => strength / 100 + 1,
        Some(hp) => hp.max(1),
        None => 1,
    }
}

/// The messages of type `M` written in the last update.
fn current<M: Message + Clone>(world: &World) -> Vec<M> {
    world
        .get_resource::<Messages<M>>()
        .map(|m| m.iter_current_update_messages().cloned().collect())
        .unwrap_or_default()
}

/// The eight directions.
const NEIGHBOURS: [(i32, i32); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

fn offset(at: Square, dx: i32, dy: i32) -> Option<Square> {
    Some(Square {
        x: at.x.checked_add_signed(dx)?,
        y: at.y.checked_add_signed(dy)?,
    })
}

fn chebyshev(a: Square, b: Square) -> u32 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

fn step_toward(from: u32, to: u32) -> u32 {
    match from.cmp(&to) {
        std::cmp::Ordering::Less => from + 1,
        std::cmp::Ordering::Greater => from - 1,
        std::cmp::Ordering::Equal => from,
    }
}
