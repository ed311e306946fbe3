//! The shader texts read and validated by naga, as the interpreter's and the native shaders'
//! tests both check them.

use polyasm_shader::runtime;

fn validate(what: &str, module: &naga::Module) {
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(module)
    .unwrap_or_else(|e| panic!("{what} does not validate: {e:?}"));
}

/// `text` read as WGSL and validated: a compute shader with the runtime's entry point and
/// workgroup size.
pub fn wgsl_compute(what: &str, text: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(text).unwrap_or_else(|e| panic!("{what}: {}", e.emit_to_string(text)));
    validate(what, &module);
    let entry = &module.entry_points[0];
    assert_eq!(entry.name, runtime::WGSL_ENTRY_POINT, "{what}");
    assert_eq!(entry.stage, naga::ShaderStage::Compute, "{what}");
    assert_eq!(
        entry.workgroup_size,
        [runtime::WORKGROUP_SIDE, runtime::WORKGROUP_SIDE, 1],
        "{what}"
    );
    module
}

/// `text` read as GLSL and validated as a fragment shader. naga reads GLSL 4.40 and later
/// only; the shaders use nothing newer than 4.30, so they are checked as 4.50, the version line
/// alone changed.
pub fn glsl_fragment(what: &str, text: &str) -> naga::Module {
    let source = text.replacen("#version 430 core\n", "#version 450 core\n", 1);
    assert_ne!(source, text, "{what}: the version line");
    let module = naga::front::glsl::Frontend::default()
        .parse(&naga::front::glsl::Options::from(naga::ShaderStage::Fragment), &source)
        .unwrap_or_else(|e| panic!("{what}: {}", e.emit_to_string(&source)));
    validate(what, &module);
    assert_eq!(module.entry_points[0].stage, naga::ShaderStage::Fragment, "{what}");
    module
}
