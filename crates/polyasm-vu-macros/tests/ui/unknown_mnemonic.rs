use polyasm_vu_macros::vu_asm;

fn main() {
    let _program = vu_asm! {
        ld r0 0
        mov r1 r0
        st pos r0
    };
}
