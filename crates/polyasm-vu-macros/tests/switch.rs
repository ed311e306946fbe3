//! A crate that uses `dbsdk_vu_asm::vu_asm!` switches to polyasm's by changing its `use` line:
//! the same source, included under each, gives the same words.

mod reference {
    use dbsdk_vu_asm::vu_asm;
    include!("switch/game.rs");
}

mod polyasm {
    use polyasm_vu_macros::vu_asm;
    include!("switch/game.rs");
}

#[test]
fn the_same_source_gives_the_same_words_under_either_macro() {
    assert_eq!(polyasm::TRANSFORM, reference::TRANSFORM);
    assert_eq!(polyasm::lit(), reference::lit());
    assert_eq!(polyasm::copies(), reference::copies());
    // Sixteen statements, the last an `end`, and the `end` appended after them.
    assert_eq!(polyasm::lit().len(), 17);
    assert_eq!(polyasm::copies()[1], [7 << 10, 1 | 3 << 6, 0x3f]);
}

#[test]
fn a_fragment_passed_by_a_macro_is_read_as_written() {
    use polyasm_vu_macros::vu_asm;
    macro_rules! load {
        ($register:ident, $slot:literal) => {
            vu_asm! { ld $register $slot }
        };
    }
    assert_eq!(load!(r3, 5), [3 << 6 | 5 << 10, 0x3f]);
}
