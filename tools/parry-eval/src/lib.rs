//! One export per variant: build a mesh from caller data, cast one ray and one swept sphere,
//! return the distances' sum (so nothing is optimised away). Its size is what each library adds.
#[cfg(feature = "parry")]
#[unsafe(no_mangle)]
pub extern "C" fn parry_cast(v: *const f32, nv: usize, i: *const u32, ni: usize, o: *const f32, r: f32) -> f32 {
    use parry3d::math::{Pose, Vector};
    use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes};
    use parry3d::shape::{Ball, TriMesh};
    let v = unsafe { std::slice::from_raw_parts(v, nv * 3) };
    let i = unsafe { std::slice::from_raw_parts(i, ni) };
    let o = unsafe { std::slice::from_raw_parts(o, 6) };
    let verts: Vec<Vector> = v.chunks(3).map(|c| Vector::new(c[0], c[1], c[2])).collect();
    let idx: Vec<[u32; 3]> = i.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    let Ok(mesh) = TriMesh::new(verts, idx) else { return -1.0 };
    let origin = Vector::new(o[0], o[1], o[2]);
    let dir = Vector::new(o[3], o[4], o[5]);
    let ray = Ray::new(origin, dir);
    let a = mesh.cast_ray_and_get_normal(&Pose::IDENTITY, &ray, 100.0, false).map_or(0.0, |h| h.time_of_impact);
    let ball = Ball::new(r);
    let b = cast_shapes(&Pose::from_translation(origin), dir, &ball, &Pose::IDENTITY, Vector::ZERO, &mesh, ShapeCastOptions::with_max_time_of_impact(100.0)).ok().flatten().map_or(0.0, |h| h.time_of_impact);
    a + b
}

#[cfg(feature = "own")]
#[unsafe(no_mangle)]
pub extern "C" fn own_cast(v: *const f32, nv: usize, i: *const u32, ni: usize, o: *const f32, r: f32) -> f32 {
    use boids_core::Vec3;
    use boids_core::geometry::{MeshShape, Placement, Transform};
    let v = unsafe { std::slice::from_raw_parts(v, nv * 3) };
    let i = unsafe { std::slice::from_raw_parts(i, ni) };
    let o = unsafe { std::slice::from_raw_parts(o, 6) };
    let verts: Vec<Vec3> = v.chunks(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect();
    let Ok(mesh) = MeshShape::mesh(verts, i) else { return -1.0 };
    let pl = Placement::new(&mesh, Transform::new(Vec3::ZERO, boids_core::Quat::IDENTITY, Vec3::ONE));
    let origin = Vec3::new(o[0], o[1], o[2]);
    let dir = Vec3::new(o[3], o[4], o[5]);
    let a = mesh.cast(&pl, origin, 0.0, dir, 100.0).map_or(0.0, |h| h.0.distance);
    let b = mesh.cast(&pl, origin, r, dir, 100.0).map_or(0.0, |h| h.0.distance);
    a + b
}
