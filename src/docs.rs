//! The project's documents beside the guide, rendered with the crate so that its front
//! page links them: how the crates fit together, what the tests pin down, what a data
//! file or a save is held to, what the benchmarks measured, and the examples' index.

#[doc = include_str!("../docs/ARCHITECTURE.md")]
pub mod architecture {}

#[doc = include_str!("../docs/TESTING.md")]
pub mod testing {}

#[doc = include_str!("../docs/DATA.md")]
pub mod data_limits {}

#[doc = include_str!("../docs/BENCHMARKS.md")]
pub mod benchmarks {}

#[doc = include_str!("../examples/README.md")]
pub mod examples {}
