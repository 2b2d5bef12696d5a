//! The one boundary every export runs in: panics become `BOIDS_RESULT_PANIC`, failures set the
//! calling thread's last-error message.

use crate::types::BoidsResult;
use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A refused call: the code returned to C and the detail kept for `boids_last_error_message`.
pub(crate) struct Fail {
    pub code: BoidsResult,
    pub msg: String,
}

impl Fail {
    pub fn new(code: BoidsResult, msg: impl Into<String>) -> Self {
        Fail {
            code,
            msg: msg.into(),
        }
    }
}

impl From<boids_sim::Error> for Fail {
    fn from(e: boids_sim::Error) -> Self {
        let code = match &e {
            boids_sim::Error::InvalidId => BoidsResult::InvalidId,
            boids_sim::Error::BufferTooSmall { .. } => BoidsResult::BufferTooSmall,
            boids_sim::Error::Param(_) | boids_sim::Error::InvalidArgument(_) => {
                BoidsResult::InvalidArgument
            }
            boids_sim::Error::Busy => BoidsResult::Busy,
            boids_sim::Error::Internal(_) => BoidsResult::Panic,
        };
        Fail::new(code, e.to_string())
    }
}

pub(crate) type Res = Result<(), Fail>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

pub(crate) fn set_last_error(msg: &str) {
    let c = CString::new(msg.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Pointer to the calling thread's last error text (valid until its next failing call).
pub(crate) fn last_error_ptr() -> *const std::ffi::c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_owned()
    }
}

/// Runs `f`, catching panics; returns the result code and records failures.
pub(crate) fn boundary(f: impl FnOnce() -> Res) -> BoidsResult {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => BoidsResult::Ok,
        Ok(Err(fail)) => {
            set_last_error(&fail.msg);
            fail.code
        }
        Err(p) => {
            set_last_error(&format!("internal panic: {}", panic_text(&*p)));
            BoidsResult::Panic
        }
    }
}

/// Runs `f` for an export that returns a value rather than a result; a panic gives `fallback`.
pub(crate) fn boundary_value<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(p) => {
            set_last_error(&format!("internal panic: {}", panic_text(&*p)));
            fallback
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_result_code_and_a_message() {
        let r = boundary(|| panic!("kaboom"));
        assert_eq!(r, BoidsResult::Panic);
        // SAFETY: last_error_ptr returns a valid NUL-terminated string owned by this thread.
        let msg = unsafe { std::ffi::CStr::from_ptr(last_error_ptr()) };
        assert_eq!(msg.to_str().unwrap(), "internal panic: kaboom");
        assert_eq!(boundary_value(7, || -> i32 { panic!("x") }), 7);
        assert_eq!(boundary(|| Ok(())), BoidsResult::Ok);
    }
}
