//! The glob imports a game uses (the preludes, `denizen::bevy`, each rule set's plugin
//! module and its prelude) hold no `Arrived`, so a game's own type of that name, imported
//! by a glob of its own, stands beside them. The arrivals pipeline's answer is
//! `denizen::bevy::arrivals::Arrived`: only a glob of that module brings it (see the
//! CHANGELOG's migration notes).

mod game {
    /// A game's own message of that name.
    pub struct Arrived;
}

#[test]
#[allow(unused_imports)]
fn a_games_own_arrived_stands_beside_the_glob_imports() {
    use denizen::bevy::prelude::*;
    use denizen::bevy::*;
    #[cfg(feature = "angband")]
    use denizen::bevy::{angband::prelude::*, angband::*};
    #[cfg(feature = "captive")]
    use denizen::bevy::{captive::prelude::*, captive::*};
    #[cfg(feature = "omega")]
    use denizen::bevy::{omega::prelude::*, omega::*};
    #[cfg(feature = "tables")]
    use denizen::bevy::{tables::prelude::*, tables::*};
    use denizen::prelude::*;
    use game::*;
    // An ambiguous name would not compile.
    let arrived: Arrived = Arrived;
    assert_eq!(
        std::any::type_name_of_val(&arrived),
        std::any::type_name::<game::Arrived>()
    );
}
