//! The proposed syntax assembled: Mesa's programs and golden vectors of every unit written in
//! it, swizzles, modifiers, constants and labels to their bits, and the diagnostic of every
//! kind of mistake, in order and under `--max-errors`.

use polyasm_core::diagnostic::{Hidden, Limit, WarningPolicy, within_limit};
use polyasm_core::{Diagnostic, SourceMap};
use polyasm_lima::decode::decode;
use polyasm_lima::instr::{Branch, Combine, CombineDest, Instr, VaryingSource, VecDest};
use polyasm_lima::ops::{self, BranchCond, OutMod, Perspective};
use polyasm_lima::syntax::proposed::{assemble_proposed, assemble_proposed_text};

fn words(text: &str) -> Vec<u32> {
    let instrs = assemble_proposed_text(text).unwrap_or_else(|d| panic!("{text}: {d:#?}"));
    polyasm_lima::instr::words::encode(&instrs)
}

/// The codes of the diagnostics of `text`, warnings included.
fn codes(text: &str) -> Vec<&'static str> {
    let mut sources = SourceMap::new();
    let file = sources.add("t.pp", text);
    assemble_proposed(&sources, file, false)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

fn first(text: &str) -> Diagnostic {
    let mut sources = SourceMap::new();
    let file = sources.add("t.pp", text);
    assemble_proposed(&sources, file, false).diagnostics.remove(0)
}

/// Mesa's words, re-encoded through the model (unused bits as Mesa's compiler writes them).
fn canonical(words: &[u32]) -> Vec<u32> {
    let instrs: Vec<Instr> = decode(words).expect("valid").into_iter().map(|d| d.instr).collect();
    polyasm_lima::instr::words::encode(&instrs)
}

#[test]
fn unknown_opcodes_spend_the_suggestion_budget_before_unknown_labels() {
    // Unknown labels, then unknown opcodes after them in the text: the opcodes spend the
    // file's suggestion budget first, so that only the first unknown labels get one.
    let mut text: String = (0..2000).map(|i| format!("Lab{i:05}:\nstop\n")).collect();
    text += &(0..300).map(|i| format!("branch Lbb{i:05}\n")).collect::<String>();
    text += &(0..3000).map(|i| format!("movx{i:04}.v0 $0 $1\n")).collect::<String>();
    let mut sources = SourceMap::new();
    let file = sources.add("t.pp", text.as_str());
    let diagnostics = assemble_proposed(&sources, file, false).diagnostics;
    let suggested = |code: &str| {
        let with = diagnostics.iter().filter(|d| d.code == code);
        let helped = with
            .clone()
            .filter(|d| d.help.as_deref().is_some_and(|h| h.starts_with("did you mean")));
        (helped.count(), with.count())
    };
    assert_eq!(suggested("PP002"), (3000, 3000));
    let (labels_suggested, labels) = suggested("PP014");
    assert_eq!(labels, 300);
    assert!(labels_suggested > 0 && labels_suggested < labels, "{labels_suggested}");
}

/// The diagnostics of `text` under `--max-errors max` (and `-W error` when `promote`), and
/// what was hidden.
fn limited(text: &str, max: usize, promote: bool) -> (Vec<Diagnostic>, Hidden) {
    let mut sources = SourceMap::new();
    let file = sources.add("t.pp", text);
    let limit = Limit {
        errors: Some(max),
        warnings: WarningPolicy {
            all_errors: promote,
            ..WarningPolicy::default()
        },
    };
    within_limit(limit, || assemble_proposed(&sources, file, false).diagnostics)
}

/// What printing `all` and stopping after the `max`th error shows, and what it leaves.
fn truncated(all: &[Diagnostic], max: usize) -> (Vec<Diagnostic>, Hidden) {
    let end = all
        .iter()
        .enumerate()
        .filter(|(_, d)| d.is_error())
        .nth(max - 1)
        .map_or(all.len(), |(i, _)| i + 1);
    let errors = all[end..].iter().filter(|d| d.is_error()).count();
    let hidden = Hidden {
        errors,
        warnings: all.len() - end - errors,
    };
    (all[..end].to_vec(), hidden)
}

