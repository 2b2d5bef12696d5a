//! Where the flow fields stand: a mark made before a step (put back when it fails, and read
//! by a save made while the step is in flight), and the history a save holds.

use super::*;

/// The flow fields as a step found them ([`Flows::mark`]), to put back when it fails: the
/// terrains, fields and readers (shared, cheap to copy) and where each build stood (its units:
/// rebuilt to them only when a step fails).
#[derive(Clone)]
pub(crate) struct FlowsMark {
    terrains: Vec<Held<Terrain>>,
    fields: Vec<Held<FlowField>>,
    readers: Vec<Reader>,
    surveys: Vec<SurveyMark>,
    builds: Vec<BuildMark>,
}

/// Where a survey stood: what it was started with and the units it had taken.
#[derive(Clone)]
struct SurveyMark {
    key: TerrainKey,
    grid: FlowGrid,
    ground: Ground,
    radius: f32,
    taken: u64,
    used: bool,
}

/// Where a build stood: its key, cell and terrain, the units each half had taken.
#[derive(Clone)]
struct BuildMark {
    key: TerrainKey,
    cell: (u32, u32),
    terrain: Arc<Terrain>,
    taken: [u64; 2],
    used: bool,
}

/// The fields' history as a save reads it ([`Flows::history`], [`FlowsMark::history`]).
pub(crate) struct History<'a> {
    pub(super) readers: &'a [Reader],
    pub(super) surveys: Vec<(&'a TerrainKey, u64)>,
    pub(super) builds: Vec<(&'a TerrainKey, (u32, u32), [u64; 2])>,
}

impl FlowsMark {
    /// The history as it stood: what a save made while a step is in flight holds.
    pub(crate) fn history(&self) -> History<'_> {
        History {
            readers: &self.readers,
            surveys: self.surveys.iter().map(|s| (&s.key, s.taken)).collect(),
            builds: self
                .builds
                .iter()
                .map(|b| (&b.key, b.cell, b.taken))
                .collect(),
        }
    }
}

impl Flows {
    /// Where the fields stand before a step ([`Flows::restore`] puts them back).
    pub(crate) fn mark(&self) -> FlowsMark {
        FlowsMark {
            terrains: self.terrains.clone(),
            fields: self.fields.clone(),
            readers: self.readers.clone(),
            surveys: (self.surveys.iter())
                .map(|s| {
                    let (ground, radius) = s.build.settings();
                    SurveyMark {
                        key: s.key.clone(),
                        grid: s.build.grid(),
                        ground,
                        radius,
                        taken: s.build.taken(),
                        used: s.used,
                    }
                })
                .collect(),
            builds: (self.builds.iter())
                .map(|b| BuildMark {
                    key: b.key.clone(),
                    cell: b.cell,
                    terrain: Arc::clone(&b.terrain),
                    taken: b.build.taken(),
                    used: b.used,
                })
                .collect(),
        }
    }

    /// The fields as `mark` found them, after a step that failed: what it built or advanced
    /// (perhaps half-way, when the failure was inside a build) is undone, so the world's flow
    /// history is the one before the step, as its state is. Each survey and build is made again
    /// to the units it had taken (the work it had done, once more: only when a step fails).
    pub(crate) fn restore(&mut self, mark: FlowsMark) {
        self.terrains = mark.terrains;
        self.fields = mark.fields;
        self.readers = mark.readers;
        self.surveys = (mark.surveys.into_iter())
            .map(|m| {
                let mut s = Surveying::resumed(m.key, m.grid, m.ground, m.radius, m.taken);
                s.used = m.used;
                s
            })
            .collect();
        self.builds = (mark.builds.into_iter())
            .map(|m| {
                let mut b = Building::resumed(m.key, m.cell, m.terrain, m.taken);
                b.used = m.used;
                b
            })
            .collect();
    }

    /// Where the fields stand, when they are history (a cell size and a budget: what each
    /// flock reads and waits for carries from step to step); `None` when they are derived.
    pub(crate) fn history_mark(&self) -> Option<FlowsMark> {
        self.has_history().then(|| self.mark())
    }

    /// Whether the fields are history, not derived: a cell size and a budget.
    pub(crate) fn has_history(&self) -> bool {
        self.cell > 0.0 && self.budget > 0
    }

    /// What a save holds of the fields' history: the readers, each survey's key and units,
    /// each build's key, cell and units (in the order they take the budget).
    pub(crate) fn history(&self) -> History<'_> {
        History {
            readers: &self.readers,
            surveys: self
                .surveys
                .iter()
                .map(|s| (&s.key, s.build.taken()))
                .collect(),
            builds: (self.builds.iter())
                .map(|b| (&b.key, b.cell, b.build.taken()))
                .collect(),
        }
    }
}
