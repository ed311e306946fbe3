//! Golden vectors: sources and the words nv2avsh (and other nv2a tools) produce for them.
//! Word order is [d0, d1, d2, d3].

use polyasm_nv2a::{AssembleOptions, assemble_str};

const APPEND_FINAL: AssembleOptions = AssembleOptions {
    max_instructions: Some(136),
    explicit_final: true,
    names: None,
};

fn words(text: &str, options: AssembleOptions) -> Vec<[u32; 4]> {
    let words = assemble_str(text, options).unwrap_or_else(|d| panic!("{text:?} failed: {d:#?}"));
    words.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()
}

/// nv2avsh's library default: FINAL stays 0 and a `[0, 0, 0, 1]` marker follows.
fn check_appended(cases: &[(&str, &[[u32; 4]])]) {
    for (source, expected) in cases {
        let got = words(source, APPEND_FINAL);
        let (marker, body) = got.split_last().expect("at least the marker");
        assert_eq!(*marker, [0, 0, 0, 1], "{source}");
        assert_eq!(body, *expected, "{source}");
    }
}

#[test]
fn nv2avsh_assembler_tests() {
    check_appended(&[
        ("MOV oT0.xy,v0.zw", &[[0x00000000, 0x002000BF, 0x0836106C, 0x2070C848]]),
        ("MOV oT0.rg,v0.ba", &[[0x00000000, 0x002000BF, 0x0836106C, 0x2070C848]]),
        (
            "DPH oT0.x, v4, c15",
            &[[0x00000000, 0x00C1E81B, 0x0836186C, 0x20708848]],
        ),
        (
            "DPH oT0.x, v4, c[15]",
            &[[0x00000000, 0x00C1E81B, 0x0836186C, 0x20708848]],
        ),
        (
            "ADD R6.xyz, c17, -R10",
            &[[0x00000000, 0x0062201B, 0x0C36146E, 0x9E600FF8]],
        ),
        (
            "MAD R11.xyw, -R1.yzxw, R7.zxyw, R10",
            &[[0x00000000, 0x00800163, 0x150EE86E, 0x9DB00FF8]],
        ),
        (
            "DP3 R7.z, R0, -c23",
            &[[0x00000000, 0x00A2E01B, 0x0636186C, 0x22700FF8]],
        ),
        (
            "DP3 R7.z, R0, -c[23]",
            &[[0x00000000, 0x00A2E01B, 0x0636186C, 0x22700FF8]],
        ),
        (
            "MAD R0.z, R0.z, c[117].z, -c117.w",
            &[[0x00000000, 0x008EA0AA, 0x05541FFC, 0x32000FF8]],
        ),
        (
            "MUL R3.xyzw, v6.x, c[A0+60]",
            &[[0x00000000, 0x00478C00, 0x0836186C, 0x2F300FFA]],
        ),
        (
            "MUL R3.xyzw, v6.x, c[ A0   + 60 ]",
            &[[0x00000000, 0x00478C00, 0x0836186C, 0x2F300FFA]],
        ),
        (
            "MUL R3.xyzw, v6.x, c[ 60 + A0 ]",
            &[[0x00000000, 0x00478C00, 0x0836186C, 0x2F300FFA]],
        ),
        (
            "#test_vector vector 15\nDPH oT0.x, v4, #test_vector",
            &[[0x00000000, 0x00C1E81B, 0x0836186C, 0x20708848]],
        ),
        (
            "#test_matrix matrix4 14\nDPH oT0.x, v4, #test_matrix[ 1 ]",
            &[[0x00000000, 0x00C1E81B, 0x0836186C, 0x20708848]],
        ),
        (
            "#test_vector vector 15\nDPH #test_vector, v4, c[10]",
            &[[0x00000000, 0x00C1481B, 0x0836186C, 0x2070F078]],
        ),
        (
            "#test_vector vector 15\nDPH #test_vector.xy, v4, c[10]",
            &[[0x00000000, 0x00C1481B, 0x0836186C, 0x2070C078]],
        ),
        (
            "#test_matrix matrix4 14\nDPH #test_matrix[1], v4, c[10]",
            &[[0x00000000, 0x00C1481B, 0x0836186C, 0x2070F078]],
        ),
        (
            "#output matrix4 188\nmov #output[0], v3",
            &[[0x00000000, 0x0020061B, 0x0836106C, 0x2070F5E0]],
        ),
        (
            "MUL R2.xyzw, R1, c[0] + MOV oD1.xyzw, v4",
            &[[0x00000000, 0x0240081B, 0x1436186C, 0x2F20F824]],
        ),
        ("ARL A0, R0.x", &[[0x00000000, 0x01A00000, 0x0436106C, 0x20700FF8]]),
        ("RCP oFog, v0.w", &[[0x00000000, 0x0400001B, 0x083613FC, 0x2070F82C]]),
        (
            "MUL oPos.xyz, R12.xyz, c[58].xyz",
            &[[0x00000000, 0x0047401A, 0xC434186C, 0x2070E800]],
        ),
        (
            "DP4 oPos.z, R6, c[98] + DP4 R0.x, R6, c[98]",
            &[[0x00000000, 0x00EC401B, 0x6436186C, 0x28002800]],
        ),
        (
            "MAD oPos.xyz, R12.xyz, R1.x, c[1].xyz + MAD R11.xy, R12.xyz, R1.x, c[1].xyz",
            &[[0x00000000, 0x0080201A, 0xC4002868, 0x3CB0E800]],
        ),
        (
            "ADD oPos.xyz, R12, iSpecular + ADD R0.xyz, R12, iSpecular",
            &[[0x00000000, 0x0060081B, 0xC436106C, 0x2E00E800]],
        ),
        (
            "RCP oPos.x, R12.x + RCP R1.x, R12.x",
            &[[0x00000000, 0x0400001B, 0x08361003, 0x10188804]],
        ),
        (
            "RCP oPos.x, R12.x + RCP R1.x, R12.x + MOV R0.x, R12.x",
            &[[0x00000000, 0x04200000, 0xC4361003, 0x18088804]],
        ),
    ]);
}

