use polyasm_vu_macros::vu_asm;

fn main() {
    let _program = vu_asm! {
        shf r0 r1 xyzq 0b1111
    };
}
