use polyasm_vu_macros::vu_asm_file;

fn main() {
    let _program = vu_asm_file!("tests/files/no_such_file.vu");
}