/// Two paired MOVs, one writing an o/c register and one r1: the o/c MOV runs on the MAC and
/// the r1 MOV on the ILU, in either source order. A MOV writing another temporary takes the MAC.
/// The first words are nv2avsh's; the others follow its rule.
#[test]
fn nv2avsh_pairs_movs_o_c_on_the_mac_and_r1_on_the_ilu() {
    let cases: &[(&str, &str, [u32; 4])] = &[
        (
            "mov r1, v0",
            "mov oD0, v0.x",
            [0x00000000, 0x02200000, 0x0836106c, 0x201ff819],
        ),
        (
            "MOV R1.yw, -c5.zw",
            "MOV c7.xz, v2.wzyx",
            [0x00000000, 0x0220a4e4, 0x083616fc, 0x3015a039],
        ),
        (
            "mov r1.x, c[A0+17]",
            "mov oT0.xy, -r3.zw",
            [0x00000000, 0x022221bf, 0x3436106c, 0x3018c84b],
        ),
        (
            "mov r1.w, -v9.w",
            "mov c190, c[A0+4].y",
            [0x00000000, 0x02209255, 0x0c3617fc, 0x2011f5f3],
        ),
        (
            "mov r1.xyz, -r11.yzx",
            "mov oPos, r12",
            [0x00000000, 0x0220001b, 0xc4361582, 0xd01ef801],
        ),
        (
            "MOV R5.xyz, R4",
            "MOV oT0.xy, v1",
            [0x00000000, 0x0220021b, 0x4436106c, 0x2e50c84d],
        ),
        (
            "MOV R8.xyz, c27",
            "MOV oD0.w, v4.z",
            [0x00000000, 0x0223681b, 0x0c3612a8, 0x2e80181d],
        ),
    ];
    for (temp, out, expected) in cases {
        for source in [format!("{temp} + {out}"), format!("{out}\n+ {temp}")] {
            assert_eq!(words(&source, AssembleOptions::default()), [*expected], "{source}");
        }
    }
}

