//! A flock as a save file holds it, and back: everything a step reads, in storage order, so a
//! loaded flock continues bit for bit. Loading validates every value as the API would.

use super::{Flock, check_extra, check_point, check_vec};
use crate::error::{Error, invalid};
use crate::world::MAX_BOIDS_PER_FLOCK;
use boids_core::{Extra, FlockParams, Vec3, limits};
use serde::{Deserialize, Serialize};

/// A flock in a save file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SavedFlock {
    name: String,
    params: FlockParams,
    target: Option<Vec3>,
    next_id: u32,
    /// Per-boid state in storage order (the order the next step's sort starts from).
    ids: Vec<u32>,
    positions: Vec<Vec3>,
    velocities: Vec<Vec3>,
    headings: Vec<Vec3>,
    /// Empty unless the model keeps extra state.
    extras: Vec<Extra>,
    wake_region: Option<(Vec3, Vec3)>,
    asleep: bool,
    active: bool,
    path: Vec<Vec3>,
    path_closed: bool,
    leader: Option<(u32, Vec3)>,
}

impl Flock {
    pub(crate) fn to_saved(&self) -> SavedFlock {
        SavedFlock {
            name: self.name.clone(),
            params: self.params,
            target: self.target,
            next_id: self.next_id,
            ids: self.st.ids.clone(),
            positions: self.st.positions.clone(),
            velocities: self.st.velocities.clone(),
            headings: self.st.headings.clone(),
            extras: self.st.extras.clone(),
            wake_region: self.wake_region,
            asleep: self.asleep,
            active: self.active,
            path: self.path.clone(),
            path_closed: self.path_closed,
            leader: self.leader,
        }
    }

    /// The flock a save file describes, if every value is one the API could have produced.
    pub(crate) fn from_saved(s: SavedFlock) -> Result<Flock, Error> {
        let name = s.name;
        let what = |e: Error| invalid(format!("flock '{name}': {e}"));
        if name.is_empty() || name.len() > 255 {
            return Err(invalid(format!(
                "a flock name must be 1..=255 bytes, got {} bytes",
                name.len()
            )));
        }
        s.params.validate().map_err(|e| what(e.into()))?;
        let n = s.ids.len();
        if n > MAX_BOIDS_PER_FLOCK {
            return Err(what(invalid(format!(
                "{n} boids, more than a flock holds ({MAX_BOIDS_PER_FLOCK})"
            ))));
        }
        for (field, len) in [
            ("positions", s.positions.len()),
            ("velocities", s.velocities.len()),
            ("headings", s.headings.len()),
        ] {
            if len != n {
                return Err(what(invalid(format!("{len} {field} for {n} boids"))));
            }
        }
        // Finite and inside the limit: what keeps a step safe. (Not more: every state the
        // engine can reach must load, and a boid at rest in a plane-locked flock, for one,
        // keeps a heading off the plane.)
        for (field, data) in [
            ("positions", &s.positions),
            ("velocities", &s.velocities),
            ("headings", &s.headings),
        ] {
            for (i, &v) in data.iter().enumerate() {
                check_vec(field, i, v).map_err(what)?;
            }
        }
        let mut sorted = s.ids.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return Err(what(invalid("two boids have the same id")));
        }
        if sorted.last().is_some_and(|&last| last >= s.next_id) {
            return Err(what(invalid(format!(
                "boid id {} is not below the next id {}",
                sorted.last().copied().unwrap_or(0),
                s.next_id
            ))));
        }
        let need = Flock::needs_extra(&s.params);
        if s.extras.len() != if need { n } else { 0 } {
            return Err(what(invalid(format!(
                "{} extra states for {n} boids of a model that {}",
                s.extras.len(),
                if need { "keeps one each" } else { "keeps none" }
            ))));
        }
        for (i, e) in s.extras.iter().enumerate() {
            check_extra(i, e).map_err(what)?;
        }
        match (s.params.target.is_some(), s.target) {
            (true, Some(t)) => check_point("target", t).map_err(what)?,
            (false, None) => {}
            (true, None) => return Err(what(invalid("params have a target but no point is set"))),
            (false, Some(_)) => {
                return Err(what(invalid("a target point for params without a target")));
            }
        }
        if let Some((lo, hi)) = s.wake_region {
            check_point("wake region min", lo).map_err(what)?;
            check_point("wake region max", hi).map_err(what)?;
            if !lo.cmple(hi).all() {
                return Err(what(invalid("wake region min exceeds max")));
            }
        }
        if s.path.len() == 1 {
            return Err(what(invalid("a path of one point")));
        }
        for (i, &p) in s.path.iter().enumerate() {
            check_vec("path", i, p).map_err(what)?;
        }
        // A leader whose boid was removed, or whose flock's params lost their target, is
        // inert, and reachable through the API: only its offset is checked.
        if let Some((_, offset)) = s.leader {
            limits::point(offset).map_err(|e| what(invalid(format!("leader offset {e}"))))?;
        }

        let mut f = Flock::new(name, s.params);
        f.target = s.target;
        f.next_id = s.next_id;
        // Rank of each boid in ascending id order.
        let mut by_id: Vec<u32> = (0..n as u32).collect();
        by_id.sort_unstable_by_key(|&i| s.ids[i as usize]);
        let mut rank = vec![0u32; n];
        for (r, &i) in by_id.iter().enumerate() {
            rank[i as usize] = r as u32;
        }
        let st = f.st_mut();
        st.ids = s.ids;
        st.rank = rank;
        st.positions = s.positions;
        st.velocities = s.velocities;
        st.headings = s.headings;
        st.extras = s.extras;
        f.wake_region = s.wake_region;
        f.asleep = s.asleep;
        f.active = s.active;
        f.path = s.path;
        f.path_closed = s.path_closed;
        f.leader = s.leader;
        f.changed();
        Ok(f)
    }
}
