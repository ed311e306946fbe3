//! Instructions → operations (the disassembler's first half). Only the fields an operation
//! uses are read, so words that other assemblers filled differently decode too; anything the
//! source syntax cannot say (undefined opcodes, NOP/NOP, unused register numbers, a FINAL bit
//! the assembler would not set there) stays raw and prints as `.word`.

use crate::encode::{Dest, DestReg, Operation, Source, SrcReg};
use crate::ops::{
    CONSTANTS, DestKind, Field, InputSlot, Mux, Op, PAIRED_ILU_TEMP, R12, Slot, Unit, WRITABLE_TEMPS,
    output_by_address, unpack_swizzle,
};

/// One instruction as the printer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// The operations to join with `+` (one to four: each unit may write a temp and an o/c).
    Operations(Vec<Operation>),
    /// Words to print as `.word`.
    Raw(Slot),
}

/// Decodes instruction `index` of a program of `count` instructions: the assembler sets FINAL
/// on the last one only, so FINAL anywhere else (or missing there) keeps the words raw.
pub fn decode(slot: Slot, index: usize, count: usize) -> Decoded {
    let final_expected = index + 1 == count;
    match (slot.get(Field::Final) == 1) == final_expected {
        true => decode_operations(slot).map_or(Decoded::Raw(slot), Decoded::Operations),
        false => Decoded::Raw(slot),
    }
}

fn source(slot: &Slot, input: InputSlot) -> Option<Source> {
    let reg = match Mux::from_bits(slot.get(Field::mux(input)))? {
        Mux::Temp => {
            let index = slot.temp(input);
            if index > u32::from(R12) {
                return None;
            }
            SrcReg::Temp(index as u8)
        }
        Mux::Input => SrcReg::Input(slot.get(Field::V) as u8),
        Mux::Const => {
            let index = slot.get(Field::Const);
            if index >= u32::from(CONSTANTS) {
                return None;
            }
            SrcReg::Const {
                index: index as u8,
                relative: slot.get(Field::A0x) == 1,
            }
        }
    };
    Some(Source {
        reg,
        swizzle: unpack_swizzle(slot.get(Field::swizzle(input))),
        negate: slot.get(Field::negate(input)) == 1,
    })
}

/// The o/c destination of the output port, if `unit` feeds it.
fn output(slot: &Slot, unit: Unit) -> Option<Option<Dest>> {
    let mask = slot.get(Field::OutMask) as u8;
    if mask == 0 || slot.get(Field::OutMux) != u32::from(unit == Unit::Ilu) {
        return Some(None);
    }
    let address = slot.get(Field::OutAddress);
    let reg = if slot.get(Field::OutOrb) == 1 {
        DestReg::Output(output_by_address(address)?.address)
    } else if address < u32::from(CONSTANTS) {
        DestReg::Const(address as u8)
    } else {
        return None;
    };
    Some(Some(Dest { reg, mask }))
}

fn decode_operations(slot: Slot) -> Option<Vec<Operation>> {
    // d0 and d1's top nibble are 0 in every program seen; keep anything else raw.
    if slot.0[0] != 0 || slot.0[1] >> 28 != 0 {
        return None;
    }
    let mac_code = slot.get(Field::Mac);
    let ilu_code = slot.get(Field::Ilu);
    let mut operations = Vec::with_capacity(2);
    if mac_code != 0 {
        let op = Op::from_opcode(Unit::Mac, mac_code)?;
        let info = op.info();
        let mut sources = [Source::default(); 3];
        for (i, &input) in info.mac_slots.iter().enumerate() {
            sources[i] = source(&slot, input)?;
        }
        let mac_mask = slot.get(Field::MacMask) as u8;
        let out = output(&slot, Unit::Mac)?;
        if info.dest == DestKind::Address {
            if mac_mask != 0 || out.is_some() {
                return None;
            }
            operations.push(Operation {
                op,
                dest: Dest {
                    reg: DestReg::Address,
                    mask: 0xf,
                },
                sources,
            });
        } else {
            let before = operations.len();
            operations.extend(out.map(|dest| Operation { op, dest, sources }));
            if mac_mask != 0 {
                let temp = slot.get(Field::OutTemp);
                if temp >= u32::from(WRITABLE_TEMPS) {
                    return None;
                }
                operations.push(Operation {
                    op,
                    dest: Dest {
                        reg: DestReg::Temp(temp as u8),
                        mask: mac_mask,
                    },
                    sources,
                });
            }
            if operations.len() == before {
                return None;
            }
        }
    }
    if ilu_code != 0 {
        let op = Op::from_opcode(Unit::Ilu, ilu_code)?;
        // Scalar operations read lane x only, but the whole swizzle is printed: nv2avsh writes
        // it as given, so printing it keeps the words when reassembled.
        let source = source(&slot, InputSlot::C)?;
        let sources = [source, Source::default(), Source::default()];
        let before = operations.len();
        operations.extend(output(&slot, Unit::Ilu)?.map(|dest| Operation { op, dest, sources }));
        let ilu_mask = slot.get(Field::IluMask) as u8;
        if ilu_mask != 0 {
            // Paired with a MAC operation, the ILU writes r1 whatever OUT_R says.
            let temp = if mac_code != 0 {
                u32::from(PAIRED_ILU_TEMP)
            } else {
                slot.get(Field::OutTemp)
            };
            if temp >= u32::from(WRITABLE_TEMPS) {
                return None;
            }
            operations.push(Operation {
                op,
                dest: Dest {
                    reg: DestReg::Temp(temp as u8),
                    mask: ilu_mask,
                },
                sources,
            });
        }
        if operations.len() == before {
            return None;
        }
    }
    // NOP/NOP, and more than the syntax pairs (3 operations), stay raw.
    if operations.is_empty() || operations.len() > 3 {
        return None;
    }
    Some(operations)
}
