//! IEEE half precision: every finite half is its own nearest, and the edges convert exactly.

use polyasm_lima::half::{nearest, to_f32, to_f64};

#[test]
fn every_finite_half_is_its_own_nearest() {
    for bits in 0..=u16::MAX {
        let value = to_f64(bits);
        if value.is_finite() {
            assert_eq!(nearest(value), bits, "{bits:#06x}");
        }
    }
    assert_eq!(to_f32(0x3c00), 1.0);
    assert_eq!(to_f32(0xbeb6), -1.677_734_4);
    assert_eq!(to_f32(0x0001), 2f32.powi(-24));
    assert_eq!(to_f32(0xfc00), f32::NEG_INFINITY);
    assert!(to_f32(0x7e00).is_nan());
    assert_eq!(nearest(65520.0), 0x7c00);
    assert_eq!(nearest(65519.0), 0x7bff);
    assert_eq!(nearest(1.0 + 2f64.powi(-11)), 0x3c00); // a tie goes to even
}
