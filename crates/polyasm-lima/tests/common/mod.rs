//! What the Lima tests share: Mesa's two built-in programs and the cross-check vectors, each
//! as its words and the exact text Mesa's disassembler prints for them, and the proptest
//! strategies of valid instructions ([`strategies`]).

#![allow(dead_code)] // each test binary uses part of this module

pub mod exec;
pub mod strategies;

/// A program's words and Mesa's text for them.
pub struct Vector {
    pub name: &'static str,
    pub words: &'static [u32],
    pub text: &'static str,
}

/// Mesa's clear program (without the three words of zero padding that follow it in Mesa's
/// table) and tile-reload program.
pub const BUILT_IN: &[Vector] = &[
    Vector {
        name: "clear",
        words: &[0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5],
        text: "@     0: mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop\n",
    },
    Vector {
        name: "reload",
        words: &[0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf],
        text: "@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n",
    },
];

pub const CROSS_CHECK: &[Vector] = &[
    Vector {
        name: "A",
        words: &[0x000005e6, 0xff003c60, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf],
        text: "@     0: load.v ^discard 0, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n",
    },
    Vector {
        name: "B",
        words: &[0x00020425, 0x0000015c, 0x01e007cf, 0x00000000, 0x00000000],
        text: "@     0: mov.v0 $0 ^const0.yyyx , const0 1.000000 0.000000 0.000000 0.000000, stop\n",
    },
    Vector {
        name: "C",
        words: &[
            0x02180685, 0xf1003c60, 0x00002000, 0x9e720800, 0x0000791c, 0x02202803, 0x00000908, 0x1012c280, 0x00004424,
            0x00000e42, 0x580007ce, 0x00000000,
        ],
        text: "@     0: load.v $1 0, load.u 0, mul.v0 $2 $1 ^uniform\n@     5: mul.s0 $2.x $2.y, add.s1 $2.w ^s0 $2.z\n@     8: mov.v0 $0.yzw $2 , rcp.s2 $0.x $2.w, stop\n",
    },
    Vector {
        name: "D",
        words: &[0x02188003, 0x0000088f, 0x00000000, 0x00008023, 0x000008ce, 0x00000000],
        text: "@     0: fb_color $2\n@     3: fb_depth $3, stop\n",
    },
    Vector {
        name: "E",
        words: &[
            0x02110004, 0x00040050, 0x00000800, 0x00000020, 0x02200822, 0x3e400004, 0x00010024, 0x007f0003, 0x00000000,
            0x00000000,
        ],
        text: "@     0: branch.lt $0.x $1.y 4\n@     4: mov.s0 $0.x $1.x, stop\n@     6: discard, stop\n",
    },
    Vector {
        name: "F",
        words: &[0x02104002, 0x07c00b93, 0x02104002, 0x0dc10021, 0x00004022, 0x04000f92],
        text: "@     0: mul.s2 $1 $0.x $2\n@     2: atan.s2 $3.xyz $0.y\n@     4: atan_pt2.s2 $1.x $3, stop\n",
    },
    Vector {
        name: "G",
        words: &[0x000000a3, 0x32043c23, 0x00000000],
        text: "@     0: load.perspective.w.v $2.xy 0.zw, stop\n",
    },
    Vector {
        name: "H",
        words: &[0x000000a3, 0x13160400, 0x00000000],
        text: "@     0: load.v $3.x 1.y+$1.z, stop\n",
    },
    Vector {
        name: "I",
        words: &[0x000000a3, 0xff1b0c04, 0x00000000],
        text: "@     0: load.v ^discard $3.wzyx, stop\n",
    },
    Vector {
        name: "J",
        words: &[0x000000a3, 0xf1003c6b, 0x00000000],
        text: "@     0: load.v $1 gl_FragCoord, stop\n",
    },
    Vector {
        name: "K",
        words: &[0x02180083, 0x11003c0d, 0x00000000, 0x000000a3, 0x32003c2c, 0x00000000],
        text: "@     0: load.v $1.x gl_FrontFacing\n@     3: load.v $2.xy gl_PointCoord, stop\n",
    },
    Vector {
        name: "L",
        words: &[0x000005e6, 0x3f003c20, 0x00100010, 0x39001002, 0x13900e4e, 0x000007cf],
        text: "@     0: load.v ^discard.xy 0.xy, texld.b bias000 2 $1.x, mov.v0 $1 ^texture , sync, stop\n",
    },
    Vector {
        name: "M",
        words: &[0x02180203, 0x12000000, 0x00000000, 0x00000223, 0x06000803, 0x00000000],
        text: "@     0: load.u 2.y\n@     3: load.t 3, stop\n",
    },
    Vector {
        name: "N",
        words: &[0x00020425, 0x246f2001, 0x01c00057, 0x020001e0, 0x00000610],
        text: "@     0: mul.sat.v0 $2.xyz -$1.xxxx<<1 abs(^const0.wzyx), const0 0.500000 1.000000 2.000000 -3.000000, stop\n",
    },
    Vector {
        name: "O",
        words: &[
            0x02180403, 0x03904e40, 0x0000040f, 0x02180403, 0x03904e40, 0x0000046f, 0x00000423, 0x03904e40, 0x0000037f,
        ],
        text: "@     0: min.v0 $0 $0 $1\n@     3: max.pos.v0 $0 $0 $1\n@     6: gt.int.v0 $0 $0 $1, stop\n",
    },
    Vector {
        name: "P",
        words: &[0x00000822, 0x0e4d0700],
        text: "@     0: mul.s0 $3.y $0.x<<7 $1.w, stop\n",
    },
    Vector {
        name: "Q",
        words: &[0x00001424, 0x03908e41, 0x86720000, 0x0040781c],
        text: "@     0: mul.v0 $1 $2, add.v1 $0 ^v0 $3, stop\n",
    },
    Vector {
        name: "R",
        words: &[0x00001824, 0x7e000000, 0xc8e43390, 0x00000173],
        text: "@     0: mov.s0 $0.x, sel.v1 $2 $1 $3, stop\n",
    },
    Vector {
        name: "S",
        words: &[
            0x02181003, 0x03900e41, 0x00000401, 0x02181003, 0x03900e41, 0x00000442, 0x02181003, 0x03900e41, 0x0000010f,
            0x02181003, 0x03900e41, 0x0000030f, 0x00001023, 0x03900e41, 0x0000034f,
        ],
        text: "@     0: sum3.v1 $0.x $1\n@     3: sum4.v1 $0.y $1\n@     6: fract.v1 $0 $1\n@     9: floor.v1 $0 $1\n@    12: ceil.v1 $0 $1, stop\n",
    },
    Vector {
        name: "T",
        words: &[0x02102002, 0x1f460100, 0x00002022, 0x3e470002],
        text: "@     0: max.pos.s1 $1.z $0.x $0.y\n@     2: mov.s1 $1.w $0.z, stop\n",
    },
    Vector {
        name: "U",
        words: &[0x02104002, 0x10010000, 0x02104002, 0x1102400c, 0x00004022, 0x12430018],
        text: "@     0: rcp.s2 $4.x $0.y\n@     2: rsqrt.s2 $4.y abs($0.z)\n@     4: sin.sat.s2 $4.z $0.w, stop\n",
    },
    Vector {
        name: "V",
        words: &[0x02188003, 0x06000843, 0x00000000, 0x00008023, 0x12000063, 0x00000000],
        text: "@     0: store.t 3 $1\n@     3: store.t 2.y $1.z, stop\n",
    },
    Vector {
        name: "W",
        words: &[
            0x00060427, 0x03934e4c, 0x01e0000f, 0x01a00000, 0x03dffe00, 0x018005c0, 0x00000210,
        ],
        text: "@     0: mul.v0 $0 ^const0 ^const1, const0 1.000000 0.000000 0.250000 -2.000000, const1 65504.000000 -0.500000 0.125000 3.000000, stop\n",
    },
];

