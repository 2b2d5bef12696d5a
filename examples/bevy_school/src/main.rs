//! The boids engine driven by Bevy, in one of two scenes:
//! - `reef` (the default): the reef preset's school at 10,000 fish (small cones), a shark
//!   chasing them, the reef's rocks (triangle-mesh obstacles) and its seabed (a heightfield);
//! - `herd`: the herd preset: 2,000 sheep (white blocks) walking over hills (a heightfield
//!   marked as ground), kept off a ridge too steep for them and out of a ravine, around rocks
//!   and a fence, chased by a sheepdog, under 300 birds;
//! - `maze`: the maze preset: 1,000 walkers (blue blocks) crossing walled hills to a target (a
//!   white ball) behind a U-shaped wall whose cup opens toward them, along a flow field drawn
//!   as gizmos (arrows green near the target, red far).
//!
//! A camera orbits (drag with the left button; the wheel zooms).
//!
//! ```text
//! cargo run --release                              # watch the reef
//! cargo run --release -- --scene herd              # watch the herd
//! cargo run --release -- --scene maze              # watch the walkers find the way
//! cargo run --release -- --screenshot school.png   # 120 frames, a picture, exit
//! cargo run --release -- --fish 2000 --frames 60 --screenshot small.png
//! cargo run --release -- --check-picture school.png  # does it show fish? (exit status)
//! cargo run --release -- --scene herd --check-picture herd.png  # sheep?
//! ```
//!
//! `--fish N` sets the first flock's count (the school, the sheep, the walkers). Built on its own
//! (the whole of Bevy): `scripts/check-bevy` runs every scene under Xvfb with Mesa's software
//! Vulkan and checks their pictures.

use std::f32::consts::{FRAC_PI_2, TAU};
use std::path::PathBuf;

use bevy::asset::RenderAssetUsages;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use boids_bevy::{
    Boid, BoidSpawn, BoidsPlugin, Flock, FlockRelation, FlockSpawn, FlowFieldGizmos, FlowFields,
    Ground, Heightfield, Obstacle, RelationKind,
};
use boids_sim::scene::MeshSpec;
use boids_sim::{BoidSpec, FlockSpec, RelationSpec, Scene};

/// Which scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Reef,
    Herd,
    Maze,
}

/// What the command line asked for.
#[derive(Resource, Clone)]
struct Options {
    scene: Which,
    fish: Option<usize>,
    frames: u32,
    screenshot: Option<PathBuf>,
}

fn options() -> Options {
    let mut o = Options {
        scene: Which::Reef,
        fish: None,
        frames: 120,
        screenshot: None,
    };
    let mut check = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--scene" => {
                o.scene = match value().as_str() {
                    "reef" => Which::Reef,
                    "herd" => Which::Herd,
                    "maze" => Which::Maze,
                    other => panic!("--scene: reef, herd or maze, not {other}"),
                }
            }
            "--fish" => o.fish = Some(value().parse().expect("--fish: a count")),
            "--frames" => o.frames = value().parse().expect("--frames: a count"),
            "--screenshot" => o.screenshot = Some(PathBuf::from(value())),
            "--check-picture" => check = Some(PathBuf::from(value())),
            "-h" | "--help" => {
                println!(
                    "bevy-school [--scene reef|herd|maze] [--fish N] [--frames N] [--screenshot FILE.png] | [--scene reef|herd|maze] --check-picture FILE.png"
                );
                std::process::exit(0);
            }
            other => panic!("unknown argument {other} (try --help)"),
        }
    }
    if let Some(path) = check {
        std::process::exit(check_picture(&path, o.scene));
    }
    if let Some(p) = &o.screenshot {
        // An old picture would end the run before the new one is taken.
        let _ = std::fs::remove_file(p);
    }
    o
}

/// How each flock's boids are drawn, by flock entity.
#[derive(Resource, Default)]
struct Looks(HashMap<Entity, (Handle<Mesh>, Handle<StandardMaterial>)>);

/// The orbiting camera: around `at`, `distance` away, within `range`.
#[derive(Component)]
struct Orbit {
    at: Vec3,
    yaw: f32,
    pitch: f32,
    distance: f32,
    range: (f32, f32),
}

