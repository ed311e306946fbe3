//! The Lima tables: the rows of each unit's ops, the fields, the multiplier's shifts, and the
//! docs page's generated table.

use polyasm_lima::ops::*;

#[test]
fn unit_op_rows_follow_the_enum_order_and_codes_are_unique() {
    for (i, row) in MUL_OPS.iter().enumerate() {
        assert_eq!(row.op as usize, i);
        assert_eq!(row.model, Model::Mul(row.op));
        assert_eq!(MulOp::from_code(row.op.code()), Some(row.op));
    }
    for (i, row) in ACC_OPS.iter().enumerate() {
        assert_eq!(row.op as usize, i);
        assert_eq!(row.model, Model::Acc(row.op));
        assert_eq!(AccOp::from_code(row.op.code()), Some(row.op));
    }
    for (i, row) in COMBINE_OPS.iter().enumerate() {
        assert_eq!(row.op as usize, i);
        assert_eq!(row.model, Model::Combine(row.op));
        assert_eq!(CombineOp::from_code(row.op.code()), Some(row.op));
    }
    for (i, row) in BRANCH_CONDS.iter().enumerate() {
        assert_eq!(row.value as usize, i);
        assert_eq!(row.code as usize, i);
    }
}

#[test]
fn each_unit_has_its_ops_once_and_only_the_vector_adder_has_the_sums() {
    for row in &FORMS {
        let op_rows = |model: Model| FORMS.iter().filter(move |r| r.model == model);
        match row.model {
            Model::Mul(op) => {
                assert_eq!(op_rows(row.model).count(), 2, "{}", row.mnemonic);
                assert!(matches!(row.field, Some(Field::Vec4Mul | Field::FloatMul)));
                assert_eq!(row.code, Some(op.code()));
                assert_eq!(row.name(), op.info().name());
            }
            Model::Acc(op) => {
                let units = if row.vector_only { 1 } else { 2 };
                assert_eq!(op_rows(row.model).count(), units, "{}", row.mnemonic);
                assert!(matches!(row.field, Some(Field::Vec4Acc | Field::FloatAcc)));
                assert_eq!(row.code, Some(op.code()));
            }
            Model::Combine(op) => {
                assert_eq!(op.form(), row.op);
                assert_eq!(row.field, Some(Field::Combine));
            }
            _ => assert_eq!(row.code, None, "{}", row.mnemonic),
        }
        // An ALU op's unit is its field's, and Mesa writes every unit the same way.
        if let (Some(field), Some(_)) = (row.field, row.code) {
            assert_eq!(row.unit(), field.info().units[0], "{}", row.mnemonic);
        }
        if !row.unit().is_empty() {
            assert!(
                row.second.is_some_and(|mesa| mesa.ends_with(row.unit())),
                "{}",
                row.mnemonic
            );
        }
        assert!(row.sources() <= 2);
    }
    assert_eq!(proposed::old_opcodes(), [("texld_2d", "texld")]);
}

#[test]
fn fields_add_up_to_the_longest_instruction() {
    let bits: u32 = FIELDS.iter().map(|f| f.bits).sum();
    assert_eq!(bits, 557);
    for (i, f) in FIELDS.iter().enumerate() {
        assert_eq!(f.field, Field::ALL[i]);
        assert_eq!(f.presence, 0x80 << i);
        assert_eq!(f.field.info().index as usize, i);
    }
}

#[test]
fn mul_op_numbers_carry_the_shift() {
    assert_eq!(mul_op_from_code(0), Some((MulOp::Mul, 0)));
    assert_eq!(mul_op_from_code(1), Some((MulOp::Mul, 1)));
    assert_eq!(mul_op_from_code(3), Some((MulOp::Mul, 3)));
    assert_eq!(mul_op_from_code(4), Some((MulOp::Mul, -4)));
    assert_eq!(mul_op_from_code(7), Some((MulOp::Mul, -1)));
    assert_eq!(mul_op_from_code(31), Some((MulOp::Mov, 0)));
    assert_eq!(mul_op_from_code(18), None);
    for code in 0..32u8 {
        if let Some((op, shift)) = mul_op_from_code(code) {
            assert_eq!(mul_op_code(op, shift), code);
        }
    }
}

#[test]
fn the_documentation_shows_this_table() {
    let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/lima.md");
    if let Err(message) = polyasm_core::table::check_doc_regions(&page, &[("ops", Form::markdown())]) {
        panic!("{message}");
    }
}
