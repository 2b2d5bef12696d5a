//! The README cannot drift from the program: every ```console block of README.md runs here.
//! A line `$ boids ARGS` (or `$ cargo run --release -p boids-cli -- ARGS`) runs the `boids`
//! binary in an empty folder; the lines after it, up to the next `$` line or the block's end,
//! are what it must print (stdout, then stderr), line for line. Only two things may differ:
//! the thread count and the milliseconds a step in a run's first line, which belong to the
//! machine. A line that differs fails the test with its README line number, so the README is
//! updated when the model's bits change.

mod support;

use support::boids;

const README: &str = include_str!("../../../README.md");

/// One command of a console block: README line number, its arguments, and the expected lines
/// with their README line numbers.
struct Shown {
    line: usize,
    args: Vec<String>,
    expect: Vec<(usize, String)>,
}

fn shown() -> Vec<Shown> {
    let mut out: Vec<Shown> = Vec::new();
    let mut in_block = false;
    for (i, raw) in README.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end();
        if !in_block {
            in_block = line == "```console";
            continue;
        }
        if line == "```" {
            in_block = false;
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            let words: Vec<&str> = cmd.split_whitespace().collect();
            let args = match words.as_slice() {
                ["boids", rest @ ..] => rest,
                [
                    "cargo",
                    "run",
                    "--release",
                    "-p",
                    "boids-cli",
                    "--",
                    rest @ ..,
                ] => rest,
                _ => panic!("README.md line {n}: a console block runs only boids: {cmd}"),
            };
            out.push(Shown {
                line: n,
                args: args.iter().map(|s| s.to_string()).collect(),
                expect: Vec::new(),
            });
        } else {
            let cmd = out
                .last_mut()
                .unwrap_or_else(|| panic!("README.md line {n}: output before any command"));
            cmd.expect.push((n, line.to_string()));
        }
    }
    out
}

/// The parts of a line that belong to the machine, masked: `threads N` and `X ms/step`.
fn machine_free(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let prev = if i > 0 { words[i - 1] } else { "" };
        if prev == "threads" && w.trim_end_matches(',').parse::<u32>().is_ok() {
            out.push(if w.ends_with(',') { "N," } else { "N" });
        } else if next == "ms/step" && w.parse::<f64>().is_ok() {
            out.push("X");
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

#[test]
fn every_console_block_of_the_readme_prints_what_it_shows() {
    let commands = shown();
    assert!(
        commands.len() >= 3,
        "the README shows the main command, `boids presets` and an error line"
    );
    assert!(
        commands.iter().any(|c| c.args == ["run"]),
        "the README shows the main command's output"
    );
    for c in &commands {
        let dir = tempfile::tempdir().expect("temporary folder");
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let out = boids(&args, dir.path());
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let got: Vec<&str> = printed.lines().collect();
        let refusal = c
            .expect
            .first()
            .is_some_and(|(_, l)| l.starts_with("error:"));
        assert_eq!(
            out.status.code(),
            Some(if refusal { 2 } else { 0 }),
            "README.md line {}: `boids {}` exited with {:?}:\n{printed}",
            c.line,
            args.join(" "),
            out.status.code()
        );
        for (k, (n, want)) in c.expect.iter().enumerate() {
            let have = got.get(k).copied().unwrap_or("<nothing>");
            assert_eq!(
                machine_free(have),
                machine_free(want),
                "README.md line {n} (output of `boids {}`) no longer matches; update it to:\n{have}",
                args.join(" ")
            );
        }
        assert_eq!(
            got.len(),
            c.expect.len(),
            "README.md line {}: `boids {}` printed {} lines, the README shows {}:\n{printed}",
            c.line,
            args.join(" "),
            got.len(),
            c.expect.len()
        );
    }
}

#[test]
fn the_mask_hides_only_the_machine() {
    assert_eq!(
        machine_free("steps 600 (dt 0.0167 s), threads 2, seed 1, 0.822 ms/step"),
        "steps 600 (dt 0.0167 s), threads N, seed 1, X ms/step"
    );
    assert_ne!(
        machine_free("  state hash ec3c9bbb1d159904"),
        machine_free("  state hash 0922b27f8774a238")
    );
    assert_ne!(
        machine_free("steps 600 (dt 0.0167 s), threads 2, seed 1, 0.8 ms/step"),
        machine_free("steps 600 (dt 0.0167 s), threads 2, seed 2, 0.8 ms/step")
    );
}

/// The generated part of the README's benchmark section.
fn bench_section() -> (usize, &'static str) {
    let begin = "<!-- bench-table: begin -->\n";
    let i = README
        .find(begin)
        .expect("README.md has the bench-table markers")
        + begin.len();
    let j = README[i..]
        .find("<!-- bench-table: end -->")
        .expect("bench-table end marker")
        + i;
    (README[..i].lines().count() + 1, &README[i..j])
}

/// `scripts/bench-table --write-readme` can rewrite the section, and its tables parse: the
/// machine is stated, every table has a header, a separator and rows of the header's width,
/// and every cell of a numeric column is a number, a ratio (`1.23×`) or `–` (not measured).
/// The numbers themselves are the machine's, not checked.
#[test]
fn the_benchmark_tables_parse() {
    let (first, section) = bench_section();
    assert!(
        section.starts_with("Measured on: "),
        "README.md line {first}: the section states the machine first"
    );
    let mut tables = 0;
    let mut rows = 0;
    let lines: Vec<&str> = section.lines().collect();
    let mut k = 0;
    while k < lines.len() {
        if !lines[k].starts_with('|') {
            k += 1;
            continue;
        }
        let cells = |l: &str| -> Vec<String> {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        };
        let header = cells(lines[k]);
        let sep = cells(lines.get(k + 1).copied().unwrap_or(""));
        assert!(
            sep.len() == header.len()
                && sep
                    .iter()
                    .all(|c| c.starts_with("--") || c.starts_with(":-") || c.ends_with("-:")),
            "README.md line {}: a table header is followed by its separator",
            first + k
        );
        tables += 1;
        k += 2;
        let mut body = 0;
        while k < lines.len() && lines[k].starts_with('|') {
            let row = cells(lines[k]);
            let n = first + k;
            assert_eq!(
                row.len(),
                header.len(),
                "README.md line {n}: {} cells, the header has {}",
                row.len(),
                header.len()
            );
            for (h, c) in header.iter().zip(&row) {
                let text = matches!(h.as_str(), "index" | "preset");
                if text {
                    assert!(!c.is_empty(), "README.md line {n}: empty {h}");
                } else {
                    let v = c.trim_end_matches('×');
                    assert!(
                        c == "–" || v.parse::<f64>().is_ok_and(|x| x.is_finite() && x >= 0.0),
                        "README.md line {n}: column '{h}' holds '{c}', not a number"
                    );
                }
            }
            body += 1;
            k += 1;
        }
        assert!(
            body > 0,
            "README.md line {}: a table without rows",
            first + k
        );
        rows += body;
    }
    assert!(
        tables >= 4,
        "the scenario, torus2d, clustered and preset tables ({tables} found)"
    );
    assert!(rows >= 20, "{rows} rows");
}