fn main() {
    let o = options();
    let (title, clear) = match o.scene {
        Which::Reef => (
            "boids in Bevy: a reef school and a shark",
            Color::srgb(0.02, 0.10, 0.16),
        ),
        Which::Herd => (
            "boids in Bevy: a herd on the hills, a sheepdog and birds",
            Color::srgb(0.45, 0.65, 0.90),
        ),
        Which::Maze => (
            "boids in Bevy: walkers finding the way around walls along a flow field",
            Color::srgb(0.55, 0.70, 0.85),
        ),
    };
    App::new()
        .insert_resource(ClearColor(clear))
        .insert_resource(o)
        .init_resource::<Looks>()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: title.into(),
                resolution: WindowResolution::new(960, 540),
                ..default()
            }),
            ..default()
        }))
        .add_plugins(BoidsPlugin::default().seed(1))
        .add_systems(Startup, setup)
        .add_systems(Update, (dress_new_boids, orbit, screenshot))
        .run();
}

fn to_array(v: boids_sim::Vec3) -> [f32; 3] {
    v.to_array()
}

fn vec3(v: boids_sim::Vec3) -> Vec3 {
    Vec3::from_array(v.to_array())
}

/// The reef preset's scene with the shark preset's predator added, kept in the reef's water.
fn reef_scene() -> Scene {
    let mut reef = boids_sim::presets::get("reef")
        .expect("the reef preset")
        .scene("school");
    let shark_scene = boids_sim::presets::get("shark")
        .expect("the shark preset")
        .scene("s");
    let mut shark_params = shark_scene.flock[1].params;
    shark_params.bounds = reef.flock[0].params.bounds;
    reef.flock.push(FlockSpec {
        name: "shark".into(),
        count: 0,
        spawn: boids_sim::Spawn::default(),
        boids: vec![BoidSpec {
            position: boids_sim::Vec3::new(-12.0, 0.0, -12.0),
            velocity: boids_sim::Vec3::new(3.0, 0.0, 3.0),
        }],
        params: shark_params,
        ..shark_scene.flock[1].clone()
    });
    let relation = |from: &str, to: &str, kind, radius, weight| RelationSpec {
        from: from.into(),
        to: to.into(),
        kind,
        radius,
        weight,
    };
    reef.relation = vec![
        relation("school", "shark", RelationKind::Flee, 5.0, 20.0),
        relation("shark", "school", RelationKind::Chase, 10.0, 8.0),
    ];
    reef
}

/// A flock's look: a cone pointing along -Z (a boid's forward), or a block that long.
enum Look {
    Cone { radius: f32, height: f32 },
    Block { size: Vec3 },
}

fn cone(radius: f32, height: f32) -> Look {
    Look::Cone { radius, height }
}

fn block(x: f32, y: f32, z: f32) -> Look {
    Look::Block {
        size: Vec3::new(x, y, z),
    }
}

/// A camera orbiting `at` at (yaw, pitch), `distance` away, zoomed between 8 and `farthest`.
fn orbit_at(at: Vec3, (yaw, pitch): (f32, f32), distance: f32, farthest: f32) -> Orbit {
    Orbit {
        at,
        yaw,
        pitch,
        distance,
        range: (8.0, farthest),
    }
}

/// The scene's shape data for Bevy: a mesh asset (drawn and avoided alike), or a heightfield.
enum Shape {
    Mesh(Handle<Mesh>),
    Field(Heightfield),
}

