//! The boids engine driven by Bevy: the reef preset's school at 10,000 fish (small cones), a
//! shark chasing them, the reef's rocks (triangle-mesh obstacles) and its seabed (a
//! heightfield), and a camera that orbits (drag with the left button; the wheel zooms).
//!
//! ```text
//! cargo run --release                              # watch
//! cargo run --release -- --screenshot school.png   # 120 frames, a picture, exit
//! cargo run --release -- --fish 2000 --frames 60 --screenshot small.png
//! cargo run --release -- --check-picture school.png  # does it show fish? (exit status)
//! ```
//!
//! Built on its own (the whole of Bevy): `scripts/check-bevy` runs it under Xvfb with Mesa's
//! software Vulkan and checks its picture.

use std::f32::consts::{FRAC_PI_2, TAU};
use std::path::PathBuf;

use bevy::asset::RenderAssetUsages;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use boids_bevy::{
    Boid, BoidSpawn, BoidsPlugin, Flock, FlockRelation, Heightfield, Obstacle, RelationKind,
};
use boids_sim::scene::{MeshSpec, rock, seabed};

/// What the command line asked for.
#[derive(Resource, Clone)]
struct Options {
    fish: usize,
    frames: u32,
    screenshot: Option<PathBuf>,
}

fn options() -> Options {
    let mut o = Options {
        fish: 10_000,
        frames: 120,
        screenshot: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--fish" => o.fish = value().parse().expect("--fish: a count"),
            "--frames" => o.frames = value().parse().expect("--frames: a count"),
            "--screenshot" => o.screenshot = Some(PathBuf::from(value())),
            "--check-picture" => std::process::exit(check_picture(&PathBuf::from(value()))),
            "-h" | "--help" => {
                println!(
                    "bevy-school [--fish N] [--frames N] [--screenshot FILE.png] | --check-picture FILE.png"
                );
                std::process::exit(0);
            }
            other => panic!("unknown argument {other} (try --help)"),
        }
    }
    if let Some(p) = &o.screenshot {
        // An old picture would end the run before the new one is taken.
        let _ = std::fs::remove_file(p);
    }
    o
}

/// The school's and the shark's flock entities.
#[derive(Resource)]
struct Flocks {
    school: Entity,
}

/// Each flock's look.
#[derive(Resource)]
struct Looks {
    fish: (Handle<Mesh>, Handle<StandardMaterial>),
    shark: (Handle<Mesh>, Handle<StandardMaterial>),
}

/// The orbiting camera.
#[derive(Component)]
struct Orbit {
    yaw: f32,
    pitch: f32,
    distance: f32,
}

