//! The Lima dialect's diagnostic codes, declared once; [`crate::error`] turns errors into
//! diagnostics with them, and the modules whose errors carry a code name it from here.

polyasm_core::codes! {
    /// Every Lima code; docs/codes/lima.md explains each one.
    pub enum Code, explained in "../codes.md" {
        MesaUnknownOp = "PP100", Error, "unknown operation in Mesa's text";
        MesaFieldOrder = "PP101", Error, "field out of order or repeated";
        MesaExpected = "PP102", Error, "operand not readable";
        MesaOperandCount = "PP103", Error, "wrong number of operands";
        MesaOutOfRange = "PP104", Error, "number out of range";
        MesaConstant = "PP105", Error, "constant not a binary16 value";
        MesaOffset = "PP106", Error, "`@` offset disagrees with the instructions before it";
        MesaTarget = "PP107", Error, "branch target is no instruction start";
        MesaMisplaced = "PP108", Error, "operand not allowed in this place";
        MesaFlags = "PP109", Error, "`sync`, `stop` or an empty field out of place";
        UnshownBits = "PP120", Warning, "Mesa's text does not show every bit";
        StrayTarget = "PP121", Warning, "branch to no instruction start";
        ZeroCount = "PP200", Error, "instruction length of 0";
        PastEnd = "PP201", Error, "instruction runs past the end";
        CountMismatch = "PP202", Error, "instruction length disagrees with its fields";
        UndefinedOp = "PP203", Error, "undefined op number";
        LostBits = "PP204", Warning, "bits that no syntax shows";
        UnsetConstantWords = "PP205", Warning, "constant read without its field in words";
        NotMbs = "PP210", Error, "not an MBS1 file";
        MbsTruncated = "PP211", Error, "MBS1 chunk runs past its end";
        MbsNotFragment = "PP212", Error, "MBS1 file holds no fragment shader";
        MbsNoCode = "PP213", Error, "MBS1 fragment shader has no code";
        MbsPartialWord = "PP214", Error, "MBS1 code is not whole words";
        Syntax = "PP001", Error, "syntax error";
        UnknownOpcode = "PP002", Error, "unknown opcode";
        WrongUnit = "PP003", Error, "opcode on the wrong unit";
        BadModifier = "PP004", Error, "modifier not allowed";
        OperandCount = "PP005", Error, "wrong number of operands";
        OperandKind = "PP006", Error, "wrong kind of operand";
        RegisterRange = "PP007", Error, "register out of range";
        UnallocatedRegister = "PP008", Warning, "register beyond $5";
        DestinationLast = "PP009", Error, "destination written last";
        BadSwizzle = "PP010", Error, "malformed swizzle or write mask";
        NumberRange = "PP011", Error, "number out of range";
        InexactHalf = "PP012", Error, "constant not exactly fp16";
        HalfRange = "PP013", Error, "constant out of fp16 range";
        UnknownLabel = "PP014", Error, "unknown label";
        DuplicateLabel = "PP015", Error, "duplicate label";
        BranchRange = "PP016", Error, "branch target out of range";
        FieldOrder = "PP017", Error, "operations out of order";
        UnitTwice = "PP018", Error, "unit used twice";
        PipelineSource = "PP019", Error, "multiplier result read where it cannot be";
        CombineWithBranch = "PP020", Error, "combiner with a branch";
        SelWithoutFmul = "PP021", Error, "sel without the scalar multiplier";
        ConstantNotSet = "PP022", Error, "constant read without its field";
        MissingSync = "PP023", Warning, "texture fetch or derivative without sync";
        OldName = "PP024", Warning, "older name";
        OperandModifier = "PP025", Error, "modifier on an operand that has none";
        PipelineUnproduced = "PP026", Error, "multiplier result read without the multiplier";
        UnusedEncoding = "PP027", Warning, "encoding no compiler writes";
        StepLimit = "PP300", Error, "step limit reached";
        NoTexture = "PP301", Error, "texture not given";
        BadTarget = "PP302", Error, "branch to no instruction";
        NoStop = "PP303", Error, "program runs past its end";
        Empty = "PP304", Error, "empty program";
        TextureUnreadable = "PP305", Error, "texture cannot be read";
        UnusedTexture = "PP306", Warning, "texture never sampled";
    }
}
