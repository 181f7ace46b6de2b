//! Species selection for one placement: a recipe compiled for one depth, and its sampler.
//!
//! A [`Selector`] is a small graph with every formula already evaluated: draw nodes map
//! each possible value of `R(k)` to the next node, retry nodes are Omega's
//! `repeat R(k) + start until ordinary` (an outcome that loops back), and leaves are
//! species. The sampler here and the
//! exact odds in [`crate::odds`] are two readers of this one description.

use rand::Rng;

use crate::bestiary::Bestiary;
use crate::formula::Vars;
use crate::recipe::{Recipe, RecipeError};
use crate::rng::{self, BUCKETS};
use crate::species::SpeciesId;

/// Where a retry node comes from, for odds breakdowns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PoolKind {
    /// The ordinary pool at this difficulty.
    Ordinary {
        /// The difficulty the pool was drawn at.
        difficulty: i64,
    },
    /// A pick over bands `from..=to`.
    Bands {
        /// First band.
        from: u8,
        /// Last band (inclusive).
        to: u8,
    },
    /// A pick over bands `from..=to` that keeps reserved templates.
    Any {
        /// First band.
        from: u8,
        /// Last band (inclusive).
        to: u8,
    },
}

/// The most outcomes (one per value of each draw) a recipe may compile to at one depth:
/// Omega's largest level holds 538, its whole locations file 13,933. The loader also holds
/// a whole file to [`crate::location::MAX_FILE_OUTCOMES`].
pub const MAX_OUTCOMES: usize = 100_000;

/// Outcome codes at or above this are leaves: the species `code - LEAF`.
pub(crate) const LEAF: u32 = 1 << 31;

/// What a node of the graph stands for (kept for odds breakdowns; sampling ignores it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    /// A roll or table draw of the recipe.
    Draw,
    /// A pool or band pick: outcomes that are reserved species loop back to the node.
    Retry(PoolKind),
}

/// One draw: `r = R(range)`, then the outcome `targets[start + r]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) range: u32,
    pub(crate) start: u32,
    pub(crate) kind: NodeKind,
}

/// One placement's species choice at one location and depth, ready to sample.
///
/// Stored as a small automaton: each node draws `R(range)` and moves to the outcome for
/// that value, a node index or a species leaf. A retry is a node whose reserved outcomes
/// lead back to itself, so sampling is a single loop and the exact odds renormalise over
/// the outcomes that leave the node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    pub(crate) root: u32,
    pub(crate) nodes: Vec<Node>,
    pub(crate) targets: Vec<u32>,
    pub(crate) species_count: usize,
    /// The sampler's form of the same graph (see [`Step`]), derived from `nodes`.
    entry: Step,
    steps: Vec<Step>,
}

/// Consumes draws whose value changes nothing: each is one bucket's worth of words.
#[inline]
fn skip<R: Rng + ?Sized>(rng: &mut R, draws: u8) {
    for _ in 0..draws {
        rng::skip_bucket(rng);
    }
}

/// The sampler's packed form of an outcome: the next node's draw (`range` and where its
/// outcomes start) or a species, preceded by `skips` draws whose value changes nothing.
///
/// A draw whose every outcome is the same (such as an Astral coin tested against another
/// depth) still consumes its random word, as in the source; folding it into a skip count
/// keeps the stream identical while sparing the sampler a dependent load per step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step(u64);

impl Step {
    const LEAF: u64 = 1 << 63;

    fn node(node: &Node, skips: u8) -> Self {
        Self(u64::from(node.start) | u64::from(node.range) << 32 | u64::from(skips) << 48)
    }

    fn leaf(species: u32, skips: u8) -> Self {
        Self(Self::LEAF | u64::from(species) | u64::from(skips) << 48)
    }

    fn skips(self) -> u8 {
        (self.0 >> 48) as u8
    }

    fn is_leaf(self) -> bool {
        self.0 & Self::LEAF != 0
    }

    fn start(self) -> usize {
        self.0 as u32 as usize
    }

    fn range(self) -> u32 {
        (self.0 >> 32) as u16 as u32
    }
}

