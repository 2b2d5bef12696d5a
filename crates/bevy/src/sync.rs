//! [`crate::BoidsSet::SyncIn`]: what entities say, into the engine, in one system (one
//! dispatch a tick, where a system a concern cost about 0.2 ms a tick on two threads with
//! nothing to do). Each part changes the engine only for what changed; a refused value is
//! logged once and changes nothing.

use bevy::asset::Assets;
use bevy::ecs::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::log::error;
use bevy::math::Vec3 as BVec3;
use bevy::mesh::Mesh;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::{ChildOf, GlobalTransform, Name, Transform};
use boids_sim::RelationKind;

use crate::convert::{bevy_forward, to_bevy, to_engine};
use crate::shapes::{Ground, Obstacle};
use crate::write::States;
use crate::{
    Boid, BoidSlot, BoidSpawn, Boids, Flock, FlockEntry, FlockObserver, FlockRelation, FlockSpawn,
    FlockTarget,
};

type FlockItem = (
    Entity,
    &'static mut Flock,
    Option<&'static Name>,
    Option<&'static FlockSpawn>,
);
type ShapeItem = (
    Entity,
    Ref<'static, Obstacle>,
    Ref<'static, Transform>,
    Ref<'static, GlobalTransform>,
    Has<ChildOf>,
    Has<Ground>,
);
type TargetItem = (
    Entity,
    Ref<'static, FlockTarget>,
    Ref<'static, Transform>,
    Ref<'static, GlobalTransform>,
    Has<ChildOf>,
);
type ObserverItem = (
    Entity,
    Ref<'static, Transform>,
    Ref<'static, GlobalTransform>,
    Has<ChildOf>,
);

