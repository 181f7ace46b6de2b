//! The rule set's modules import each other one way: no cycle such as bestiary <-> objects.

#[test]
fn modules_do_not_import_each_other_in_a_cycle() {
    denizen_testing::assert_modules_acyclic(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
}
