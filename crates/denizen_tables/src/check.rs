//! The structure a bestiary must have, checked once at load so the draw and the odds can
//! rely on it: leaders and followers are one creature each, escorts have no leader of
//! their own, and tables and groups nest without a cycle and at most [`MAX_NESTING`] deep.

use denizen_core::{DataError, quoted};

use crate::bestiary::{Bestiary, Creature, RowTarget, TableId};
use crate::file::PickKind;
use crate::source::Source;

/// The deepest tables and groups may nest (a table's row naming a table counts one).
pub const MAX_NESTING: usize = 16;

/// A table or a group, as a node of the nesting graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Table(u32),
    Group(u32),
}

/// Every structure check, in order: cycles first, so a cycle a later file closed is
/// named as one (with that file's entry) rather than as what it breaks. `files` are the
/// files in load order.
pub(crate) fn check(b: &Bestiary, files: &[String]) -> Result<(), DataError> {
    let files = Files { b, order: files };
    check_nesting(b, &files)?;
    check_creatures(b, &files)?;
    check_escorts(b)?;
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
            return Err(files.error(Node::Table(t), "rows", problem));
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
            PickKind::One | PickKind::Bag => size.max(one),
            PickKind::Each => {
                size.saturating_add(one.saturating_mul(u64::from(row.count.bounds().1)))
            }
        };
    }
    sizes[table.0 as usize] = Some(size);
    size
}

/// The bestiary's entries as errors name them, and the files' load order.
struct Files<'a> {
    b: &'a Bestiary,
    order: &'a [String],
}

impl Files<'_> {
    fn source(&self, node: Node) -> &Source {
        match node {
            Node::Table(t) => self.b.table_source(TableId(t)),
            Node::Group(g) => self.b.group_source(crate::bestiary::GroupId(g)),
        }
    }

    fn error(&self, node: Node, field: &str, problem: String) -> DataError {
        at(self.source(node), field, problem)
    }

    /// Where a file comes in the load (a file not loaded comes first).
    fn rank(&self, file: &str) -> usize {
        self.order
            .iter()
            .position(|f| f == file)
            .map_or(0, |i| i + 1)
    }
}

/// The error of a field of an entry.
fn at(source: &Source, field: &str, problem: String) -> DataError {
    DataError::invalid(&source.file, source.entry.as_str(), field, problem)
}

/// Whether a table gives one creature: pick-one, its rows species or such tables. Each
/// table is judged once (`known`), so a table named many times costs nothing more; the
/// nesting check runs first, so the recursion ends within [`MAX_NESTING`].
fn is_creature_table(b: &Bestiary, table: TableId, known: &mut [Option<bool>]) -> bool {
    if let Some(known) = known[table.0 as usize] {
        return known;
    }
    let t = b.table(table);
    let creature = t.pick != PickKind::Each
        && t.rows.iter().all(|row| match row.what {
            RowTarget::Species(_) => true,
            RowTarget::Table(inner) => is_creature_table(b, inner, known),
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
                && !is_creature_table(b, t, &mut known)
            {
                let problem = format!(
                    "the table {} does not give one creature: a leader's or a follower's table is pick-one, its rows species or such tables",
                    quoted(&b.table(t).key)
                );
                return Err(files.error(Node::Group(g as u32), &field, problem));
            }
        }
    }
    Ok(())
}

fn check_escorts(b: &Bestiary) -> Result<(), DataError> {
    for (s, species) in b.species.iter().enumerate() {
        if let Some(g) = species.escort
            && b.group(g).leader.is_some()
        {
            let problem = format!(
                "the escort {} has a leader: an escort's leader is the species that names it",
                quoted(&b.group(g).key)
            );
            let source = b.species_source(crate::bestiary::SpeciesId(s as u32));
            return Err(at(source, "escort", problem));
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
                return Err(at(b.row_source(TableId(t as u32), i), "what", problem));
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
        return Err(files.error(path[0], "rows", problem));
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
                    return Err(cycle(b, files, &path[start..], child));
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
        return Err(files.error(path[0], "rows", problem));
    }
    Ok(height)
}

/// The error of a nesting cycle `nodes` (then back to `to`, its first): named on the link
/// the latest file wrote (the edit that closed the cycle), with the chain.
fn cycle(b: &Bestiary, files: &Files, nodes: &[Node], to: Node) -> DataError {
    let chain: Vec<String> = nodes.iter().chain([&to]).map(|&n| name(b, n)).collect();
    let problem = format!("nesting cycle: {}", chain.join(" -> "));
    let ends = nodes.iter().zip(nodes.iter().skip(1).chain([&to]));
    let links = ends.map(|(&from, &to)| link(b, from, to));
    let latest = links
        .max_by_key(|(source, _)| files.rank(&source.file))
        .expect("a cycle has a link");
    at(latest.0, &latest.1, problem)
}

/// Where `from` names `to` (the entry and field of the first link that does).
fn link(b: &Bestiary, from: Node, to: Node) -> (&Source, String) {
    match from {
        Node::Table(t) => {
            let table = TableId(t);
            for (i, row) in b.table(table).rows.iter().enumerate() {
                match row.what {
                    RowTarget::Table(inner) if to == Node::Table(inner.0) => {
                        return (b.row_source(table, i), "what".into());
                    }
                    RowTarget::Group(g) if to == Node::Group(g.0) => {
                        return (b.row_source(table, i), "what".into());
                    }
                    RowTarget::Species(s)
                        if b.species_of(s).escort.map(|g| Node::Group(g.0)) == Some(to) =>
                    {
                        return (b.species_source(s), "escort".into());
                    }
                    _ => {}
                }
            }
            (b.table_source(table), "rows".into())
        }
        Node::Group(g) => {
            let group = crate::bestiary::GroupId(g);
            let names = |c: &Creature| matches!(c, Creature::Table(t) if to == Node::Table(t.0));
            let fields = b
                .group(group)
                .leader
                .iter()
                .map(|c| ("leader".to_owned(), c))
                .chain(
                    b.group(group)
                        .followers
                        .iter()
                        .enumerate()
                        .map(|(i, f)| (format!("followers[{i}].member"), &f.member)),
                );
            for (field, creature) in fields {
                if names(creature) {
                    return (b.group_source(group), field);
                }
            }
            (b.group_source(group), "followers".into())
        }
    }
}

fn name(b: &Bestiary, node: Node) -> String {
    match node {
        Node::Table(t) => format!("table {}", quoted(&b.tables[t as usize].key)),
        Node::Group(g) => format!("group {}", quoted(&b.groups[g as usize].key)),
    }
}
