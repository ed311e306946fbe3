use polyasm_vu_macros::vu_asm;

fn main() {
    let _program = vu_asm! {
        ld r0 1.5
        ldc r1 "3"
    };
}
