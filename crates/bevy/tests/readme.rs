//! The main README's Bevy quick start is this crate's README code (compiled there as a
//! doctest): the two must not drift apart.

fn block(text: &str, after: &str, fence: &str) -> String {
    let from = text.find(after).expect("the section") + after.len();
    let start = text[from..].find(fence).expect("the code block") + from + fence.len();
    let end = text[start..].find("```\n").expect("the block's end") + start;
    text[start..end].to_owned()
}

#[test]
fn the_main_readmes_bevy_code_is_the_crates_compiled_one() {
    let main = include_str!("../../../README.md");
    let krate = include_str!("../README.md");
    let a = block(main, "## Bevy quick start", "```rust,ignore\n");
    let b = block(krate, "# boids-bevy", "```rust,no_run\n");
    assert!(a.contains("BoidsPlugin"));
    assert_eq!(
        a, b,
        "README.md's Bevy quick start differs from crates/bevy/README.md"
    );
}
