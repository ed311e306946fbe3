#!/usr/bin/env bash
# Runs Neovim headless against `polyasm lsp`, as an editor user would meet it: check.lua opens
# the files of fixtures/ (a copy, in a temporary folder) in Neovim's own LSP client, waits for
# their diagnostics, asks for hovers and definitions, and writes what came back; this script
# checks that against the expectations below: each diagnostic's code, place, severity and
# message, the words of each hover, the place of each definition, and that the server ends with
# status 0 after shutdown. Then Neovim starts with polyasm.lua, the configuration docs/editors.md
# gives for Neovim 0.7 to 0.10, as its init file, and check_config.lua checks what its user gets.
#
#   bash editors/nvim/test.sh POLYASM_BINARY      (e.g. target/debug/polyasm)
#
# Needs nvim (Debian's package `neovim`, 0.7 or newer) and fails when it is missing. Neovim
# gets NVIM_TIMEOUT seconds in all (default 60), each answer POLYASM_NVIM_WAIT_MS (10000).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

fail() {
    echo "editors/nvim/test.sh: $*" >&2
    exit 1
}

(($# == 1)) || fail "usage: bash editors/nvim/test.sh POLYASM_BINARY"
[[ -f $1 && -x $1 ]] || fail "$1 is not an executable polyasm binary (cargo build makes target/debug/polyasm)"
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v nvim >/dev/null 2>&1 || fail "nvim is not installed (Debian: apt-get install neovim)"
command -v timeout >/dev/null 2>&1 || fail "timeout (coreutils) is not installed"

work=$(mktemp -d "${TMPDIR:-/tmp}/polyasm-nvim.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$here"/fixtures/* "$work"/
# Neovim's logs (the LSP client's among them) and its socket go to the temporary folder.
for xdg in CONFIG DATA STATE CACHE; do
    export "XDG_${xdg}_HOME=$work/xdg/$xdg"
done
mkdir -m 700 "$work/run"
export XDG_RUNTIME_DIR=$work/run
queries=$work/queries
output=$work/output
: >"$queries"

# What must be in check.lua's output, line for line (fields separated by tabs; in a message,
# a line break is `\n`), and the words each hover must hold.
expected=()
hover_words=()
tab=$'\t'

# expect_diagnostics FILE COUNT: FILE is opened and has exactly COUNT diagnostics, each one
# given by an expect_diagnostic.
expect_diagnostics() {
    printf 'diagnostics\t%s\n' "$1" >>"$queries"
    expected+=("diagnostics$tab$1$tab$2")
}

# expect_diagnostic FILE LINE:COL CODE SEVERITY MESSAGE (all of it, `\n` between its lines)
expect_diagnostic() {
    expected+=("diagnostic$tab$1$tab$2$tab$3$tab$4$tab$5")
}

# expect_hover FILE LINE COL WORDS...: the hover there holds each of WORDS.
expect_hover() {
    local file=$1 line=$2 col=$3
    shift 3
    printf 'hover\t%s\t%s\t%s\n' "$file" "$line" "$col" >>"$queries"
    local words
    for words in "$@"; do
        hover_words+=("$file$tab$line:$col$tab$words")
    done
}

# expect_definition FILE LINE COL WHERE: the name there is declared at WHERE (FILE:LINE:COL).
expect_definition() {
    printf 'definition\t%s\t%s\t%s\n' "$1" "$2" "$3" >>"$queries"
    expected+=("definition$tab$1$tab$2:$3$tab$4")
}

# VU: a misspelled mnemonic, with the did-you-mean; hovers on mnemonics.
expect_diagnostics scale.vu 1
expect_diagnostic scale.vu 9:1 VU002 error 'unknown mnemonic `sqr`\nhelp: did you mean `sqrt`?'
expect_hover scale.vu 8 1 '`mul`' 'dst = dst * src (per lane)'
expect_hover scale.vu 6 2 '`ldc`' 'dst = constant[slot]'

# nv2a: a clean file with uniforms (go to definition from a use, with and without a row, and
# the uniform's hover), and a misspelled mnemonic.
expect_diagnostics tint.vsh 0
expect_hover tint.vsh 9 1 '`dp4`' 'a.x*b.x + a.y*b.y + a.z*b.z + a.w*b.w'
expect_definition tint.vsh 13 22 tint.vsh:7:1
expect_definition tint.vsh 11 20 tint.vsh:6:1
expect_hover tint.vsh 13 23 '`#tint`' 'vector' ': c20' 'line 7'
expect_diagnostics typo.vsh 1
expect_diagnostic typo.vsh 4:1 NV2A003 error 'unknown mnemonic `mvo`\nhelp: `polyasm explain NV2A003` lists every operation'

# Masfix: labels used before (`done`) and after (`loop`) their definitions, and a misspelled
# mnemonic.
expect_diagnostics countdown.mx 0
expect_definition countdown.mx 7 9 countdown.mx:12:2
expect_definition countdown.mx 11 9 countdown.mx:6:2
expect_hover countdown.mx 7 10 'label' '`done`' 'line 12'
expect_hover countdown.mx 9 5 '`outc`' 'prints the byte value & 255'
expect_diagnostics typo.mx 1
expect_diagnostic typo.mx 4:5 MX020 error 'unknown mnemonic `otuc`\nhelp: `polyasm explain MX020` lists every instruction'

# shader-asm: a misspelled instruction; a hover.
expect_diagnostics typo.sasm 1
expect_diagnostic typo.sasm 6:1 SH002 error 'unknown instruction `multiplyy`\nhelp: did you mean `multiply`?'
expect_hover typo.sasm 5 1 '`reciprocal`' 'sB = 1 / sA'

# Lima: a branch to a label defined after it; the hover of an opcode with a modifier is its
# row without the modifier; a misspelled opcode.
expect_diagnostics halves.pp 0
expect_definition halves.pp 6 39 halves.pp:11:1
expect_hover halves.pp 6 14 '`branch`' 'branch when the condition on src1 and src2 holds'
expect_hover halves.pp 9 7 '`mov.v0`' 'field: vec4_mul'
expect_diagnostics typo.pp 1
expect_diagnostic typo.pp 3:7 PP002 error 'unknown opcode `mvo`\nhelp: docs/lima.md lists the opcodes of every unit'

# Every fixture is opened and its diagnostics checked.
for fixture in "$here"/fixtures/*; do
    grep -Fqx "diagnostics$tab$(basename "$fixture")" "$queries" ||
        fail "fixtures/$(basename "$fixture") has no expect_diagnostics"
done

started=$(date +%s%N)
status=0
(
    cd "$work"
    POLYASM_NVIM_SERVER=$binary POLYASM_NVIM_DIR=$work POLYASM_NVIM_QUERIES=$queries \
        POLYASM_NVIM_OUT=$output POLYASM_NVIM_SCRIPT=$here/check.lua \
        timeout -k 5 "${NVIM_TIMEOUT:-60}" \
        nvim --headless --clean -u NONE -i NONE -n -c 'lua dofile(vim.env.POLYASM_NVIM_SCRIPT)' \
        </dev/null >"$work/nvim.log" 2>&1
) || status=$?
elapsed_ms=$((($(date +%s%N) - started) / 1000000))

if ((status == 124 || status == 137)); then
    cat "$work/nvim.log" >&2
    fail "nvim did not finish within ${NVIM_TIMEOUT:-60} s"
fi
if ((status != 0)) || [[ ! -f $output ]]; then
    cat "$work/nvim.log" >&2
    fail "nvim failed (status $status)$([[ -f $output ]] || echo ', and wrote no output')"
fi

failures=0
passed=0
problem() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# The output's lines of one kind (`diagnostic` takes in `diagnostics`) about one file, for a
# reader of a failure.
show() {
    echo "--- what Neovim got ($1, $2) ---" >&2
    awk -F"$tab" -v kind="$1" -v file="$2" 'index($1, kind) == 1 && $2 == file { print; n++ }
        END { if (!n) print "(nothing)" }' "$output" >&2
}

# A request that got no answer, or one that failed, is reported alone: what follows it would
# only repeat it.
if [[ $(tail -n 1 "$output") != done ]] || grep -Eq '^(timeout|error)'"$tab" "$output"; then
    if [[ -s $work/nvim.log ]]; then
        cat "$work/nvim.log" >&2
        echo >&2
    fi
    sed -n -e 's/^timeout\t/no answer within the wait: /p' -e 's/^error\t/error: /p' "$output" >&2
    fail "Neovim's requests to $binary lsp failed (see above)"
fi
if grep -Fqx "exit${tab}0${tab}0" "$output"; then
    passed=$((passed + 1))
else
    problem "the server did not end with status 0 after shutdown: $(grep '^exit' "$output" || echo 'no exit')"
fi

for line in "${expected[@]}"; do
    if grep -Fqx -- "$line" "$output"; then
        passed=$((passed + 1))
    else
        problem "expected: ${line//$tab/ | }"
        IFS=$tab read -r kind file _ <<<"$line"
        show "${kind%s}" "$file"
    fi
done

for check in "${hover_words[@]}"; do
    IFS=$tab read -r file place words <<<"$check"
    hover=$(awk -F"$tab" -v file="$file" -v place="$place" \
        '$1 == "hover" && $2 == file && $3 == place { print $4 }' "$output")
    if [[ -n $hover && $hover == *"$words"* ]]; then
        passed=$((passed + 1))
    else
        problem "hover on $file:$place: expected it to hold \`$words\`, got: ${hover:-(nothing)}"
    fi
done

# The configuration docs/editors.md gives for Neovim 0.7 to 0.10, as Neovim's init file, with
# `polyasm` on the PATH: one client, `polyasm`, for every file, with the keys K and gd, and
# gd goes to the declaration.
mkdir "$work/bin"
ln -s "$binary" "$work/bin/polyasm"
config_output=$work/config-output
status=0
(
    cd "$work"
    PATH=$work/bin:$PATH POLYASM_NVIM_FILES="scale.vu typo.vsh typo.pp" POLYASM_NVIM_GD="tint.vsh 13 21" \
        POLYASM_NVIM_OUT=$config_output POLYASM_NVIM_SCRIPT=$here/check_config.lua \
        timeout -k 5 "${NVIM_TIMEOUT:-60}" \
        nvim --headless -u "$here/polyasm.lua" -i NONE -n -c 'lua dofile(vim.env.POLYASM_NVIM_SCRIPT)' \
        </dev/null >"$work/nvim-config.log" 2>&1
) || status=$?
config_expected=(
    "diagnostic${tab}scale.vu${tab}9:1${tab}VU002"
    "client${tab}scale.vu${tab}polyasm${tab}1"
    "keys${tab}scale.vu${tab}K${tab}gd"
    "diagnostic${tab}typo.vsh${tab}4:1${tab}NV2A003"
    "client${tab}typo.vsh${tab}polyasm${tab}1"
    "keys${tab}typo.vsh${tab}K${tab}gd"
    "diagnostic${tab}typo.pp${tab}3:7${tab}PP002"
    "client${tab}typo.pp${tab}polyasm${tab}1"
    "keys${tab}typo.pp${tab}K${tab}gd"
    "gd${tab}tint.vsh${tab}7:1"
    "done"
)
if ((status != 0)) || [[ ! -f $config_output ]]; then
    cat "$work/nvim-config.log" >&2
    problem "nvim with polyasm.lua failed (status $status)"
elif [[ $(cat "$config_output") == "$(printf '%s\n' "${config_expected[@]}")" ]]; then
    passed=$((passed + 1))
else
    problem "polyasm.lua: expected
$(printf '%s\n' "${config_expected[@]}")
--- what Neovim got ---
$(cat "$config_output")"
fi

echo "nvim $(nvim --version | head -n 1 | cut -d' ' -f2): $(grep -c . "$queries") queries in ${elapsed_ms} ms"
echo "nvim: $passed passed, $failures failed"
((failures == 0))
