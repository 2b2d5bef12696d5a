//! Flow fields in Bevy: the maze preset's scene as entities (its hills a heightfield marked as
//! ground, its walls cuboids, its walkers a flock with a target), the `FlowFields` resource
//! giving the engine its cells and budget, refused values logged and kept out; with the
//! `gizmos` feature, `FlowFieldGizmos` draws the field every frame.

mod support;

use bevy::math::Vec2;
use bevy::prelude::*;
use boids_bevy::{Boids, BoidsPlugin, Flock, FlowFields, Ground, Heightfield, Obstacle};
use support::{app, run_to, tick};

/// The maze preset's scene as entities; its flock's entity.
fn maze(app: &mut App, walkers: usize) -> Entity {
    let scene = boids_sim::presets::get("maze").unwrap().scene("walkers");
    let w = app.world_mut();
    let boids_sim::scene::MeshSpec::Terrain {
        columns,
        rows,
        cell,
        ..
    } = scene.mesh[0]
    else {
        panic!("the maze's hills are a terrain");
    };
    let built = scene.mesh[0].build().unwrap();
    let heights: Vec<f32> = (0..built.vertex_count() as u32)
        .map(|i| built.vertex(i).y)
        .collect();
    for o in &scene.obstacle {
        match *o {
            boids_sim::Obstacle::Heightfield { position, .. } => {
                w.spawn((
                    Obstacle::Heightfield(Heightfield {
                        columns,
                        rows,
                        cell: Vec2::splat(cell),
                        heights: heights.clone().into(),
                    }),
                    Transform::from_xyz(position.x, position.y, position.z),
                    Ground,
                ));
            }
            boids_sim::Obstacle::Box { min, max } => {
                let (min, max) = (
                    Vec3::from_array(min.to_array()),
                    Vec3::from_array(max.to_array()),
                );
                w.spawn((
                    Obstacle::Cuboid {
                        half_size: (max - min) * 0.5,
                    },
                    Transform::from_translation((min + max) * 0.5),
                ));
            }
            ref other => panic!("the maze has no {other:?}"),
        }
    }
    let (flock, spawn) = Flock::preset("maze", walkers).unwrap();
    w.spawn((flock, spawn)).id()
}

#[test]
fn flow_fields_reach_the_engine_and_the_walkers_read_one_around_the_wall() {
    let mut a = app(BoidsPlugin::default().threads(1), tick());
    let flock = maze(&mut a, 200);
    run_to(&mut a, 2);
    let b = a.world().resource::<Boids>();
    let id = b.flock_id(flock).unwrap();
    assert_eq!(b.world().flow_cell_size(), 0.0, "none without the resource");
    assert!(b.world().flow_field(id).is_none());
    a.insert_resource(FlowFields {
        cell_size: 1.0,
        budget: 0,
    });
    run_to(&mut a, 3);
    let b = a.world().resource::<Boids>();
    assert_eq!(b.world().flow_cell_size(), 1.0);
    let f = b.world().flow_field(id).expect("a field");
    assert_eq!(f.grid.size, [161, 161]);
    // In the U's cup (cell 80, 80) the way leads out west, away from the target beyond it.
    let c = f.grid.index(80, 80);
    assert!(f.direction(c).unwrap().x < 0.0 && f.distance_at(c).unwrap() > 100.0);
    let mut arrows = Vec::new();
    assert_eq!(b.world().flow_arrows(id, 64, &mut arrows), 3);
    assert!(arrows.len() > 2000, "{} arrows", arrows.len());
    // A budget, then a refused cell size: logged, the engine keeps 1 and takes the budget.
    a.insert_resource(FlowFields {
        cell_size: 1.0,
        budget: 5_000,
    });
    run_to(&mut a, 4);
    assert_eq!(a.world().resource::<Boids>().world().flow_budget(), 5_000);
    a.insert_resource(FlowFields {
        cell_size: f32::NAN,
        budget: 7,
    });
    run_to(&mut a, 5);
    let w = a.world().resource::<Boids>().world();
    assert_eq!((w.flow_cell_size(), w.flow_budget()), (1.0, 7));
    assert!(w.flow_field(id).is_some(), "still reading its field");
}

/// With the `gizmos` feature: every frame Bevy hands its renderer one arrow a sampled cell of the
/// field, where `World::flow_arrows` puts it, on an overlapped step too
/// (it draws after the write back, when no step is in flight); taken off, none.
#[cfg(feature = "gizmos")]
#[test]
fn the_flow_field_gizmos_draw_every_frame_without_a_step_in_flight() {
    use boids_bevy::FlowFieldGizmos;
    let mut a = app(BoidsPlugin::default().threads(2).overlapped(true), tick());
    // Bevy's gizmos, headless: what `DefaultPlugins` would give them (no renderer).
    a.init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>();
    a.add_plugins(bevy::gizmos::GizmoPlugin);
    a.insert_resource(FlowFields {
        cell_size: 1.0,
        budget: 0,
    });
    let flock = maze(&mut a, 200);
    a.world_mut()
        .entity_mut(flock)
        .insert(FlowFieldGizmos { per_side: 16 });
    // What the frame drew, as Bevy hands it to the renderer (its gizmo asset, in `Last`).
    fn drawn(a: &App) -> Vec<Vec3> {
        use bevy::gizmos::{GizmoAsset, GizmoHandles, config::DefaultGizmoConfigGroup};
        let handles = a.world().resource::<GizmoHandles>().handles();
        let Some(Some(h)) = handles.get(&std::any::TypeId::of::<DefaultGizmoConfigGroup>()) else {
            return Vec::new();
        };
        let assets = a.world().resource::<Assets<GizmoAsset>>();
        assets.get(h.id()).unwrap().buffer().list_positions.clone()
    }
    let mut arrows = Vec::new();
    for step in 1..=6 {
        run_to(&mut a, step);
        let b = a.world().resource::<Boids>();
        assert!(
            !b.world().is_stepping(),
            "the frame's step ended in the write back"
        );
        b.world()
            .flow_arrows(b.flock_id(flock).unwrap(), 16, &mut arrows);
        assert!(arrows.len() > 100, "step {step}: {} arrows", arrows.len());
        // Each arrow: its shaft (tail to tip), then Bevy's four barbs from the tip.
        let lines = drawn(&a);
        assert_eq!(lines.len(), 10 * arrows.len(), "step {step}");
        for (k, w) in arrows.iter().enumerate() {
            let (tail, tip) = (
                Vec3::from_array(w.tail.to_array()),
                Vec3::from_array(w.tip.to_array()),
            );
            assert_eq!((lines[10 * k], lines[10 * k + 1]), (tail, tip));
            assert!((1..5).all(|b| lines[10 * k + 2 * b] == tip));
        }
    }
    // Taken off: nothing drawn.
    a.world_mut().entity_mut(flock).remove::<FlowFieldGizmos>();
    run_to(&mut a, 7);
    assert!(drawn(&a).is_empty());
}
