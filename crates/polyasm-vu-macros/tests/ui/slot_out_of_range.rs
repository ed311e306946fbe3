use polyasm_vu_macros::vu_asm;

fn main() {
    let _program = vu_asm! {
        ld r0 8
        ldc r1 0x10
    };
}
