//! Encoding and decoding agree: random valid programs survive words and back, decoded words
//! re-encode to themselves exactly when nothing was lost, and no words make the decoder panic.

use polyasm_lima::decode::decode;
use polyasm_lima::instr::Instr;
use polyasm_lima::instr::words::encode;
use proptest::prelude::*;

mod common;
use common::strategies;

fn instrs(words: &[u32]) -> Vec<Instr> {
    decode(words)
        .expect("words the encoder wrote")
        .into_iter()
        .map(|d| d.instr)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn programs_survive_encoding(program in strategies::program(6)) {
        let words = encode(&program);
        let decoded = decode(&words).expect("words the encoder wrote");
        for d in &decoded {
            prop_assert!(d.lost.is_empty(), "lost {:?}", d.lost);
        }
        let back: Vec<Instr> = decoded.into_iter().map(|d| d.instr).collect();
        prop_assert_eq!(&back, &program);
        prop_assert_eq!(encode(&back), words);
    }

    #[test]
    fn decoded_words_reencode_to_themselves_unless_bits_were_lost(
        program in strategies::program(4),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 0..32u32), 1..4),
    ) {
        let mut words = encode(&program);
        for (index, bit) in flips {
            let i = index.index(words.len());
            words[i] ^= 1 << bit;
        }
        if let Ok(decoded) = decode(&words) {
            let lost = decoded.iter().any(|d| !d.lost.is_empty());
            let back: Vec<Instr> = decoded.iter().map(|d| d.instr).collect();
            prop_assert_eq!(encode(&back) == words, !lost, "lost: {:?}", decoded.iter().map(|d| &d.lost).collect::<Vec<_>>());
            // What decodes once decodes to the same model again.
            prop_assert_eq!(instrs(&encode(&back)), back);
        }
    }

    #[test]
    fn arbitrary_words_never_panic(words in proptest::collection::vec(any::<u32>(), 0..64)) {
        let _ = decode(&words);
    }

    #[test]
    fn words_with_plausible_control_words_never_panic(
        words in proptest::collection::vec((0..20u32, 0..0x1000u32, any::<u32>(), any::<u32>()), 0..16),
    ) {
        // Control words with small counts and random presence bits, each followed by random
        // payload words, reach the field decoders far more often than uniform noise.
        let mut flat = Vec::new();
        for (count, presence, high, payload) in words {
            flat.push(count | (presence << 7) | (high & 0xfff8_0060));
            flat.extend(std::iter::repeat_n(payload, count.saturating_sub(1) as usize));
        }
        if let Ok(decoded) = decode(&flat) {
            let back: Vec<Instr> = decoded.iter().map(|d| d.instr).collect();
            let lost = decoded.iter().any(|d| !d.lost.is_empty());
            prop_assert_eq!(encode(&back) == flat, !lost);
        }
    }
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_the_mbs_reader(bytes in proptest::collection::vec(any::<u8>(), 0..128)) {
        let _ = polyasm_lima::mbs::read(&bytes);
        let mut file = b"MBS1".to_vec();
        file.extend_from_slice(&bytes);
        let _ = polyasm_lima::mbs::read(&file);
    }

    #[test]
    fn mbs_files_round_trip(program in strategies::program(4)) {
        let words = encode(&program);
        let info = polyasm_lima::mbs::FragmentInfo::for_program(&program);
        let file = polyasm_lima::mbs::write(&words, &info);
        let read = polyasm_lima::mbs::read(&file).expect("a file we wrote");
        prop_assert_eq!(read.words, words);
        // Any cut of the file is an error, never a panic.
        for len in 0..file.len() {
            prop_assert!(polyasm_lima::mbs::read(&file[..len]).is_err());
        }
    }
}
