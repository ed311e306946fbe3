//! Every kind of mistake is a compile error at the token, with the code, message and help
//! line of the command line (the `.stderr` files beside each case).

#[test]
fn mistakes_are_compile_errors_at_the_token() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
