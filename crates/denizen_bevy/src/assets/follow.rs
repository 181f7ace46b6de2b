//! How a rule-set plugin follows its data files: one slot per file, and the system that
//! builds and swaps in the rules when every file is loaded and one changed.

use std::sync::Arc;

use bevy_app::App;
use bevy_asset::{AssetLoadError, AssetPlugin, AssetServer, Assets, Handle, LoadState};
use bevy_ecs::prelude::*;
use denizen_core::DataFile;
use denizen_core::data::DataError;

use super::{
    DataKind, DataLoadError, DataLoader, DataRefusal, DataRejected, DataSource, DataText,
    RulesLoaded,
};
use crate::pipeline::RulesLoading;
use bevy_asset::AssetApp as _;

/// Registers kind `K`'s asset type and loader (once, however many plugins ask).
pub fn register_kind<K: DataKind>(app: &mut App) {
    assert!(
        app.is_plugin_added::<AssetPlugin>(),
        "denizen's data assets need bevy_asset's AssetPlugin: add it before the denizen \
         plugins (with TaskPoolPlugin)"
    );
    if app.world().get_resource::<Assets<DataText<K>>>().is_none() {
        app.init_asset::<DataText<K>>()
            .register_asset_loader(DataLoader::<K>::default());
    }
}

/// One data file of a rule set as the plugin follows it: its handle, the text the rules in
/// use were built from, and the text last tried (built or refused). Texts are compared by
/// content, so a file read again unchanged (touched, written twice by an editor) is
/// nothing new.
#[derive(Debug)]
pub struct DataSlot<K: DataKind> {
    source: DataSource<K>,
    handle: Option<Handle<DataText<K>>>,
    built: Option<Arc<str>>,
    tried: Option<Arc<str>>,
    /// The last text the asset server handed over, to tell a fresh load from the same one.
    last_read: Option<Arc<str>>,
    /// The load failure last reported, so each is reported once.
    failure_said: Option<String>,
}

impl<K: DataKind> Clone for DataSlot<K> {
    fn clone(&self) -> Self {
        Self::new(self.source.clone())
    }
}

/// Whether `text` is other than `than` (by content).
fn other(text: &Arc<str>, than: Option<&Arc<str>>) -> bool {
    !than.is_some_and(|than| Arc::ptr_eq(text, than) || **text == **than)
}

impl<K: DataKind> DataSlot<K> {
    /// A slot following the file `source`, not loaded yet.
    pub fn new(source: DataSource<K>) -> Self {
        Self {
            source,
            handle: None,
            built: None,
            tried: None,
            last_read: None,
            failure_said: None,
        }
    }

    /// The loaded file, if it is loaded.
    pub fn loaded<'w>(&self, world: &'w World) -> Option<&'w DataText<K>> {
        let handle = self.handle.as_ref()?;
        world.get_resource::<Assets<DataText<K>>>()?.get(handle)
    }

    /// The loaded file as the rule-set crates' loaders take it. Every file is loaded when
    /// the rules are built; one that is not is named in the error.
    pub fn file<'w>(&self, world: &'w World) -> Result<DataFile<'w>, DataError> {
        self.loaded(world).map(DataText::file).ok_or_else(|| {
            let name = match &self.source {
                DataSource::Path(path) => path.to_string(),
                DataSource::Handle(handle) => format!("{handle:?}"),
            };
            DataError::invalid(&name, "the file", "text", "not loaded")
        })
    }

    /// Whether the loaded text differs from the one the rules in use were built from (a
    /// file that is state as well as rules, Omega's chronicle, is installed only then).
    pub fn changed(&self, world: &World) -> bool {
        self.loaded(world)
            .is_some_and(|file| other(&file.text, self.built.as_ref()))
    }
}

/// A failed load as one line: the loader's own error when it is ours (the file, and why it
/// is no data file), else the first line of the asset server's, escaped and bounded (a
/// file that is missing or a folder), never a backtrace.
fn load_failure(error: &AssetLoadError) -> String {
    if let AssetLoadError::AssetLoaderError(failed) = error
        && let Some(ours) = failed.error().downcast_ref::<DataLoadError>()
    {
        return denizen_core::data::excerpt(&ours.to_string(), 400);
    }
    let text = error.to_string();
    denizen_core::data::excerpt(text.lines().next().unwrap_or_default(), 400)
}

/// What one file of a rule set is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotState {
    /// Not loaded yet.
    Loading,
    /// Its last load failed.
    Failed {
        /// What the asset server said.
        message: String,
        /// Not reported yet.
        new: bool,
    },
    /// Loaded.
    Loaded {
        /// Its text is other than the last one tried.
        untried: bool,
    },
}

/// A [`DataSlot`] of any kind, as the swap below walks them.
pub trait AnySlot {
    /// Loads the file on the first call.
    fn resolve(&mut self, server: &AssetServer);
    /// Where the file is.
    fn state(&mut self, world: &World, server: &AssetServer) -> SlotState;
    /// Rules were tried from the text now loaded; `built` when they are now in use.
    fn mark_tried(&mut self, world: &World, built: bool);
}

