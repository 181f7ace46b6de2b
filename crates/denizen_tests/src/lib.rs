//! The integration tests (`tests/integration`) and benchmarks (`benches`) of denizen,
//! through the facade: a package of their own, so running an example builds none of the
//! tools only they need. The library is empty.

#![forbid(unsafe_code)]
