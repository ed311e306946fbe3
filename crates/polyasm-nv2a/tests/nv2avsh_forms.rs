//! Forms nv2avsh assembles that polyasm once refused: mixed `xyzw`/`rgba` letters, a mask on
//! a0 and an explicit row 0 in `%matmul4x4`. Each gives nv2avsh's words, with a warning where
//! the form misleads; and a paired MAC write to r1, which assembles with a warning.

use polyasm_nv2a::ops::{Field, Slot};
use polyasm_nv2a::{AssembleOptions, assemble, assemble_str};

/// The words of `text` and the codes of its diagnostics; panics when it does not assemble.
fn assembled(text: &str) -> (Vec<u32>, Vec<&'static str>) {
    let mut sources = polyasm_core::SourceMap::new();
    let file = sources.add("t.vsh", text);
    let outcome = assemble(&sources, file, AssembleOptions::default());
    let codes = outcome.diagnostics.iter().map(|d| d.code).collect();
    let words = outcome
        .value
        .unwrap_or_else(|| panic!("{text:?} failed: {:#?}", outcome.diagnostics))
        .words()
        .collect();
    (words, codes)
}

fn words(text: &str) -> Vec<u32> {
    assemble_str(text, AssembleOptions::default()).unwrap_or_else(|d| panic!("{text:?} failed: {d:#?}"))
}

#[test]
fn mixed_mask_letters_name_each_lane_on_its_own() {
    let (mixed, codes) = assembled("MOV r6.xyA, r0");
    assert_eq!(codes, ["NV2A030"]);
    // MAC MOV of r0.xyzw into r6 with mask x|y|w = 0b1101, FINAL set.
    assert_eq!(mixed, [0x00000000, 0x0020001B, 0x0436106C, 0x2D600FF9]);
    assert_eq!(mixed, words("MOV r6.xyw, r0"));
    for (text, plain) in [
        ("mov r0.Ry, v0", "mov r0.xy, v0"),
        ("mov r0.xGb, v0", "mov r0.xyz, v0"),
        ("mov oD0.rgZ, v3", "mov oD0.xyz, v3"),
        ("mov oT0.yA, v0", "mov oT0.yw, v0"),
        ("#v vector 3\nmov #v.Xa, v0", "#v vector 3\nmov #v.xw, v0"),
    ] {
        let (got, codes) = assembled(text);
        assert_eq!(codes, ["NV2A030"], "{text}");
        assert_eq!(got, words(plain), "{text}");
    }
}

#[test]
fn mixed_swizzle_letters_name_each_lane_on_its_own() {
    for (text, plain, mixed) in [
        ("MOV oT0.xy, v0.bw", "MOV oT0.xy, v0.zw", 1),
        ("mov r0, v0.xgzA", "mov r0, v0.xyzw", 1),
        ("mov r0, -c[A0+4].wRa", "mov r0, -c[A0+4].wxw", 1),
        ("rcp r1.x, v0.Ax", "rcp r1.x, v0.wx", 1),
        ("mad r0, r1.rx, v2.gy, c3.bz", "mad r0, r1.xx, v2.yy, c3.zz", 3),
    ] {
        let (got, codes) = assembled(text);
        assert_eq!(codes, vec!["NV2A030"; mixed], "{text}");
        assert_eq!(got, words(plain), "{text}");
    }
    // One alphabet, whatever the letter case, is no mix.
    let (_, codes) = assembled("mov oD0.RGB, v3.bgrA");
    assert!(codes.is_empty(), "{codes:?}");
}