#[test]
fn under_a_limit_what_reading_everything_shows_is_kept() {
    // Unknown labels early, more unknown opcodes after them than the suggestion budget
    // covers (so the labels' suggestions depend on the opcodes spending it first), older
    // names (warnings), duplicate labels and syntax errors.
    let mut text: String = (0..2000).map(|i| format!("Lab{i:05}:\nstop\n")).collect();
    text += &(0..300).map(|i| format!("branch Lbb{i:05}\n")).collect::<String>();
    text += &(0..40)
        .map(|i| format!("sync, texld_2d 0\nLab{i:05}:\nbogus{i} $1\nmov.v0 $0 (\n"))
        .collect::<String>();
    text += &(0..3000).map(|i| format!("movx{i:04}.v0 $0 $1\n")).collect::<String>();
    for promote in [false, true] {
        let mut sources = SourceMap::new();
        let file = sources.add("t.pp", text.as_str());
        let mut all = assemble_proposed(&sources, file, false).diagnostics;
        let policy = WarningPolicy {
            all_errors: promote,
            ..WarningPolicy::default()
        };
        policy.apply(&mut all);
        for code in ["PP014", "PP015", "PP024", "PP002", "PP001"] {
            assert!(all.iter().any(|d| d.code == code), "{code}");
        }
        let errors = all.iter().filter(|d| d.is_error()).count();
        for max in [1, 5, 299, 300, 301, 330, errors - 1, errors, errors + 1] {
            let got = limited(&text, max, promote);
            assert!(got == truncated(&all, max), "--max-errors {max}, -W error {promote}");
        }
    }
}

#[test]
fn an_older_name_is_noted_at_every_use() {
    let text = "sync, texld_2d 0\n".repeat(3);
    assert_eq!(codes(&text), ["PP024", "PP024", "PP024"]);
}

#[test]
fn a_lone_cr_ends_a_line() {
    let text = "nop\r".repeat(1000);
    assert_eq!(assemble_proposed_text(&text).map(|instrs| instrs.len()), Ok(1000));
}

#[test]
fn mesa_built_in_programs_assemble_to_their_words() {
    // PP_CLEAR_PROGRAM (without the three words of padding after it).
    assert_eq!(
        words("stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.677734375\n"),
        [0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5]
    );
    // pp_reload_program.
    assert_eq!(
        words("stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture\n"),
        [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]
    );
}

#[test]
fn the_seed_examples_written_destination_first() {
    // gl_FragColor = texture2D(tex, varying_1.xy): the varying only feeds the sampler, as a
    // vec4 fetch, so the words differ from the reload program's `load.v $1 0.xy`.
    let seed = words("stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture\n");
    assert_eq!(
        seed,
        [0x000005e6, 0xff003c60, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]
    );
    assert_ne!(seed[1], 0xf1003c20);
    // gl_FragColor = vec4(0, 0, 0, 1).
    assert_eq!(
        words("stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0\n"),
        [0x00020425, 0x0000015c, 0x01e007cf, 0x00000000, 0x00000000]
    );
}

#[test]
fn the_seed_examples_as_written_get_the_corrected_line() {
    let text = "stop, sync, load.v 0 ^tex_coord, texld_2d 0, mov.v0 ^tex_sampler $0\n";
    let diagnostics = {
        let mut sources = SourceMap::new();
        let file = sources.add("t.pp", text);
        assemble_proposed(&sources, file, false).diagnostics
    };
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.code == "PP009").collect();
    assert_eq!(errors.len(), 2);
    for e in errors {
        assert_eq!(
            e.help.as_deref(),
            Some("write the destination first: `stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture`")
        );
    }
    assert!(
        diagnostics
            .iter()
            .any(|d| d.code == "PP024" && d.message.contains("texld_2d"))
    );
    let help = first("stop, mov.v0 ^const0.yyyx $0, const0 1.0 0.0 0.0 0.0").help;
    assert_eq!(
        help.as_deref(),
        Some("write the destination first: `stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0`")
    );
    // The line the help shows assembles.
    assert_eq!(
        codes("stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture"),
        Vec::<&str>::new()
    );
}

