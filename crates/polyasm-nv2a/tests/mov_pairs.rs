//! Every combination of two paired MOVs: temporary, output, constant and relative-constant
//! destinations, masks, swizzles, negation, letter case, either order. Assembling follows nv2avsh's rule (a
//! MOV writing a temporary other than r1 on the MAC; otherwise the o/c MOV on the MAC and the
//! r1 MOV on the ILU; one MOV when both read one source and write a temporary and an o/c
//! register) or fails with the code of the reason the pair cannot be encoded; the
//! disassembly reassembles to the same words and prints the same text.

use polyasm_nv2a::ops::{Field, InputSlot, PortTarget, Slot, Unit, UnitWrites};
use polyasm_nv2a::{AssembleOptions, assemble_str, disassemble};
use proptest::prelude::*;

/// Where a MOV writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dst {
    Temp(u8),
    /// An o-register by its number.
    Output(u32),
    Const(u8),
    /// `c[A0+N]`, which cannot be written.
    RelativeConst(u8),
}

/// Where a MOV reads. Two indices of each kind, so that some pairs share one and some do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Src {
    Temp(u8),
    Input(u8),
    Const { index: u8, relative: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mov {
    dst: Dst,
    /// x = 8, y = 4, z = 2, w = 1.
    mask: u8,
    src: Src,
    swizzle: [u8; 4],
    negate: bool,
    /// Written in upper case (`MOV R1.XY, -C5.ZW`), which means the same.
    upper: bool,
}

const LANES: [char; 4] = ['x', 'y', 'z', 'w'];

fn output_name(address: u32) -> &'static str {
    match address {
        0 => "oPos",
        3 => "oD0",
        4 => "oD1",
        5 => "oFog",
        6 => "oPts",
        7 => "oB0",
        8 => "oB1",
        9 => "oT0",
        10 => "oT1",
        11 => "oT2",
        _ => "oT3",
    }
}

impl Mov {
    fn text(&self) -> String {
        let mut out = String::from("mov ");
        match self.dst {
            Dst::Temp(r) => out += &format!("r{r}"),
            Dst::Output(address) => out += output_name(address),
            Dst::Const(c) => out += &format!("c{c}"),
            Dst::RelativeConst(c) => out += &format!("c[A0+{c}]"),
        }
        if self.mask != 0xf {
            out.push('.');
            for (lane, letter) in LANES.iter().enumerate() {
                if self.mask & (8 >> lane) != 0 {
                    out.push(*letter);
                }
            }
        }
        out += if self.negate { ", -" } else { ", " };
        match self.src {
            Src::Temp(r) => out += &format!("r{r}"),
            Src::Input(v) => out += &format!("v{v}"),
            Src::Const { index, relative: false } => out += &format!("c{index}"),
            Src::Const { index, relative: true } => out += &format!("c[A0+{index}]"),
        }
        out.push('.');
        out.extend(self.swizzle.iter().map(|&lane| LANES[usize::from(lane)]));
        if self.upper { out.to_ascii_uppercase() } else { out }
    }

    fn writes_temp(&self) -> Option<u8> {
        match self.dst {
            Dst::Temp(r) => Some(r),
            _ => None,
        }
    }

    fn writes_other_temp(&self) -> bool {
        self.writes_temp().is_some_and(|r| r != 1)
    }

    fn reads_same(&self, other: &Mov) -> bool {
        (self.src, self.swizzle, self.negate) == (other.src, other.swizzle, other.negate)
    }

    /// What the unit running this MOV writes, as `Slot::writes` reads it (a paired ILU's
    /// temporary is r1).
    fn unit_writes(&self) -> UnitWrites {
        let mask = u32::from(self.mask);
        match self.dst {
            Dst::Temp(r) => UnitWrites {
                temp: Some((u32::from(r), mask)),
                port: None,
            },
            Dst::Output(address) => UnitWrites {
                temp: None,
                port: Some((PortTarget::Output(address), mask)),
            },
            Dst::Const(c) | Dst::RelativeConst(c) => UnitWrites {
                temp: None,
                port: Some((PortTarget::Constant(u32::from(c)), mask)),
            },
        }
    }

