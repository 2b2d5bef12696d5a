#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| boids_fuzz::params(data));
