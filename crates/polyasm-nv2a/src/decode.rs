//! Instructions → operations (the disassembler's first half). Only the fields an operation
//! uses are read, so words that other assemblers filled differently decode too; anything the
//! source syntax cannot say (undefined opcodes, NOP/NOP, unused register numbers, a FINAL bit
//! the assembler would not set there) stays raw and prints as `.word`.

use crate::operation::{
    Dest, DestReg, MovWrites, Operation, Regroup, Source, SrcReg, first_mov_on_mac, regroup_same_source,
};
use crate::ops::{
    CONSTANTS, DestKind, Field, InputSlot, Mux, Op, PortTarget, R12, Slot, Unit, UnitWrites, WRITABLE_TEMPS,
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

/// Whether instruction `index` of `count` is the final marker `--explicit-final` appends.
pub fn is_final_marker(slot: &Slot, index: usize, count: usize) -> bool {
    *slot == Slot::FINAL_NOP && index + 1 == count
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

/// Appends the operations `op` on `unit` performs, one per write; `None` if source cannot say
/// them (a register that does not exist, or an operation that writes nothing).
fn unit_operations(slot: &Slot, unit: Unit, op: Op, operations: &mut Vec<Operation>) -> Option<()> {
    let info = op.info();
    let mut sources = [Source::default(); 3];
    for (i, source_slot) in sources.iter_mut().enumerate().take(info.sources()) {
        *source_slot = source(slot, info.slot(unit, i))?;
    }
    let writes = slot.writes(unit);
    if info.dest == DestKind::Address {
        if writes != (UnitWrites { temp: None, port: None }) {
            return None;
        }
        let dest = Dest {
            reg: DestReg::Address,
            mask: 0xf,
        };
        operations.push(Operation { op, dest, sources });
        return Some(());
    }
    let before = operations.len();
    if let Some((target, mask)) = writes.port {
        let reg = match target {
            PortTarget::Output(address) => DestReg::Output(output_by_address(address)?.address),
            PortTarget::Constant(index) if index < u32::from(CONSTANTS) => DestReg::Const(index as u8),
            PortTarget::Constant(_) => return None,
        };
        let dest = Dest { reg, mask: mask as u8 };
        operations.push(Operation { op, dest, sources });
    }
    if let Some((register, mask)) = writes.temp {
        if register >= u32::from(WRITABLE_TEMPS) {
            return None;
        }
        let dest = Dest {
            reg: DestReg::Temp(register as u8),
            mask: mask as u8,
        };
        operations.push(Operation { op, dest, sources });
    }
    (operations.len() > before).then_some(())
}

fn decode_operations(slot: Slot) -> Option<Vec<Operation>> {
    // d0 and d1's top nibble are 0 in every program seen; keep anything else raw.
    if slot.0[0] != 0 || slot.0[1] >> 28 != 0 {
        return None;
    }
    let mut operations = Vec::with_capacity(2);
    let mut mac_count = 0;
    for (unit, field) in [(Unit::Mac, Field::Mac), (Unit::Ilu, Field::Ilu)] {
        let code = slot.get(field);
        if code != 0 {
            unit_operations(&slot, unit, Op::from_opcode(unit, code)?, &mut operations)?;
        }
        if unit == Unit::Mac {
            mac_count = operations.len();
        }
    }
    // NOP/NOP, and more than the syntax pairs (3 operations), stay raw.
    if operations.is_empty() || operations.len() > 3 {
        return None;
    }
    let runs_mov = |unit, field| Op::from_opcode(unit, slot.get(field)) == Some(Op::Mov);
    if runs_mov(Unit::Mac, Field::Mac) && runs_mov(Unit::Ilu, Field::Ilu) {
        let (mac, ilu) = operations.split_at(mac_count);
        return Some(arrange_movs(mac, ilu));
    }
    Some(operations)
}

/// The writes of one unit's MOV: its source, its o/c write and its temporary write.
#[derive(Clone, Copy)]
struct MovUnit {
    source: Source,
    out: Option<Dest>,
    temp: Option<Dest>,
}

impl MovUnit {
    fn new(operations: &[Operation]) -> MovUnit {
        let mut unit = MovUnit {
            source: operations[0].sources[0],
            out: None,
            temp: None,
        };
        for operation in operations {
            match operation.dest.reg {
                DestReg::Temp(_) => unit.temp = Some(operation.dest),
                _ => unit.out = Some(operation.dest),
            }
        }
        unit
    }

    fn writes(&self) -> MovWrites {
        MovWrites {
            temp: self.temp.map(|dest| match dest.reg {
                DestReg::Temp(register) => register,
                _ => unreachable!("a MovUnit's temp is a temporary"),
            }),
            out: self.out.is_some(),
        }
    }

    fn push(&self, operations: &mut Vec<Operation>) {
        let mut sources = [Source::default(); 3];
        sources[0] = self.source;
        for dest in self.out.iter().chain(&self.temp) {
            operations.push(Operation {
                op: Op::Mov,
                dest: *dest,
                sources,
            });
        }
    }
}

/// A MOV on each unit, in the order the assembler would give them: the writes of one source
/// that fit one unit are one MOV, and the units are the ones the assembler picks for these
/// writes (see `first_mov_on_mac`), so the printed pair assembles to words that print the same.
fn arrange_movs(mac: &[Operation], ilu: &[Operation]) -> Vec<Operation> {
    let (mut first, mut second) = (MovUnit::new(mac), MovUnit::new(ilu));
    let mut operations = Vec::with_capacity(3);
    if first.source == second.source {
        let (a, b) = (first.writes(), second.writes());
        let both_write_temps = a.temp.is_some() && b.temp.is_some();
        if !(a.out && b.out || both_write_temps) {
            let merged = MovUnit {
                source: first.source,
                out: first.out.or(second.out),
                temp: first.temp.or(second.temp),
            };
            merged.push(&mut operations);
            return operations;
        }
        match regroup_same_source(a, b) {
            Some(Regroup::OutToSecond) => second.out = first.out.take(),
            Some(Regroup::OutToFirst) => first.out = second.out.take(),
            None => {}
        }
    }
    if !first_mov_on_mac(first.writes(), second.writes()) {
        std::mem::swap(&mut first, &mut second);
    }
    first.push(&mut operations);
    second.push(&mut operations);
    operations
}