/// Mesa's printed vectors, written in the proposed syntax, give the same instructions.
#[test]
fn golden_vectors_of_every_unit() {
    let vectors: &[(&str, &[u32])] = &[
        (
            "stop, sync, load.v ^discard 0, texld 0, mov.v0 $0 ^texture",
            &[0x000005e6, 0xff003c60, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf],
        ),
        (
            "load.v $1 0, load.u 0, mul.v0 $2 $1 ^uniform\nmul.s0 ^s0 $2.x $2.y, add.s1 $2.w ^s0 $2.z\nstop, mov.v0 $0.yzw $2, rcp.s2 $0.x $2.w",
            &[
                0x02180685, 0xf1003c60, 0x00002000, 0x9e720800, 0x0000791c, 0x02202803, 0x00000908, 0x1012c280,
                0x00004424, 0x00000e42, 0x580007ce, 0x00000000,
            ],
        ),
        (
            "fb_color $2\nstop, fb_depth $3",
            &[0x02188003, 0x0000088f, 0x00000000, 0x00008023, 0x000008ce, 0x00000000],
        ),
        (
            "branch_lt $0.x $1.y L1\nL1:\nstop, mov.s0 $0.x $1.x\nstop, discard",
            &[
                0x02110004, 0x00040050, 0x00000800, 0x00000020, 0x02200822, 0x3e400004, 0x00010024, 0x007f0003,
                0x00000000, 0x00000000,
            ],
        ),
        (
            "mul.s2 $1 $0.x $2\natan.s2 $3.xyz $0.y\nstop, atan_pt2.s2 $1.x $3",
            &[0x02104002, 0x07c00b93, 0x02104002, 0x0dc10021, 0x00004022, 0x04000f92],
        ),
        (
            "stop, load_perspective_w.v $2.xy 0.zw",
            &[0x000000a3, 0x32043c23, 0x00000000],
        ),
        ("stop, load.v $3.x 1.y+$1.z", &[0x000000a3, 0x13160400, 0x00000000]),
        ("stop, load.v ^discard $3.wzyx", &[0x000000a3, 0xff1b0c04, 0x00000000]),
        ("stop, load.v $1 gl_FragCoord", &[0x000000a3, 0xf1003c6b, 0x00000000]),
        (
            "load.v $1.x gl_FrontFacing\nstop, load.v $2.xy gl_PointCoord",
            &[0x02180083, 0x11003c0d, 0x00000000, 0x000000a3, 0x32003c2c, 0x00000000],
        ),
        (
            "stop, sync, load.v ^discard.xy 0.xy, texld 2 $1.x, mov.v0 $1 ^texture",
            &[0x000005e6, 0x3f003c20, 0x00100010, 0x39001002, 0x13900e4e, 0x000007cf],
        ),
        (
            "load.u 2.y\nstop, load.t 3",
            &[0x02180203, 0x12000000, 0x00000000, 0x00000223, 0x06000803, 0x00000000],
        ),
        (
            "stop, mul_x2_sat.v0 $2.xyz -$1.xxxx abs(^const0.wzyx), const0 0.5 1.0 2.0 -3.0",
            &[0x00020425, 0x246f2001, 0x01c00057, 0x020001e0, 0x00000610],
        ),
        (
            "min.v0 $0 $0 $1\nmax_pos.v0 $0 $0 $1\nstop, gt_int.v0 $0 $0 $1",
            &[
                0x02180403, 0x03904e40, 0x0000040f, 0x02180403, 0x03904e40, 0x0000046f, 0x00000423, 0x03904e40,
                0x0000037f,
            ],
        ),
        ("stop, mul_d2.s0 $3.y $0.x $1.w", &[0x00000822, 0x0e4d0700]),
        (
            "stop, mul.v0 ^v0 $1 $2, add.v1 $0 ^v0 $3",
            &[0x00001424, 0x03908e41, 0x86720000, 0x0040781c],
        ),
        (
            "stop, mov.s0 ^s0 $0.x, sel.v1 $2 $1 $3",
            &[0x00001824, 0x7e000000, 0xc8e43390, 0x00000173],
        ),
        (
            "sum3.v1 $0.x $1\nsum4.v1 $0.y $1\nfract.v1 $0 $1\nfloor.v1 $0 $1\nstop, ceil.v1 $0 $1",
            &[
                0x02181003, 0x03900e41, 0x00000401, 0x02181003, 0x03900e41, 0x00000442, 0x02181003, 0x03900e41,
                0x0000010f, 0x02181003, 0x03900e41, 0x0000030f, 0x00001023, 0x03900e41, 0x0000034f,
            ],
        ),
        (
            "max_pos.s1 $1.z $0.x $0.y\nstop, mov.s1 $1.w $0.z",
            &[0x02102002, 0x1f460100, 0x00002022, 0x3e470002],
        ),
        (
            "rcp.s2 $4.x $0.y\nrsqrt.s2 $4.y abs($0.z)\nstop, sin_sat.s2 $4.z $0.w",
            &[0x02104002, 0x10010000, 0x02104002, 0x1102400c, 0x00004022, 0x12430018],
        ),
        (
            "store.t 3 $1\nstop, store.t 2.y $1.z",
            &[0x02188003, 0x06000843, 0x00000000, 0x00008023, 0x12000063, 0x00000000],
        ),
        (
            "stop, mul.v0 $0 ^const0 ^const1, const0 1.0 0.0 0.25 -2.0, const1 65504.0 -0.5 0.125 3.0",
            &[
                0x00060427, 0x03934e4c, 0x01e0000f, 0x01a00000, 0x03dffe00, 0x018005c0, 0x00000210,
            ],
        ),
    ];
    for (text, mesa) in vectors {
        assert_eq!(words(text), canonical(mesa), "{text}");
        let exact = decode(mesa).expect("valid").iter().all(|d| d.lost.is_empty());
        if exact {
            assert_eq!(words(text), *mesa, "{text}");
        }
    }
}

