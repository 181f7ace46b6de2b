//! The numbers a save gives its entities: canonical, so equal worlds save the same bytes
//! whatever ids Bevy handed their entities and in whatever order they were spawned (a
//! world loaded from a save has new ones, in the save's order).
//!
//! Each saved entity is first ordered by the text of its saved components with every link
//! to another entity blanked (a member's group, a follower's leader): the floor, the
//! square, the kind of creature and everything about it. Entities that tie (the same in
//! every value but their links: two like items carried by two members) are then told
//! apart by what they link to and what links to them: each entity's place is refined by
//! the places of the entities at the ends of its links (each link's component path and
//! position kept), again and again until no tie splits further. Entities still tied are
//! interchangeable (nothing in the world tells them apart): one is set first and the
//! places refined again, until every entity has its own place, so which one was first
//! changes nothing written. Entities get the numbers 1, 2, 3, ... in that order, and every
//! link is written as the number of the entity it names.

use bevy_ecs::entity::{Entity, EntityHashMap};
use bevy_reflect::serde::TypedReflectSerializer;
use bevy_reflect::{PartialReflect, TypeRegistry};

use super::SaveError;
use super::format::Value;
use super::links::{entities_in, names_entities, renumber};

/// An entity found for the save, with its saved components and their type paths.
pub(super) type Found<'w> = (Entity, Vec<(&'static str, &'w dyn PartialReflect)>);