impl<K: DataKind> AnySlot for DataSlot<K> {
    fn resolve(&mut self, server: &AssetServer) {
        if self.handle.is_none() {
            self.handle = Some(match &self.source {
                DataSource::Path(path) => server.load(path.clone()),
                DataSource::Handle(handle) => handle.clone(),
            });
        }
    }

    fn state(&mut self, world: &World, server: &AssetServer) -> SlotState {
        let Some(handle) = &self.handle else {
            return SlotState::Loading;
        };
        if let LoadState::Failed(error) = server.load_state(handle) {
            let message = load_failure(&error);
            let new = self.failure_said.as_ref() != Some(&message);
            self.failure_said = Some(message.clone());
            return SlotState::Failed { message, new };
        }
        let Some(text) = self.loaded(world).map(|file| file.text.clone()) else {
            return SlotState::Loading;
        };
        let fresh = !self
            .last_read
            .as_ref()
            .is_some_and(|read| Arc::ptr_eq(read, &text));
        if fresh {
            // A load succeeded since the last failure: a later failure is news again.
            self.failure_said = None;
            self.last_read = Some(text.clone());
        }
        SlotState::Loaded {
            untried: other(&text, self.tried.as_ref()),
        }
    }

    fn mark_tried(&mut self, world: &World, built: bool) {
        let text = self.loaded(world).map(|file| file.text.clone());
        if built {
            self.built = text.clone();
        }
        self.tried = text;
    }
}

/// A rule set's data files as assets: the resource its plugin inserts when given them.
pub trait DataSources: Resource {
    /// The rule set's name in messages, such as `Omega`.
    const RULE_SET: &'static str;
    /// The rule set's rules resource, which requests are refused without.
    type Ruleset: Resource;
    /// Every file, required and optional alike.
    fn slots(&mut self) -> Vec<&mut dyn AnySlot>;
    /// Builds the rules from the loaded files (all are loaded) and puts them in the world,
    /// keeping the plugin's switches; on an error the world is left as it was.
    fn install(&self, world: &mut World) -> Result<(), DataError>;
}

/// The system that follows a rule set's files: loads them, and once all are loaded and one
/// is other than when last tried, builds and swaps in the rules or reports why not, once.
/// A rule set with no files of its own given installs its builder's rules at once.
pub fn follow_data<S: DataSources>(world: &mut World) {
    let Some(server) = world.get_resource::<AssetServer>().cloned() else {
        return;
    };
    world.resource_scope(|world, mut sources: Mut<S>| {
        let (mut ready, mut untried) = (true, false);
        let mut failures = Vec::new();
        let mut slots = sources.slots();
        let first = slots.is_empty() && world.contains_resource::<RulesLoading<S::Ruleset>>();
        for slot in &mut slots {
            slot.resolve(&server);
            match slot.state(world, &server) {
                SlotState::Loading => ready = false,
                SlotState::Failed { message, new } => {
                    ready = false;
                    if new {
                        failures.push(message);
                    }
                }
                SlotState::Loaded { untried: u } => untried |= u,
            }
        }
        drop(slots);
        for message in failures {
            refused::<S>(world, DataRefusal::Load(message));
        }
        if !ready || !(untried || first) {
            return;
        }
        let installed = sources.install(world);
        for slot in sources.slots() {
            slot.mark_tried(world, installed.is_ok());
        }
        match installed {
            Ok(()) => {
                world.remove_resource::<RulesLoading<S::Ruleset>>();
                world.write_message(RulesLoaded {
                    rule_set: S::RULE_SET,
                });
            }
            Err(error) => refused::<S>(world, DataRefusal::Data(error)),
        }
    });
}

/// Reports a refusal of `S`'s files once, and before any good load keeps it, so requests
/// are answered with it rather than "still loading" (the rules would never come).
fn refused<S: DataSources>(world: &mut World, error: DataRefusal) {
    if let Some(mut loading) = world.get_resource_mut::<RulesLoading<S::Ruleset>>() {
        loading.refuse(error.clone());
    }
    world.write_message(DataRejected {
        rule_set: S::RULE_SET,
        error,
    });
}

/// Sets a rule-set plugin up to follow its files: the loaders of `kinds`, the sources
/// resource, its rules marked loading, and the system that follows them, in
/// [`DenizenSystems::Floors`](crate::DenizenSystems::Floors) before the rule set's own
/// `set` serves requests.
pub fn follow<S: DataSources>(
    app: &mut App,
    sources: S,
    kinds: &[fn(&mut App)],
    set: impl SystemSet,
) {
    for register in kinds {
        register(app);
    }
    let schedule = crate::denizen_schedule(app);
    app.add_message::<RulesLoaded>()
        .add_message::<DataRejected>()
        .insert_resource(sources)
        .insert_resource(RulesLoading::<S::Ruleset>::default())
        .add_systems(
            schedule,
            follow_data::<S>
                .in_set(crate::DenizenSystems::Floors)
                .before(set),
        );
}