/// Everything [`sync_in`] reads and changes.
#[derive(SystemParam)]
pub(crate) struct SyncIn<'w, 's> {
    boids: ResMut<'w, Boids>,
    removed: Removed<'w, 's>,
    commands: Commands<'w, 's>,
    flocks: Query<'w, 's, FlockItem>,
    strays: Query<'w, 's, Entity, (With<FlockSpawn>, Without<Flock>)>,
    new: Query<'w, 's, (Entity, &'static BoidSpawn, &'static Transform)>,
    shapes: Query<'w, 's, ShapeItem>,
    meshes: Option<Res<'w, Assets<Mesh>>>,
    targets: Query<'w, 's, TargetItem>,
    observers: Query<'w, 's, ObserverItem, With<FlockObserver>>,
    relations: Query<'w, 's, (Entity, Ref<'static, FlockRelation>)>,
    flow: Option<Res<'w, crate::FlowFields>>,
}

/// What [`sync_in`] keeps from tick to tick (scratch lists, and what it refused or applied).
#[derive(Default)]
pub(crate) struct Kept {
    gone: Vec<(usize, u32, Entity)>,
    refused_flocks: HashSet<Entity>,
    batch: Vec<(Entity, Entity, BVec3, BVec3)>,
    applied_targets: HashMap<Entity, boids_sim::FlockId>,
    refused_relations: HashSet<Entity>,
}

/// The plugin's `SyncIn`: an overlapped step in flight ended (its result read), then despawns,
/// flocks and their parameters, spawns, obstacles, targets and the observer, relations and the
/// flow fields, in that order.
pub(crate) fn sync_in(p: SyncIn, mut kept: Local<Kept>) {
    let SyncIn {
        mut boids,
        mut removed,
        mut commands,
        mut flocks,
        strays,
        new,
        shapes,
        meshes,
        targets,
        observers,
        relations,
        flow,
    } = p;
    let (b, k) = (&mut *boids, &mut *kept);
    crate::write::finish_step(b);
    despawned(b, &mut removed, &mut commands, &mut k.gone);
    self::flocks(
        b,
        &mut flocks,
        &strays,
        &mut commands,
        &mut k.refused_flocks,
    );
    spawns(b, &new, &mut commands, &mut k.batch);
    obstacles(b, &shapes, meshes.as_deref());
    self::targets(b, &targets, &observers, &mut k.applied_targets);
    self::relations(b, &relations, &mut k.refused_relations);
    flow_fields(b, flow.as_ref());
}

/// What the plugin removes: the engine's side of despawned (or stripped) entities.
#[derive(SystemParam)]
pub(crate) struct Removed<'w, 's> {
    boids: RemovedComponents<'w, 's, Boid>,
    flocks: RemovedComponents<'w, 's, Flock>,
    obstacles: RemovedComponents<'w, 's, Obstacle>,
    relations: RemovedComponents<'w, 's, FlockRelation>,
    observers: RemovedComponents<'w, 's, FlockObserver>,
}

/// Despawned boids leave their flocks (one removal a flock), despawned flocks leave the
/// engine with their boid entities, and despawned obstacles, relations and observers go.
fn despawned(
    boids: &mut Boids,
    removed: &mut Removed,
    commands: &mut Commands,
    gone: &mut Vec<(usize, u32, Entity)>,
) {
    let b = &mut *boids;
    for e in removed.flocks.read() {
        let Some(i) = b.flock_of.remove(&e) else {
            continue;
        };
        if let Some(entry) = b.flocks[i].take() {
            let _ = b.world.destroy_flock(entry.id);
            for be in entry.boids {
                b.boid_of.remove(&be);
                if let Ok(mut ec) = commands.get_entity(be) {
                    ec.try_despawn();
                }
            }
        }
    }
    gone.clear();
    for e in removed.boids.read() {
        if let Some((i, id)) = b.boid_of.remove(&e) {
            gone.push((i, id, e));
            // A `Boid` removed from a live entity: the entity is no longer written.
            if let Ok(mut ec) = commands.get_entity(e) {
                ec.try_remove::<BoidSlot>();
            }
        }
    }
    gone.sort_unstable();
    for run in gone.chunk_by(|x, y| x.0 == y.0) {
        let i = run[0].0;
        let Some(entry) = b.flocks[i].as_mut() else {
            continue;
        };
        let ids: Vec<u32> = run.iter().map(|g| g.1).collect();
        match b.world.remove_boids(entry.id, &ids) {
            Ok(_) => {
                // Both lists are in id order, as the removed ids are.
                let (mut k, mut kept) = (0, 0);
                for j in 0..entry.ids.len() {
                    if k < ids.len() && entry.ids[j] == ids[k] {
                        k += 1;
                        continue;
                    }
                    entry.ids[kept] = entry.ids[j];
                    entry.boids[kept] = entry.boids[j];
                    kept += 1;
                }
                entry.ids.truncate(kept);
                entry.boids.truncate(kept);
                entry.reindex = true;
                entry.states.stale = true;
            }
            Err(err) => error!("boids: removing {} despawned boids: {err}", ids.len()),
        }
    }
    for e in removed.obstacles.read() {
        boids.shapes.remove(&mut boids.world, e);
    }
    for e in removed.relations.read() {
        if let Some((from, to)) = boids.relations.remove(&e) {
            let _ = boids
                .world
                .set_relation(from, to, RelationKind::Ignore, 1.0, 0.0);
        }
    }
    for e in removed.observers.read() {
        if boids.observer == Some(e) {
            boids.observer = None;
            let _ = boids.world.set_observer(None);
        }
    }
}

/// New flock entities become engine flocks; changed parameters reach the live flock (refused:
/// logged, and the component set back); spawn requests spawn boid entities. A spawn request on
/// an entity with no [`Flock`] is logged and taken away: it spawns nothing.
fn flocks(
    b: &mut Boids,
    flocks: &mut Query<FlockItem>,
    strays: &Query<Entity, (With<FlockSpawn>, Without<Flock>)>,
    commands: &mut Commands,
    refused: &mut HashSet<Entity>,
) {
    for e in strays {
        error!("boids: FlockSpawn on {e}, which has no Flock: nothing spawned");
        commands.entity(e).remove::<FlockSpawn>();
    }
    for (e, mut flock, name, spawn) in flocks.iter_mut() {
        let changed = flock.is_changed();
        if changed {
            refused.remove(&e);
        }
        let index = match b.flock_of.get(&e) {
            Some(&i) => {
                if changed && !flock.is_added() {
                    let id = b.flocks[i].as_ref().expect("mapped").id;
                    if let Err(err) = b.world.set_params(id, flock.params) {
                        error!("boids: flock {e}: parameters refused, flock unchanged: {err}");
                        let now = *b.world.flock(id).expect("live").params();
                        flock.bypass_change_detection().params = now;
                    }
                }
                i
            }
            None => {
                if refused.contains(&e) {
                    continue;
                }
                let label = name.map_or_else(|| format!("flock-{e}"), |n| n.as_str().to_owned());
                match b.world.create_flock(&label, flock.params) {
                    Ok(id) => {
                        let i = b.flocks.len();
                        b.flocks.push(Some(FlockEntry {
                            id,
                            boids: Vec::new(),
                            ids: Vec::new(),
                            states: States::default(),
                            reindex: false,
                        }));
                        b.flock_of.insert(e, i);
                        i
                    }
                    Err(err) => {
                        error!("boids: flock {e} refused: {err}");
                        refused.insert(e);
                        continue;
                    }
                }
            }
        };
        let Some(req) = spawn else { continue };
        commands.entity(e).remove::<FlockSpawn>();
        let entry = b.flocks[index].as_mut().expect("mapped");
        let first = match b.world.spawn(entry.id, req.count, &req.spawn) {
            Ok(first) => first,
            Err(err) => {
                error!("boids: flock {e}: spawn of {} refused: {err}", req.count);
                continue;
            }
        };
        let f = b.world.flock(entry.id).expect("live");
        let (ids, pos) = (f.ids(), f.positions());
        let at = ids.partition_point(|&id| id < first);
        // Once a spawn: the engine's orientations, as every later write back has them.
        let mut rot = vec![[0.0; 4]; ids.len()];
        let _ = b.world.read_orientations(entry.id, &mut rot);
        for k in at..ids.len() {
            let t =
                Transform::from_translation(to_bevy(pos[k])).with_rotation(bevy_forward(rot[k]));
            let boid = commands
                .spawn((
                    Boid {
                        flock: e,
                        id: ids[k],
                    },
                    BoidSlot {
                        flock: index as u32,
                        index: k as u32,
                    },
                    t,
                ))
                .id();
            entry.boids.push(boid);
            entry.ids.push(ids[k]);
            b.boid_of.insert(boid, (index, ids[k]));
        }
        entry.states.stale = true;
    }
}

/// Entities with a [`BoidSpawn`] join their flock at their `Transform` (world space) with
/// their velocity, and get a [`Boid`] with the engine's id.
fn spawns(
    b: &mut Boids,
    new: &Query<(Entity, &BoidSpawn, &Transform)>,
    commands: &mut Commands,
    batch: &mut Vec<(Entity, Entity, BVec3, BVec3)>,
) {
    batch.clear();
    batch.extend(
        new.iter()
            .map(|(e, s, t)| (s.flock, e, t.translation, s.velocity)),
    );
    if batch.is_empty() {
        return;
    }
    batch.sort_unstable_by_key(|x| (x.0, x.1));
    for run in batch.chunk_by(|x, y| x.0 == y.0) {
        let flock = run[0].0;
        for &(_, e, _, _) in run {
            commands.entity(e).remove::<BoidSpawn>();
        }
        let Some(&index) = b.flock_of.get(&flock) else {
            error!("boids: BoidSpawn names {flock}, which is not a flock");
            continue;
        };
        let entry = b.flocks[index].as_mut().expect("mapped");
        let p: Vec<_> = run.iter().map(|x| to_engine(x.2)).collect();
        let v: Vec<_> = run.iter().map(|x| to_engine(x.3)).collect();
        match b.world.add_boids(entry.id, &p, &v) {
            Ok(first) => {
                for (k, &(_, e, _, _)) in run.iter().enumerate() {
                    let id = first + k as u32;
                    let slot = BoidSlot {
                        flock: index as u32,
                        index: entry.ids.len() as u32,
                    };
                    commands.entity(e).insert((Boid { flock, id }, slot));
                    entry.boids.push(e);
                    entry.ids.push(id);
                    b.boid_of.insert(e, (index, id));
                }
                entry.states.stale = true;
            }
            Err(err) => error!("boids: {} boids refused by flock {flock}: {err}", run.len()),
        }
    }
}

/// Where an entity is, as (scale, rotation, translation): its `Transform` for a root entity
/// (exact, and current in the frame it was spawned), its `GlobalTransform` under a parent
/// (propagated at the end of the last frame).
pub(crate) fn placement(t: &Transform, g: &GlobalTransform, child: bool) -> Transform {
    if child { g.compute_transform() } else { *t }
}

/// Obstacle entities, added, moved or reshaped.
fn obstacles(b: &mut Boids, shapes: &Query<ShapeItem>, meshes: Option<&Assets<Mesh>>) {
    for (e, shape, t, g, child, ground) in shapes {
        // A Ground marker added or removed counts as a move: the placement is set again.
        let moved = if child {
            g.is_changed()
        } else {
            t.is_changed()
        } || b.shapes.ground_changed(e, ground);
        // A refused shape or placement is tried again once either changes.
        if shape.is_changed() || moved {
            b.shapes.clear_refused(e);
        }
        let placed = b.shapes.obstacle_id(e).is_some();
        if b.shapes.is_refused(e) || (placed && !shape.is_changed() && !moved) {
            continue;
        }
        let waiting = b.shapes.waiting.contains(&e);
        match b.shapes.place(
            &mut b.world,
            meshes,
            e,
            &shape,
            &placement(&t, &g, child),
            ground,
        ) {
            Ok(true) => {
                if waiting {
                    b.shapes.waiting.retain(|&w| w != e);
                }
            }
            Ok(false) => {
                if !waiting {
                    b.shapes.waiting.push(e);
                }
            }
            Err(err) => {
                // The engine keeps what it had: the last accepted placement, or nothing.
                let kept = if b.shapes.obstacle_id(e).is_some() {
                    "kept where it was"
                } else {
                    "not placed"
                };
                error!("boids: obstacle {e} refused ({kept} until it changes): {err}");
                b.shapes.refuse(e);
            }
        }
    }
}

/// Targets and the observer follow their entities.
fn targets(
    b: &mut Boids,
    targets: &Query<TargetItem>,
    observers: &Query<ObserverItem, With<FlockObserver>>,
    applied: &mut HashMap<Entity, boids_sim::FlockId>,
) {
    for (e, target, t, g, child) in targets {
        let moved = if child {
            g.is_changed()
        } else {
            t.is_changed()
        };
        let id = b.flock_id(target.0);
        // A flock created (or re-created) since: its target is set whatever moved.
        let new_flock = id.is_some() && applied.get(&e) != id.as_ref();
        if !(target.is_changed() || moved || new_flock) {
            continue;
        }
        let Some(id) = id else {
            if target.is_changed() {
                error!(
                    "boids: FlockTarget on {e} names {}, which is not a flock",
                    target.0
                );
            }
            continue;
        };
        let p = to_engine(placement(&t, &g, child).translation);
        match b.world.set_target(id, p) {
            Ok(()) => {
                applied.insert(e, id);
            }
            Err(err) => error!("boids: target {e} refused: {err}"),
        }
    }
    let mut found = observers.iter();
    let first = found.next();
    if let Some((e, t, g, child)) = first {
        if found.next().is_some() && b.observer != Some(e) {
            error!("boids: more than one FlockObserver; {e} is the observer");
        }
        let moved = if child {
            g.is_changed()
        } else {
            t.is_changed()
        };
        if b.observer != Some(e) || moved {
            let p = to_engine(placement(&t, &g, child).translation);
            match b.world.set_observer(Some(p)) {
                Ok(()) => b.observer = Some(e),
                Err(err) => error!("boids: observer {e} refused: {err}"),
            }
        }
    }
}

/// Relations between flock entities.
fn relations(
    b: &mut Boids,
    relations: &Query<(Entity, Ref<FlockRelation>)>,
    refused: &mut HashSet<Entity>,
) {
    for (e, r) in relations {
        if r.is_changed() {
            refused.remove(&e);
        } else if b.relations.contains_key(&e) || refused.contains(&e) {
            continue;
        }
        let (Some(from), Some(to)) = (b.flock_id(r.from), b.flock_id(r.to)) else {
            // Flocks not created yet (or refused): tried again next tick.
            continue;
        };
        if let Some(old) = b.relations.remove(&e)
            && old != (from, to)
        {
            let _ = b
                .world
                .set_relation(old.0, old.1, RelationKind::Ignore, 1.0, 0.0);
        }
        match b.world.set_relation(from, to, r.kind, r.radius, r.weight) {
            Ok(()) => {
                b.relations.insert(e, (from, to));
            }
            Err(err) => {
                error!("boids: relation {e} refused: {err}");
                refused.insert(e);
            }
        }
    }
}

/// The [`crate::FlowFields`] resource into the engine, when inserted or changed.
fn flow_fields(boids: &mut Boids, flow: Option<&Res<crate::FlowFields>>) {
    let Some(flow) = flow else {
        return;
    };
    if !flow.is_changed() {
        return;
    }
    // Setting what the world already has keeps its fields (`World::set_flow_cell_size`).
    let w = &mut boids.world;
    if let Err(err) = w.set_flow_cell_size(flow.cell_size) {
        error!(
            "boids: FlowFields cell_size {} refused: {err}",
            flow.cell_size
        );
    }
    if let Err(err) = w.set_flow_budget(flow.budget) {
        error!("boids: FlowFields budget {} refused: {err}", flow.budget);
    }
}