fn shape(spec: &MeshSpec, meshes: &mut Assets<Mesh>) -> Shape {
    let built = spec.build().expect("a preset's shape data is valid");
    if built.is_heightfield() {
        let (columns, rows, cell) = match *spec {
            MeshSpec::Seabed {
                columns,
                rows,
                cell,
                ..
            }
            | MeshSpec::Terrain {
                columns,
                rows,
                cell,
                ..
            } => (columns, rows, Vec2::splat(cell)),
            MeshSpec::Heightfield {
                columns,
                rows,
                cell_x,
                cell_z,
                ..
            } => (columns, rows, Vec2::new(cell_x, cell_z)),
            _ => unreachable!("only these build heightfields"),
        };
        // Sample i of a heightfield is column i % columns of row i / columns.
        let heights: Vec<f32> = (0..built.vertex_count() as u32)
            .map(|i| built.vertex(i).y)
            .collect();
        return Shape::Field(Heightfield {
            columns,
            rows,
            cell,
            heights: heights.into(),
        });
    }
    let vertices: Vec<[f32; 3]> = (0..built.vertex_count() as u32)
        .map(|i| to_array(built.vertex(i)))
        .collect();
    let indices: Vec<u32> = (0..built.triangle_count() as u32)
        .flat_map(|k| built.triangle(k))
        .collect();
    Shape::Mesh(
        meshes.add(
            Mesh::new(
                PrimitiveTopology::TriangleList,
                RenderAssetUsages::default(),
            )
            .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, vertices)
            .with_inserted_indices(Indices::U32(indices))
            .with_computed_normals(),
        ),
    )
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut looks: ResMut<Looks>,
    o: Res<Options>,
) {
    let mut colour = |r: f32, g: f32, b: f32, rough: f32| {
        materials.add(StandardMaterial {
            base_color: Color::srgb(r, g, b),
            perceptual_roughness: rough,
            ..default()
        })
    };
    let (mut scene, ground_colour, flock_looks, orbit) = match o.scene {
        Which::Reef => (
            reef_scene(),
            colour(0.76, 0.68, 0.50, 1.0),
            vec![
                (cone(0.07, 0.35), colour(0.95, 0.62, 0.20, 0.5)),
                (cone(0.45, 2.0), colour(0.85, 0.10, 0.10, 0.5)),
            ],
            orbit_at(Vec3::new(0.0, -1.0, 0.0), (0.6, 0.45), 42.0, 120.0),
        ),
        Which::Herd => (
            boids_sim::presets::get("herd")
                .expect("the herd preset")
                .scene("herd"),
            colour(0.33, 0.52, 0.22, 1.0),
            vec![
                // A sheep stands 0.4 above its feet (the preset's pivot): a block 0.6 high.
                (block(0.6, 0.6, 1.0), colour(0.95, 0.95, 0.92, 0.8)),
                (block(0.4, 0.5, 0.9), colour(0.25, 0.16, 0.10, 0.8)),
                (cone(0.15, 0.6), colour(0.12, 0.12, 0.14, 0.6)),
            ],
            orbit_at(Vec3::new(-40.0, 2.0, 0.0), (0.9, 0.6), 75.0, 260.0),
        ),
        Which::Maze => (
            boids_sim::presets::get("maze")
                .expect("the maze preset")
                .scene("walkers"),
            colour(0.40, 0.50, 0.30, 1.0),
            // A walker stands 0.4 above its feet (the preset's pivot): a block 0.7 high.
            vec![(block(0.5, 0.7, 0.8), colour(0.10, 0.30, 0.95, 0.6))],
            orbit_at(Vec3::new(0.0, 0.0, 0.0), (-1.2, 0.9), 120.0, 260.0),
        ),
    };
    // The scene's flow cells (the maze's 1; 0 elsewhere: none).
    commands.insert_resource(FlowFields {
        cell_size: scene.flow_cell,
        budget: 0,
    });
    let stone = colour(0.45, 0.40, 0.36, 0.9);
    let wood = colour(0.45, 0.30, 0.18, 0.9);
    if let (Some(n), Some(first)) = (o.fish, scene.flock.first_mut()) {
        first.count = n;
    }
    let shapes: Vec<Shape> = scene.mesh.iter().map(|m| shape(m, &mut meshes)).collect();
    for obstacle in &scene.obstacle {
        match *obstacle {
            // A mesh (a rock) or a heightfield (the seabed, the hills): drawn as placed, and
            // ground when the placement says so.
            boids_sim::Obstacle::Mesh {
                mesh: id,
                position,
                rotation,
                scale,
                ground,
            }
            | boids_sim::Obstacle::Heightfield {
                field: id,
                position,
                rotation,
                scale,
                ground,
            } => {
                let (obstacle, drawn, material) = match &shapes[id.index as usize] {
                    Shape::Mesh(h) => (Obstacle::Mesh(h.clone()), h.clone(), stone.clone()),
                    Shape::Field(f) => (
                        Obstacle::Heightfield(f.clone()),
                        meshes.add(field_mesh(f)),
                        ground_colour.clone(),
                    ),
                };
                let mut e = commands.spawn((
                    obstacle,
                    Mesh3d(drawn),
                    MeshMaterial3d(material),
                    Transform {
                        translation: vec3(position),
                        rotation: Quat::from_array(rotation.to_array()),
                        scale: vec3(scale),
                    },
                ));
                if ground {
                    e.insert(Ground);
                }
            }
            boids_sim::Obstacle::Box { min, max } => {
                let half = (vec3(max) - vec3(min)) * 0.5;
                commands.spawn((
                    Obstacle::Cuboid { half_size: half },
                    Mesh3d(meshes.add(Cuboid { half_size: half })),
                    MeshMaterial3d(wood.clone()),
                    Transform::from_translation(vec3(min) + half),
                ));
            }
            boids_sim::Obstacle::Sphere { centre, radius } => {
                commands.spawn((
                    Obstacle::Sphere { radius },
                    Mesh3d(meshes.add(Sphere { radius })),
                    MeshMaterial3d(stone.clone()),
                    Transform::from_translation(vec3(centre)),
                ));
            }
            ref other => warn!("this example does not draw {other:?}: left out"),
        }
    }
    // The flocks, with their looks, then the relations between them by name.
    let mut by_name = HashMap::new();
    for (k, spec) in scene.flock.iter().enumerate() {
        let flock = commands
            .spawn((
                Name::new(spec.name.clone()),
                Flock::new(spec.params),
                FlockSpawn {
                    count: spec.count,
                    spawn: spec.spawn,
                },
            ))
            .id();
        for b in &spec.boids {
            commands.spawn((
                BoidSpawn {
                    flock,
                    velocity: vec3(b.velocity),
                },
                Transform::from_translation(vec3(b.position)),
            ));
        }
        let (look, material) = &flock_looks[k.min(flock_looks.len() - 1)];
        let mesh = match *look {
            Look::Cone { radius, height } => Cone { radius, height }
                .mesh()
                .build()
                .rotated_by(Quat::from_rotation_x(-FRAC_PI_2)),
            Look::Block { size } => Cuboid::from_size(size).mesh().build(),
        };
        looks.0.insert(flock, (meshes.add(mesh), material.clone()));
        by_name.insert(spec.name.clone(), flock);
        // A flock that walks to a target along a flow field: the field drawn, the target a ball.
        if let (Some(target), Some(_)) = (spec.params.target, spec.params.ground)
            && scene.flow_cell > 0.0
        {
            commands.entity(flock).insert(FlowFieldGizmos::default());
            commands.spawn((
                Mesh3d(meshes.add(Sphere { radius: 1.5 })),
                MeshMaterial3d(colour(0.97, 0.97, 0.97, 0.5)),
                Transform::from_translation(vec3(target.point) + Vec3::Y * 2.0),
            ));
        }
    }
    for r in &scene.relation {
        commands.spawn(FlockRelation {
            from: by_name[&r.from],
            to: by_name[&r.to],
            kind: r.kind,
            radius: r.radius,
            weight: r.weight,
        });
    }
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            ..default()
        },
        Transform::from_xyz(10.0, 30.0, 15.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2_500.0,
            ..default()
        },
        Transform::from_xyz(-20.0, 10.0, -10.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((Camera3d::default(), orbit, Transform::default()));
}