    /// The source fields of the input slot this MOV reads: mux, swizzle, sign.
    fn source_fields(&self) -> (u32, u32, u32) {
        let mux = match self.src {
            Src::Temp(_) => 1,
            Src::Input(_) => 2,
            Src::Const { .. } => 3,
        };
        let swizzle = self
            .swizzle
            .iter()
            .fold(0, |packed, &lane| packed << 2 | u32::from(lane));
        (mux, swizzle, u32::from(self.negate))
    }
}

fn read_fields(slot: &Slot, input: InputSlot) -> (u32, u32, u32) {
    (
        slot.get(Field::mux(input)),
        slot.get(Field::swizzle(input)),
        slot.get(Field::negate(input)),
    )
}

fn mov() -> impl Strategy<Value = Mov> {
    let dst = prop_oneof![
        4 => prop_oneof![Just(1u8), 0u8..12].prop_map(Dst::Temp),
        2 => prop::sample::select(vec![0u32, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]).prop_map(Dst::Output),
        2 => prop_oneof![Just(0u8), Just(134), Just(191)].prop_map(Dst::Const),
        1 => (0u8..192).prop_map(Dst::RelativeConst),
    ];
    let src = prop_oneof![
        (0u8..=12).prop_map(Src::Temp),
        prop_oneof![Just(0u8), Just(4)].prop_map(Src::Input),
        (prop_oneof![Just(5u8), Just(17)], any::<bool>()).prop_map(|(index, relative)| Src::Const { index, relative }),
    ];
    // Every mask, and swizzles from the few lanes that make sources often equal.
    let swizzle = prop_oneof![
        Just([0u8, 1, 2, 3]),
        (0u8..4).prop_map(|lane| [lane; 4]),
        [0u8..4, 0u8..4, 0u8..4, 0u8..4],
    ];
    (dst, 1u8..16, src, swizzle, any::<bool>(), any::<bool>()).prop_map(|(dst, mask, src, swizzle, negate, upper)| {
        Mov {
            dst,
            mask,
            src,
            swizzle,
            negate,
            upper,
        }
    })
}

/// Why a pair cannot be encoded: the codes of every reason (the assembler may stop at one).
fn expected_errors(a: &Mov, b: &Mov) -> Vec<&'static str> {
    let mut codes = Vec::new();
    if matches!(a.dst, Dst::RelativeConst(_)) || matches!(b.dst, Dst::RelativeConst(_)) {
        codes.push("NV2A009");
    }
    match (a.src, b.src) {
        (Src::Input(x), Src::Input(y)) if x != y => codes.push("NV2A015"),
        (Src::Const { relative: x, .. }, Src::Const { relative: y, .. }) if x != y => codes.push("NV2A017"),
        (Src::Const { index: x, .. }, Src::Const { index: y, .. }) if x != y => codes.push("NV2A016"),
        _ => {}
    }
    if a.writes_temp().is_none() && b.writes_temp().is_none() {
        codes.push("NV2A018");
    }
    if a.writes_other_temp() && b.writes_other_temp() {
        codes.push("NV2A021");
    }
    codes
}

fn assemble(text: &str) -> Result<[u32; 4], Vec<&'static str>> {
    match assemble_str(text, AssembleOptions::default()) {
        Ok(words) => Ok([words[0], words[1], words[2], words[3]]),
        Err(diagnostics) => Err(diagnostics.iter().map(|d| d.code).collect()),
    }
}

