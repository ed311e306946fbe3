use polyasm_vu_macros::vu_asm;

fn main() {
    let _program = vu_asm! {
        ld r0 9 // slot
        st pos r16 // register
        sqrt r0 r1 r2 // one operand too many
    };
}