/// The seabed's surface for drawing: the heightfield's own triangles (two a cell), wound to
/// face up.
fn field_mesh(f: &Heightfield) -> Mesh {
    let (c, r) = (f.columns, f.rows);
    let mut v = Vec::with_capacity((c * r) as usize);
    for j in 0..r {
        for i in 0..c {
            let h = f.heights[(j * c + i) as usize];
            v.push([i as f32 * f.cell.x, h, j as f32 * f.cell.y]);
        }
    }
    let mut idx = Vec::with_capacity(((c - 1) * (r - 1) * 6) as usize);
    for j in 0..r - 1 {
        for i in 0..c - 1 {
            let k = |di: u32, dj: u32| (j + dj) * c + i + di;
            idx.extend([k(0, 0), k(1, 1), k(1, 0), k(0, 0), k(0, 1), k(1, 1)]);
        }
    }
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, v)
    .with_inserted_indices(Indices::U32(idx))
    .with_computed_normals()
}

/// New boid entities get their flock's mesh and material.
fn dress_new_boids(
    mut commands: Commands,
    new: Query<(Entity, &Boid), Added<Boid>>,
    looks: Res<Looks>,
) {
    for (e, boid) in &new {
        if let Some((mesh, material)) = looks.0.get(&boid.flock()) {
            commands
                .entity(e)
                .insert((Mesh3d(mesh.clone()), MeshMaterial3d(material.clone())));
        }
    }
}