fn pair_text(first: &Mov, second: &Mov) -> String {
    format!("{} + {}\n", first.text(), second.text())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn paired_movs_follow_the_rule_and_round_trip(a in mov(), b in mov()) {
        let text = pair_text(&a, &b);
        let result = assemble(&text);
        prop_assert_eq!(&result, &assemble(&text), "assembling is deterministic: {}", text);
        let expected = expected_errors(&a, &b);
        let words = match result {
            Err(codes) => {
                prop_assert!(
                    !expected.is_empty() && !codes.is_empty() && codes.iter().all(|c| expected.contains(c)),
                    "{}: expected {:?}, got {:?}", text, expected, codes
                );
                return Ok(());
            }
            Ok(words) => words,
        };
        prop_assert!(expected.is_empty(), "{}: expected {:?}, got {:08x?}", text, expected, words);
        let slot = Slot(words);
        let (mac_writes, ilu_writes) = (slot.writes(Unit::Mac), slot.writes(Unit::Ilu));
        prop_assert_eq!(slot.get(Field::Mac), 1, "{}", text);
        if a.reads_same(&b) && a.writes_temp().is_some() != b.writes_temp().is_some() {
            // One MOV with two destinations, on the MAC.
            prop_assert_eq!(slot.get(Field::Ilu), 0, "{}", text);
            let (temp, out) = if a.writes_temp().is_some() { (a, b) } else { (b, a) };
            prop_assert_eq!(mac_writes.temp, temp.unit_writes().temp, "{}", text);
            prop_assert_eq!(mac_writes.port, out.unit_writes().port, "{}", text);
        } else {
            prop_assert_eq!(slot.get(Field::Ilu), 1, "{}", text);
            let a_on_mac = match (a.writes_other_temp(), b.writes_other_temp()) {
                (true, _) => true,
                (false, true) => false,
                // The o/c MOV on the MAC; of two r1 MOVs, the first.
                (false, false) => a.writes_temp().is_none() || b.writes_temp().is_some(),
            };
            let (on_mac, on_ilu) = if a_on_mac { (a, b) } else { (b, a) };
            prop_assert_eq!(mac_writes, on_mac.unit_writes(), "{}", text);
            prop_assert_eq!(ilu_writes, on_ilu.unit_writes(), "{}", text);
            prop_assert!(on_ilu.writes_temp().is_none_or(|r| r == 1), "{}", text);
            prop_assert_eq!(read_fields(&slot, InputSlot::A), on_mac.source_fields(), "{}", text);
            prop_assert_eq!(read_fields(&slot, InputSlot::C), on_ilu.source_fields(), "{}", text);
            // The order written decides nothing but the tie of two r1 MOVs.
            if a.writes_temp().is_none() || b.writes_temp().is_none() || a.writes_other_temp() || b.writes_other_temp() {
                prop_assert_eq!(assemble(&pair_text(&b, &a)), Ok(words), "{}", text);
            }
        }
        let printed = disassemble(&words).expect("whole instructions");
        let again = assemble(&printed);
        prop_assert_eq!(&again, &Ok(words), "{} printed as {}", text, printed);
        let again = again.expect("checked above");
        prop_assert_eq!(disassemble(&again).expect("whole instructions"), printed);
    }

    /// Words with a MOV on each unit, whatever else they hold (often both units reading one
    /// source): the disassembly assembles to words that print the same.
    #[test]
    fn any_mov_pair_prints_as_it_reassembles(
        d1 in 0u32..0x1000_0000,
        d2 in any::<u32>(),
        d3 in any::<u32>(),
        one_source in any::<bool>(),
    ) {
        let mut slot = Slot([0, d1, d2, d3 | 1]);
        slot.set(Field::Mac, 1);
        slot.set(Field::Ilu, 1);
        if one_source {
            slot.set(Field::CMux, slot.get(Field::AMux));
            slot.set(Field::CSwz, slot.get(Field::ASwz));
            slot.set(Field::CNeg, slot.get(Field::ANeg));
            slot.set_temp(InputSlot::C, slot.temp(InputSlot::A));
        }
        let printed = disassemble(&slot.0).expect("whole instructions");
        let words = assemble_str(&printed, AssembleOptions::default())
            .unwrap_or_else(|d| panic!("disassembly must assemble:\n{printed}{d:#?}"));
        prop_assert_eq!(disassemble(&words).expect("whole instructions"), printed);
    }
}
