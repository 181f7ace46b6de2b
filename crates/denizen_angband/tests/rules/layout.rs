//! The classic level layout through the public API: the room-kind odds against hand
//! formulas from the notes, seeded sampling against the exact odds, the layout's
//! invariants over many seeds and depths, determinism, and the vault file's checks.

use denizen_angband::cave::{Cave, DIRECTIONS, HEIGHT, Pos, WIDTH, flag, terrain};
use denizen_angband::layout::choice::AttemptRoll;
use denizen_angband::layout::templates::VAULT_SYMBOLS;
use denizen_angband::layout::*;
use denizen_core::DataFile;
use denizen_core::{ChiSquared, DataError, Generator, StreamPurpose, WorldSeed};
use denizen_testing::corrupt::{assert_clear, fuzz_cases, mutate, mutation};
use proptest::prelude::*;

fn rng(seed: u64) -> Generator {
    WorldSeed(seed).stream(StreamPurpose::new("layout"))
}

fn faithful(seed: u64, depth: i32) -> Layout {
    generate(&mut rng(seed), depth, &LayoutOptions::default(), &mut ())
}

/// The first-choice odds written from the notes' words, not from the chain table:
/// unusual = special = depth/200; given both and k < 50 the special kinds split
/// 10/15/15/10 of 50 (from depth 10; below it the greater vault's share is the lesser's,
/// below 5 the special share goes to large, cross and overlap); k < 25 large, k < 50
/// cross (from depth 3; below it overlap); anything else unusual overlap; simple
/// otherwise. A destroyed level (1/15 from depth 11) tries only simple rooms.
fn hand_odds(depth: i32, destroyed_included: bool) -> [f64; 8] {
    let p = f64::from(depth.min(200)) / 200.0;
    let mut o = [0.0; 8];
    let special = p * p;
    if depth >= 10 {
        o[0] = special * 10.0 / 100.0;
        o[1] = special * 15.0 / 100.0;
    } else if depth >= 5 {
        o[1] = special * 25.0 / 100.0;
    }
    if depth >= 5 {
        o[2] = special * 15.0 / 100.0;
        o[3] = special * 10.0 / 100.0;
    }
    // The k < 50 outcomes that reach the ordinary links.
    let low_k = if depth >= 5 {
        p * (1.0 - p) * 0.5
    } else {
        p * 0.5
    };
    if depth >= 3 {
        o[4] = low_k / 2.0;
        o[5] = low_k / 2.0;
    } else {
        o[6] += low_k;
    }
    o[6] += p * 0.5;
    o[7] = 1.0 - p;
    if destroyed_included && depth > 10 {
        for x in &mut o {
            *x *= 14.0 / 15.0;
        }
        o[7] += 1.0 / 15.0;
    }
    o
}

