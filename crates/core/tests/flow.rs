//! Flow fields against brute force: distances, ways and clear sight on random scenes, and the
//! hostile inputs.

use boids_core::flow::{
    CLEARANCE, FieldBuild, FlowError, FlowField, FlowGrid, MAX_FLOW_CELLS, MOVES, Prices, STRAIGHT,
    Seek, Terrain, TerrainBuild, move_cost,
};
use boids_core::{Ground, Placed, Rng, Vec3};

const UNREACHED: u32 = u32::MAX;

/// A random terrain: walls (closed runs of cells), blobs, and hills with cliffs, over a grid of
/// `w` × `h` cells of width `cell`.
fn random_terrain(rng: &mut Rng, w: u32, h: u32, cell: f32) -> Terrain {
    let grid = FlowGrid {
        origin: [-3.0, 7.0],
        cell,
        size: [w, h],
    };
    let mut height = vec![0.0f32; grid.cells()];
    // Gentle slopes, and a few terraces a cliff higher.
    let terraces = rng.range(0.0, 3.0) as u32;
    for k in 0..h {
        for i in 0..w {
            let c = grid.index(i, k);
            height[c] = 0.1 * i as f32 * cell + 0.05 * k as f32 * cell;
            for m in 0..terraces {
                if i > w / 3 + m * 2 && k > h / 4 + m {
                    height[c] += 2.0;
                }
            }
        }
    }
    let walls = rng.range(0.0, 6.0) as u32;
    for _ in 0..walls {
        let (mut i, mut k) = (
            rng.range(0.0, w as f32) as u32,
            rng.range(0.0, h as f32) as u32,
        );
        let along_x = rng.chance(0.5);
        let len = rng.range(2.0, (w.max(h)) as f32) as u32;
        for _ in 0..len {
            if i < w && k < h {
                height[grid.index(i, k)] = f32::NAN;
            }
            if along_x { i += 1 } else { k += 1 }
        }
    }
    let blobs = rng.range(0.0, 10.0) as u32;
    for _ in 0..blobs {
        let c = rng.range(0.0, grid.cells() as f32) as usize;
        height[c.min(grid.cells() - 1)] = f32::NAN;
    }
    Terrain::new(grid, height, 0.3, 40.0)
}

