//! Species selection for one placement: a recipe compiled for one depth, and its sampler.
//!
//! A [`Selector`] is a small graph with every formula already evaluated: draw nodes map
//! each possible value of `R(k)` to the next node, retry nodes are Omega's
//! `repeat R(k) + start until ordinary`, and leaves are species. The sampler here and the
//! exact odds in [`crate::odds`] are two readers of this one description.

use rand::Rng;

use crate::catalogue::{Catalogue, SpeciesId};
use crate::formula::Vars;
use crate::recipe::{Recipe, RecipeError};
use crate::rng::{self, BUCKETS};

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
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    Species(SpeciesId),
    /// `r = R(range)`, then go to `outcomes[r]` (one outcome when `range` is 0).
    Draw {
        range: u32,
        outcomes: Box<[u32]>,
    },
    /// `repeat v = R(range) until ordinary[start + v]`, giving species `start + v`.
    Retry {
        start: u32,
        range: u32,
        kind: PoolKind,
    },
}

/// One placement's species choice at one location and depth, ready to sample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    pub(crate) nodes: Vec<Node>,
    pub(crate) ordinary: Box<[bool]>,
}

impl Selector {
    /// Compiles a recipe for fixed `vars` (depth and difficulty) against a catalogue.
    ///
    /// Only branches some roll can reach are compiled. Fails on a range outside
    /// `0..=10000`, a failing formula, or a pool or band pick with no ordinary species.
    pub fn compile(
        recipe: &Recipe,
        vars: Vars,
        catalogue: &Catalogue,
        path: &str,
    ) -> Result<Self, RecipeError> {
        let mut compiler = Compiler {
            nodes: Vec::new(),
            vars,
            catalogue,
        };
        compiler.compile(recipe, path)?;
        Ok(Self {
            nodes: compiler.nodes,
            ordinary: catalogue.ordinary_mask().into(),
        })
    }

    /// The ordinary pool alone at a difficulty (what `m_create` draws from).
    pub fn ordinary_pool(catalogue: &Catalogue, difficulty: i64) -> Result<Self, RecipeError> {
        let vars = Vars {
            depth: 1,
            difficulty,
            roll: None,
        };
        Self::compile(&Recipe::Pool, vars, catalogue, "pool")
    }

    /// Draws the species of one placement, with the source's order of random calls.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> SpeciesId {
        let mut at = self.nodes.len() - 1;
        loop {
            match &self.nodes[at] {
                Node::Species(id) => return *id,
                Node::Draw { range, outcomes } => {
                    at = outcomes[rng::range(rng, *range) as usize] as usize;
                }
                Node::Retry { start, range, .. } => loop {
                    let id = start + rng::range(rng, *range);
                    if self.ordinary[id as usize] {
                        return SpeciesId(id as u16);
                    }
                },
            }
        }
    }

    /// The root node's index (nodes are stored children first).
    pub(crate) fn root(&self) -> usize {
        self.nodes.len() - 1
    }
}

struct Compiler<'a> {
    nodes: Vec<Node>,
    vars: Vars,
    catalogue: &'a Catalogue,
}

impl Compiler<'_> {
    fn push(&mut self, node: Node) -> u32 {
        self.nodes.push(node);
        (self.nodes.len() - 1) as u32
    }

    fn fail(field: &str, problem: impl Into<String>) -> RecipeError {
        RecipeError {
            field: field.to_owned(),
            problem: problem.into(),
        }
    }

    fn compile(&mut self, recipe: &Recipe, path: &str) -> Result<u32, RecipeError> {
        match recipe {
            Recipe::Species(id) => Ok(self.push(Node::Species(*id))),
            Recipe::Pool => {
                let difficulty = self.vars.difficulty;
                let range = self.catalogue.pool_boundary(difficulty);
                self.retry(0..range, PoolKind::Ordinary { difficulty }, path)
            }
            Recipe::Bands { from, to } => {
                let span = self.catalogue.bands(*from, *to);
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
                Ok(self.draw(k, outcomes))
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
                Ok(self.draw(k, outcomes))
            }
        }
    }

    fn draw(&mut self, range: u32, outcomes: Vec<u32>) -> u32 {
        self.push(Node::Draw {
            range,
            outcomes: outcomes.into(),
        })
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
        if !self.catalogue.ordinary_mask()[span.clone()].contains(&true) {
            return Err(Self::fail(
                path,
                format!(
                    "{kind:?} covers species {}..{} and none of them is ordinary: \
                     the retry would never end",
                    span.start, span.end
                ),
            ));
        }
        Ok(self.push(Node::Retry {
            start: span.start as u32,
            range: (span.end - span.start) as u32,
            kind,
        }))
    }
}