#[test]
fn first_choice_odds_match_the_notes_at_every_depth() {
    for depth in 1..=127 {
        for destroyed in [false, true] {
            let odds = first_choice_odds(depth, destroyed);
            let hand = hand_odds(depth, destroyed);
            for (i, (kind, p)) in odds.iter().enumerate() {
                assert_eq!(*kind, RoomChoice::ALL[i]);
                assert!(
                    (p - hand[i]).abs() < 1e-12,
                    "depth {depth} destroyed {destroyed} {}: {p} vs {}",
                    kind.name(),
                    hand[i]
                );
            }
            let sum: f64 = odds.iter().map(|(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-12, "depth {depth}: sum {sum}");
        }
    }
    // The spoiler's split at depth 10 and deeper: 20/30/30/20 of the special share.
    let odds = first_choice_odds(60, false);
    let special: f64 = odds[..4].iter().map(|(_, p)| p).sum();
    let split: Vec<f64> = odds[..4].iter().map(|(_, p)| p / special).collect();
    for (got, want) in split.iter().zip([0.2, 0.3, 0.3, 0.2]) {
        assert!((got - want).abs() < 1e-12);
    }
    assert_eq!(RoomChoice::GreaterVault.name(), "greater_vault");
    assert_eq!(RoomChoice::Simple.name(), "simple");
}

#[test]
fn lighting_and_destruction_odds() {
    assert_eq!(lit_chance(1), 1.0);
    assert!((lit_chance(25) - 0.04).abs() < 1e-15);
    assert!((lit_chance(13) - 13.0 / 25.0).abs() < 1e-15);
    for depth in 1..=25 {
        assert!((lit_chance(depth) - f64::from(26 - depth) / 25.0).abs() < 1e-15);
    }
    for depth in 26..=127 {
        assert_eq!(lit_chance(depth), 0.0);
    }
    for depth in 1..=10 {
        assert_eq!(destroyed_chance(depth, false), 0.0);
    }
    for depth in 11..=127 {
        assert_eq!(destroyed_chance(depth, false), 1.0 / 15.0);
        assert_eq!(destroyed_chance(depth, true), 0.0);
    }
}

#[test]
fn sampled_first_choices_follow_the_exact_odds() {
    for (seed, depth) in [(1u64, 2), (2, 4), (3, 7), (4, 12), (5, 45), (6, 100)] {
        for destroyed_included in [false, true] {
            let mut g = rng(seed * 10 + u64::from(destroyed_included));
            let mut counts = [0u64; 8];
            for _ in 0..100_000 {
                let destroyed = destroyed_included
                    && depth > 10
                    && denizen_angband::rng::rand0(&mut g, 15) == 0;
                let kind = if destroyed {
                    RoomChoice::Simple
                } else {
                    AttemptRoll::draw(&mut g, depth).first(depth)
                };
                counts[kind as usize] += 1;
            }
            let odds = first_choice_odds(depth, destroyed_included).map(|(_, p)| p);
            let p = ChiSquared::against(&counts, odds).p_value();
            assert!(p > 1e-6, "depth {depth}: {counts:?} p = {p}");
        }
    }
}

#[test]
fn simple_room_interiors_follow_the_dice() {
    // Depth 1: nearly every room is simple (an unusual roll is 1 in 200).
    let mut heights = [0u64; 6];
    let mut widths = [0u64; 21];
    for seed in 0..150 {
        for room in faithful(seed, 1)
            .rooms
            .iter()
            .filter(|r| r.kind == RoomChoice::Simple)
        {
            let h = room.bottom_right.y - room.top_left.y - 1;
            let w = room.bottom_right.x - room.top_left.x - 1;
            heights[(h - 3) as usize] += 1;
            widths[(w - 3) as usize] += 1;
        }
    }
    let h = [1.0, 2.0, 3.0, 3.0, 2.0, 1.0].map(|n| n / 12.0);
    let p = ChiSquared::against(&heights, h).p_value();
    assert!(p > 1e-6, "{heights:?} p = {p}");
    let w = (3..=23).map(|w: i32| f64::from(11 - (w - 13).abs()) / 121.0);
    let p = ChiSquared::against(&widths, w).p_value();
    assert!(p > 1e-6, "{widths:?} p = {p}");
}

/// The blocks a room reserved, worked back from its centre and kind (notes 1.8).
fn footprint(kind: RoomChoice, c: Pos) -> (i32, i32, i32, i32) {
    match kind {
        RoomChoice::GreaterVault => {
            let (by, bx) = ((c.y - 11) / 11, (c.x - 11) / 11);
            assert_eq!((c.y, c.x), (11 * by + 11, 11 * bx + 11));
            (by - 1, by + 2, bx - 2, bx + 3)
        }
        RoomChoice::LesserVault => {
            let (by, bx) = ((c.y - 11) / 11, (c.x - 5) / 11);
            assert_eq!((c.y, c.x), (11 * by + 11, 11 * bx + 5));
            (by, by + 1, bx - 1, bx + 1)
        }
        _ => {
            let (by, bx) = ((c.y - 5) / 11, (c.x - 5) / 11);
            assert_eq!((c.y, c.x), (11 * by + 5, 11 * bx + 5));
            (by, by, bx - 1, bx + 1)
        }
    }
}

fn min_depth(kind: RoomChoice) -> i32 {
    match kind {
        RoomChoice::Simple | RoomChoice::Overlap => 1,
        RoomChoice::Cross | RoomChoice::Large => 3,
        RoomChoice::Nest | RoomChoice::Pit | RoomChoice::LesserVault => 5,
        RoomChoice::GreaterVault => 10,
    }
}

/// Records every guard call and puts a monster there; records every vault monster call
/// (placing nothing); its nests and pits draw successfully or not as told, and fill
/// nothing but are counted.
#[derive(Default)]
struct Recorder {
    calls: Vec<(Pos, i32)>,
    vault_calls: Vec<(Pos, i32)>,
    /// Whether a nest's or pit's draws all succeed.
    dens_succeed: bool,
    /// Nests and pits filled.
    dens_filled: u32,
}

impl Inhabit for Recorder {
    fn guard(&mut self, cave: &mut Cave, _rng: &mut Generator, at: Pos, level: i32) {
        assert!(cave.is_empty(at), "a guard on a taken grid {at:?}");
        cave.set_monster(at, self.calls.len());
        self.calls.push((at, level));
    }

    fn draw_den(&mut self, _: &mut Generator, _: Pos, _: bool, _: i32) -> bool {
        self.dens_succeed
    }

    fn fill_den(&mut self, _: &mut Cave, _: &mut Generator, _: Pos) {
        self.dens_filled += 1;
    }

    fn vault_monster(&mut self, _cave: &mut Cave, _rng: &mut Generator, at: Pos, level: i32) {
        self.vault_calls.push((at, level));
    }
}

fn check_layout(l: &Layout, depth: i32, options: &LayoutOptions, guards: &Recorder) {
    let cave = &l.cave;
    // The edge ring is solid permanent wall.
    for x in 0..WIDTH {
        assert_eq!(cave.terrain(Pos::new(0, x)), terrain::SOLID_PERMANENT);
        assert_eq!(
            cave.terrain(Pos::new(HEIGHT - 1, x)),
            terrain::SOLID_PERMANENT
        );
    }
    for y in 0..HEIGHT {
        assert_eq!(cave.terrain(Pos::new(y, 0)), terrain::SOLID_PERMANENT);
        assert_eq!(
            cave.terrain(Pos::new(y, WIDTH - 1)),
            terrain::SOLID_PERMANENT
        );
    }
    // Rooms: inside the map, inside their blocks, blocks aligned and disjoint.
    assert!(!l.rooms.is_empty());
    let mut blocks = [[false; 18]; 6];
    for room in &l.rooms {
        assert!(Cave::on_map(room.top_left) && Cave::on_map(room.bottom_right));
        assert!(
            min_depth(room.kind) <= depth,
            "{:?} at depth {depth}",
            room.kind
        );
        let (top, bottom, left, right) = footprint(room.kind, room.centre);
        assert!(
            top >= 0 && bottom < 6 && left >= 0 && right < 18,
            "{room:?}"
        );
        let bx = match room.kind {
            RoomChoice::GreaterVault => left + 2,
            _ => left + 1,
        };
        assert_eq!(bx % 3, 1, "aligned block column");
        assert!(room.top_left.y >= 11 * top && room.bottom_right.y <= 11 * bottom + 10);
        assert!(room.top_left.x >= 11 * left && room.bottom_right.x <= 11 * right + 10);
        for row in blocks
            .iter_mut()
            .take(bottom as usize + 1)
            .skip(top as usize)
        {
            for used in row.iter_mut().take(right as usize + 1).skip(left as usize) {
                assert!(!*used, "two rooms share a block");
                *used = true;
            }
        }
        if room.lit {
            assert!(depth <= 25);
            assert!(matches!(
                room.kind,
                RoomChoice::Simple | RoomChoice::Overlap | RoomChoice::Cross | RoomChoice::Large
            ));
        }
    }
    for (i, a) in l.rooms.iter().enumerate() {
        for b in &l.rooms[i + 1..] {
            let apart = a.bottom_right.y < b.top_left.y
                || b.bottom_right.y < a.top_left.y
                || a.bottom_right.x < b.top_left.x
                || b.bottom_right.x < a.top_left.x;
            assert!(apart, "{a:?} overlaps {b:?}");
        }
    }
    let nests = l
        .room_kinds()
        .filter(|k| matches!(k, RoomChoice::Nest | RoomChoice::Pit))
        .count();
    assert!(nests <= 1);
    // Destruction.
    if options.quest || depth <= 10 {
        assert!(!l.destroyed);
    }
    if l.destroyed {
        assert!(l.room_kinds().all(|k| k == RoomChoice::Simple));
        assert!(l.objects.is_empty() && guards.calls.is_empty());
    }
    // Vaults.
    let templates = VaultTemplates::shipped();
    for v in &l.vaults {
        let room = &l.rooms[v.room];
        let t = templates.slot(usize::from(v.template)).unwrap();
        assert_eq!(t.kind.room(), room.kind);
        assert_eq!(v.top_left, room.top_left);
    }
    // Objects and guards.
    for o in &l.objects {
        assert!(cave.has_object(o.at));
    }
    // Vault monsters and objects lie inside a vault, at the symbols' offsets: monsters
    // at depth + 3, 5, 9, 11 or 40; good objects at + 7 (`9`), great ones at + 20.
    let in_vault = |at: Pos| {
        l.vaults.iter().any(|v| {
            let room = &l.rooms[v.room];
            (room.top_left.y..=room.bottom_right.y).contains(&at.y)
                && (room.top_left.x..=room.bottom_right.x).contains(&at.x)
        })
    };
    for &(at, level) in &guards.vault_calls {
        assert!(
            in_vault(at),
            "a vault monster outside every vault at {at:?}"
        );
        assert!(
            [3, 5, 9, 11, 40].contains(&(level - depth)),
            "offset {}",
            level - depth
        );
    }
    for o in l.objects.iter().filter(|o| o.good) {
        assert!(in_vault(o.at));
        assert_eq!(o.level - depth, if o.great { 20 } else { 7 });
    }
    let slip = depth.saturating_add(2);
    for &(_, level) in &guards.calls {
        assert_eq!(level, slip);
    }
    assert!(l.monster_level == depth || l.monster_level == slip);
    if l.monster_level == slip && slip != depth {
        assert!(
            l.room_kinds()
                .any(|k| matches!(k, RoomChoice::Cross | RoomChoice::Large))
        );
    }
    let monsters = (0..HEIGHT)
        .flat_map(|y| (0..WIDTH).map(move |x| Pos::new(y, x)))
        .filter(|&at| cave.monster(at).is_some())
        .count();
    assert_eq!(monsters + l.removed_guards.len(), guards.calls.len());
    // Stairs.
    let all_up = options.quest || depth >= 127;
    if all_up {
        assert!(l.down_stairs.is_empty());
        assert!((4..=6).contains(&l.up_stairs.len()), "{:?}", l.up_stairs);
    } else {
        assert!((3..=4).contains(&l.down_stairs.len()));
        assert!((1..=2).contains(&l.up_stairs.len()));
    }
    for &at in &l.down_stairs {
        assert_eq!(cave.terrain(at), terrain::DOWN_STAIRS);
    }
    for &at in &l.up_stairs {
        assert_eq!(cave.terrain(at), terrain::UP_STAIRS);
    }
    // The player.
    let player = cave.player().expect("a player spot");
    assert_eq!(cave.terrain(player), terrain::FLOOR);
    assert!(!cave.has_object(player) && cave.monster(player).is_none());
    assert!(!cave.has(player, flag::ICKY));
    // No floor is out of reach: from the player's start, walking and tunnelling through
    // any rock that is not permanent (codes 0x3C to 0x3F; a 2.7.9 player can dig granite,
    // veins and rubble)
    // reaches every passable grid, vaults included. Worked out here by a flood of its
    // own, not by the layout's region code.
    let mut reached = vec![false; (HEIGHT * WIDTH) as usize];
    let index = |at: Pos| (at.y * WIDTH + at.x) as usize;
    let mut stack = vec![player];
    reached[index(player)] = true;
    while let Some(at) = stack.pop() {
        for (dy, dx) in DIRECTIONS {
            let next = Pos::new(at.y + dy, at.x + dx);
            if Cave::on_map(next) && !reached[index(next)] && cave.terrain(next) < 0x3C {
                reached[index(next)] = true;
                stack.push(next);
            }
        }
    }
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let at = Pos::new(y, x);
            if reach::is_passable(cave.terrain(at)) {
                assert!(reached[index(at)], "{at:?} is sealed off by permanent rock");
            }
        }
    }
    // Sealing: every passable grid outside a vault is reachable from the player by
    // walking alone.
    if options.seal_unreachable {
        let regions = Regions::of(cave);
        let home = regions.region(player);
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let at = Pos::new(y, x);
                if regions.region(at).is_some() && !cave.has(at, flag::ICKY) {
                    assert_eq!(
                        regions.region(at),
                        home,
                        "{at:?} is cut off from the player"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the seed, depth and switches, the layout keeps the notes' invariants.
    #[test]
    fn layouts_keep_their_invariants(
        seed in any::<u64>(),
        depth in 1i32..=127,
        quest in prop::bool::weighted(0.2),
        seal in any::<bool>(),
    ) {
        let options = LayoutOptions {
            quest,
            seal_unreachable: seal,
            ..LayoutOptions::default()
        };
        let mut guards = Recorder::default();
        let l = generate(&mut rng(seed), depth, &options, &mut guards);
        prop_assert_eq!(l.depth, depth);
        check_layout(&l, depth, &options, &guards);
    }
}

#[test]
fn the_deepest_and_shallowest_depths_are_handled() {
    for depth in [i32::MIN, -5, 0, 1, 127, 128, 500, i32::MAX] {
        let mut guards = Recorder::default();
        let l = generate(&mut rng(7), depth, &LayoutOptions::default(), &mut guards);
        assert!((1..=127).contains(&l.depth));
        check_layout(&l, l.depth, &LayoutOptions::default(), &guards);
    }
}

#[test]
fn same_seed_same_layout_other_seed_differs() {
    let digest = |l: &Layout| {
        l.cave
            .terrain_codes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &c| {
                (h ^ u64::from(c)).wrapping_mul(0x0000_0100_0000_01b3)
            })
    };
    for depth in [1, 9, 33, 80] {
        let options = LayoutOptions::default();
        let a = generate(&mut rng(99), depth, &options, &mut Recorder::default());
        let b = generate(&mut rng(99), depth, &options, &mut Recorder::default());
        assert_eq!(digest(&a), digest(&b));
        assert_eq!(a, b);
        let c = generate(&mut rng(100), depth, &options, &mut Recorder::default());
        assert_ne!(digest(&a), digest(&c));
    }
}

#[test]
fn destroyed_levels_hold_only_simple_rooms() {
    let mut found = 0;
    for seed in 0..400 {
        let l = faithful(seed, 30);
        if l.destroyed {
            found += 1;
            assert!(l.room_kinds().all(|k| k == RoomChoice::Simple));
            assert!(l.vaults.is_empty() && l.objects.is_empty());
        }
    }
    // 400 levels at 1/15: about 27 destroyed.
    assert!(found > 5, "only {found} destroyed levels");
}

#[test]
fn guards_draw_at_depth_plus_two_and_the_slip_persists() {
    // Find levels whose guards were placed by the last room that touched the level.
    let mut slipped = 0;
    for seed in 0..60 {
        let depth = 20;
        let mut guards = Recorder::default();
        let l = generate(
            &mut rng(seed),
            depth,
            &LayoutOptions::default(),
            &mut guards,
        );
        let Some(&(last, _)) = guards.calls.last() else {
            continue;
        };
        let inside = |r: &denizen_angband::BuiltRoom, at: Pos| {
            at.y >= r.top_left.y
                && at.y <= r.bottom_right.y
                && at.x >= r.top_left.x
                && at.x <= r.bottom_right.x
        };
        let room = l.rooms.iter().position(|r| inside(r, last)).unwrap();
        assert!(matches!(
            l.rooms[room].kind,
            RoomChoice::Cross | RoomChoice::Large
        ));
        let reset_later = l.rooms[room + 1..].iter().any(|r| {
            matches!(
                r.kind,
                RoomChoice::Nest
                    | RoomChoice::Pit
                    | RoomChoice::LesserVault
                    | RoomChoice::GreaterVault
            )
        });
        if !reset_later {
            assert_eq!(l.monster_level, depth + 2);
            slipped += 1;
        }
    }
    assert!(slipped > 10, "{slipped}");
}

#[test]
fn quest_levels_are_whole_and_go_up() {
    for seed in 0..20 {
        let options = LayoutOptions {
            quest: true,
            ..LayoutOptions::default()
        };
        let l = generate(&mut rng(seed), 99, &options, &mut ());
        assert!(!l.destroyed);
        assert!(l.down_stairs.is_empty());
        let downs = l
            .cave
            .terrain_codes()
            .iter()
            .filter(|&&c| c == terrain::DOWN_STAIRS)
            .count();
        assert_eq!(downs, 0, "room stairs go up too");
    }
}

// ---- The vault file ----

fn template(index: u32, kind: &str, rows: &[&str]) -> String {
    let width = rows.first().map_or(0, |r| r.len());
    let rows: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    format!(
        "(index: {index}, name: \"t{index}\", kind: {kind}, rating: 5, height: {}, width: {width}, rows: [{}])",
        rows.len(),
        rows.join(", ")
    )
}

fn file(templates: &[String]) -> String {
    format!("(templates: [{}])", templates.join(", "))
}

fn small_pair() -> Vec<String> {
    vec![
        template(3, "Lesser", &["%%%%", "%*.%", "%+%%"]),
        template(9, "Greater", &["XXX", "X8X", "X+X"]),
    ]
}

fn refused(text: &str) -> DataError {
    let error = VaultTemplates::from_file(DataFile::new("mine.ron", text)).unwrap_err();
    assert_clear(&error, "mine.ron");
    error
}

#[test]
fn the_shipped_vaults_load_and_a_small_file_works() {
    let shipped = VaultTemplates::shipped();
    assert_eq!(shipped.iter().count(), 11);
    for t in shipped.iter() {
        for dy in 0..t.height {
            for dx in 0..t.width {
                assert!(VAULT_SYMBOLS.contains(char::from(t.cell(dy, dx))));
            }
        }
    }
    let mine = VaultTemplates::from_file(DataFile::new("mine.ron", &file(&small_pair()))).unwrap();
    let lesser = mine.slot(3).unwrap();
    assert_eq!(lesser.cell(1, 1), b'*');
    // Cells past any side are spaces; the corners inside are the template's.
    assert_eq!(
        (lesser.cell(0, 0), lesser.cell(2, 3), lesser.cell(2, 1)),
        (b'%', b'%', b'+')
    );
    for (dy, dx) in [(-1, 0), (0, -1), (3, 0), (0, 4), (-1, -1), (3, 4)] {
        assert_eq!(lesser.cell(dy, dx), b' ', "({dy}, {dx})");
    }
    // Levels deep enough for both vault kinds build with it.
    for seed in 0..20 {
        let l = generate_with(
            &mut rng(seed),
            70,
            &LayoutOptions::default(),
            &mine,
            &mut (),
        );
        for v in &l.vaults {
            assert!(v.template == 3 || v.template == 9);
        }
    }
}

#[test]
fn bad_vault_files_are_refused_by_entry_and_field() {
    let mut pair = small_pair();
    pair[0] = template(3, "Lesser", &["%%%%", "%Q.%", "%+%%"]);
    assert!(refused(&file(&pair)).to_string().contains("rows[1]"));
    pair[0] = template(3, "Lesser", &["%%%%", "%..", "%+%%"]);
    assert!(refused(&file(&pair)).to_string().contains("rows[1]"));
    let tall: Vec<&str> = vec!["%"; 23];
    pair[0] = template(3, "Lesser", &tall);
    assert!(refused(&file(&pair)).to_string().contains("height"));
    let wide = "%".repeat(34);
    pair[0] = template(3, "Lesser", &[&wide]);
    assert!(refused(&file(&pair)).to_string().contains("width"));
    pair[0] = template(9, "Lesser", &["%"]);
    assert!(refused(&file(&pair)).to_string().contains("index"));
    pair[0] = template(16, "Lesser", &["%"]);
    assert!(refused(&file(&pair)).to_string().contains("index"));
    let only_lesser = vec![template(3, "Lesser", &["%"])];
    assert!(refused(&file(&only_lesser)).to_string().contains("Greater"));
    // 16 templates fill the table; a 17th is refused as one too many, before its index
    // (here one taken already) is looked at.
    let mut many: Vec<String> = (0..15).map(|i| template(i, "Lesser", &["%"])).collect();
    many.push(template(15, "Greater", &["X"]));
    assert!(VaultTemplates::from_file(DataFile::new("mine.ron", &file(&many))).is_ok());
    many.push(template(3, "Lesser", &["%"]));
    let error = refused(&file(&many)).to_string();
    assert!(
        error.contains("field `templates`") && error.contains("17 templates"),
        "{error}"
    );
    // A name of 1 to 100 characters.
    for (name, ok) in [
        ("", false),
        ("n", true),
        (&*"n".repeat(100), true),
        (&*"n".repeat(101), false),
    ] {
        let named = small_pair()[0].replace("name: \"t3\"", &format!("name: {name:?}"));
        let text = file(&[named, small_pair()[1].clone()]);
        match VaultTemplates::from_file(DataFile::new("mine.ron", &text)) {
            Ok(_) => assert!(ok, "{} characters", name.len()),
            Err(error) => assert!(!ok && error.to_string().contains("field `name`"), "{error}"),
        }
    }
    let mismatch = small_pair()[0].replace("height: 3", "height: 2");
    assert!(
        refused(&file(&[mismatch, small_pair()[1].clone()]))
            .to_string()
            .contains("rows")
    );
    refused("(templates: [(index: 1)])");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    /// A corrupted vault file is refused clearly, or loads and builds deep levels.
    #[test]
    fn corrupted_vault_files(mutations in prop::collection::vec(mutation(), 1..4)) {
        let text = mutate(ANGBAND_VAULTS, &mutations);
        match VaultTemplates::from_file(DataFile::new(ANGBAND_VAULTS_FILE, &text)) {
            Err(error) => assert_clear(&error, ANGBAND_VAULTS_FILE),
            Ok(templates) => {
                for depth in [40, 127] {
                    let l = generate_with(&mut rng(5), depth, &LayoutOptions::default(), &templates, &mut ());
                    prop_assert!(l.cave.player().is_some());
                }
            }
        }
    }
}

#[test]
fn modules_do_not_import_each_other_in_a_cycle() {
    denizen_testing::assert_modules_acyclic(concat!(env!("CARGO_MANIFEST_DIR"), "/src/layout"));
}

#[test]
fn a_forced_room_is_built_whatever_the_rolls() {
    for (kind, room, depth) in [
        (RoomChoice::GreaterVault, RoomChoice::GreaterVault, 12),
        (RoomChoice::LesserVault, RoomChoice::LesserVault, 5),
        (RoomChoice::Pit, RoomChoice::Pit, 5),
        (RoomChoice::Nest, RoomChoice::Nest, 5),
    ] {
        for seed in 0..5 {
            let options = LayoutOptions {
                force_room: Some(kind),
                ..LayoutOptions::default()
            };
            let l = generate(&mut rng(seed), depth, &options, &mut ());
            assert!(l.room_kinds().any(|k| k == room), "{kind:?}, seed {seed}");
            assert!(!l.destroyed);
        }
    }
}

/// A room the level can never build forces nothing: a greater vault at depth 9 (from 10),
/// a pit at 4 (from 5). The level is the one made unforced, word for word.
#[test]
fn a_room_the_level_cannot_build_forces_nothing() {
    for (kind, depth) in [(RoomChoice::GreaterVault, 9), (RoomChoice::Pit, 4)] {
        for seed in 0..3 {
            let forced = LayoutOptions {
                force_room: Some(kind),
                ..LayoutOptions::default()
            };
            let make = |options: &LayoutOptions| generate(&mut rng(seed), depth, options, &mut ());
            assert_eq!(
                make(&forced),
                make(&LayoutOptions::default()),
                "{kind:?} at {depth}"
            );
        }
    }
}

/// A large room's inner treasure vault (room type 4's third variant) holds stairs instead
/// of its object one time in five: each such staircase stands on its square, up or down
/// at even odds, and only up where there is no way down (a quest level).
#[test]
fn an_inner_vaults_stairs_go_up_or_down() {
    let (mut up, mut down) = (0, 0);
    for seed in 0..300 {
        for quest in [false, true] {
            let options = LayoutOptions {
                quest,
                ..LayoutOptions::default()
            };
            let l = generate(&mut rng(seed), 20, &options, &mut ());
            for &at in &l.room_stairs {
                match l.cave.terrain(at) {
                    terrain::UP_STAIRS => up += usize::from(!quest),
                    terrain::DOWN_STAIRS => {
                        assert!(!quest, "a way down on a quest level");
                        down += 1;
                    }
                    other => panic!("{at:?} holds {other:#x}"),
                }
            }
        }
    }
    assert!(up > 0 && down > 0, "{up} up, {down} down");
    let sd = ((up + down) as f64 * 0.25).sqrt();
    assert!(
        (up as f64 - down as f64).abs() / 2.0 < 4.0 * sd,
        "{up} up, {down} down"
    );
}

/// Each template's symbol counts, from the vault catalogue (`vault_catalogue.csv`): `&`,
/// `@`, `9`, `8` and `,` cells, and its rating.
const CATALOGUE: [(u8, [usize; 5], i32); 11] = [
    (1, [2, 0, 0, 0, 12], 5),
    (2, [6, 0, 0, 0, 32], 5),
    (3, [8, 0, 0, 0, 20], 5),
    (4, [10, 0, 0, 0, 22], 5),
    (5, [0, 0, 0, 0, 83], 5),
    (6, [0, 0, 0, 0, 83], 5),
    (7, [6, 0, 0, 0, 14], 5),
    (10, [61, 0, 0, 70, 0], 45),
    (11, [20, 24, 0, 4, 60], 35),
    (12, [45, 0, 10, 0, 37], 25),
    (13, [28, 5, 0, 1, 45], 25),
];

#[test]
fn vault_templates_place_every_symbol_inside_the_vault() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..400 {
        let (kind, depth) = if seed % 2 == 0 {
            (RoomChoice::GreaterVault, 40)
        } else {
            (RoomChoice::LesserVault, 20)
        };
        let options = LayoutOptions {
            force_room: Some(kind),
            ..LayoutOptions::default()
        };
        let mut recorder = Recorder::default();
        let l = generate(&mut rng(seed), depth, &options, &mut recorder);
        if l.vaults.len() != 1
            || l.room_kinds()
                .any(|k| matches!(k, RoomChoice::Nest | RoomChoice::Pit))
        {
            continue;
        }
        let template = l.vaults[0].template;
        let &(_, [amp, at, nine, eight, comma], rating) =
            CATALOGUE.iter().find(|c| c.0 == template).unwrap();
        seen.insert(template);
        let calls = |offset: i32| {
            recorder
                .vault_calls
                .iter()
                .filter(|&&(_, level)| level == depth + offset)
                .count()
        };
        assert_eq!(
            (calls(5), calls(11), calls(9), calls(40)),
            (amp, at, nine, eight),
            "template {template}"
        );
        assert!(calls(3) <= comma);
        let good = l.objects.iter().filter(|o| o.good && !o.great).count();
        let great = l.objects.iter().filter(|o| o.great).count();
        assert_eq!((good, great), (nine, eight), "template {template}");
        let plain_at_7 = l
            .objects
            .iter()
            .filter(|o| !o.good && o.level == depth + 7)
            .count();
        assert!(plain_at_7 <= comma);
        // The rooms' rating: the template's (nests and pits draw nothing here).
        assert_eq!(l.room_rating, rating, "template {template}");
    }
    assert_eq!(seen.len(), 11, "every template came up: {seen:?}");
}

#[test]
fn a_nest_or_pit_adds_ten_only_when_its_draws_succeed() {
    for (succeed, seed) in [(true, 1), (false, 2), (true, 3), (false, 4)] {
        for kind in [RoomChoice::Nest, RoomChoice::Pit] {
            let options = LayoutOptions {
                force_room: Some(kind),
                ..LayoutOptions::default()
            };
            let mut recorder = Recorder {
                dens_succeed: succeed,
                ..Recorder::default()
            };
            // Depth 5: no greater vault; any lesser vault adds its 5.
            let l = generate(&mut rng(seed), 5, &options, &mut recorder);
            let vaults = 5 * l.vaults.len() as i32;
            let den = if succeed { 10 } else { 0 };
            assert_eq!(l.room_rating, den + vaults);
            assert_eq!(recorder.dens_filled, u32::from(succeed));
            if l.vaults.is_empty() {
                // Depth 5 is at most 40, so a filled den makes the level special when
                // randint(26) < 300, always; an empty one never does.
                assert_eq!(l.special_feeling, succeed);
            }
        }
    }
}