#[test]
fn a_mask_on_a0_is_ignored_with_a_warning() {
    let (masked, codes) = assembled("ARL A0.w, r2");
    assert_eq!(codes, ["NV2A031"]);
    // MAC ARL (13) reading r2.xyzw through slot A; no mask field is written.
    assert_eq!(masked, [0x00000000, 0x01A0001B, 0x2436106C, 0x20700FF9]);
    assert_eq!(masked, words("arl a0, r2"));
    for mask in [".y", ".xyzw", ".XW", ".rgba", ".xA", ".zw"] {
        let (got, codes) = assembled(&format!("arl a0{mask}, r2.x"));
        assert_eq!(codes, ["NV2A031"], "{mask}");
        assert_eq!(got, words("arl a0, r2.x"), "{mask}");
    }
    // `.x` (or its colour name) is the lane a0 has: no warning.
    for mask in [".x", ".X", ".r"] {
        let (got, codes) = assembled(&format!("arl a0{mask}, r2.x"));
        assert!(codes.is_empty(), "{mask}: {codes:?}");
        assert_eq!(got, words("arl a0, r2.x"), "{mask}");
    }
    // A mask nv2avsh cannot read stays an error.
    let errors = assemble_str("arl a0.yx, r2.x", AssembleOptions::default()).unwrap_err();
    assert_eq!(errors.iter().map(|d| d.code).collect::<Vec<_>>(), ["NV2A008"]);
}

#[test]
fn an_explicit_row_0_in_matmul4x4_is_the_whole_matrix() {
    let whole = words("#test_matrix matrix4 14\n%matmul4x4 r0 iPos #test_matrix");
    // nv2avsh's words for the macro (FINAL set on the last).
    assert_eq!(
        whole,
        [
            0, 14794779, 137762924, 671092728, //
            0, 14802971, 137762924, 603983864, //
            0, 14811163, 137762924, 570429432, //
            0, 14819355, 137762924, 553652217,
        ]
    );
    for row in ["[0]", "[ 0 ]", "[0x0]"] {
        let (got, codes) = assembled(&format!(
            "#test_matrix matrix4 14\n%matmul4x4 r0 iPos #test_matrix{row}"
        ));
        assert!(codes.is_empty(), "{row}: {codes:?}");
        assert_eq!(got, whole, "{row}");
    }
    for row in ["[1]", "[3]"] {
        let text = format!("#m matrix4 14\n%matmul4x4 r0 iPos #m{row}");
        let errors = assemble_str(&text, AssembleOptions::default()).unwrap_err();
        assert_eq!(errors.iter().map(|d| d.code).collect::<Vec<_>>(), ["NV2A025"], "{row}");
        assert_eq!(
            errors[0].help.as_deref(),
            Some("the macro multiplies by all four rows: write `#m` (or `#m[0]`)")
        );
    }
}

#[test]
fn a_paired_mac_write_to_r1_assembles_with_a_warning() {
    for (text, ilu_mask) in [
        // Both units write r1: the MAC all four lanes, the ILU x.
        ("mul r1, v0, c0 + rcp r1.x, v0.x", 0x8),
        ("mov r1, v0 + rcp r1.x, v0.x", 0x8),
        // Two movs that both write only r1: the first runs on the MAC.
        ("mov r1, v0 + mov r1.x, c0", 0x8),
        // The ILU writes an output only; xemu drops the MAC's r1 write all the same.
        ("mul r1, v0, c0 + rcp oFog.x, v0.x", 0),
    ] {
        let (got, codes) = assembled(text);
        assert_eq!(codes, ["NV2A032"], "{text}");
        let slot = Slot([got[0], got[1], got[2], got[3]]);
        assert_ne!(slot.get(Field::Mac), 0, "{text}");
        assert_ne!(slot.get(Field::Ilu), 0, "{text}");
        assert_eq!(slot.get(Field::OutTemp), 1, "{text}");
        assert_eq!(slot.get(Field::MacMask), 0xf, "{text}");
        assert_eq!(slot.get(Field::IluMask), ilu_mask, "{text}");
    }
    // The MAC writing another temporary, or no ILU operation, draws no warning.
    for text in [
        "mul r2, v0, c0 + rcp r1.x, v0.x",
        "mul r1, v0, c0",
        "mov r1, v0 + mov oD0, v0",
    ] {
        let (_, codes) = assembled(text);
        assert!(codes.is_empty(), "{text}: {codes:?}");
    }
}