/// Field values no compiler writes, which Mesa still prints distinctly: load sources 1 and 2
/// (`load..u1`) and a store's alignment 3 (a one-float index and a whole register). The words
/// are worked out by hand from the field layouts in docs/lima.md.
pub const RARE_FORMS: &[Vector] = &[
    Vector {
        // Load: source 1, alignment 2 (bit 11), index 5 (bits 25..40).
        name: "load source 1",
        words: &[0x00000223, 0x0a000801, 0x00000000],
        text: "@     0: load..u1 5, stop\n",
    },
    Vector {
        // Load: source 2, alignment 0, offset $3.y (13 in bits 18..23, bit 24), index 0xfffb
        // (-5: C prints -5 / 4 = -1 and component -5 & 3 = 3).
        name: "load source 2, negative index",
        words: &[0x00000223, 0xf7340002, 0x000001ff],
        text: "@     0: load..u2 -1.w+$3.y, stop\n",
    },
    Vector {
        // Store: dest 3, source $1 (4 in bits 4..9), alignment 3 (bits 10..11), index 9.
        name: "store alignment 3",
        words: &[0x00008023, 0x12000c43, 0x00000000],
        text: "@     0: store.t 2.y $1, stop\n",
    },
    Vector {
        // Store: source ^uniform (60), alignment 3, offset $0.w, index 0xfff4 (-12: -3.x).
        name: "store alignment 3 of a pipeline register",
        words: &[0x00008003, 0xe90c0fc3, 0x000001ff],
        text: "@     0: store.t -3.x+$0.w ^uniform\n",
    },
    Vector {
        // Both in one instruction, twice: the store's 41 bits start at payload bit 41.
        name: "loads and stores together",
        words: &[
            0x02208204, 0x0a000801, 0x00188600, 0x00000024, 0x00008224, 0x0e000402, 0x00190600, 0x0000007e,
        ],
        text: "@     0: load..u1 5, store.t 2.y $1\n@     4: load..u2 3.zw, store.t 7.w+$0.x $2, stop\n",
    },
];
