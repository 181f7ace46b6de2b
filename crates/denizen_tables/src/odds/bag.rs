//! A bag table's draw, every copy followed: the bag's contents are part of the exact
//! state, interned as a number, so a walk's outcomes join and are remembered by them.

use std::collections::BTreeMap;

use super::{Dist, Exact, MAX_EXACT_STATES, State};
use crate::bag::{self, Bags};
use crate::bestiary::TableId;
use crate::walk::Reading;

impl Exact<'_> {
    /// The number of `bags` among the bag states met (a new one is added).
    fn bag_id(&mut self, bags: Bags) -> u32 {
        if let Some(&id) = self.bag_ids.get(&bags) {
            return id;
        }
        let id = self.bag_sets.len() as u32;
        self.overflow |= u64::from(id) >= MAX_EXACT_STATES;
        self.bag_ids.insert(bags.clone(), id);
        self.bag_sets.push(bags);
        id
    }

    /// A draw from the bag of `t` at `depth`: each copy with its share; a copy of a row
    /// no longer eligible is taken out and the draw goes on from the bag left, bags with
    /// more copies first (a draw only ever takes copies out), so each bag is taken once.
    pub(super) fn bag_draw(
        &mut self,
        at: State,
        (t, depth): (TableId, u32),
        row: &mut impl FnMut(&mut Self, State, usize) -> Dist,
    ) -> Dist {
        if self.overflow {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut live: BTreeMap<(std::cmp::Reverse<u32>, u32), f64> = BTreeMap::new();
        live.insert((std::cmp::Reverse(u32::MAX), at.bags), 1.0);
        while let Some(((_, id), p)) = live.pop_first() {
            let mut bags = self.bag_sets[id as usize].clone();
            let (b, c) = (self.b, &self.c);
            let available = |k| self.available(at, k);
            let Some(copies) = bags.ready(b, (t, depth), c, &available) else {
                Self::branch(&mut out, p, || self.nothing(at));
                continue;
            };
            let copies = copies.to_vec();
            let dealt: Vec<bool> = (copies.iter())
                .map(|&(i, _)| bag::dealt(b, (t, depth), c, i as usize, &available))
                .collect();
            let total = f64::from(bag::total(&copies));
            for (j, &(i, n)) in copies.iter().enumerate() {
                let mut left = bags.clone();
                left.take_row((t, depth), j);
                let after = bag::total(left.copies(t, depth));
                let share = p * f64::from(n) / total;
                let next = self.bag_id(left);
                let mut from = at;
                from.bags = next;
                match dealt[j] {
                    true => Self::branch(&mut out, share, || row(self, from, i as usize)),
                    false => *live.entry((std::cmp::Reverse(after), next)).or_insert(0.0) += share,
                }
            }
        }
        out
    }
}
