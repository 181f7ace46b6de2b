//! The work a load does, counted in this crate's own tests only, so a test can pin how it
//! grows (a unit: a row's weight worked out at one depth or over its range, a depth swept
//! for a table, an entry of a compiled draw stored). Outside tests counting costs nothing.

#[cfg(test)]
thread_local! {
    static DONE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `units` of work on this thread.
#[inline]
pub(crate) fn count(units: usize) {
    #[cfg(test)]
    DONE.with(|done| done.set(done.get() + units as u64));
    #[cfg(not(test))]
    let _ = units;
}

/// The work counted on this thread so far.
#[cfg(test)]
pub(crate) fn done() -> u64 {
    DONE.with(std::cell::Cell::get)
}

#[cfg(test)]
mod tests {
    use denizen_core::DataFile;

    use super::done;

    /// A table of `rows` rows over depths 1-250, their weights 1 to 8 and every shape.
    fn wide_table(rows: usize) -> String {
        let species: String = (0..50)
            .map(|i| {
                format!(
                    "(key: \"s{i}\", name: \"s{i}\", glyph: 'a', level: 1, hit_points: \"1d4\"),"
                )
            })
            .collect();
        let shapes = ["Flat", "Rise", "Fall", "Peak"];
        let rows: String = (0..rows)
            .map(|i| {
                format!(
                    "(what: Species(\"s{}\"), depth: (1, 250), weight: {}, shape: {}),",
                    i % 50,
                    i % 8 + 1,
                    shapes[i % 4]
                )
            })
            .collect();
        format!(
            "(species: [{species}], tables: [(key: \"floor\", rows: [{rows}])], \
             floor: Some((table: \"floor\", depths: (1, 250), count: (dice: \"1d4\"))))"
        )
    }

    /// Loading a 10,000-row table over 250 depths works in proportion to its rows plus its
    /// depths times its distinct weights, not its rows times its depths (2,500,000, which
    /// compiling every depth's draw at load cost): the load compiles no draw, the lint
    /// reads each row's range once. The first draw at a depth compiles that depth alone.
    #[test]
    fn a_wide_tables_load_grows_with_its_rows_not_rows_times_depths() {
        let (rows, depths, weights) = (10_000u64, 250u64, 8u64);
        let text = wide_table(rows as usize);
        let before = done();
        let b = crate::load(&[DataFile::new("wide.tables.ron", &text)]).unwrap();
        let work = done() - before;
        let bound = rows + depths * weights;
        assert!(work <= 4 * bound, "{work} units of work, bound 4 x {bound}");
        assert!(work * 50 < rows * depths, "{work}");

        let before = done();
        let mut rng = denizen_core::WorldSeed(1).stream(denizen_core::StreamPurpose::new("wide"));
        let table = b.floor().table;
        for _ in 0..100 {
            crate::pick::pick(
                &b,
                (table, 7, &b.context.defaults()),
                &vec![false; b.species().len()],
                &mut rng,
            );
        }
        let drawn = done() - before;
        assert!(drawn <= 3 * rows, "one depth compiled: {drawn}");
    }
}
