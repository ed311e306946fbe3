use polyasm_vu_macros::vu_asm;

fn main() {
    let _program = vu_asm! {
        add r0 r16
    };
}
