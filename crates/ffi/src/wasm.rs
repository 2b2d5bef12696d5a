//! WebAssembly only: memory for the JavaScript binding (`bindings/js/boids.mjs`), which has no
//! allocator of its own in the module's memory. Not in `include/boids.h`: C programs use
//! `malloc`.

use std::alloc::{Layout, alloc, dealloc};

/// The alignment of every block: enough for any struct of the ABI.
const ALIGN: usize = 16;

/// `size` bytes of the module's memory, 16-byte aligned, or NULL (size 0, or no memory left).
/// Free with `boids_wasm_free(ptr, size)`.
#[unsafe(no_mangle)]
pub extern "C" fn boids_wasm_alloc(size: usize) -> *mut u8 {
    match Layout::from_size_align(size, ALIGN) {
        // SAFETY: the layout has a non-zero size.
        Ok(l) if size > 0 => unsafe { alloc(l) },
        _ => std::ptr::null_mut(),
    }
}

/// Frees a block `boids_wasm_alloc(size)` returned; NULL is ignored.
///
/// # Safety
/// `ptr` is NULL or came from `boids_wasm_alloc` with this `size`, and is freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_wasm_free(ptr: *mut u8, size: usize) {
    if ptr.is_null() {
        return;
    }
    if let Ok(l) = Layout::from_size_align(size, ALIGN) {
        // SAFETY: the caller's contract: allocated with this layout, freed once.
        unsafe { dealloc(ptr, l) };
    }
}
