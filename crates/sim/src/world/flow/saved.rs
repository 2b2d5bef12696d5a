//! The flow fields' part of a save ([`World::save`]).

use super::*;
use serde::{Deserialize, Serialize};

/// The flow fields' state that a save holds when a step has a budget
/// ([`World::set_flow_budget`]): what each flock reads and waits for, and how far each field
/// being built has come. (With no budget, fields are derived: nothing but the cell size.)
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SavedFlows {
    budget: u64,
    /// What each flock reads: its target's cell, and the whole field when it was built over
    /// a scene (or flock settings) that is no more.
    reads: Vec<SavedRead>,
    /// The terrains being surveyed, in the order they take the budget: a flock that waits for
    /// each (its settings give the terrain), and the units taken. (Absent: none.)
    #[serde(default)]
    surveys: Vec<SavedSurvey>,
    /// The fields being built, in the order they take the budget: a flock that waits for
    /// each (its settings give the terrain), the cell, and the units each half has taken.
    builds: Vec<SavedBuild>,
    /// What each flock waits for: the cell.
    waits: Vec<SavedWait>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedRead {
    flock: (u32, u32),
    cell: (u32, u32),
    field: Option<SavedField>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedField {
    origin: [f32; 2],
    cell: f32,
    size: [u32; 2],
    distance: Vec<u32>,
    way: Vec<u8>,
    clear: Vec<bool>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedBuild {
    flock: (u32, u32),
    cell: (u32, u32),
    taken: [u64; 2],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedSurvey {
    flock: (u32, u32),
    taken: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedWait {
    flock: (u32, u32),
    cell: (u32, u32),
}

fn id_of(id: FlockId) -> (u32, u32) {
    (id.index, id.generation)
}

/// A key no scene has: for a field read over a scene that is no more.
fn gone_key(numbers: [u32; 5]) -> TerrainKey {
    TerrainKey {
        ground: Arc::from(Vec::new()),
        solids: Arc::from(Vec::new()),
        numbers,
    }
}

impl World {
    /// The key of flock `id`'s field now (`None`: it reads none).
    fn flow_key(&self, id: FlockId) -> Option<(TerrainKey, FlowGrid, (u32, u32))> {
        let f = self.flocks.get(id)?;
        self.flows.key(self.live(), &f.params, f.target?)
    }

    /// The flow fields' state for a save (`None`: no budget, nothing to save).
    pub(crate) fn saved_flows(&self) -> Option<SavedFlows> {
        if !self.flows.has_history() {
            return None;
        }
        // While a step is in flight, the history as it stood before it (as every read sees).
        let history = match (&self.flows_seen, self.in_flight) {
            (Some(mark), true) => mark.history(),
            _ => self.flows.history(),
        };
        let mut saved = SavedFlows {
            budget: self.flows.budget,
            reads: Vec::new(),
            surveys: Vec::new(),
            builds: Vec::new(),
            waits: Vec::new(),
        };
        for r in history.readers {
            let now = self.flow_key(r.id);
            let current = |k: &TerrainKey| now.as_ref().is_some_and(|(n, ..)| n.same(k));
            if let Some((k, f)) = &r.reading {
                saved.reads.push(SavedRead {
                    flock: id_of(r.id),
                    cell: f.target,
                    field: (!current(k)).then(|| SavedField {
                        origin: f.grid.origin,
                        cell: f.grid.cell,
                        size: f.grid.size,
                        distance: f.distance.clone(),
                        way: f.way.clone(),
                        clear: f.clear.clone(),
                    }),
                });
            }
            // A wait over a scene that is no more starts over at the next step: not saved.
            if let Some((k, cell)) = &r.waiting
                && current(k)
            {
                saved.waits.push(SavedWait {
                    flock: id_of(r.id),
                    cell: *cell,
                });
            }
        }
        // A flock that waits over the current scene with `key` (for the field to `cell`, or
        // to any cell).
        let waiter = |key: &TerrainKey, cell: Option<(u32, u32)>| {
            history.readers.iter().find(|r| {
                r.waiting
                    .as_ref()
                    .is_some_and(|(k, c)| k.same(key) && cell.is_none_or(|cell| *c == cell))
                    && self.flow_key(r.id).is_some_and(|(n, ..)| n.same(key))
            })
        };
        for &(key, taken) in &history.surveys {
            if let Some(r) = waiter(key, None) {
                saved.surveys.push(SavedSurvey {
                    flock: id_of(r.id),
                    taken,
                });
            }
        }
        for &(key, cell, taken) in &history.builds {
            if let Some(r) = waiter(key, Some(cell)) {
                saved.builds.push(SavedBuild {
                    flock: id_of(r.id),
                    cell,
                    taken,
                });
            }
        }
        Some(saved)
    }

    /// Restores the flow fields' state of a save (the flocks, scene and cell size loaded):
    /// terrains and fields over the current scene are rebuilt (on one thread), whole or to the
    /// units they had taken. Refuses what names no grounded flock with a target, or a field that does
    /// not fit its grid.
    pub(crate) fn restore_flows(&mut self, saved: SavedFlows) -> Result<(), Error> {
        let bad = |why: String| invalid(format!("not a loadable boids save: flow fields: {why}"));
        if self.flows.cell <= 0.0 {
            return Err(bad("a budget without a cell size".into()));
        }
        if saved.budget == 0 || saved.budget > u64::from(u32::MAX) {
            return Err(bad(format!("a budget of {} units", saved.budget)));
        }
        self.flows.budget = saved.budget;
        let exec = boids_index::exec::SerialExec;
        let lookup = |w: &World, (index, generation): (u32, u32)| {
            let id = FlockId { index, generation };
            let f = w
                .flocks
                .get(id)
                .ok_or_else(|| bad(format!("no flock {index}:{generation}")))?;
            let key = w
                .flow_key(id)
                .ok_or_else(|| bad(format!("flock '{}' reads no field", f.name())))?;
            Ok::<_, Error>((id, f.params, key))
        };
        let in_grid = |grid: &FlowGrid, cell: (u32, u32)| {
            if cell.0 < grid.size[0] && cell.1 < grid.size[1] {
                Ok(())
            } else {
                Err(bad(format!("cell {cell:?} is off the grid")))
            }
        };
        for r in saved.reads {
            let (id, params, (key, grid, _)) = lookup(self, r.flock)?;
            let (key, field) = match r.field {
                None => {
                    in_grid(&grid, r.cell)?;
                    let terrain = self.flows.terrain(&key, grid, &params, &exec);
                    let (x, z) = grid.centre(r.cell.0, r.cell.1);
                    let (b, _) = build_field(&terrain, Vec3::new(x, 0.0, z), u64::MAX, &exec);
                    (key, b.finish().expect("whole"))
                }
                Some(f) => {
                    let g = FlowGrid {
                        origin: f.origin,
                        cell: f.cell,
                        size: f.size,
                    };
                    let n = u64::from(g.size[0]) * u64::from(g.size[1]);
                    if !(g.origin.iter().all(|v| v.is_finite())
                        && g.cell.is_finite()
                        && g.cell > 0.0
                        && (1..=boids_core::flow::MAX_FLOW_CELLS).contains(&n)
                        && [f.distance.len(), f.way.len(), f.clear.len()]
                            .iter()
                            .all(|&l| l as u64 == n))
                    {
                        return Err(bad("a saved field does not fit its grid".into()));
                    }
                    in_grid(&g, r.cell)?;
                    (
                        gone_key(key.numbers),
                        FlowField {
                            grid: g,
                            target: r.cell,
                            distance: f.distance,
                            way: f.way,
                            clear: f.clear,
                        },
                    )
                }
            };
            let field = Arc::new(field);
            self.flows.fields.push(Held {
                key: key.clone(),
                cell: r.cell,
                value: Arc::clone(&field),
                used: true,
            });
            let reader = self.flows.reader(id);
            reader.reading = Some((key, field));
            reader.seen = true;
        }
        for v in saved.surveys {
            let (_, params, (key, grid, _)) = lookup(self, v.flock)?;
            let ground = params.ground.expect("a flock that reads a field walks");
            let survey = Surveying::resumed(key, grid, ground, params.body_radius, v.taken);
            if survey.build.done() {
                return Err(bad("a terrain being surveyed is already whole".into()));
            }
            self.flows.surveys.push(survey);
        }
        for b in saved.builds {
            let (_, params, (key, grid, _)) = lookup(self, b.flock)?;
            in_grid(&grid, b.cell)?;
            let terrain = self.flows.terrain(&key, grid, &params, &exec);
            let build = Building::resumed(key, b.cell, terrain, b.taken);
            if build.build.done() {
                return Err(bad("a field being built is already whole".into()));
            }
            self.flows.builds.push(build);
        }
        for w in saved.waits {
            let (id, _, (key, grid, _)) = lookup(self, w.flock)?;
            in_grid(&grid, w.cell)?;
            let reader = self.flows.reader(id);
            reader.waiting = Some((key, w.cell));
            reader.seen = true;
        }
        Ok(())
    }
}