#[test]
fn swizzles_expand_as_in_direct3d_and_masks_keep_their_order() {
    let swizzle = |text: &str| {
        let instrs = assemble_proposed_text(&format!("mov.v0 $0 $1{text}")).unwrap();
        instrs[0].vec4_mul.unwrap().arg0.swizzle
    };
    assert_eq!(swizzle(""), 0xE4);
    assert_eq!(swizzle(".x"), 0x00);
    assert_eq!(swizzle(".xy"), swizzle(".xyyy"));
    assert_eq!(swizzle(".xyz"), swizzle(".xyzz"));
    assert_eq!(swizzle(".wzyx"), 0x1B);
    assert_eq!(codes("mov.v0 $0 $1.xyzwx"), ["PP010"]);
    assert_eq!(codes("mov.v0 $0 $1.q"), ["PP010"]);
    assert_eq!(codes("mov.v0 $0.yx $1"), ["PP010"]);
    assert_eq!(codes("mov.v0 $0.xx $1"), ["PP010"]);
    assert_eq!(codes("mov.v0 $0.none $1"), ["PP010"]);
    assert_eq!(codes("load.v $0.none 0"), Vec::<&str>::new());
    assert_eq!(codes("mov.s0 $0 $1.x"), ["PP010"]);
}

#[test]
fn every_modifier_reaches_its_bits() {
    let instrs = assemble_proposed_text(
        "mul_d16_pos.v0 $1 $2 $3\nmul_x8_int.s0 $1.x $2.x $3.x\nadd_sat.v1 $1 -abs($2) $3\nload_perspective_z.v $1 $2\nsync, texld_lod 3+$0.y $1.x bias(-16.0)\natan_scalar_sat.s2 $0.x $1.y\nrcp_vec.s2 $0.y $1.y",
    )
    .unwrap();
    let m = instrs[0].vec4_mul.unwrap();
    assert_eq!((m.shift, m.outmod), (-4, OutMod::Pos));
    let f = instrs[1].float_mul.unwrap();
    assert_eq!((f.shift, f.outmod), (3, OutMod::Int));
    let a = instrs[2].vec4_acc.unwrap();
    assert!(a.arg0.abs && a.arg0.neg && a.outmod == OutMod::Sat);
    assert!(matches!(
        instrs[3].varying.unwrap().source,
        VaryingSource::Register {
            perspective: Perspective::Z,
            ..
        }
    ));
    let s = instrs[4].sampler.unwrap();
    assert_eq!(
        (s.index, s.offset, s.lod_bias, s.explicit_lod, s.constant_lod_bias),
        (3, Some(1), Some(4), true, -256)
    );
    assert!(matches!(
        instrs[5].combine,
        Some(Combine::Scalar {
            dest: CombineDest::Scalar {
                reg: 0,
                outmod: OutMod::Sat
            },
            ..
        })
    ));
    assert!(matches!(
        instrs[6].combine,
        Some(Combine::Scalar {
            dest: CombineDest::Vector(VecDest { reg: 0, mask: 2 }),
            ..
        })
    ));
    assert_eq!(codes("add_x2.v1 $0 $1 $2"), ["PP004"]);
    assert_eq!(codes("mov_sat_sat.v0 $0 $1"), ["PP004"]);
    assert_eq!(codes("mov_sat_pos.v0 $0 $1"), ["PP004"]);
    assert_eq!(codes("rcp_vec_sat.s2 $0 $1.x"), ["PP004"]);
    assert_eq!(codes("rcp_sat.s2 $0.xy $1.x"), ["PP004"]);
    assert_eq!(codes("mul_sat.s2 $0 $1.x $2"), ["PP004"]);
    assert_eq!(codes("load_perspective_w.v $0 gl_FragCoord"), ["PP004"]);
    assert_eq!(codes("branch_xx L\nL:"), ["PP004"]);
}

