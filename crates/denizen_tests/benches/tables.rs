//! A game's own tables against Omega's rules, in one run.
//!
//! `cargo bench -p denizen_tests --features tables --bench tables`.
//!
//! - `one_placement`: 10,000 placements per iteration from one seeded stream: Omega's
//!   ordinary pool at difficulty 3 (`omega_ordinary_pool`) against a pick-one table of 40
//!   species with unequal weights and all four shapes (`tables_40_species`).
//! - `plan_floor`: one floor per iteration, planned through the rules crates alone: Omega's
//!   31 monsters on the volcano's reference floor (`omega_31_monsters`) against the starter
//!   bestiary with exactly 40 placements at depth 12, packs and escorts included, on the
//!   same floor (`tables_40_placements`).
//! - `load`: one load of a bestiary's files, as a game's hot reload does: a 10,000-row
//!   table over depths 1-250 (`wide_table`), 15 tables each naming the next, 600 rows each
//!   (`chained_tables`), 2,000 species in 300 tables (`many_tables`), and the starter.

use std::hint::black_box;

use denizen::omega::reference::reference_floor;
use denizen::prelude::*;
use denizen::tables::{Bestiary, Context, Drawer, FloorTerms, UniqueLedger, plan_floor};
use denizen::tags::SquareTags;
use divan::{Bencher, counter::ItemsCount};

#[path = "common/omega_planning.rs"]
mod omega_planning;

fn main() {
    divan::main();
}

const BATCH: usize = 10_000;

/// Forty species in one pick-one table over depths 1-20.
fn forty_species() -> Bestiary {
    let shapes = ["Flat", "Rise", "Fall", "Peak"];
    let species: String = (0..40)
        .map(|i| {
            format!("(key: \"s{i}\", name: \"s{i}\", glyph: 'x', level: 1, hit_points: \"1d4\"),")
        })
        .collect();
    let rows: String = (0..40)
        .map(|i| {
            format!(
                "(what: Species(\"s{i}\"), depth: (1, 20), weight: {}, shape: {}),",
                40 + 7 * i,
                shapes[i % 4]
            )
        })
        .collect();
    let text = format!(
        "(species: [{species}], tables: [(key: \"floor\", rows: [{rows}])], floor: Some((table: \"floor\", depths: (1, 20), count: (dice: \"1d1\"))))"
    );
    denizen::tables::load(&[denizen::data::DataFile::new("forty.ron", &text)]).unwrap()
}

mod one_placement {
    use super::*;

    #[divan::bench]
    fn omega_ordinary_pool(bencher: Bencher) {
        let rules = OmegaRules::shipped();
        let selector = Selector::ordinary_pool(&rules.bestiary, 3).unwrap();
        let mut rng = WorldSeed(7).stream(StreamPurpose::new("bench"));
        bencher.counter(ItemsCount::new(BATCH)).bench_local(|| {
            let mut last = SpeciesId(0);
            for _ in 0..BATCH {
                last = selector.sample(&mut rng);
            }
            black_box(last)
        });
    }

    #[divan::bench]
    fn tables_40_species(bencher: Bencher) {
        let bestiary = forty_species();
        let mut drawer = Drawer::new(&bestiary, &UniqueLedger::new());
        let mut rng = WorldSeed(7).stream(StreamPurpose::new("bench"));
        bencher.counter(ItemsCount::new(BATCH)).bench_local(|| {
            let mut last = 0;
            for _ in 0..BATCH {
                last = drawer.placement(10, &mut rng).unwrap().len();
            }
            black_box(last)
        });
    }
}

mod plan_floor {
    use super::*;

    #[divan::bench(sample_count = 1000, sample_size = 10)]
    fn omega_31_monsters(bencher: Bencher) {
        bencher.bench_local(omega_planning::planning_row(31));
    }

    /// The shipped starter, in the default context (its night, winter and fair rows out).
    #[divan::bench(sample_count = 1000, sample_size = 10)]
    fn tables_40_placements(bencher: Bencher) {
        let files = [denizen::tables::STARTER, denizen::tables::STARTER_MOD];
        starter_floor(bencher, files, Context::new());
    }

    /// The same in a winter night: its tables with conditions drawn in that context.
    #[divan::bench(sample_count = 1000, sample_size = 10)]
    fn tables_40_placements_winter_night(bencher: Bencher) {
        let files = [denizen::tables::STARTER, denizen::tables::STARTER_MOD];
        let context = Context::new().with_flag("night").with_flag("winter");
        starter_floor(bencher, files, context);
    }

    /// The copy of the starter kept as the tables' test fixture: a bestiary with none of
    /// the fields added since (contexts, costs, rolls), against which the others compare.
    #[divan::bench(sample_count = 1000, sample_size = 10)]
    fn tables_40_placements_fixture(bencher: Bencher) {
        let files = [
            include_str!("../../denizen_tables/tests/fixtures/starter-0.3-pre/starter.tables.ron"),
            include_str!(
                "../../denizen_tables/tests/fixtures/starter-0.3-pre/starter_mod.tables.ron"
            ),
        ];
        starter_floor(bencher, files, Context::new());
    }

    /// A floor of the shipped starter's budgeted branch at depth 16: a budget of 28 to 38
    /// spent on the deep things, six discards in a row ending it.
    #[divan::bench(sample_count = 1000, sample_size = 10)]
    fn tables_branch_budget(bencher: Bencher) {
        branch_floor(bencher, "foundry_deeps", 16);
    }

    /// A floor of the shipped starter's warrens at depth 6: 3 to 6 placements dealt from
    /// a bag.
    #[divan::bench(sample_count = 1000, sample_size = 10)]
    fn tables_branch_bag(bencher: Bencher) {
        branch_floor(bencher, "warrens", 6);
    }

