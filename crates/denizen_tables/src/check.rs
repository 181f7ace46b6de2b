//! The structure a bestiary must have, checked once at load so the draw and the odds can
//! rely on it: leaders and followers are one creature each, escorts have no leader of
//! their own, and tables and groups nest without a cycle and at most [`MAX_NESTING`] deep.

use denizen_core::{DataError, quoted};

use crate::bestiary::{Bestiary, Creature, RowTarget, TableId};
use crate::file::PickKind;
use crate::merge::Merged;

/// The deepest tables and groups may nest (a table's row naming a table counts one).
pub const MAX_NESTING: usize = 16;

/// A table or a group, as a node of the nesting graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Table(u32),
    Group(u32),
}

/// Every structure check, in order.
pub(crate) fn check(b: &Bestiary, merged: &Merged) -> Result<(), DataError> {
    let files = Files::new(merged);
    check_creatures(b, &files)?;
    check_escorts(b, &files)?;
    check_nesting(b, &files)?;
    check_sizes(b, &files)
}

/// The most creatures one placement may bring: a floor of [`MAX_PLACEMENTS`] placements
/// then holds at most 100,000.
///
/// [`MAX_PLACEMENTS`]: crate::MAX_PLACEMENTS
pub const MAX_PER_PLACEMENT: u64 = 200;

/// No table's draw can bring more than [`MAX_PER_PLACEMENT`] creatures (pick-each tables
/// nested in each other multiply their counts). Runs after the nesting check, so the walk
/// ends; each table is sized once.
fn check_sizes(b: &Bestiary, files: &Files) -> Result<(), DataError> {
    let mut sizes = vec![None; b.tables.len()];
    for t in 0..b.tables.len() as u32 {
        let most = table_size(b, TableId(t), &mut sizes);
        if most > MAX_PER_PLACEMENT {
            let problem = format!(
                "one draw of it can bring {most} creatures, more than the {MAX_PER_PLACEMENT} a placement may"
            );
            return Err(files.error(b, Node::Table(t), "rows", problem));
        }
    }
    Ok(())
}

/// The most creatures one draw of a table brings (saturating).
fn table_size(b: &Bestiary, table: TableId, sizes: &mut [Option<u64>]) -> u64 {
    if let Some(size) = sizes[table.0 as usize] {
        return size;
    }
    let t = b.table(table);
    let followers = |g: crate::bestiary::GroupId| -> u64 {
        b.group(g)
            .followers
            .iter()
            .map(|f| u64::from(f.count.bounds().1))
            .sum()
    };
    let mut size = 0u64;
    for row in &t.rows {
        let one = match row.what {
            RowTarget::Species(s) => 1 + b.species_of(s).escort.map_or(0, followers),
            RowTarget::Group(g) => 1 + followers(g),
            RowTarget::Table(inner) => table_size(b, inner, sizes),
        };
        size = match t.pick {
            PickKind::One => size.max(one),
            PickKind::Each => {
                size.saturating_add(one.saturating_mul(u64::from(row.count.bounds().1)))
            }
        };
    }
    sizes[table.0 as usize] = Some(size);
    size
}

/// The file of every table and group, by id.
struct Files {
    species: Vec<String>,
    tables: Vec<String>,
    groups: Vec<String>,
}

impl Files {
    fn new(merged: &Merged) -> Self {
        Self {
            species: merged.species.live().map(|w| w.file.clone()).collect(),
            tables: merged.tables.live().map(|w| w.file.clone()).collect(),
            groups: merged.groups.live().map(|w| w.file.clone()).collect(),
        }
    }

    fn error(&self, b: &Bestiary, node: Node, field: &str, problem: String) -> DataError {
        let (file, entry) = match node {
            Node::Table(i) => (
                &self.tables[i as usize],
                format!("tables[{i}] {}", quoted(&b.tables[i as usize].key)),
            ),
            Node::Group(i) => (
                &self.groups[i as usize],
                format!("groups[{i}] {}", quoted(&b.groups[i as usize].key)),
            ),
        };
        DataError::invalid(file, entry, field, problem)
    }
}

/// Whether a table gives one creature: pick-one, its rows species or such tables. Each
/// table is judged once (`known`), so a table named many times costs nothing more.
fn is_creature_table(
    b: &Bestiary,
    table: TableId,
    depth: usize,
    known: &mut [Option<bool>],
) -> bool {
    if let Some(known) = known[table.0 as usize] {
        return known;
    }
    let t = b.table(table);
    let creature = depth <= MAX_NESTING
        && t.pick == PickKind::One
        && t.rows.iter().all(|row| match row.what {
            RowTarget::Species(_) => true,
            RowTarget::Table(inner) => is_creature_table(b, inner, depth + 1, known),
            RowTarget::Group(_) => false,
        });
    known[table.0 as usize] = Some(creature);
    creature
}

