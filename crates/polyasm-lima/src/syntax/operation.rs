//! [`Operation`]: what an opcode word names, in either syntax. Both readers turn a word into
//! one and lower it into its field; its field, slot, operands and unit come from its row.

use crate::ops::{BranchCond, Field, Form, FormInfo, Model, OutMod, Perspective};

/// An operation once its word is read: the row it names and the modifiers its word carries,
/// each at its default (none) where the word has none or the form takes none. Small and
/// `Copy`: the proposed syntax keeps one per word it has read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operation {
    /// Its row of [`FORMS`](crate::ops::FORMS).
    pub form: Form,
    /// The output modifier of an ALU op.
    pub outmod: OutMod,
    /// A multiplier's shift, as a power of two (`_x2` 1, `_d4` -2).
    pub shift: i8,
    /// A varying fetch's perspective division.
    pub perspective: Perspective,
    /// A branch's condition (`Always` for none).
    pub cond: BranchCond,
    /// A texture fetch at an explicit LOD (the proposed syntax's `texld_lod`).
    pub explicit_lod: bool,
    /// A texture fetch whose LOD bias is a register (Mesa's `texld` with the bias suffix).
    pub bias_register: bool,
    /// The destination form a scalar op of the complex unit asks for (`Some(true)`: `_vec`,
    /// `Some(false)`: `_scalar`).
    pub vec_dest: Option<bool>,
}

impl Operation {
    /// The operation of `form` with no modifier.
    pub(crate) fn new(form: Form) -> Operation {
        Operation {
            form,
            outmod: OutMod::None,
            shift: 0,
            perspective: Perspective::None,
            cond: BranchCond::Always,
            explicit_lod: false,
            bias_register: false,
            vec_dest: None,
        }
    }

    /// Its row of [`FORMS`](crate::ops::FORMS).
    #[inline]
    pub(crate) fn row(self) -> &'static FormInfo {
        self.form.info()
    }

    /// What it is in the instruction model.
    #[inline]
    pub(crate) fn model(self) -> Model {
        self.row().model
    }

    /// The field it writes (`None` for the control bits and `nop`).
    #[inline]
    pub(crate) fn field(self) -> Option<Field> {
        self.row().field
    }

    /// Whether it writes a field of the vector units.
    pub(crate) fn is_vector(self) -> bool {
        matches!(self.field(), Some(Field::Vec4Mul | Field::Vec4Acc))
    }

    /// The position in the control word: stop, sync, then the fields; `None` for `nop`.
    pub(crate) fn slot(self) -> Option<usize> {
        match (self.field(), self.model()) {
            (Some(field), _) => Some(2 + field.info().index as usize),
            (None, Model::Stop) => Some(0),
            (None, Model::Sync) => Some(1),
            (None, _) => None,
        }
    }

    /// The operands it takes in the proposed syntax, as words for the help line
    /// (`dest src1 src2`): its row's, but only the target for an unconditional branch.
    pub(crate) fn operands(self) -> &'static [&'static str] {
        match self.model() {
            Model::Branch if self.cond == BranchCond::Always => &["target"],
            _ => self.row().operands,
        }
    }

    /// How many operands it takes in the proposed syntax, at least and at most.
    pub(crate) fn operand_range(self) -> (usize, usize) {
        let operands = self.operands();
        let required = operands.iter().filter(|w| !w.starts_with('[')).count();
        (required, operands.len())
    }

    /// Whether its first operand is a destination that the older examples wrote last.
    pub(crate) fn has_dest(self) -> bool {
        self.operands().first() == Some(&"dest")
    }

    /// The name of its unit in the proposed syntax's messages: its field's, or the control
    /// bit's name in backquotes.
    pub(crate) fn unit_name(self) -> &'static str {
        match (self.field(), self.model()) {
            (Some(field), _) => field.info().unit_name,
            (None, Model::Stop) => "`stop`",
            (None, Model::Sync) => "`sync`",
            (None, _) => "`nop`",
        }
    }
}