/// Upper-case lane letters and uniform types, as nv2avsh accepts them: the same words as the
/// lower-case vectors.
#[test]
fn upper_case_lanes_and_uniform_types() {
    check_appended(&[
        ("MOV oT0.XY,v0.ZW", &[[0x00000000, 0x002000BF, 0x0836106C, 0x2070C848]]),
        ("MOV oT0.RG,v0.BA", &[[0x00000000, 0x002000BF, 0x0836106C, 0x2070C848]]),
        (
            "MUL R0.X, v0.X, c96.X",
            &[[0x00000000, 0x004C0000, 0x0800186C, 0x28000FF8]],
        ),
        (
            "#test_vector VECTOR 15\nDPH #test_vector.XY, v4, c[10]",
            &[[0x00000000, 0x00C1481B, 0x0836186C, 0x2070C078]],
        ),
        (
            "#test_matrix MATRIX4 14\nDPH oT0.x, v4, #test_matrix[ 1 ]",
            &[[0x00000000, 0x00C1E81B, 0x0836186C, 0x20708848]],
        ),
        ("ARL A0.X, R0.X", &[[0x00000000, 0x01A00000, 0x0436106C, 0x20700FF8]]),
    ]);
    for (upper, lower) in [
        ("mov r0.XY, v0.ZW", "mov r0.xy, v0.zw"),
        ("mov oD0.RGB, v3.BGRA", "mov oD0.rgb, v3.bgra"),
        ("mov r2.Xw, c[A0+3].XYZW", "mov r2.xw, c[A0+3].xyzw"),
        (
            "#m MATRIX4 10\n#v Vector 20\nmul r0, #m[2].W, v1\nmov r1, #v.ZYX",
            "#m matrix4 10\n#v vector 20\nmul r0, #m[2].w, v1\nmov r1, #v.zyx",
        ),
    ] {
        assert_eq!(
            words(upper, AssembleOptions::default()),
            words(lower, AssembleOptions::default()),
            "{upper}"
        );
    }
}

#[test]
fn a_paired_ilu_temp_write_goes_to_r1_with_a_warning() {
    let text = "DP4 oPos.x, R6, c[96] + RSQ R10.x, R2.x";
    let mut sources = polyasm_core::SourceMap::new();
    let file = sources.add("t.vsh", text);
    let outcome = polyasm_nv2a::assemble(&sources, file, APPEND_FINAL);
    let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["NV2A022"]);
    let words: Vec<u32> = outcome.value.expect("a warning only").words().collect();
    assert_eq!(words[..4], [0x00000000, 0x08EC001B, 0x64361800, 0x90188800]);
}

#[test]
fn nv2avsh_macro_tests() {
    let matmul: &[[u32; 4]] = &[
        [0, 14794779, 137762924, 671092728],
        [0, 14802971, 137762924, 603983864],
        [0, 14811163, 137762924, 570429432],
        [0, 14819355, 137762924, 553652216],
    ];
    let mut with_mov = matmul.to_vec();
    with_mov.push([0, 2097179, 70652012, 789581816]);
    check_appended(&[
        ("#test_matrix matrix4 14\n%matmul4x4 r0 iPos #test_matrix", matmul),
        (
            "#test_matrix matrix4 14\n%matmul4x4 r0 iPos #test_matrix\nmov r1, r0",
            &with_mov,
        ),
        (
            "%norm3 r0 iNormal r1",
            &[
                [0, 10486811, 137760876, 672141304],
                [0, 134217755, 137760768, 1343295480],
                [0, 4195355, 167651436, 771756024],
            ],
        ),
    ]);
}

/// nv2avsh's source files with inline expectations; assembled with FINAL on the last line.
fn check_inline(source: &str) {
    let mut expected = Vec::new();
    for line in source.lines() {
        if let Some(list) = line.trim().strip_prefix("// [") {
            let values: Vec<u32> = list
                .trim_end_matches(']')
                .split(',')
                .map(|v| u32::from_str_radix(v.trim().trim_start_matches("0x"), 16).unwrap())
                .collect();
            expected.push([values[0], values[1], values[2], values[3]]);
        }
    }
    assert_eq!(words(source, AssembleOptions::default()), expected);
}

#[test]
fn nv2avsh_ngb_lava() {
    check_inline(include_str!("data/ngb_lava.vsh"));
}

#[test]
fn nv2avsh_set_pos_and_color() {
    check_inline(include_str!("data/set_pos_and_color.vsh"));
}

#[test]
fn nv2avsh_simple_sets_final_on_the_last_instruction() {
    let got = words(
        "MOV R1.xyzw, v0\nRCP oFog.xyzw, v0.w\nADD oPos.xyzw, R2, c[1]\nADD R6.xyz, c17, -R10\n",
        AssembleOptions::default(),
    );
    assert_eq!(got[3], [0x00000000, 0x0062201B, 0x0C36146E, 0x9E600FF9]);
    assert!(got[..3].iter().all(|w| w[3] & 1 == 0));
}

