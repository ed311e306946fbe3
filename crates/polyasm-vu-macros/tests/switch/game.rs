// VU programs as a Dreambox game writes them with `vu_asm!` in scope: a constant, a value,
// one statement per line or several on one, comments, every number form, and calls made by
// a `macro_rules!` macro. The file is included under each macro's `use` line.

/// The transform every mesh uses: position through the matrix in constants 0-3.
pub const TRANSFORM: [u32; 10] = vu_asm! {
    ld r0 0                     // position
    ldc r4 0 ldc r5 1 ldc r6 2 ldc r7 3
    mulm r0 r4
    st pos r0
    ld r1 0x2 st col r1         /* colour */
};

/// A lit mesh: the normal dotted with the light direction scales the colour.
pub fn lit() -> Vec<u32> {
    let program = vu_asm! {
        ld r0 0
        ld r1 1_u32             // normal
        ld r2 0b10              // colour
        ldc r3 0o4              // light direction
        ldc r4 0 ldc r5 1 ldc r6 2 ldc r7 3
        mulm r0 r4
        dot r1 r3
        shf r1 r1 xxxx 0b0111
        mul r2 r1
        st pos r0
        st col r2
        st tex r0
        end
    };
    program.to_vec()
}

macro_rules! copy_to {
    ($out:ident, $slot:tt) => {
        vu_asm! { ld r0 $slot st $out r0 }
    };
}

/// Programs made by a game's own macro.
pub fn copies() -> Vec<Vec<u32>> {
    vec![copy_to!(pos, 0).to_vec(), copy_to!(ocol, 7).to_vec(), copy_to!(tex, 0x3).to_vec()]
}