impl Selector {
    /// Compiles a recipe for fixed `vars` (depth and difficulty) against a bestiary.
    ///
    /// Only branches some roll can reach are compiled. Fails on a range outside
    /// `0..=10000`, a failing formula, or a pool or band pick with no ordinary species.
    pub fn compile(
        recipe: &Recipe,
        vars: Vars,
        bestiary: &Bestiary,
        path: &str,
    ) -> Result<Self, RecipeError> {
        let mut compiler = Compiler {
            nodes: Vec::new(),
            targets: Vec::new(),
            vars,
            bestiary,
        };
        let root = compiler.compile(recipe, path)?;
        let mut selector = Self {
            root,
            nodes: compiler.nodes,
            targets: compiler.targets,
            species_count: bestiary.species().len(),
            entry: Step(0),
            steps: Vec::new(),
        };
        // Each node's sole outcome, if every value of its draw leads to the same other
        // place: found once per node, so deriving the steps is linear in the outcomes.
        let sole: Vec<Option<u32>> = (0..selector.nodes.len())
            .map(|at| {
                let outcomes = selector.outcomes(&selector.nodes[at]);
                (outcomes.iter().all(|&o| o == outcomes[0]) && outcomes[0] != at as u32)
                    .then_some(outcomes[0])
            })
            .collect();
        selector.entry = selector.step(&sole, root, 0);
        selector.steps = selector
            .targets
            .iter()
            .map(|&t| selector.step(&sole, t, 0))
            .collect();
        Ok(selector)
    }

    /// The packed step for an outcome, folding draws that cannot change the result
    /// (every outcome the same, `sole`) into the skip count. `R(0)` draws nothing, so it
    /// folds without a skip.
    fn step(&self, sole: &[Option<u32>], target: u32, skips: u8) -> Step {
        let Some(node) = self.nodes.get(target as usize) else {
            return Step::leaf(target - LEAF, skips);
        };
        let draws = u8::from(node.range > 0);
        match (sole[target as usize], skips.checked_add(draws)) {
            (Some(next), Some(more)) => self.step(sole, next, more),
            _ => Step::node(node, skips),
        }
    }

    /// How many outcomes the compiled graph holds (one per value of each node's draw):
    /// its size.
    pub fn outcome_count(&self) -> usize {
        self.targets.len()
    }

    /// The ordinary pool alone at a difficulty (what `m_create` draws from).
    pub fn ordinary_pool(bestiary: &Bestiary, difficulty: i64) -> Result<Self, RecipeError> {
        let vars = Vars {
            depth: 1,
            difficulty,
            roll: None,
        };
        Self::compile(&Recipe::Pool, vars, bestiary, "pool")
    }

    /// Draws the species of one placement, with the source's order of random calls.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> SpeciesId {
        let mut step = self.entry;
        loop {
            if step.skips() != 0 {
                skip(rng, step.skips());
            }
            if step.is_leaf() {
                return SpeciesId(step.0 as u16);
            }
            step = self.steps[step.start() + rng::range(rng, step.range()) as usize];
        }
    }

    /// The outcomes of one node, indexed by the value drawn.
    pub(crate) fn outcomes(&self, node: &Node) -> &[u32] {
        let start = node.start as usize;
        &self.targets[start..start + node.range.max(1) as usize]
    }
}

struct Compiler<'a> {
    nodes: Vec<Node>,
    targets: Vec<u32>,
    vars: Vars,
    bestiary: &'a Bestiary,
}