#[test]
fn nv2avsh_old_encoder_tests() {
    check_appended(&[
        (
            "ADD oPos, c[12], c[12]",
            &[[0x00000000, 0x0061801B, 0x0C36106C, 0x3070F800]],
        ),
        (
            "MOV oPos.xy, R0.xy",
            &[[0x00000000, 0x00200015, 0x0436106C, 0x2070C800]],
        ),
        (
            "MUL R0.x, v0.x, c96.x",
            &[[0x00000000, 0x004C0000, 0x0800186C, 0x28000FF8]],
        ),
        (
            "ADD R0.y, R0.y, c[97].w",
            &[[0x00000000, 0x006C2055, 0x043613FC, 0x34000FF8]],
        ),
        (
            "DP4 oPos.x, v0, c[96]",
            &[[0x00000000, 0x00EC001B, 0x0836186C, 0x20708800]],
        ),
        (
            "MAD R0.x, v0.y, c[96].y, R0.x",
            &[[0x00000000, 0x008C0055, 0x08AA1800, 0x18000FF8]],
        ),
        (
            "MOV oT1.xyzw, v3 + RCC R1.x, R12.w",
            &[[0x00000000, 0x0620061B, 0x083613FF, 0x1018F850]],
        ),
        (
            "MUL oD0.xyzw, v1, c[188] + RCC R1.x, R12.w",
            &[[0x00000000, 0x0657821B, 0x08361BFF, 0x1018F818]],
        ),
        (
            "MOV R5.xyz, R4 + MOV oT0.xy, v1",
            &[[0x00000000, 0x0220021B, 0x4436106C, 0x2E50C84C]],
        ),
        (
            "MOV R8.xyz, c27 + MOV oD0.w, v4.z",
            &[[0x00000000, 0x0223681B, 0x0C3612A8, 0x2E80181C]],
        ),
        (
            "DP3 R7.w, R6, R6 + MOV oT3.xyz, R5",
            &[[0x00000000, 0x02A0001B, 0x6436C86D, 0x5170E864]],
        ),
        (
            "ARL A0, R2 + MOV oD0.w, v4.z",
            &[[0x00000000, 0x03A0081B, 0x243612A8, 0x2070181C]],
        ),
        (
            "MUL R7.w, -R6.x, c14.z + MOV oT3.xyz, R5",
            &[[0x00000000, 0x0241C100, 0x6554186D, 0x5170E864]],
        ),
    ]);
}

/// Hand-assembled tokens of the pgraph swizzle tests: two lead-in slots, then each case as the
/// last (FINAL) slot.
#[test]
fn pgraph_swizzle_tests() {
    check_appended(&[
        ("mov oPos, v0", &[[0x00000000, 0x0020001b, 0x0836106c, 0x2070f800]]),
        ("mov oDiffuse, c96", &[[0x00000000, 0x002c001b, 0x0c36106c, 0x2070f818]]),
    ]);
    let cases: &[(&str, [u32; 4])] = &[
        (
            "mov oDiffuse.xy, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.xy, v3.zxyy",
            [0x00000000, 0x00200685, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.xy, v3.xzww",
            [0x00000000, 0x0020062f, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.xy, v3.wzyy",
            [0x00000000, 0x002006e5, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.xy, v3.wzzz",
            [0x00000000, 0x002006ea, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.xy, v3.zxxx",
            [0x00000000, 0x00200680, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.xy, v3.yxxx",
            [0x00000000, 0x00200640, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.xy, v3.yzww",
            [0x00000000, 0x0020066f, 0x0836106c, 0x2070c819],
        ),
        (
            "mov oDiffuse.x, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20708819],
        ),
        (
            "mov oDiffuse.xw, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20709819],
        ),
        (
            "mov oDiffuse.xz, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x2070a819],
        ),
        (
            "mov oDiffuse.yw, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20705819],
        ),
        (
            "mov oDiffuse.y, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20704819],
        ),
        (
            "mov oDiffuse.yz, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20706819],
        ),
        (
            "mov oDiffuse.z, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20702819],
        ),
        (
            "mov oDiffuse.zw, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20703819],
        ),
        (
            "mov oDiffuse.xyz, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x2070e819],
        ),
        (
            "mov oDiffuse, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x2070f819],
        ),
        (
            "mov oDiffuse.w, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20701819],
        ),
        (
            "mov oDiffuse.yzw, v3.xwww",
            [0x00000000, 0x0020063f, 0x0836106c, 0x20707819],
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(words(source, AssembleOptions::default()), [*expected], "{source}");
    }
}
