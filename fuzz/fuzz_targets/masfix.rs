#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| polyasm_fuzz::fuzz(&polyasm_fuzz::MASFIX, data));