fn check_creatures(b: &Bestiary, files: &Files) -> Result<(), DataError> {
    let mut known = vec![None; b.tables.len()];
    for (g, group) in b.groups.iter().enumerate() {
        let members = group
            .leader
            .iter()
            .map(|c| ("leader".to_owned(), *c))
            .chain(
                group
                    .followers
                    .iter()
                    .enumerate()
                    .map(|(i, f)| (format!("followers[{i}].member"), f.member)),
            );
        for (field, member) in members {
            if let Creature::Table(t) = member
                && !is_creature_table(b, t, 0, &mut known)
            {
                let problem = format!(
                    "the table {} does not give one creature: a leader's or a follower's table is pick-one, its rows species or such tables",
                    quoted(&b.table(t).key)
                );
                return Err(files.error(b, Node::Group(g as u32), &field, problem));
            }
        }
    }
    Ok(())
}

fn check_escorts(b: &Bestiary, files: &Files) -> Result<(), DataError> {
    for (s, species) in b.species.iter().enumerate() {
        if let Some(g) = species.escort
            && b.group(g).leader.is_some()
        {
            let problem = format!(
                "the escort {} has a leader: an escort's leader is the species that names it",
                quoted(&b.group(g).key)
            );
            return Err(DataError::invalid(
                &files.species[s],
                format!("species[{s}] {}", quoted(&species.key)),
                "escort",
                problem,
            ));
        }
    }
    for (t, table) in b.tables.iter().enumerate() {
        for (i, row) in table.rows.iter().enumerate() {
            if let RowTarget::Group(g) = row.what
                && b.group(g).leader.is_none()
            {
                let problem = format!(
                    "the group {} has no leader: only a species' escort goes without one",
                    quoted(&b.group(g).key)
                );
                return Err(files.error(
                    b,
                    Node::Table(t as u32),
                    &format!("rows[{i}].what"),
                    problem,
                ));
            }
        }
    }
    Ok(())
}

/// What a node draws directly: nested tables, groups, and the escorts of species rows.
fn children(b: &Bestiary, node: Node) -> Vec<Node> {
    let table_of = |c: &Creature| match c {
        Creature::Table(t) => Some(Node::Table(t.0)),
        Creature::Species(_) => None,
    };
    match node {
        Node::Table(t) => b.tables[t as usize]
            .rows
            .iter()
            .filter_map(|row| match row.what {
                RowTarget::Table(inner) => Some(Node::Table(inner.0)),
                RowTarget::Group(g) => Some(Node::Group(g.0)),
                RowTarget::Species(s) => b.species_of(s).escort.map(|g| Node::Group(g.0)),
            })
            .collect(),
        Node::Group(g) => {
            let group = &b.groups[g as usize];
            group
                .leader
                .iter()
                .chain(group.followers.iter().map(|f| &f.member))
                .filter_map(table_of)
                .collect()
        }
    }
}

fn check_nesting(b: &Bestiary, files: &Files) -> Result<(), DataError> {
    let mut heights = vec![None; b.tables.len() + b.groups.len()];
    let roots = (0..b.tables.len() as u32)
        .map(Node::Table)
        .chain((0..b.groups.len() as u32).map(Node::Group));
    for root in roots {
        let mut path = vec![root];
        visit(b, files, &mut path, &mut heights)?;
    }
    Ok(())
}

/// Depth-first through the nodes under the last of `path`, keeping each node's height
/// (the longest chain of nodes from it down): a node met again on the path is a cycle,
/// and a path whose length and height pass [`MAX_NESTING`] nests too deep.
fn visit(
    b: &Bestiary,
    files: &Files,
    path: &mut Vec<Node>,
    heights: &mut [Option<usize>],
) -> Result<usize, DataError> {
    let Some(&node) = path.last() else {
        return Ok(0);
    };
    if path.len() > MAX_NESTING {
        let problem = format!("tables and groups nest more than {MAX_NESTING} deep under it");
        return Err(files.error(b, path[0], "rows", problem));
    }
    let slot = match node {
        Node::Table(t) => t as usize,
        Node::Group(g) => b.tables.len() + g as usize,
    };
    let height = match heights[slot] {
        Some(height) => height,
        None => {
            let mut below = 0;
            for child in children(b, node) {
                if let Some(start) = path.iter().position(|&n| n == child) {
                    let chain: Vec<String> = path[start..]
                        .iter()
                        .chain([&child])
                        .map(|&n| name(b, n))
                        .collect();
                    let problem = format!("nesting cycle: {}", chain.join(" -> "));
                    return Err(files.error(b, path[start], "rows", problem));
                }
                path.push(child);
                below = below.max(visit(b, files, path, heights)?);
                path.pop();
            }
            heights[slot] = Some(below + 1);
            below + 1
        }
    };
    if path.len() - 1 + height > MAX_NESTING {
        let problem = format!("tables and groups nest more than {MAX_NESTING} deep under it");
        return Err(files.error(b, path[0], "rows", problem));
    }
    Ok(height)
}

fn name(b: &Bestiary, node: Node) -> String {
    match node {
        Node::Table(t) => format!("table {}", quoted(&b.tables[t as usize].key)),
        Node::Group(g) => format!("group {}", quoted(&b.groups[g as usize].key)),
    }
}