/// The camera turns slowly around the scene; a drag turns it, the wheel zooms.
fn orbit(
    time: Res<Time>,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    mut cameras: Query<(&mut Orbit, &mut Transform)>,
) {
    for (mut o, mut t) in &mut cameras {
        if buttons.pressed(MouseButton::Left) {
            o.yaw -= motion.delta.x * 0.005;
            o.pitch = (o.pitch + motion.delta.y * 0.005).clamp(-0.2, 1.4);
        } else {
            o.yaw += time.delta_secs() * 0.08;
        }
        o.yaw %= TAU;
        o.distance = (o.distance * (1.0 - scroll.delta.y * 0.1)).clamp(o.range.0, o.range.1);
        let at = o.at;
        let dir = Vec3::new(
            o.pitch.cos() * o.yaw.sin(),
            o.pitch.sin(),
            o.pitch.cos() * o.yaw.cos(),
        );
        *t = Transform::from_translation(at + dir * o.distance).looking_at(at, Vec3::Y);
    }
}

/// With `--screenshot`: a picture after `--frames` frames, then exit once it is written.
fn screenshot(
    mut commands: Commands,
    o: Res<Options>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = &o.screenshot else { return };
    *frame += 1;
    if *frame == o.frames {
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
    }
    // The capture is read back a few frames later; wait for the file.
    if *frame > o.frames && path.exists() && std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        exit.write(AppExit::Success);
    }
    if *frame > o.frames + 600 {
        eprintln!("no screenshot after 600 more frames");
        exit.write(AppExit::error());
    }
}

/// Whether a screenshot shows the scene: not blank, not one colour, and at least 400 pixels in
/// the first flock's colour. The reef's fish are orange (red well above green, blue far below
/// both: not the sand, the stones, the water or the shark's red); the maze's walkers blue (well
/// above red and green: not the sky, the grass, the walls or the arrows); the herd's sheep near white
/// (all three channels high and close: not the grass, the sky, the rocks or the fence). Prints
/// what it counted; the process's exit status.
fn check_picture(path: &std::path::Path, scene: Which) -> i32 {
    let img = match image::open(path) {
        Ok(i) => i.to_rgb8(),
        Err(e) => {
            eprintln!("check-picture: cannot read {}: {e}", path.display());
            return 1;
        }
    };
    let total = (img.width() * img.height()) as usize;
    let mut colours = std::collections::HashMap::<[u8; 3], usize>::new();
    let (mut first, mut lit) = (0usize, 0usize);
    for p in img.pixels() {
        *colours.entry(p.0).or_default() += 1;
        let [r, g, b] = p.0.map(f32::from);
        if r + g + b > 60.0 {
            lit += 1;
        }
        let counted = match scene {
            Which::Reef => r > 60.0 && g > 0.35 * r && g < 0.82 * r && b < 0.45 * r,
            Which::Maze => b > 90.0 && b > 1.8 * r && b > 1.5 * g,
            Which::Herd => r.min(g).min(b) > 170.0 && r.max(g).max(b) - r.min(g).min(b) < 40.0,
        };
        if counted {
            first += 1;
        }
    }
    let commonest = colours.values().copied().max().unwrap_or(0);
    let what = match scene {
        Which::Reef => "fish",
        Which::Herd => "sheep",
        Which::Maze => "walkers",
    };
    println!(
        "{}: {}x{}, {} colours, commonest {:.1}% of pixels, lit {:.1}%, {what}-coloured {first}",
        path.display(),
        img.width(),
        img.height(),
        colours.len(),
        100.0 * commonest as f64 / total as f64,
        100.0 * lit as f64 / total as f64,
    );
    let ok = colours.len() >= 200 && commonest * 10 < total * 9 && first >= 400;
    if !ok {
        eprintln!(
            "check-picture: the picture does not show the {what} (blank, one colour, or none of their colour)"
        );
    }
    if ok { 0 } else { 1 }
}