impl Compiler<'_> {
    /// Adds a node with one outcome per value of `R(range)`; returns its index.
    fn push(
        &mut self,
        range: u32,
        kind: NodeKind,
        outcomes: Vec<u32>,
        path: &str,
    ) -> Result<u32, RecipeError> {
        debug_assert_eq!(outcomes.len(), range.max(1) as usize);
        if self.targets.len() + outcomes.len() > MAX_OUTCOMES {
            return Err(Self::fail(
                path,
                format!(
                    "the recipe compiles to more than {MAX_OUTCOMES} outcomes at depth {}",
                    self.vars.depth
                ),
            ));
        }
        self.nodes.push(Node {
            range,
            start: self.targets.len() as u32,
            kind,
        });
        self.targets.extend(outcomes);
        Ok((self.nodes.len() - 1) as u32)
    }

    fn fail(field: &str, problem: impl Into<String>) -> RecipeError {
        RecipeError {
            field: field.to_owned(),
            problem: problem.into(),
        }
    }

    fn compile(&mut self, recipe: &Recipe, path: &str) -> Result<u32, RecipeError> {
        match recipe {
            Recipe::Species(id) => Ok(LEAF + u32::from(id.0)),
            Recipe::Pool => {
                let difficulty = self.vars.difficulty;
                let range = self.bestiary.pool_boundary(difficulty);
                self.retry(0..range, PoolKind::Ordinary { difficulty }, path)
            }
            Recipe::Bands { from, to, retry } => {
                let span = self.bestiary.bands(*from, *to);
                if !retry {
                    if span.is_empty() {
                        return Err(Self::fail(
                            path,
                            format!("bands {from}..={to} hold no species"),
                        ));
                    }
                    let kind = NodeKind::Retry(PoolKind::Any {
                        from: *from,
                        to: *to,
                    });
                    let outcomes = span.clone().map(|i| LEAF + i as u32).collect();
                    return self.push((span.end - span.start) as u32, kind, outcomes, path);
                }
                let kind = PoolKind::Bands {
                    from: *from,
                    to: *to,
                };
                self.retry(span, kind, path)
            }
            Recipe::If {
                when,
                then,
                otherwise,
            } => {
                let holds = when
                    .truth(&self.vars)
                    .map_err(|e| Self::fail(&format!("{path}.when"), e.to_string()))?;
                if holds {
                    self.compile(then, &format!("{path}.then"))
                } else {
                    self.compile(otherwise, &format!("{path}.otherwise"))
                }
            }
            Recipe::Roll {
                range,
                when,
                then,
                otherwise,
            } => {
                let k = self.range(range, path)?;
                let mut targets = [None, None];
                let mut outcomes = Vec::with_capacity(k.max(1) as usize);
                for r in 0..k.max(1) {
                    let vars = Vars {
                        roll: Some(i64::from(r)),
                        ..self.vars
                    };
                    let holds = when
                        .truth(&vars)
                        .map_err(|e| Self::fail(&format!("{path}.when"), e.to_string()))?;
                    let (slot, branch, field) = if holds {
                        (0, then, "then")
                    } else {
                        (1, otherwise, "otherwise")
                    };
                    let target = match targets[slot] {
                        Some(t) => t,
                        None => {
                            let t = self.compile(branch, &format!("{path}.{field}"))?;
                            targets[slot] = Some(t);
                            t
                        }
                    };
                    outcomes.push(target);
                }
                self.draw(k, outcomes, path)
            }
            Recipe::Table {
                range,
                entries,
                beyond,
            } => {
                let k = self.range(range, path)?;
                let mut beyond_node = None;
                let mut outcomes = Vec::with_capacity(k.max(1) as usize);
                for r in 0..k.max(1) as usize {
                    let target = match entries.get(r) {
                        Some(entry) => self.compile(entry, &format!("{path}.entries[{r}]"))?,
                        None => match beyond_node {
                            Some(t) => t,
                            None => {
                                let t = self.compile(beyond, &format!("{path}.beyond"))?;
                                beyond_node = Some(t);
                                t
                            }
                        },
                    };
                    outcomes.push(target);
                }
                self.draw(k, outcomes, path)
            }
        }
    }

    fn draw(&mut self, range: u32, outcomes: Vec<u32>, path: &str) -> Result<u32, RecipeError> {
        self.push(range, NodeKind::Draw, outcomes, path)
    }

    fn range(&self, formula: &crate::formula::Formula, path: &str) -> Result<u32, RecipeError> {
        let field = format!("{path}.range");
        let k = formula
            .number(&self.vars)
            .map_err(|e| Self::fail(&field, e.to_string()))?;
        u32::try_from(k)
            .ok()
            .filter(|&k| k <= BUCKETS)
            .ok_or_else(|| {
                Self::fail(
                    &field,
                    format!(
                        "`{}` gives {k} at depth {}: a range must be 0..={BUCKETS}",
                        formula.text(),
                        self.vars.depth
                    ),
                )
            })
    }

    fn retry(
        &mut self,
        span: std::ops::Range<usize>,
        kind: PoolKind,
        path: &str,
    ) -> Result<u32, RecipeError> {
        let range = (span.end - span.start) as u32;
        let ordinary = self.bestiary.ordinary_mask();
        if !self.bestiary.can_draw_ordinary(span.clone()) {
            return Err(Self::fail(
                path,
                format!(
                    "{kind:?} covers species {}..{} and none that R({range}) can give is \
                     ordinary: the retry would never end",
                    span.start, span.end
                ),
            ));
        }
        // Reserved species lead back to this node: Omega's `repeat ... until COMMON`.
        let itself = self.nodes.len() as u32;
        let outcomes = span
            .map(|i| if ordinary[i] { LEAF + i as u32 } else { itself })
            .collect();
        self.push(range, NodeKind::Retry(kind), outcomes, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OmegaRules;
    use denizen_core::rng::{StreamPurpose, WorldSeed};

    /// The plain walk of the graph, one node per draw: the reference the packed sampler
    /// must match word for word.
    fn walk<R: Rng>(selector: &Selector, rng: &mut R) -> SpeciesId {
        let mut at = selector.root;
        while at < LEAF {
            let node = selector.nodes[at as usize];
            at = selector.outcomes(&node)[rng::range(rng, node.range) as usize];
        }
        SpeciesId((at - LEAF) as u16)
    }

    #[test]
    fn packed_sampler_draws_exactly_like_the_plain_walk() {
        let rules = OmegaRules::shipped();
        for env in rules.locations.environments() {
            for level in env.levels() {
                let purpose = StreamPurpose::new("walk").with(level.depth.into());
                let mut a = WorldSeed(3).stream(purpose);
                let mut b = WorldSeed(3).stream(purpose);
                for _ in 0..2000 {
                    assert_eq!(level.selector.sample(&mut a), walk(&level.selector, &mut b));
                }
                assert_eq!(a.next_u32(), b.next_u32(), "same words consumed");
            }
        }
    }

    /// Recipes the shipped data does not have: a draw that cannot change the species folded
    /// straight into a leaf (its word still drawn), `R(0)` (nothing drawn) folded away, and
    /// a band pick that keeps reserved templates starting past band 0. The packed sampler
    /// must draw word for word like the plain walk, and the pick must be uniform over its
    /// bands.
    #[test]
    fn folded_draws_and_band_picks_off_the_shipped_paths() {
        use crate::recipe::RecipeData;
        let rules = OmegaRules::shipped();
        let species = |key: &str| Box::new(RecipeData::Species(key.into()));
        let roll = |range: &str, when: &str| RecipeData::Roll {
            range: range.into(),
            when: when.into(),
            then: species("goblin"),
            otherwise: species("hornet"),
        };
        let picks = RecipeData::Bands {
            from: 1,
            to: 3,
            retry: false,
        };
        let vars = Vars {
            depth: 2,
            difficulty: 2,
            roll: None,
        };
        for (data, words) in [(roll("10", "D == 1"), 1), (roll("0", "r == 0"), 0)] {
            let recipe = Recipe::from_data(&data, &rules.bestiary, "recipe").unwrap();
            let selector = Selector::compile(&recipe, vars, &rules.bestiary, "recipe").unwrap();
            let mut a = WorldSeed(4).stream(StreamPurpose::new("fold"));
            let mut b = WorldSeed(4).stream(StreamPurpose::new("fold"));
            for _ in 0..200 {
                assert_eq!(selector.sample(&mut a), walk(&selector, &mut b));
            }
            assert_eq!(a.next_u32(), b.next_u32(), "same words consumed");
            let mut c = WorldSeed(4).stream(StreamPurpose::new("fold"));
            for _ in 0..200 {
                selector.sample(&mut c);
            }
            let mut d = WorldSeed(4).stream(StreamPurpose::new("fold"));
            for _ in 0..200 * words {
                rng::skip_bucket(&mut d);
            }
            assert_eq!(c.next_u32(), d.next_u32(), "{words} word(s) a placement");
        }
        let recipe = Recipe::from_data(&picks, &rules.bestiary, "recipe").unwrap();
        let selector = Selector::compile(&recipe, vars, &rules.bestiary, "recipe").unwrap();
        let odds = crate::Odds::of(&selector);
        let span = rules.bestiary.bands(1, 3);
        assert_eq!(odds.nonzero().count(), span.len());
        for (id, p) in odds.nonzero() {
            assert!(span.contains(&id.index()));
            let bucket = id.index() - span.start;
            let expected = f64::from(rng::bucket_weight(bucket as u32, span.len() as u32));
            assert!((p - expected / 10_000.0).abs() < 1e-15);
        }
    }

    #[test]
    fn astral_depth_tests_for_other_depths_become_skips() {
        let rules = OmegaRules::shipped();
        let astral = rules.locations.get("astral").unwrap();
        let selector = &astral.level(3).unwrap().selector;
        let skips: Vec<u8> = selector.steps.iter().map(|s| s.skips()).collect();
        // Tails heads to the depth-1 and depth-2 coins (2 skips) before the depth-3 coin,
        // and past it the depth-4 and depth-5 coins (2 skips) before the pool.
        assert!(skips.contains(&2), "{skips:?}");
    }
}