#[test]
fn opcodes_units_and_operand_counts() {
    let e = first("movx.v0 $0 $1");
    assert_eq!((e.code, e.help.as_deref()), ("PP002", Some("did you mean `mov.v0`?")));
    let e = first("moov.s1 $0.x $1.x");
    assert_eq!(e.help.as_deref(), Some("did you mean `mov.s1`?"));
    assert_eq!(
        first("qqqq.v0 $0 $1").help.as_deref(),
        Some("docs/lima.md lists the opcodes of every unit")
    );
    let e = first("rcp.v0 $0 $1");
    assert_eq!((e.code, e.help.as_deref()), ("PP003", Some("write it as `rcp.s2`")));
    assert_eq!(codes("sum3.s1 $0.x $1.x"), ["PP003"]);
    assert_eq!(codes("mov.v9 $0 $1"), ["PP003"]);
    assert_eq!(codes("mov $0 $1"), ["PP003"]);
    let e = first("add.v1 $0 $1");
    assert_eq!(e.code, "PP005");
    assert_eq!(e.message, "`add` takes 3 operands, found 2");
    assert_eq!(e.help.as_deref(), Some("write `add.v1 dest src1 src2`"));
    assert_eq!(codes("stop $0"), ["PP005"]);
    assert_eq!(codes("const0 1.0 2.0"), ["PP005"]);
}

#[test]
fn registers_and_their_ranges() {
    assert_eq!(codes("mov.v0 $6 $11"), ["PP008", "PP008"]);
    assert_eq!(codes("mov.v0 $0 $12"), ["PP007"]);
    assert_eq!(
        first("mov.v0 $0 $12").help.as_deref(),
        Some("register number 12 is the pipeline register `^const0`: write that")
    );
    assert_eq!(codes("mov.v0 $16 $1"), ["PP007"]);
    assert_eq!(codes("mov.v0 $0 ^nothing"), ["PP007"]);
    assert_eq!(codes("load.v $0 0+^uniform.x"), ["PP007"]);
    let instrs = assemble_proposed_text("mov.v0 $15 ^u").unwrap();
    assert_eq!(instrs[0].vec4_mul.unwrap().dest.unwrap().reg, 15);
    assert_eq!(instrs[0].vec4_mul.unwrap().arg0.reg, ops::REG_UNIFORM);
}