    /// Floors of a branch of the shipped starter at `depth`.
    fn branch_floor(bencher: Bencher, branch: &str, depth: u32) {
        let bestiary = denizen::tables::starter().unwrap();
        let bestiary = bestiary.in_branch(bestiary.branch_by_key(branch));
        let (location, floor_depth) = omega_planning::floor_of(31);
        let grid = reference_floor(WorldSeed(omega_planning::SEED), location, floor_depth);
        let tags = SquareTags::from_grid(&grid);
        let ledger = UniqueLedger::new();
        let mut generation = 0;
        bencher.bench_local(|| {
            let purpose = StreamPurpose::event("floor", "bench", depth, generation);
            generation += 1;
            let mut rng = WorldSeed(omega_planning::SEED).stream(purpose);
            let request = FloorTerms {
                depth,
                ..FloorTerms::default()
            };
            black_box(plan_floor(&bestiary, &grid, &tags, request, &ledger, &mut rng).unwrap())
        });
    }

    /// Floors of exactly 40 placements at depth 12 from a starter's two files.
    fn starter_floor(bencher: Bencher, [base, r#mod]: [&str; 2], context: Context) {
        let forty = r#"(floor: Some((table: "floor", depths: (1, 20), count: (dice: "40d1"),
            out_of_depth: Some((chance: "1/25", divisor: 4, bonus: 2, cap: 10, fairness: 2)),
            place: (forbids: ["safe"]))))"#;
        let bestiary = denizen::tables::load(&[
            denizen::data::DataFile::new("starter.tables.ron", base),
            denizen::data::DataFile::new("starter_mod.tables.ron", r#mod),
            denizen::data::DataFile::new("forty.ron", forty),
        ])
        .unwrap();
        let (location, depth) = omega_planning::floor_of(31);
        let grid = reference_floor(WorldSeed(omega_planning::SEED), location, depth);
        let tags = SquareTags::from_grid(&grid);
        let ledger = UniqueLedger::new();
        let mut generation = 0;
        bencher.bench_local(|| {
            let purpose = StreamPurpose::event("floor", "bench", 12, generation);
            generation += 1;
            let mut rng = WorldSeed(omega_planning::SEED).stream(purpose);
            let request = FloorTerms {
                depth: 12,
                context: context.clone(),
                ..FloorTerms::default()
            };
            let made = plan_floor(&bestiary, &grid, &tags, request, &ledger, &mut rng).unwrap();
            assert_eq!(made.placements, 40);
            black_box(made)
        });
    }
}

/// Bestiaries that are large where a designer's are: a table's rows, a chain of tables, the
/// count of species and tables. Every number is a legal one.
mod load {
    use super::*;

    /// `n` species, `s0` to `s{n-1}`.
    fn species(n: usize) -> String {
        (0..n)
            .map(|i| {
                format!(
                    "(key: \"s{i}\", name: \"s{i}\", glyph: 'x', level: 1, hit_points: \"1d4\"),"
                )
            })
            .collect()
    }

    /// `n` rows over depths 1-250 drawing `what(i)`, weights 1 to 8, every shape.
    fn rows(n: usize, what: impl Fn(usize) -> String) -> String {
        let shapes = ["Flat", "Rise", "Fall", "Peak"];
        (0..n)
            .map(|i| {
                format!(
                    "(what: {}, depth: (1, 250), weight: {}, shape: {}),",
                    what(i),
                    i % 8 + 1,
                    shapes[i % 4]
                )
            })
            .collect()
    }

    fn file(species: &str, tables: &str) -> String {
        format!(
            "(species: [{species}], tables: [{tables}], floor: Some((table: \"floor\", depths: (1, 250), count: (dice: \"1d4\"))))"
        )
    }

    fn bench_load(bencher: Bencher, text: String) {
        bencher.bench_local(|| {
            black_box(
                denizen::tables::load(&[denizen::data::DataFile::new("bench.tables.ron", &text)])
                    .unwrap(),
            )
        });
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn wide_table(bencher: Bencher) {
        let floor = rows(10_000, |i| format!("Species(\"s{}\")", i % 50));
        bench_load(
            bencher,
            file(&species(50), &format!("(key: \"floor\", rows: [{floor}])")),
        );
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn chained_tables(bencher: Bencher) {
        let mut tables =
            String::from("(key: \"floor\", rows: [(what: Table(\"t0\"), depth: (1, 250))]),");
        for t in 0..15 {
            let inner = rows(600, |i| match t {
                14 => format!("Species(\"s{}\")", i % 50),
                _ => format!("Table(\"t{}\")", t + 1),
            });
            tables += &format!("(key: \"t{t}\", rows: [{inner}]),");
        }
        bench_load(bencher, file(&species(50), &tables));
    }

    #[divan::bench(sample_count = 20, sample_size = 1)]
    fn many_tables(bencher: Bencher) {
        let mut tables = String::from("(key: \"floor\", rows: [");
        tables += &rows(299, |t| format!("Table(\"t{t}\")"));
        tables += "]),";
        for t in 0..299 {
            let inner = rows(20, |i| format!("Species(\"s{}\")", (t * 7 + i) % 2_000));
            tables += &format!("(key: \"t{t}\", rows: [{inner}]),");
        }
        bench_load(bencher, file(&species(2_000), &tables));
    }

    #[divan::bench(sample_count = 100, sample_size = 1)]
    fn starter(bencher: Bencher) {
        bencher.bench_local(|| black_box(denizen::tables::starter().unwrap()));
    }
}