fn main() {
    let o = options();
    App::new()
        .insert_resource(ClearColor(Color::srgb(0.02, 0.10, 0.16)))
        .insert_resource(o)
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "boids in Bevy: a reef school and a shark".into(),
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

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    o: Res<Options>,
) {
    let reef = boids_sim::presets::get("reef")
        .expect("the reef preset")
        .scene("school");
    // The rocks: one mesh asset per shape (drawn and avoided alike), placed as the preset does.
    let stone = materials.add(StandardMaterial {
        base_color: Color::srgb(0.45, 0.40, 0.36),
        perceptual_roughness: 0.9,
        ..default()
    });
    let mut shapes: Vec<Option<Handle<Mesh>>> = Vec::new();
    let mut field = None;
    for spec in &reef.mesh {
        match *spec {
            MeshSpec::Rock {
                seed,
                radius,
                detail,
                roughness,
            } => {
                let (v, i) = rock(seed, radius, detail, roughness);
                let mesh = Mesh::new(
                    PrimitiveTopology::TriangleList,
                    RenderAssetUsages::default(),
                )
                .with_inserted_attribute(
                    Mesh::ATTRIBUTE_POSITION,
                    v.into_iter().map(to_array).collect::<Vec<_>>(),
                )
                .with_inserted_indices(Indices::U32(i))
                .with_computed_normals();
                shapes.push(Some(meshes.add(mesh)));
            }
            MeshSpec::Seabed {
                seed,
                columns,
                rows,
                cell,
                height,
            } => {
                field = Some(Heightfield {
                    columns,
                    rows,
                    cell: Vec2::splat(cell),
                    heights: seabed(seed, columns, rows, cell, height).into(),
                });
                shapes.push(None);
            }
            _ => shapes.push(None),
        }
    }
    for obstacle in &reef.obstacle {
        match *obstacle {
            boids_sim::Obstacle::Mesh {
                mesh,
                position,
                rotation,
                scale,
                ..
            } => {
                let handle = shapes[mesh.index as usize].clone().expect("a rock's mesh");
                commands.spawn((
                    Obstacle::Mesh(handle.clone()),
                    Mesh3d(handle),
                    MeshMaterial3d(stone.clone()),
                    Transform {
                        translation: Vec3::from_array(position.to_array()),
                        rotation: Quat::from_array(rotation.to_array()),
                        scale: Vec3::from_array(scale.to_array()),
                    },
                ));
            }
            boids_sim::Obstacle::Heightfield { position, .. } => {
                let f = field.clone().expect("the reef's seabed");
                let sand = materials.add(StandardMaterial {
                    base_color: Color::srgb(0.76, 0.68, 0.50),
                    perceptual_roughness: 1.0,
                    ..default()
                });
                commands.spawn((
                    Mesh3d(meshes.add(field_mesh(&f))),
                    MeshMaterial3d(sand),
                    Obstacle::Heightfield(f),
                    Transform::from_translation(Vec3::from_array(position.to_array())),
                ));
            }
            _ => {}
        }
    }
    // The school: the reef's, with as many fish as asked.
    let (school_flock, spawn) = Flock::preset("reef", o.fish).expect("the reef preset");
    let school = commands
        .spawn((Name::new("school"), school_flock.clone(), spawn))
        .id();
    // The shark: the shark preset's predator, kept in the reef's water.
    let shark_scene = boids_sim::presets::get("shark")
        .expect("the shark preset")
        .scene("s");
    let mut shark_params = shark_scene.flock[1].params;
    shark_params.bounds = school_flock.params.bounds;
    let shark = commands
        .spawn((Name::new("shark"), Flock::new(shark_params)))
        .id();
    commands.spawn((
        BoidSpawn {
            flock: shark,
            velocity: Vec3::new(3.0, 0.0, 3.0),
        },
        Transform::from_xyz(-12.0, 0.0, -12.0),
    ));
    commands.spawn(FlockRelation {
        from: school,
        to: shark,
        kind: RelationKind::Flee,
        radius: 5.0,
        weight: 20.0,
    });
    commands.spawn(FlockRelation {
        from: shark,
        to: school,
        kind: RelationKind::Chase,
        radius: 10.0,
        weight: 8.0,
    });
    commands.insert_resource(Flocks { school });
    // Fish are small cones pointing along -Z (a boid's forward); the shark a large red one.
    let cone = |radius: f32, height: f32| {
        Cone { radius, height }
            .mesh()
            .build()
            .rotated_by(Quat::from_rotation_x(-FRAC_PI_2))
    };
    commands.insert_resource(Looks {
        fish: (
            meshes.add(cone(0.07, 0.35)),
            materials.add(StandardMaterial {
                base_color: Color::srgb(0.95, 0.62, 0.20),
                perceptual_roughness: 0.5,
                ..default()
            }),
        ),
        shark: (
            meshes.add(cone(0.45, 2.0)),
            materials.add(StandardMaterial {
                base_color: Color::srgb(0.85, 0.10, 0.10),
                ..default()
            }),
        ),
    });
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
    commands.spawn((
        Camera3d::default(),
        Orbit {
            yaw: 0.6,
            pitch: 0.45,
            distance: 42.0,
        },
        Transform::default(),
    ));
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
    flocks: Option<Res<Flocks>>,
    looks: Option<Res<Looks>>,
) {
    let (Some(flocks), Some(looks)) = (flocks, looks) else {
        return;
    };
    for (e, boid) in &new {
        let (mesh, material) = if boid.flock() == flocks.school {
            &looks.fish
        } else {
            &looks.shark
        };
        commands
            .entity(e)
            .insert((Mesh3d(mesh.clone()), MeshMaterial3d(material.clone())));
    }
}

/// The camera turns slowly around the reef; a drag turns it, the wheel zooms.
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
        o.distance = (o.distance * (1.0 - scroll.delta.y * 0.1)).clamp(8.0, 120.0);
        let at = Vec3::new(0.0, -1.0, 0.0);
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
/// the fish's orange (red well above green, blue far below both: not the sand, the stones,
/// the water or the shark's red). Prints what it counted; the process's exit status.
fn check_picture(path: &std::path::Path) -> i32 {
    let img = match image::open(path) {
        Ok(i) => i.to_rgb8(),
        Err(e) => {
            eprintln!("check-picture: cannot read {}: {e}", path.display());
            return 1;
        }
    };
    let total = (img.width() * img.height()) as usize;
    let mut colours = std::collections::HashMap::<[u8; 3], usize>::new();
    let (mut fish, mut shark, mut lit) = (0usize, 0usize, 0usize);
    for p in img.pixels() {
        let [r, g, b] = p.0;
        *colours.entry(p.0).or_default() += 1;
        let (r, g, b) = (f32::from(r), f32::from(g), f32::from(b));
        if r + g + b > 60.0 {
            lit += 1;
        }
        if r > 60.0 && g > 0.35 * r && g < 0.82 * r && b < 0.45 * r {
            fish += 1;
        }
        if r > 60.0 && g < 0.3 * r && b < 0.3 * r {
            shark += 1;
        }
    }
    let commonest = colours.values().copied().max().unwrap_or(0);
    println!(
        "{}: {}x{}, {} colours, commonest {:.1}% of pixels, lit {:.1}%, fish-coloured {fish}, shark-coloured {shark}",
        path.display(),
        img.width(),
        img.height(),
        colours.len(),
        100.0 * commonest as f64 / total as f64,
        100.0 * lit as f64 / total as f64,
    );
    let ok = colours.len() >= 200 && commonest * 10 < total * 9 && fish >= 400;
    if !ok {
        eprintln!(
            "check-picture: the picture does not show the school (blank, one colour, or no fish)"
        );
    }
    if ok { 0 } else { 1 }
}
