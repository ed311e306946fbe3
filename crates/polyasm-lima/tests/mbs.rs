//! The MBS1 container: the layout written, files read back, the information taken from a
//! program, and errors that name the byte where reading stopped.

use polyasm_lima::instr::{Branch, Instr, Store};
use polyasm_lima::mbs::{Core, FragmentInfo, MbsErrorKind, MbsProgram, read, write};
use polyasm_lima::ops::FbRead;

const RELOAD: [u32; 6] = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];

#[test]
fn the_written_layout() {
    let info = FragmentInfo::for_program(&[]);
    let file = write(&RELOAD, &info);
    let expect_len = 8 + 8 + 4 + (8 + 8) + (8 + 4) + (8 + 8) + (8 + 8) + (8 + 4) + (8 + 24);
    assert_eq!(file.len(), expect_len);
    assert_eq!(&file[0..4], b"MBS1");
    assert_eq!(
        u32::from_le_bytes(file[4..8].try_into().unwrap()) as usize,
        expect_len - 8
    );
    assert_eq!(&file[8..12], b"CFRA");
    assert_eq!(u32::from_le_bytes(file[16..20].try_into().unwrap()), 7);
    assert_eq!(&file[20..24], b"FSTA");
    assert_eq!(&file[36..40], b"FDIS");
    assert_eq!(&file[48..52], b"FBUU");
    assert_eq!(&file[56..64], &[0, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(&file[64..68], b"SUNI");
    assert_eq!(&file[80..84], b"SVAR");
    assert_eq!(&file[92..96], b"DBIN");
    assert_eq!(u32::from_le_bytes(file[96..100].try_into().unwrap()), 24);
    assert_eq!(&file[100..104], &0x000005e6u32.to_le_bytes());
}

#[test]
fn written_files_read_back() {
    let program = read(&write(&RELOAD, &FragmentInfo::for_program(&[]))).unwrap();
    assert_eq!(
        program,
        MbsProgram {
            version: 7,
            words: RELOAD.to_vec()
        }
    );
    let info = FragmentInfo {
        core: Core::Mali200,
        ..FragmentInfo::for_program(&[])
    };
    assert_eq!(
        read(&write(&[], &info)).unwrap(),
        MbsProgram {
            version: 5,
            words: vec![]
        }
    );
}

#[test]
fn the_program_sets_discard_and_framebuffer_reads() {
    let program = [
        Instr {
            store: Some(Store::FbRead {
                read: FbRead::Depth,
                dest: 1,
            }),
            ..Instr::default()
        },
        Instr {
            branch: Some(Branch::Discard),
            ..Instr::default()
        },
    ];
    let info = FragmentInfo::for_program(&program);
    assert!(info.has_discard);
    assert_eq!(info.framebuffer_use, [0, 1, 1, 0, 0, 0, 0, 0]);
    assert!(!FragmentInfo::for_program(&program[..1]).has_discard);
}

#[test]
fn errors_name_the_byte() {
    let good = write(&RELOAD, &FragmentInfo::for_program(&[]));
    let err = |bytes: &[u8]| read(bytes).expect_err("a bad file");
    assert_eq!(err(b"MBS2").kind, MbsErrorKind::NotMbs);
    assert_eq!(err(b"MBS1").kind, MbsErrorKind::Truncated);
    // Cut inside DBIN: the outer sizes now run past the end.
    let cut = err(&good[..good.len() - 4]);
    assert_eq!((cut.offset, cut.code()), (0, "PP211"));
    let mut vertex = good.clone();
    vertex[8..12].copy_from_slice(b"CVER");
    let e = err(&vertex);
    assert_eq!((e.offset, e.code()), (8, "PP212"));
    assert!(e.to_string().contains("vertex shader"));
    let mut no_code = good.clone();
    no_code[92..96].copy_from_slice(b"DBIX");
    assert_eq!(err(&no_code).kind, MbsErrorKind::NoCode);
    let mut partial = good.clone();
    partial.truncate(good.len() - 1);
    for (range, less) in [(4..8, 1u32), (12..16, 1), (96..100, 1)] {
        let v = u32::from_le_bytes(partial[range.clone()].try_into().unwrap()) - less;
        partial[range].copy_from_slice(&v.to_le_bytes());
    }
    let e = err(&partial);
    assert_eq!((e.offset, e.kind), (92, MbsErrorKind::PartialWord { size: 23 }));
}