#[test]
fn constants_must_be_exact_fp16_values() {
    let e = first("const0 0.1 0 0 0");
    assert_eq!(e.code, "PP012");
    assert_eq!(e.help.as_deref(), Some("the nearest fp16 value is 0.0999755859375"));
    let e = first("const0 1.0 0.0 0.0 -1.677734");
    assert_eq!(e.help.as_deref(), Some("the nearest fp16 value is -1.677734375"));
    assert_eq!(codes("const0 65505 0 0 0"), ["PP013"]);
    assert_eq!(codes("const0 1e10 0 0 0"), ["PP013"]);
    assert_eq!(codes("const0 1.5e 0 0 0"), ["PP011"]);
    assert_eq!(codes("const0 1.5.2 0 0 0"), ["PP005"]);
    assert_eq!(codes("const0 0x10000 0 0 0"), ["PP011"]);
    let instrs =
        assemble_proposed_text("const1 inf -inf 0x7e01 -0.0\nconst0 6.103515625e-5 5.960464477539063e-8 -65504 .5")
            .unwrap();
    assert_eq!(instrs[0].const1, Some([0x7c00, 0xfc00, 0x7e01, 0x8000]));
    assert_eq!(instrs[1].const0, Some([0x0400, 0x0001, 0xfbff, 0x3800]));
    for bits in (0..=0xffffu16).filter(|b| !polyasm_lima::half::to_f64(*b).is_nan()) {
        assert_eq!(
            polyasm_lima::half::nearest(polyasm_lima::half::to_f64(bits)),
            bits,
            "{bits:#x}"
        );
    }
    assert_eq!(polyasm_lima::half::nearest(65519.0), 0x7bff);
    assert_eq!(polyasm_lima::half::nearest(65520.0), 0x7c00);
    assert_eq!(
        polyasm_lima::half::nearest(1.0 + 1.0 / 2048.0),
        0x3c00,
        "ties go to even"
    );
}

#[test]
fn a_constant_takes_one_sign_and_raw_bits_none() {
    // (operand, code, message, help): messages quote the operand as written.
    for (text, code, message, help) in [
        ("--1", "PP001", "`--1` has two signs", "write `1`"),
        ("-+1", "PP001", "`-+1` has two signs", "write `-1`"),
        ("- -2.5", "PP001", "`- -2.5` has two signs", "write `2.5`"),
        ("--0x3c00", "PP001", "`--0x3c00` has two signs", "write `0x3c00`"),
        ("-0x3c00", "PP011", "`-0x3c00` is not a valid number", "write `0xbc00`"),
        ("+0x3c00", "PP011", "`+0x3c00` is not a valid number", "write `0x3c00`"),
        (
            "-0x10000",
            "PP011",
            "`-0x10000` is not a valid fp16 bit pattern",
            "0x0000 to 0xffff",
        ),
        ("-1.5e", "PP011", "`-1.5e` is not a valid number", "decimal digits"),
    ] {
        let e = first(&format!("const0 {text} 0 0 0"));
        assert_eq!((e.code, e.message.as_str()), (code, message), "{text}");
        assert!(
            e.help.as_deref().is_some_and(|h| h.contains(help)),
            "{text}: {:?}",
            e.help
        );
    }
    // One sign, on a decimal or `inf`, is a number.
    let instrs = assemble_proposed_text("const0 +1 -1 - 1 -inf").unwrap();
    assert_eq!(instrs[0].const0, Some([0x3c00, 0xbc00, 0xbc00, 0xfc00]));
}

#[test]
fn labels_and_branch_targets() {
    let instrs = assemble_proposed_text("top:\nbranch_ge $0.x $1.x end\nbranch top\nbranch +2\nend:\n").unwrap();
    assert!(matches!(instrs[0].branch, Some(Branch::Jump { target: 12, .. })));
    assert!(matches!(
        instrs[1].branch,
        Some(Branch::Jump {
            target: -4,
            cond: BranchCond::Always,
            ..
        })
    ));
    assert!(matches!(instrs[2].branch, Some(Branch::Jump { target: 2, .. })));
    let e = first("branch endd\nend:\n");
    assert_eq!((e.code, e.help.as_deref()), ("PP014", Some("did you mean `end`?")));
    assert_eq!(codes("a:\na:\nstop"), ["PP015"]);
    assert_eq!(codes("branch 4"), ["PP006"]);
    assert_eq!(codes("branch +67108864"), ["PP016"]);
    assert_eq!(codes("branch_lt -$0.x $1.x +0"), ["PP025"]);
}