/// The canonical number of every entity found (see the [module](self)).
pub(super) fn canonical(
    found: &[Found<'_>],
    registry: &TypeRegistry,
) -> Result<EntityHashMap<Entity>, SaveError> {
    let keys = found
        .iter()
        .map(|(_, components)| key(components, registry))
        .collect::<Result<Vec<_>, _>>()?;
    let links = links(found);
    let places = individualise(refine(ranks(&keys), &links), &links);
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_unstable_by_key(|&i| places[i]);
    let mut numbering = EntityHashMap::default();
    for (number, i) in order.into_iter().enumerate() {
        // The entity whose id the save writes as `number + 1`.
        let saved = u64::try_from(number + 1)
            .ok()
            .and_then(Entity::try_from_bits)
            .ok_or_else(|| SaveError::Write {
                type_path: "the entities".into(),
                message: "more entities than a save numbers".into(),
            })?;
        numbering.insert(found[i].0, saved);
    }
    Ok(numbering)
}

/// One link between two found entities: the component that holds it (its path), the
/// link's position among that component's, and the other end's index.
type Link = (&'static str, usize, usize);

/// Every found entity's links: those it holds, and those that name it.
struct Links {
    out: Vec<Vec<Link>>,
    into: Vec<Vec<Link>>,
}

/// The links between found entities (a link to an entity not found is refused later,
/// when the values are written).
fn links(found: &[Found<'_>]) -> Links {
    let index: EntityHashMap<usize> = found
        .iter()
        .enumerate()
        .map(|(i, (e, _))| (*e, i))
        .collect();
    let mut links = Links {
        out: vec![Vec::new(); found.len()],
        into: vec![Vec::new(); found.len()],
    };
    let mut named = Vec::new();
    for (source, (_, components)) in found.iter().enumerate() {
        for &(path, value) in components {
            named.clear();
            entities_in(value, &mut named);
            for (position, target) in named.iter().enumerate() {
                if let Some(&target) = index.get(target) {
                    links.out[source].push((path, position, target));
                    links.into[target].push((path, position, source));
                }
            }
        }
    }
    links
}

/// Each value's rank among the distinct values (equal values, equal ranks).
fn ranks<T: Ord>(values: &[T]) -> Vec<usize> {
    let mut sorted: Vec<&T> = values.iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    values
        .iter()
        .map(|v| sorted.binary_search(&v).unwrap_or_default())
        .collect()
}

/// Gives every entity a place of its own: while some entities still tie after refining,
/// the first of the first tie (in the world's order) is set before the others and the
/// places are refined again, until none tie. Entities that tie after refining are alike in
/// everything the save holds, their links included (the saves' links make forests, where
/// refining finds exactly the entities a swap of the world maps onto each other), so which
/// of them is set first does not change the bytes; setting one apart and refining again
/// places its partners accordingly (two like holders of two like items: the holder set
/// first and its item come before the other holder and its item, however they were
/// spawned).
fn individualise(mut places: Vec<usize>, links: &Links) -> Vec<usize> {
    loop {
        let mut by_place: Vec<(usize, usize)> =
            places.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        by_place.sort_unstable();
        let Some(tie) = by_place.windows(2).find(|pair| pair[0].0 == pair[1].0) else {
            return places;
        };
        let (tied, first) = (tie[0].0, tie[0].1);
        let split: Vec<usize> = places
            .iter()
            .enumerate()
            .map(|(i, &p)| 2 * p + usize::from(p == tied && i != first))
            .collect();
        places = refine(ranks(&split), links);
    }
}

/// Refines the places `places` by the places at the ends of every entity's links until no
/// tie splits. A refined place keeps the earlier order (an entity's old place comes first
/// in what it is ranked by), so entities that did not tie keep their order; each round
/// splits at least one tie or ends, so it ends within as many rounds as entities.
fn refine(mut places: Vec<usize>, links: &Links) -> Vec<usize> {
    let mut distinct = places.iter().max().map_or(0, |&m| m + 1);
    loop {
        let ends = |list: &[Link]| {
            let mut ends: Vec<(&str, usize, usize)> = list
                .iter()
                .map(|&(path, position, other)| (path, position, places[other]))
                .collect();
            ends.sort_unstable();
            ends
        };
        let signatures: Vec<_> = (0..places.len())
            .map(|i| (places[i], ends(&links.out[i]), ends(&links.into[i])))
            .collect();
        let refined = ranks(&signatures);
        let now = refined.iter().max().map_or(0, |&m| m + 1);
        if now == distinct {
            return places;
        }
        (places, distinct) = (refined, now);
    }
}

/// What an entity is ordered by: its components' texts in their paths' order, links
/// blanked.
fn key(
    components: &[(&'static str, &dyn PartialReflect)],
    registry: &TypeRegistry,
) -> Result<Vec<(&'static str, String)>, SaveError> {
    let mut key = Vec::with_capacity(components.len());
    for &(path, value) in components {
        let text = if names_entities(value) {
            let mut blanked = dynamic(path, value)?;
            // Blanking cannot fail: no numbering is asked of it.
            let _ = renumber(blanked.as_mut(), None);
            text_of(path, blanked.as_ref(), registry)?
        } else {
            text_of(path, value, registry)?
        };
        key.push((path, text));
    }
    key.sort();
    Ok(key)
}

/// A saved value as written: itself, or a copy whose links name the entities' numbers.
/// A link to an entity the save does not hold is refused: the save could not be loaded.
pub(super) fn renumbered<'w>(
    path: &'static str,
    value: &'w dyn PartialReflect,
    numbering: &EntityHashMap<Entity>,
) -> Result<Value<'w>, SaveError> {
    if !names_entities(value) {
        return Ok(Value::Borrowed(value));
    }
    let mut copy = dynamic(path, value)?;
    renumber(copy.as_mut(), Some(numbering)).map_err(|entity| SaveError::Write {
        type_path: path.to_owned(),
        message: format!("it names entity {entity}, which is on no floor, so no save holds it"),
    })?;
    Ok(Value::Owned(copy))
}

/// A copy of a value whose links can be changed.
fn dynamic(path: &str, value: &dyn PartialReflect) -> Result<Box<dyn PartialReflect>, SaveError> {
    value.to_dynamic().map_err(|e| SaveError::Write {
        type_path: path.to_owned(),
        message: e.to_string(),
    })
}

/// A value's text, as the save writes it.
fn text_of(
    path: &str,
    value: &dyn PartialReflect,
    registry: &TypeRegistry,
) -> Result<String, SaveError> {
    ron::to_string(&TypedReflectSerializer::new(value, registry)).map_err(|e| SaveError::Write {
        type_path: path.to_owned(),
        message: e.to_string(),
    })
}
