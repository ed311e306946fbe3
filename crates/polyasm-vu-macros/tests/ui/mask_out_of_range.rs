use polyasm_vu_macros::vu_asm;

fn main() {
    let _program = vu_asm! {
        shf r0 r1 xyzw 0b1_0000
    };
}
