//! Flow fields drawn with Bevy's gizmos (the `gizmos` feature): [`FlowFieldGizmos`].

use bevy::color::Color;
use bevy::ecs::prelude::*;
use bevy::gizmos::gizmos::Gizmos;
use boids_sim::FlowArrow;

use crate::Boids;
use crate::convert::to_bevy;

/// Put on a flock entity to draw the flow field its flock read in the last step with gizmos
/// every frame: arrows along the way to its target, on the ground, green near the target and
/// red far ([`boids_sim::World::flow_arrows`]). Nothing is drawn while the flock reads no
/// field (no flow cell size, not grounded, no target). Needs Bevy's `GizmoPlugin` (in
/// `DefaultPlugins`).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowFieldGizmos {
    /// Most arrows along each side of the field's grid: a larger grid is drawn every few cells.
    pub per_side: u32,
}

impl Default for FlowFieldGizmos {
    /// 64 arrows a side.
    fn default() -> Self {
        FlowFieldGizmos { per_side: 64 }
    }
}

/// Draws the fields of flocks with a [`FlowFieldGizmos`] (in `PostUpdate`, after the write
/// back: no step is in flight), reusing one buffer of arrows.
pub(crate) fn draw(
    boids: Res<Boids>,
    flocks: Query<(Entity, &FlowFieldGizmos)>,
    mut gizmos: Gizmos,
    mut arrows: Local<Vec<FlowArrow>>,
) {
    for (entity, show) in &flocks {
        let Some(id) = boids.flock_id(entity) else {
            continue;
        };
        boids.world.flow_arrows(id, show.per_side, &mut arrows);
        for a in arrows.iter() {
            gizmos.arrow(
                to_bevy(a.tail),
                to_bevy(a.tip),
                Color::srgb(a.far, 1.0 - a.far, 0.1),
            );
        }
    }
}
