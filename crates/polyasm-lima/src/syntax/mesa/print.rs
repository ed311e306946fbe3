//! Instructions to the text Mesa's disassembler prints.

use super::*;

/// The text of one instruction at word `offset` (branch targets print as `offset` plus the
/// relative target), without the `@%6d: ` prefix and without a newline.
pub fn print_instr(instr: &Instr, offset: usize) -> String {
    let mut line = instr
        .fields()
        .map(|field| match field {
            FieldRef::Varying(v) => varying(v),
            FieldRef::Sampler(s) => sampler(s),
            FieldRef::Load(l) => load(l),
            FieldRef::VecMul(m) => vec4_mul(m),
            FieldRef::FloatMul(m) => float_mul(m),
            FieldRef::VecAcc(a) => vec4_acc(a),
            FieldRef::FloatAcc(a) => float_acc(a),
            FieldRef::Combine(c) => combine(c),
            FieldRef::Store(s) => store(s),
            FieldRef::Branch(b) => branch(b, offset),
            FieldRef::Const0(values) | FieldRef::Const1(values) => {
                let mut text = field.field().info().mesa.to_string();
                for &v in values {
                    text.push(' ');
                    text.push_str(&format_half(v));
                }
                text
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    if instr.sync {
        line.push_str(", ");
        line.push_str(ops::SYNC_NAME);
    }
    if instr.stop {
        line.push_str(", ");
        line.push_str(ops::STOP_NAME);
    }
    line
}

/// The line Mesa's standalone disassembler prints for one instruction: `@%6d: `, the text and
/// a newline.
pub fn print_line(instr: &Instr, offset: usize) -> String {
    format!("@{offset:6}: {}\n", print_instr(instr, offset))
}

/// The lines of a decoded program, with prefixes.
pub fn print_program(program: &[Decoded]) -> String {
    program.iter().map(|d| print_line(&d.instr, d.offset)).collect()
}

/// An IEEE binary16 value as C's `printf("%f")` prints it: exact, six decimals rounded to
/// nearest with ties to even, `-` on every negative value including -0, `inf`/`nan` with their
/// sign.
pub fn format_half(bits: u16) -> String {
    let sign = if bits & 0x8000 != 0 { "-" } else { "" };
    let exponent = u32::from(bits >> 10 & 0x1f);
    let fraction = u64::from(bits & 0x3ff);
    if exponent == 0x1f {
        return format!("{sign}{}", if fraction == 0 { "inf" } else { "nan" });
    }
    // value = mantissa * 2^(power), exactly.
    let (mantissa, power) = if exponent == 0 {
        (fraction, -24i32)
    } else {
        (fraction | 0x400, exponent as i32 - 25)
    };
    // millionths = round(mantissa * 10^6 * 2^power); the largest value, 65504e6, fits in u64.
    let scaled = mantissa * 1_000_000;
    let millionths = if power >= 0 {
        scaled << power
    } else {
        let shift = (-power) as u32;
        let whole = scaled >> shift;
        let rest = scaled & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rest > half || (rest == half && whole & 1 == 1) {
            whole + 1
        } else {
            whole
        }
    };
    format!("{sign}{}.{:06}", millionths / 1_000_000, millionths % 1_000_000)
}

pub(super) fn reg_name(reg: VecReg) -> &'static str {
    VEC_REG_NAMES[usize::from(reg & 0xf)]
}

pub(super) fn scalar_name(reg: ScalarReg) -> String {
    format!("{}.{}", reg_name(reg >> 2), COMPONENTS[usize::from(reg & 3)])
}

/// A destination register: always `$N`, pipeline numbers included (Mesa names only sources).
pub(super) fn dest_name(reg: VecReg) -> String {
    format!("${}", reg & 0xf)
}

/// A scalar destination, `$N.c`.
pub(super) fn scalar_dest_name(reg: ScalarReg) -> String {
    format!("{}.{}", dest_name(reg >> 2), COMPONENTS[usize::from(reg & 3)])
}

pub(super) fn swizzle(text: &mut String, swizzle: u8) {
    if swizzle != ops::SWIZZLE_IDENTITY {
        text.push('.');
        for lane in 0..4 {
            text.push(COMPONENTS[usize::from(swizzle >> (2 * lane) & 3)]);
        }
    }
}

pub(super) fn mask(text: &mut String, mask: u8) {
    if mask != ops::MASK_ALL {
        text.push('.');
        for (lane, &letter) in COMPONENTS.iter().enumerate() {
            if mask >> lane & 1 == 1 {
                text.push(letter);
            }
        }
    }
}

/// `-`, `abs(`, the name, the closing parenthesis.
pub(super) fn modified(text: &mut String, abs: bool, neg: bool, name: impl FnOnce(&mut String)) {
    if neg {
        text.push('-');
    }
    if abs {
        text.push_str("abs(");
    }
    name(text);
    if abs {
        text.push(')');
    }
}

pub(super) fn vec_source(text: &mut String, source: &VecSource, pipeline: Option<&str>) {
    modified(text, source.abs, source.neg, |text| {
        text.push_str(pipeline.unwrap_or(reg_name(source.reg)));
        swizzle(text, source.swizzle);
    });
}

pub(super) fn scalar_source(text: &mut String, source: &ScalarSource, pipeline: Option<&str>) {
    modified(text, source.abs, source.neg, |text| match pipeline {
        Some(name) => text.push_str(name),
        None => text.push_str(&scalar_name(source.reg)),
    });
}

pub(super) fn vec_dest(text: &mut String, dest: &VecDest) {
    text.push_str(&dest_name(dest.reg));
    mask(text, dest.mask);
    text.push(' ');
}

pub(super) fn op_name(text: &mut String, name: &str, outmod: OutMod, unit: &str) {
    text.push_str(name);
    text.push_str(outmod.info().mesa);
    text.push_str(unit);
    text.push(' ');
}

pub(super) fn fetch(text: &mut String, fetch: &VaryingFetch) {
    let index = u32::from(fetch.index);
    match fetch.alignment {
        VaryingAlignment::Scalar => {
            let _ = write!(text, "{}.{}", index >> 2, COMPONENTS[(index & 3) as usize]);
        }
        VaryingAlignment::Vec2 => {
            let _ = write!(text, "{}.{}", index >> 1, if index & 1 == 0 { "xy" } else { "zw" });
        }
        VaryingAlignment::Vec4 => {
            let _ = write!(text, "{index}");
        }
    }
    if let Some(reg) = fetch.offset {
        text.push('+');
        text.push_str(&scalar_name(reg));
    }
}

pub(super) fn varying(v: &Varying) -> String {
    let mut text = String::from(ops::LOAD_NAME);
    if let VaryingSource::Fetch { perspective, .. } | VaryingSource::Register { perspective, .. } = v.source {
        text.push_str(perspective.info().mesa);
    }
    text.push_str(ops::FIELDS[0].units[0]);
    text.push(' ');
    if v.dest == ops::VARYING_DISCARD {
        text.push_str(ops::DISCARD_REG_NAME);
    } else {
        text.push_str(&dest_name(v.dest));
    }
    mask(&mut text, v.mask);
    text.push(' ');
    let call = |text: &mut String, name: &str, inner: &dyn Fn(&mut String)| {
        text.push_str(name);
        text.push('(');
        inner(text);
        text.push(')');
    };
    match &v.source {
        VaryingSource::Fetch { fetch: f, .. } => fetch(&mut text, f),
        VaryingSource::Register { source, .. } => vec_source(&mut text, source, None),
        VaryingSource::Cube(f) => call(&mut text, ops::VARYING_CUBE.mesa, &|t| fetch(t, f)),
        VaryingSource::CubeRegister(s) => call(&mut text, ops::VARYING_CUBE_REGISTER.mesa, &|t| vec_source(t, s, None)),
        VaryingSource::Normalize(s) => call(&mut text, ops::VARYING_NORMALIZE.mesa, &|t| vec_source(t, s, None)),
        VaryingSource::FragCoord => text.push_str(ops::VARYING_FRAG_COORD.mesa),
        VaryingSource::PointCoord => text.push_str(ops::VARYING_POINT_COORD.mesa),
        VaryingSource::FrontFacing => text.push_str(ops::VARYING_FRONT_FACING.mesa),
    }
    text
}

pub(super) fn sampler(s: &Sampler) -> String {
    let mut text = String::from(ops::TEXLD_NAME);
    if s.lod_bias.is_some() {
        text.push_str(ops::TEXLD_BIAS_SUFFIX);
    }
    let _ = write!(
        text,
        " {}{:03x} {}",
        ops::TEXLD_BIAS_PREFIX,
        s.constant_lod_bias as u16 & 0x1ff,
        s.index & 0xfff
    );
    if let Some(reg) = s.offset {
        text.push('+');
        text.push_str(&scalar_name(reg));
    }
    if let Some(reg) = s.lod_bias {
        text.push(' ');
        text.push_str(&scalar_name(reg));
    }
    text
}

/// `N`, `N.xy`/`N.zw` or `N.c` by alignment, with the index as a signed 16-bit number.
pub(super) fn memory_index(text: &mut String, alignment: Alignment, index: u16) {
    let index = i32::from(index as i16);
    match alignment {
        Alignment::Vec4 => {
            let _ = write!(text, "{index}");
        }
        Alignment::Vec2 => {
            let _ = write!(text, "{}.{}", index / 2, if index & 1 == 0 { "xy" } else { "zw" });
        }
        Alignment::Scalar | Alignment::Reserved => {
            let _ = write!(text, "{}.{}", index / 4, COMPONENTS[(index & 3) as usize]);
        }
    }
}

pub(super) fn load(l: &Load) -> String {
    let mut text = format!("{}.{} ", ops::LOAD_NAME, l.source.info().mesa);
    memory_index(&mut text, l.alignment, l.index);
    if let Some(reg) = l.offset {
        text.push('+');
        text.push_str(&scalar_name(reg));
    }
    text
}

pub(super) fn shift(text: &mut String, op: MulOp, shift: i8) {
    let code = ops::mul_op_code(op, shift);
    if op == MulOp::Mul && code != 0 {
        let _ = write!(text, "<<{code}");
    }
}

pub(super) fn vec4_mul(m: &VecMul) -> String {
    let mut text = String::new();
    op_name(&mut text, m.op.info().mesa, m.outmod, ops::FIELDS[3].units[0]);
    if let Some(dest) = &m.dest {
        vec_dest(&mut text, dest);
    }
    vec_source(&mut text, &m.arg0, None);
    shift(&mut text, m.op, m.shift);
    // The space before the second source stays when a one-source op has none.
    text.push(' ');
    if m.op.is_binary() {
        vec_source(&mut text, &m.arg1.unwrap_or_default(), None);
    }
    text
}

pub(super) fn float_mul(m: &FloatMul) -> String {
    let mut text = String::new();
    op_name(&mut text, m.op.info().mesa, m.outmod, ops::FIELDS[4].units[0]);
    if let Some(dest) = m.dest {
        text.push_str(&scalar_dest_name(dest));
        text.push(' ');
    }
    scalar_source(&mut text, &m.arg0, None);
    shift(&mut text, m.op, m.shift);
    if m.op.is_binary() {
        text.push(' ');
        scalar_source(&mut text, &m.arg1.unwrap_or_default(), None);
    }
    text
}

pub(super) fn vec4_acc(a: &VecAcc) -> String {
    let mut text = String::new();
    op_name(&mut text, a.op.info().mesa, a.outmod, ops::FIELDS[5].units[0]);
    if let Some(dest) = &a.dest {
        vec_dest(&mut text, dest);
    }
    vec_source(&mut text, &a.arg0, a.mul_in.then_some(ops::VMUL_NAME));
    if a.op.is_binary() {
        text.push(' ');
        vec_source(&mut text, &a.arg1.unwrap_or_default(), None);
    }
    text
}

pub(super) fn float_acc(a: &FloatAcc) -> String {
    let mut text = String::new();
    op_name(&mut text, a.op.info().mesa, a.outmod, ops::FIELDS[6].units[0]);
    if let Some(dest) = a.dest {
        text.push_str(&scalar_dest_name(dest));
        text.push(' ');
    }
    scalar_source(&mut text, &a.arg0, a.mul_in.then_some(ops::FMUL_NAME));
    if a.op.is_binary() {
        text.push(' ');
        scalar_source(&mut text, &a.arg1.unwrap_or_default(), None);
    }
    text
}

pub(super) fn combine(c: &Combine) -> String {
    let unit = ops::FIELDS[7].units[0];
    let mut text = String::new();
    match c {
        Combine::Scalar { op, dest, arg0, arg1 } => {
            let outmod = match dest {
                CombineDest::Scalar { outmod, .. } => *outmod,
                CombineDest::Vector(_) => OutMod::None,
            };
            op_name(&mut text, op.info().mesa, outmod, unit);
            match dest {
                CombineDest::Scalar { reg, .. } => {
                    text.push_str(&scalar_dest_name(*reg));
                    text.push(' ');
                }
                CombineDest::Vector(dest) => vec_dest(&mut text, dest),
            }
            scalar_source(&mut text, arg0, None);
            if op.is_binary() {
                text.push(' ');
                scalar_source(&mut text, &arg1.unwrap_or_default(), None);
            }
        }
        Combine::MulVec {
            dest,
            arg0,
            arg1,
            swizzle: swz,
        } => {
            op_name(&mut text, COMBINE_MUL.mesa, OutMod::None, unit);
            vec_dest(&mut text, dest);
            scalar_source(&mut text, arg0, None);
            text.push(' ');
            text.push_str(reg_name(*arg1));
            swizzle(&mut text, *swz);
        }
        Combine::AtanPt2 {
            dest,
            outmod,
            arg,
            swizzle: swz,
        } => {
            // The output modifier goes after the space, right before the destination.
            op_name(&mut text, COMBINE_ATAN_PT2.mesa, OutMod::None, unit);
            text.push_str(outmod.info().mesa);
            text.push_str(&scalar_dest_name(*dest));
            text.push(' ');
            text.push_str(reg_name(*arg));
            swizzle(&mut text, *swz);
        }
    }
    text
}

pub(super) fn store(s: &Store) -> String {
    match s {
        Store::FbRead { read, dest } => format!("{} {}", read.info().mesa, dest_name(*dest)),
        Store::Temp {
            alignment,
            index,
            offset,
            source,
        } => {
            let mut text = format!("{}{} ", ops::STORE_NAME, ops::FIELDS[8].units[0]);
            memory_index(&mut text, *alignment, *index);
            if let Some(reg) = offset {
                text.push('+');
                text.push_str(&scalar_name(*reg));
            }
            text.push(' ');
            match alignment {
                Alignment::Scalar => text.push_str(&scalar_name(*source)),
                _ => text.push_str(reg_name(source >> 2)),
            }
            text
        }
    }
}

pub(super) fn branch(b: &Branch, offset: usize) -> String {
    match b {
        Branch::Discard => ops::DISCARD_NAME.to_string(),
        Branch::Jump {
            cond,
            arg0,
            arg1,
            target,
        } => {
            let mut text = String::from(ops::BRANCH_NAME);
            if *cond != BranchCond::Always {
                let _ = write!(
                    text,
                    ".{} {} {}",
                    cond.info().mesa,
                    scalar_name(*arg0),
                    scalar_name(*arg1)
                );
            }
            let _ = write!(text, " {}", offset as i64 + i64::from(*target));
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_print_like_printf() {
        assert_eq!(format_half(0x3C00), "1.000000");
        assert_eq!(format_half(0x0000), "0.000000");
        assert_eq!(format_half(0x8000), "-0.000000");
        assert_eq!(format_half(0xBEB6), "-1.677734");
        assert_eq!(format_half(0x7BFF), "65504.000000");
        assert_eq!(format_half(0x0001), "0.000000");
        assert_eq!(format_half(0x8001), "-0.000000");
        // 2^-7 = 0.0078125: a tie, rounded to even.
        assert_eq!(format_half(0x2000), "0.007812");
        // 3 * 2^-7 = 0.0234375: a tie, rounded to even (up).
        assert_eq!(format_half(0x2600), "0.023438");
        // 2^-14, the smallest normal: 0.00006103515625.
        assert_eq!(format_half(0x0400), "0.000061");
        assert_eq!(format_half(0x7C00), "inf");
        assert_eq!(format_half(0xFC00), "-inf");
        assert_eq!(format_half(0x7E00), "nan");
        assert_eq!(format_half(0xFE00), "-nan");
    }

    #[test]
    fn every_finite_half_prints_its_exact_value_rounded() {
        // The exact value with 30 decimals, cut to 6 with round-half-even by hand.
        for bits in 0..0x7C00u16 {
            let value = f64::from(bits & 0x3ff | if bits >> 10 != 0 { 0x400 } else { 0 })
                * 2f64.powi(i32::from((bits >> 10).max(1)) - 25);
            let text = format_half(bits);
            let printed: f64 = text.parse().expect("a decimal number");
            assert!(
                (printed - value).abs() <= 0.5e-6 + 1e-12,
                "{bits:#06x}: {text} vs {value}"
            );
        }
    }
}