/// Shortest distances by relaxing every move until nothing changes (Bellman-Ford), from the
/// same seeds: the open cells through passable moves (a move costs its length and the
/// clearance cost of the cell it enters), then the closed ones through any move from the
/// reached open cells.
fn brute_force(t: &Terrain, seeds: &[(usize, u32)]) -> Vec<u32> {
    let g = t.grid;
    let mut d = vec![UNREACHED; g.cells()];
    for &(c, s) in seeds {
        d[c] = d[c].min(s);
    }
    for closed_phase in [false, true] {
        loop {
            let mut changed = false;
            for k in 0..g.size[1] {
                for i in 0..g.size[0] {
                    let a = g.index(i, k);
                    if d[a] == UNREACHED {
                        continue;
                    }
                    for m in 0..8 {
                        let Some((ni, nk)) = g.neighbour(i, k, m) else {
                            continue;
                        };
                        let b = g.index(ni, nk);
                        let (ok, cost) = if closed_phase {
                            (!t.open(b), move_cost(m))
                        } else {
                            (t.passable(i, k, m), move_cost(m) + t.extra(b))
                        };
                        if ok && d[a] + cost < d[b] {
                            d[b] = d[a] + cost;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
    d
}

/// Whether the segment from the centre of cell `a` to the centre of cell `b` crosses only open
/// cells (sampled finely, the cells it passes through, not those it only grazes at a corner).
fn segment_open(t: &Terrain, a: (u32, u32), b: (u32, u32)) -> bool {
    let g = t.grid;
    let (ax, az) = (a.0 as f64 + 0.5, a.1 as f64 + 0.5);
    let (bx, bz) = (b.0 as f64 + 0.5, b.1 as f64 + 0.5);
    let steps = 64 * (1 + a.0.abs_diff(b.0).max(a.1.abs_diff(b.1)));
    (0..=steps).all(|s| {
        let f = s as f64 / steps as f64;
        let (x, z) = (ax + (bx - ax) * f, az + (bz - az) * f);
        // Skip points on a cell's edge (a grazed corner).
        let near_edge = |v: f64| (v - v.round()).abs() < 1e-9;
        near_edge(x) || near_edge(z) || t.open(g.index(x as u32, z as u32))
    })
}

#[test]
fn distances_ways_and_sight_match_brute_force_on_random_scenes() {
    let mut rng = Rng::keyed(55, 6, 0, 1);
    let mut seen_unreached = false;
    let mut seen_closed_target = false;
    let mut seen_clear = 0usize;
    for scene in 0..300 {
        let (w, h) = (rng.range(1.0, 24.0) as u32, rng.range(1.0, 24.0) as u32);
        let cell = rng.range(0.25, 3.0);
        let t = random_terrain(&mut rng, w, h, cell);
        let g = t.grid;
        let target = Vec3::new(
            g.origin[0] + rng.range(0.0, w as f32 * cell),
            0.0,
            g.origin[1] + rng.range(0.0, h as f32 * cell),
        );
        let field = FlowField::build(&t, target);
        let tc = field.target;
        assert_eq!(g.cell_at(target.x, target.z), Some(tc), "scene {scene}");
        // Seeds as the field defines them: the target cell, or the nearest ring's open cells.
        let seeds: Vec<(usize, u32)> = if t.open(g.index(tc.0, tc.1)) {
            vec![(g.index(tc.0, tc.1), 0)]
        } else {
            seen_closed_target = true;
            let mut ring = Vec::new();
            for r in 1..=w.max(h) as i64 {
                for k in 0..h {
                    for i in 0..w {
                        let (dx, dz) = (i as i64 - tc.0 as i64, k as i64 - tc.1 as i64);
                        if dx.abs().max(dz.abs()) == r && t.open(g.index(i, k)) {
                            let (a, b) = (dx.unsigned_abs(), dz.unsigned_abs());
                            let d = 41 * a.min(b) + 29 * (a.max(b) - a.min(b));
                            ring.push((g.index(i, k), d as u32));
                        }
                    }
                }
                if !ring.is_empty() {
                    break;
                }
            }
            ring
        };
        let expected = brute_force(&t, &seeds);
        assert_eq!(field.distance, expected, "scene {scene}: distances");
        for k in 0..h {
            for i in 0..w {
                let c = g.index(i, k);
                let d = field.distance[c];
                seen_unreached |= d == UNREACHED && t.open(c);
                let way = field.way[c];
                if d == UNREACHED {
                    assert_eq!(way, 0, "scene {scene}: an unreached cell has no way");
                    continue;
                }
                if way == 0 {
                    assert!(
                        seeds.iter().any(|s| s.0 == c),
                        "scene {scene}: only seeds stop"
                    );
                }
                // The way's first moves: exactly the moves one move nearer, passable from an
                // open cell.
                for m in 0..8 {
                    let nearer = g.neighbour(i, k, m).is_some_and(|(a, b)| {
                        let from = field.distance[g.index(a, b)];
                        from != UNREACHED
                            && from + move_cost(m) + t.extra(c) == d
                            && (!t.open(c) || t.passable(i, k, m))
                    });
                    assert_eq!(way & (1 << m) != 0, nearer, "scene {scene}: ({i}, {k}) {m}");
                }
                if let Some(v) = field.direction(c) {
                    assert!((v.length() - 1.0).abs() < 1e-6 && v.y == 0.0);
                }
                // Clear sight: never through a closed cell.
                if field.clear[c] {
                    seen_clear += 1;
                    assert!(t.open(c));
                    assert!(
                        segment_open(&t, (i, k), tc),
                        "scene {scene}: ({i}, {k}) sees"
                    );
                }
            }
        }
    }
    assert!(seen_unreached && seen_closed_target && seen_clear > 1000);
}

#[test]
fn open_flat_ground_is_all_in_clear_sight_and_a_wall_hides_what_is_behind_it() {
    let g = FlowGrid::over([0.0, 0.0], [20.0, 20.0], 1.0).expect("grid");
    let mut height = vec![0.0f32; g.cells()];
    let t = Terrain::new(g, height.clone(), 0.5, 45.0);
    let target = Vec3::new(10.5, 0.0, 10.5);
    let f = FlowField::build(&t, target);
    assert!(f.clear.iter().all(|&c| c));
    // Distances: octile, in STRAIGHTs a cell.
    assert_eq!(f.distance[g.index(0, 0)], 41 * 10);
    assert_eq!(f.distance[g.index(19, 10)], 29 * 9);
    // A wall from (14, 5) to (14, 15): cells behind it, in its shadow, do not see the target;
    // those beside the shadow do.
    for k in 5..=15 {
        height[g.index(14, k)] = f32::NAN;
    }
    let t = Terrain::new(g, height, 0.5, 45.0);
    let f = FlowField::build(&t, target);
    assert!(!f.clear[g.index(17, 10)] && !f.clear[g.index(19, 12)]);
    // Sight is propagated conservatively: it may miss a cell near the shadow's edge (here
    // 13, beyond the wall's ends), never sees through the wall.
    let missed = (0..20)
        .flat_map(|k| (0..20).map(move |i| (i, k)))
        .filter(|&(i, k)| {
            t.open(g.index(i, k)) && !f.clear[g.index(i, k)] && segment_open(&t, (i, k), (10, 10))
        })
        .count();
    assert!(missed <= 13, "{missed}");
    assert!(f.clear[g.index(13, 10)], "in front of the wall");
    // Seeking from behind the wall goes along the way (around the wall's end), from in front
    // of it straight.
    match f.seek(Vec3::new(17.5, 0.0, 10.5), target) {
        Seek::Along {
            direction,
            distance,
        } => {
            assert!(direction.x.abs() < 0.8 && direction.y == 0.0, "{direction}");
            assert!((direction.length() - 1.0).abs() < 1e-6);
            assert!(distance > 7.0 * 1.3, "around the wall: {distance}");
        }
        s => panic!("{s:?}"),
    }
    assert_eq!(f.seek(Vec3::new(12.5, 0.0, 10.5), target), Seek::Straight);
    // Off the grid: straight.
    assert_eq!(f.seek(Vec3::new(-5.0, 0.0, 3.0), target), Seek::Straight);
    // The way's directions on open ground (no wall near: no clearance cost): straight at the
    // target from its row, diagonally from its diagonal, and between the two (both first
    // moves start a shortest way) from (0, 6).
    let open = Terrain::new(g, vec![0.0; g.cells()], 0.5, 45.0);
    let f = FlowField::build(&open, Vec3::new(15.5, 0.0, 10.5));
    assert_eq!(f.direction(g.index(0, 10)), Some(Vec3::X));
    let d = std::f32::consts::FRAC_1_SQRT_2;
    assert_eq!(f.direction(g.index(5, 0)), Some(Vec3::new(d, 0.0, d)));
    let v = f.direction(g.index(0, 6)).expect("a way");
    assert!(
        (v.z / v.x - (22.5f32).to_radians().tan()).abs() < 1e-6,
        "{v}"
    );
    assert_eq!(f.direction(g.index(15, 10)), None, "the target's cell");
}

#[test]
fn walled_off_cells_have_no_way_and_a_target_in_a_wall_is_reached_beside_it() {
    let g = FlowGrid::over([0.0, 0.0], [12.0, 12.0], 1.0).expect("grid");
    let mut height = vec![0.0f32; g.cells()];
    // A closed ring around (2..=4, 2..=4), with (3, 3) inside it.
    for k in 2..=4 {
        for i in 2..=4 {
            if (i, k) != (3, 3) {
                height[g.index(i, k)] = f32::NAN;
            }
        }
    }
    let t = Terrain::new(g, height, 0.5, 45.0);
    let f = FlowField::build(&t, Vec3::new(9.5, 0.0, 9.5));
    assert_eq!(f.distance[g.index(3, 3)], UNREACHED);
    assert_eq!(f.direction(g.index(3, 3)), None);
    // A boid in the ring's wall is led out of it.
    assert_ne!(f.distance[g.index(4, 4)], UNREACHED);
    assert!(matches!(
        f.seek(Vec3::new(4.5, 0.0, 4.5), Vec3::new(9.5, 0.0, 9.5)),
        Seek::Along { .. }
    ));
    // A target in the wall: the open cells around it are where the ways end.
    let f = FlowField::build(&t, Vec3::new(2.5, 0.0, 2.5));
    assert_eq!(f.distance[g.index(3, 3)], 41);
    assert_eq!(f.distance[g.index(1, 1)], 41);
    // (0, 0) is two cells from the wall: entering it costs a quarter cell more for each cell
    // nearer than CLEARANCE + 1.
    let extra = (CLEARANCE + 1 - 2) * (STRAIGHT / 4);
    assert_eq!(t.extra(g.index(0, 0)), extra);
    assert_eq!(f.distance[g.index(0, 0)], 82 + extra);
    assert!(
        f.clear.iter().all(|&c| !c),
        "a closed target cell is seen from nowhere"
    );
    // A cliff: a terrace 3 higher is walled off along its edge (over a step and the slope's
    // rise), reached only by the ramp at its end.
    let mut height = vec![0.0f32; g.cells()];
    for k in 0..12 {
        for i in 6..12 {
            height[g.index(i, k)] = if k == 11 { 0.9 * (i as f32 - 5.0) } else { 3.0 };
        }
    }
    let t = Terrain::new(g, height, 0.5, 45.0);
    let f = FlowField::build(&t, Vec3::new(9.5, 0.0, 2.5));
    assert!(!t.passable(5, 2, 0));
    assert!(f.distance[g.index(5, 2)] > 29 * 12, "around by the ramp");
}

#[test]
fn a_grid_refuses_bad_cells_and_more_than_the_cap() {
    for c in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            FlowGrid::over([0.0, 0.0], [10.0, 10.0], c),
            Err(FlowError::CellSize(_))
        ));
    }
    assert_eq!(
        FlowGrid::over([0.0, f32::NAN], [1.0, 1.0], 1.0),
        Err(FlowError::Extent)
    );
    let e = FlowGrid::over([0.0, 0.0], [4097.0, 4096.0], 1.0).unwrap_err();
    assert_eq!(e, FlowError::TooLarge { size: [4097, 4096] });
    assert!(e.to_string().contains("16777216"), "{e}");
    let g = FlowGrid::over([0.0, 0.0], [4096.0, 4096.0], 1.0).expect("at the cap");
    assert_eq!(g.cells() as u64, MAX_FLOW_CELLS);
    // A point on the far edge is in the last cell; outside, or NaN, in none.
    let g = FlowGrid::over([0.0, 0.0], [10.0, 5.0], 1.0).expect("grid");
    assert_eq!(g.cell_at(10.0, 5.0), Some((9, 4)));
    assert_eq!(g.cell_at(10.01, 0.0), None);
    assert_eq!(g.cell_at(f32::NAN, 0.0), None);
    assert_eq!(MOVES.len(), 8);
    assert_eq!(STRAIGHT, 29);
}

/// A 33 × 33 heightfield, spacing 1: flat, with a steep ridge along x = 20; and a rock of
/// radius 1.5 at (8, 0, 8).
fn ridge_and_rock() -> (Vec<Placed>, Vec<Placed>) {
    use boids_core::{MeshShape, Obstacle, Quat};
    use std::sync::Arc;
    let n = 33u32;
    let heights: Vec<f32> = (0..n * n)
        .map(|s| if s % n == 20 { 6.0 } else { 0.0 })
        .collect();
    let shape = Arc::new(MeshShape::heightfield(n, n, 1.0, 1.0, heights).expect("hf"));
    let o = Obstacle::Heightfield {
        field: boids_core::MeshId::default(),
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        ground: true,
    };
    let ground = vec![Placed::new(&o, Some(shape))];
    let rock = Obstacle::Sphere {
        centre: Vec3::new(8.0, 0.0, 8.0),
        radius: 1.5,
    };
    (ground, vec![Placed::new(&rock, None)])
}

#[test]
fn a_survey_closes_steep_ground_gaps_and_cells_near_solids() {
    let (ground, solids) = ridge_and_rock();
    let g = FlowGrid::over([0.0, 0.0], [40.0, 32.0], 1.0).expect("grid");
    let settings = Ground::default();
    let t = Terrain::survey(g, &settings, 0.25, &ground, &solids);
    let open = |x: u32, z: u32| t.open(g.index(x, z));
    assert!(open(3, 3) && open(12, 3));
    // The ridge's slopes (x in 19..21) are steeper than 45°.
    assert!(!open(19, 5) && !open(20, 5));
    // Past the heightfield's edge (x = 32): no ground.
    assert!(!open(33, 3) && !open(39, 31));
    // Within the rock's radius, a body and three quarters of a cell: closed.
    assert!(!open(8, 8) && !open(9, 8));
    // (10, 8)'s centre is 2.55 from the rock's: over 1.5 + 0.25 + 0.75.
    assert!(open(10, 8));
}

/// A random terrain of cells of 1, under `most` cells a side, and a target on it.
fn random_scene(rng: &mut Rng, most: f32) -> (Terrain, Vec3) {
    let (w, h) = (rng.range(1.0, most) as u32, rng.range(1.0, most) as u32);
    let t = random_terrain(rng, w, h, 1.0);
    let g = t.grid;
    let target = Vec3::new(
        g.origin[0] + rng.range(0.0, w as f32),
        0.0,
        g.origin[1] + rng.range(0.0, h as f32),
    );
    (t, target)
}

/// Runs both halves one after the other.
fn serial(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    a();
    b();
}

#[test]
fn a_field_built_a_budget_at_a_time_is_the_same_field_and_resumes_from_its_units() {
    let mut rng = Rng::keyed(56, 7, 0, 1);
    let mut steps_seen = 0usize;
    for scene in 0..60 {
        let (t, target) = random_scene(&mut rng, 30.0);
        let whole = FlowField::build(&t, target);
        // Dijkstra settles a window of distances (a move's cost wide) at a time, charged after:
        // the most cells one window settles.
        let reached: Vec<u32> = whole
            .distance
            .iter()
            .copied()
            .filter(|&d| d != UNREACHED)
            .collect();
        let lo = reached.iter().copied().min().unwrap_or(0);
        let mut windows = std::collections::HashMap::new();
        for d in reached {
            *windows.entry((d - lo) / STRAIGHT).or_insert(0u64) += 1;
        }
        let window = windows.values().copied().max().unwrap_or(0);
        let budget = [1u64, 3, 17, 100][scene % 4];
        let mut b = FieldBuild::new(&t, target);
        let mut steps = 0;
        loop {
            let before = b.taken();
            let done = b.advance(&t, budget, &serial);
            steps += 1;
            let taken = b.taken();
            // Each half took at most the budget, or one item when nothing fitted; the
            // distances' half, one window more.
            for half in 0..2 {
                let step = taken[half] - before[half];
                let most = budget.max(4 * 30) + if half == 0 { window } else { 0 };
                assert!(step <= most, "scene {scene}: {step} units a step");
            }
            // A build resumed from the units it took stands where it does.
            let resumed = FieldBuild::resume(&t, target, taken);
            assert_eq!(
                format!("{resumed:?}"),
                format!("{b:?}"),
                "scene {scene}, step {steps}"
            );
            if done {
                break;
            }
            assert!(steps < 1_000_000);
        }
        steps_seen += steps;
        assert_eq!(b.finish().expect("done"), whole, "scene {scene}");
    }
    // The budgets were small enough to split builds into many steps.
    assert!(steps_seen > 1_000, "{steps_seen} steps");
}

/// Runs the two halves at once, on two threads.
fn threads(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    std::thread::scope(|s| {
        s.spawn(a);
        b();
    });
}

#[test]
fn two_threads_build_the_same_field_as_one_whole_or_a_budget_at_a_time() {
    let mut rng = Rng::keyed(56, 8, 0, 1);
    for scene in 0..40 {
        let (t, target) = random_scene(&mut rng, 120.0);
        let whole = FlowField::build(&t, target);
        for _ in 0..3 {
            assert_eq!(
                FlowField::build_with(&t, target, &threads),
                whole,
                "scene {scene}"
            );
        }
        // A budget at a time, on two threads: where each call stands is where one thread
        // taking the same units stands.
        let mut b = FieldBuild::new(&t, target);
        loop {
            let done = b.advance(&t, 500, &threads);
            let resumed = FieldBuild::resume(&t, target, b.taken());
            assert_eq!(format!("{resumed:?}"), format!("{b:?}"), "scene {scene}");
            if done {
                break;
            }
        }
        assert_eq!(b.finish().expect("done"), whole, "scene {scene}");
    }
}

#[test]
fn a_terrain_built_a_budget_at_a_time_is_the_same_terrain_and_resumes_from_its_units() {
    let (ground, solids) = ridge_and_rock();
    let g = FlowGrid::over([0.0, 0.0], [40.0, 32.0], 1.0).expect("grid");
    let settings = Ground::default();
    let whole = Terrain::survey(g, &settings, 0.25, &ground, &solids);
    for budget in [1u64, 50, 200, 1_000] {
        let mut b = TerrainBuild::new(g, settings, 0.25);
        let mut steps = 0;
        while !b.advance(&ground, &solids, budget, &|f, run| f(0, run), &|f, run| {
            f(0, run)
        }) {
            steps += 1;
            let resumed = TerrainBuild::resume(g, settings, 0.25, &ground, &solids, b.taken());
            assert_eq!(format!("{resumed:?}"), format!("{b:?}"), "budget {budget}");
        }
        // A row of the survey (40 cells) is the most one step takes past a small budget.
        assert!(
            steps >= (b.taken() / budget.max(40 * Prices::SURVEY)) as usize,
            "budget {budget}"
        );
        assert!(steps > 3, "budget {budget}: {steps} steps");
        let t = b.finish().expect("done");
        // (Closed cells hold NaN: compared by bits.)
        let bits = |t: &Terrain| -> Vec<(u32, u8, u32)> {
            (0..t.grid.cells())
                .map(|c| (t.heights()[c].to_bits(), t.links(c), t.extra(c)))
                .collect()
        };
        assert!(
            t.grid == whole.grid && bits(&t) == bits(&whole),
            "budget {budget}"
        );
    }
}