#[test]
fn order_and_one_operation_per_unit() {
    let e = first("mov.v0 $0 $1, load.v $1 0, stop");
    assert_eq!(e.code, "PP017");
    assert_eq!(e.help.as_deref(), Some("write `stop, load.v $1 0, mov.v0 $0 $1`"));
    assert_eq!(codes("sync, stop"), ["PP017"]);
    assert_eq!(codes("load.u 0, load.t 1"), ["PP018"]);
    assert_eq!(codes("stop, stop"), ["PP018"]);
    assert_eq!(codes("store.t 0 $1, fb_color $2"), ["PP018"]);
}

#[test]
fn scheduling_rules() {
    assert_eq!(codes("mov.v0 $0 ^v0"), ["PP019"]);
    assert_eq!(codes("mul.v0 ^v0 $1 $2, add.v1 $0 $1 ^v0"), ["PP019"]);
    assert_eq!(codes("mov.s0 ^s0 $0.x, add.v1 $0 ^s0 $1"), ["PP019"]);
    assert_eq!(codes("rcp.s2 $0.x $1.x, discard"), ["PP020"]);
    assert_eq!(codes("sel.v1 $0 $1 $2"), ["PP021"]);
    assert_eq!(codes("mov.v0 $0 ^const1"), ["PP022"]);
    assert_eq!(codes("add.v1 $0 ^v0 $1"), ["PP026"]);
    assert_eq!(codes("add.s1 $0.x ^s0 $1.x"), ["PP026"]);
    assert_eq!(codes("load.v ^discard 0, texld 0"), ["PP023"]);
    assert_eq!(codes("dFdx.v1 $0 $1 $1"), ["PP023"]);
    assert_eq!(codes("sync, dFdy.s1 $0.x $1.x $1.x"), Vec::<&str>::new());
    assert_eq!(codes("mov.v0 $0 -^v0.x, add.v1 $0 ^v0 $1"), ["PP019"]);
}

#[test]
fn operands_of_the_wrong_kind() {
    assert_eq!(codes("mov.v0 $0 1.0"), ["PP006"]);
    assert_eq!(codes("load.v $0 foo"), ["PP006"]);
    assert_eq!(codes("texld 0 $1.x $2.x"), ["PP023", "PP006"]);
    assert_eq!(codes("texld 0 bias(0.03)"), ["PP023", "PP011"]);
    assert_eq!(codes("texld 4096"), ["PP023", "PP011"]);
    assert_eq!(codes("load.v $0 64"), ["PP011"]);
    assert_eq!(codes("load.v $0 31.zw"), Vec::<&str>::new());
    assert_eq!(codes("load.v $0 32.xy"), ["PP011"]);
    assert_eq!(codes("load.u 16384.x"), ["PP011"]);
    assert_eq!(codes("store.t 0.x -$1.x"), ["PP025"]);
    assert_eq!(codes("mul.s2 $0 $1.x -$2"), ["PP025"]);
    assert_eq!(codes("store.t 0 $1.x"), ["PP010"]);
    assert_eq!(codes("store.t $1 0"), ["PP009"]);
    assert_eq!(codes("mov.v0 $0 abs(-$1)"), ["PP006"]);
}

#[test]
fn long_lines_get_short_help_and_deep_nesting_a_syntax_error() {
    let op = "mov.v0 ^const0 $0, ";
    let line = format!("{}stop", op.repeat(300));
    let diagnostics = {
        let mut sources = SourceMap::new();
        let file = sources.add("t.pp", line.as_str());
        assemble_proposed(&sources, file, false).diagnostics
    };
    let helps: Vec<&str> = diagnostics.iter().filter_map(|d| d.help.as_deref()).collect();
    assert!(helps.iter().all(|h| h.len() < 300), "{:?}", helps.first());
    assert!(helps.contains(&"write the destination first: `mov.v0 $0 ^const0`"));
    assert!(helps.contains(&"write the operations in control-word order"));
    let deep = format!("mov.v0 $0 {}$1{}", "abs(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(codes(&deep), ["PP001"]);
}

#[test]
fn every_error_of_a_file_is_reported_in_order() {
    let text = "qqqq.v0 $0 $1\nmov.v0 $0 $1 $2\nbranch nowhere\nmov.v0 $0 ;\n";
    assert_eq!(codes(text), ["PP002", "PP005", "PP014", "PP001"]);
    let e = first("mov.v0 $0 ;");
    assert_eq!(e.code, "PP001");
    assert!(e.labels[0].span.start == 10);
}
