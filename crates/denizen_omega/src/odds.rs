//! Exact odds: the probability of each species for one placement, read from a [`Selector`].
//!
//! Every draw is weighted by its bucket count out of 10,000 (see [`crate::rng`]), and a
//! retry renormalises over the ordinary species in its span. The arithmetic is `f64`: each
//! probability is a short sum of products of such fractions, exact to about 1e-15.

use std::collections::BTreeMap;

use crate::rng::bucket_weight;
use crate::select::{LEAF, NodeKind, PoolKind, Selector};
use crate::species::SpeciesId;

/// Where a placement's species comes from: a species named by the recipe, or a pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Branch {
    /// A species the recipe names directly.
    Species(SpeciesId),
    /// A draw from the ordinary pool or a band pick.
    Pool(PoolKind),
}

/// The exact odds of one placement.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    species: Vec<f64>,
    branches: Vec<(Branch, f64)>,
}

impl Odds {
    /// Computes the odds of a selector.
    pub fn of(selector: &Selector) -> Self {
        let mut species = vec![0.0f64; selector.species_count];
        let mut branches: BTreeMap<Branch, f64> = BTreeMap::new();
        let mut add_branch = |branch: Branch, p: f64| *branches.entry(branch).or_default() += p;
        let mut mass = vec![0.0f64; selector.nodes.len()];
        match selector.root.checked_sub(LEAF) {
            Some(leaf) => {
                species[leaf as usize] = 1.0;
                add_branch(Branch::Species(SpeciesId(leaf as u16)), 1.0);
            }
            None => mass[selector.root as usize] = 1.0,
        }
        // A node's outcomes are stored before it (or are the node itself, for a retry),
        // so one backwards pass moves all mass to the leaves.
        for at in (0..selector.nodes.len()).rev() {
            let p = mass[at];
            if p == 0.0 {
                continue;
            }
            let node = &selector.nodes[at];
            let outcomes = selector.outcomes(node);
            let weight = |r: usize| f64::from(bucket_weight(r as u32, node.range));
            // Outcomes that lead back here are redrawn: renormalise over the others.
            let leaving: f64 = (0..outcomes.len())
                .filter(|&r| outcomes[r] != at as u32)
                .map(weight)
                .sum();
            for (r, &target) in outcomes.iter().enumerate() {
                if target == at as u32 {
                    continue;
                }
                let share = p * weight(r) / leaving;
                match target.checked_sub(LEAF) {
                    Some(leaf) => {
                        species[leaf as usize] += share;
                        if node.kind == NodeKind::Draw {
                            add_branch(Branch::Species(SpeciesId(leaf as u16)), share);
                        }
                    }
                    None => mass[target as usize] += share,
                }
            }
            if let NodeKind::Retry(kind) = node.kind {
                add_branch(Branch::Pool(kind), p);
            }
        }
        Self {
            species,
            branches: branches.into_iter().collect(),
        }
    }

    /// Probability of each species, indexed by bestiary position.
    pub fn by_species(&self) -> &[f64] {
        &self.species
    }

    /// Probability of one species.
    pub fn species(&self, id: SpeciesId) -> f64 {
        self.species[id.index()]
    }

    /// The species that can appear, with their probabilities, in bestiary order.
    pub fn nonzero(&self) -> impl Iterator<Item = (SpeciesId, f64)> + '_ {
        self.species
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p > 0.0)
            .map(|(i, &p)| (SpeciesId(i as u16), p))
    }

    /// The recipe's direct branches and pools with the probability of reaching each.
    pub fn branches(&self) -> &[(Branch, f64)] {
        &self.branches
    }
}
