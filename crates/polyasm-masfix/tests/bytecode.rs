//! The bytecode file through its writer and its reader: what is written reads back, and
//! every cut or damaged file is an error with an offset inside it, or a program.

use polyasm_masfix::bytecode::{DebugPos, DebugSection};
use polyasm_masfix::decode::read;
use polyasm_masfix::encode::bytecode_bytes;
use polyasm_masfix::ops::{Instr, Kind, Value};

fn program() -> Vec<Instr> {
    vec![
        Instr {
            value: Value::Imm(72),
            ..Instr::bare(Kind::Outc)
        },
        Instr::bare(Kind::Swap),
    ]
}

#[test]
fn a_written_file_reads_back() {
    let debug = DebugSection {
        files: vec!["a.mx".into(), "std/io.mx".into()],
        positions: vec![
            DebugPos {
                file: 0,
                line: 1,
                column: 1,
            },
            DebugPos {
                file: 1,
                line: 7,
                column: 3,
            },
        ],
    };
    for debug in [None, Some(debug)] {
        let bytes = bytecode_bytes(&program(), debug.as_ref());
        assert_eq!(bytes.len() % 2, 0);
        let read = read(&bytes).unwrap();
        assert_eq!(read.instrs, program());
        assert_eq!(read.debug, debug);
    }
}

#[test]
fn every_truncation_and_every_flipped_byte_is_an_error_or_a_program() {
    let debug = DebugSection {
        files: vec!["abc.mx".into()],
        positions: vec![
            DebugPos {
                file: 0,
                line: 2,
                column: 1
            };
            2
        ],
    };
    let bytes = bytecode_bytes(&program(), Some(&debug));
    for len in 0..bytes.len() {
        let err = read(&bytes[..len]).unwrap_err();
        assert!(err.offset <= len, "{err}");
    }
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut flipped = bytes.clone();
            flipped[i] ^= 1 << bit;
            let _ = read(&flipped);
        }
    }
    assert_eq!(read(b"MXBC\x01\x00\x00\x00\xff\xff\xff\xff").unwrap_err().offset, 8);
    assert!(read(b"ELF!").unwrap_err().problem.contains("MXBC"));
}
