//! The standard library: `.mx` files carried inside the crate and found by
//! `%include "std/NAME"` after the `-I` folders (docs/masfix-std.md describes every macro).

use polyasm_core::include::BuiltinFile;

/// Every file of the library, by the name a directive gives it.
pub static FILES: &[BuiltinFile] = &[
    BuiltinFile {
        name: "std/stack.mx",
        text: include_str!("../std/stack.mx"),
    },
    BuiltinFile {
        name: "std/control.mx",
        text: include_str!("../std/control.mx"),
    },
    BuiltinFile {
        name: "std/proc.mx",
        text: include_str!("../std/proc.mx"),
    },
    BuiltinFile {
        name: "std/math.mx",
        text: include_str!("../std/math.mx"),
    },
    BuiltinFile {
        name: "std/io.mx",
        text: include_str!("../std/io.mx"),
    },
    BuiltinFile {
        name: "std/all.mx",
        text: include_str!("../std/all.mx"),
    },
];
