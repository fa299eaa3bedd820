#!/usr/bin/env bash
# build-wheels.sh [OUTDIR]: the lab wheels of issue 36, built, audited and run.
#
# For each target (aarch64 first, then x86_64; WHEEL_TARGETS to choose):
#   maturin build --release --zig --compatibility manylinux2014 --target T
# from crates/tresillo-py, into OUTDIR (default target/lab-wheels), then checks that
# `auditwheel show` gives the manylinux_2_17 tag of T's architecture (glibc 2.17 and
# newer), that the library is stripped (no .debug_* section, under 30 MB) and that
# the wheel packs no __pycache__/.pyc. It first builds T's CLI binary
# (`cargo zigbuild --release --target T.2.17 -p tresillo-cli`), which the wheel
# ships as its `tresillo` command (tresillo/bin/tresillo), and then runs them:
#   - x86_64: the wheel installed with `pip install --no-index` into a fresh venv:
#     `import tresillo`, a 12-deal tresillo.tournament(["rule", "pimc:worlds=8",
#     "random"]), `tresillo --version`, `tresillo deal --seed 3` and a small
#     `tresillo tournament`; the same commands with the x86_64 CLI binary.
#   - aarch64, under QEMU user mode (Debian: `apt-get install qemu-user
#     libc6-arm64-cross`; AARCH64_SYSROOT, default /usr/aarch64-linux-gnu): the CLI
#     binary's `deal --seed 3` and tournament, compared byte for byte with x86_64's
#     (integer code: they must be identical). With AARCH64_PYTHON_ROOT, a directory
#     holding an aarch64 Python's files (usr/bin/python3.X and its libraries, for
#     instance Debian's arm64 packages unpacked with `dpkg -x`; docs/PYTHON.md says
#     how), the aarch64 wheel is installed (`pip install --target --platform`) and
#     the same Python smoke test and commands run on it under QEMU, compared too.
#     Such a directory, on Debian 12 (no arm64 package is installed, only unpacked):
#       dpkg --add-architecture arm64 && apt-get update
#       apt-get download python3.11-minimal:arm64 libpython3.11-minimal:arm64 \
#         libpython3.11-stdlib:arm64 libc6:arm64 zlib1g:arm64 libexpat1:arm64 libffi8:arm64 \
#         libbz2-1.0:arm64 liblzma5:arm64 libssl3:arm64 libcrypt1:arm64 libuuid1:arm64
#       for d in ./*_arm64.deb; do dpkg -x "$d" arm64root; done
#   WHEEL_CLI=0 skips the separate runs of the CLI binaries, comparing the wheels'
#   `tresillo` commands only (the same binaries). Each CLI binary is a second full build, in target/wheels-T-cli: cargo-zigbuild's
#   flags are not maturin's, and in one target directory each build overwrote the
#   other's artifacts (measured: the next wheel build recompiled every crate).
#
# Each wheel builds in its own target directory, target/wheels-T, so the normal
# build (target/release) is never invalidated, and a second run of this script only
# relinks. A cross build recompiles every dependency: about 15 CPU-minutes per
# target, so this is NOT part of CI (.ci/run builds and audits a plain x86_64
# manylinux_2_34 wheel on its release artifacts instead).
#
# Tools: WHEEL_VENV names a venv holding maturin, ziglang, auditwheel and
# cargo-zigbuild; by default target/wheels-venv is made with
# `pip install maturin ziglang auditwheel cargo-zigbuild` (needs PyPI once).
# The Rust targets: `rustup target add x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu`.
# Builds run under `nice -n ${WHEEL_NICE:-19}` with CARGO_BUILD_JOBS (default 2).
# The measurements (times, sizes, tags, comparisons) go to OUTDIR/report.txt.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/target/lab-wheels}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
TARGETS=${WHEEL_TARGETS:-"aarch64-unknown-linux-gnu x86_64-unknown-linux-gnu"}
NICE=${WHEEL_NICE:-19}
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-2}
SYSROOT=${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}
REPORT=$OUT/report.txt
CLI=${WHEEL_CLI:-1}
WORK=$OUT/smoke
: >"$REPORT"

die() {
    echo "error: $*" >&2
    exit 2
}
say() { echo "$*" | tee -a "$REPORT"; }

# ---- tools -------------------------------------------------------------------
VENV=${WHEEL_VENV:-$ROOT/target/wheels-venv}
if [ ! -x "$VENV/bin/python" ]; then
    [ -n "${WHEEL_VENV:-}" ] && die "WHEEL_VENV=$VENV is not a venv (no bin/python)"
    echo "making $VENV (pip install maturin ziglang auditwheel cargo-zigbuild)"
    python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$VENV/bin/pip" install -q 'maturin>=1.7,<2' ziglang auditwheel cargo-zigbuild ||
        die "could not install the tools into $VENV"
fi
for tool in maturin auditwheel cargo-zigbuild; do
    [ -x "$VENV/bin/$tool" ] || die "$tool is missing from $VENV: $VENV/bin/pip install $tool"
done
ZIG_VERSION=$("$VENV/bin/python" -m ziglang version 2>/dev/null) ||
    die "zig is missing from $VENV: $VENV/bin/pip install ziglang"
export PATH="$VENV/bin:$PATH"
installed=$(rustup target list --installed 2>/dev/null || true)
for t in $TARGETS; do
    case $t in
    x86_64-unknown-linux-gnu | aarch64-unknown-linux-gnu) ;;
    *) die "unknown target $t (this script builds x86_64-unknown-linux-gnu and aarch64-unknown-linux-gnu)" ;;
    esac
    if ! grep -qx "$t" <<<"$installed" && [ ! -d "$(rustc --print sysroot)/lib/rustlib/$t/lib" ]; then
        die "the Rust target $t is not installed: rustup target add $t"
    fi
done
say "tools: $(rustc --version), $(maturin --version), zig $ZIG_VERSION, auditwheel $("$VENV/bin/python" -m pip show auditwheel 2>/dev/null | sed -n 's/^Version: //p'), on $(uname -m), $(date -u '+%Y-%m-%d %H:%M UTC')"

# ---- build and audit -----------------------------------------------------------
arch_of() { echo "${1%%-*}"; }
for t in $TARGETS; do
    arch=$(arch_of "$t")
    tdir=$ROOT/target/wheels-$t
    rm -f "$OUT"/tresillo-*_"$arch".whl
    echo "== $t: CLI binary (cargo zigbuild; log: $OUT/cli-$t.log)"
    (cd "$ROOT" && CARGO_TARGET_DIR=$tdir-cli /usr/bin/time -f "%e s wall, %U s user, %S s sys" -o "$OUT/time-cli-$t.txt" \
        nice -n "$NICE" cargo-zigbuild zigbuild --locked --release --target "$t.2.17" -p tresillo-cli) \
        >"$OUT/cli-$t.log" 2>&1 || { tail -20 "$OUT/cli-$t.log"; die "the $t CLI build failed (log: $OUT/cli-$t.log)"; }
    bin=$tdir-cli/$t/release/tresillo
    [ -x "$bin" ] || die "cargo zigbuild made no $bin"
    say "$t CLI binary: ${bin#"$ROOT"/} $(($(stat -c %s "$bin") / 1000000)) MB (release profile, line tables kept), built in $(cat "$OUT/time-cli-$t.txt")"
    # The wheel's `tresillo` command is this CLI binary (tresillo/bin/tresillo).
    mkdir -p "$ROOT/crates/tresillo-py/python/tresillo/bin"
    cp "$bin" "$ROOT/crates/tresillo-py/python/tresillo/bin/tresillo"
    echo "== $t: wheel (CARGO_TARGET_DIR=${tdir#"$ROOT"/}; log: $OUT/build-$t.log)"
    (cd "$ROOT/crates/tresillo-py" &&
        CARGO_TARGET_DIR=$tdir /usr/bin/time -f "%e s wall, %U s user, %S s sys" -o "$OUT/time-$t.txt" \
            nice -n "$NICE" maturin build --locked --release --zig --compatibility manylinux2014 \
            --target "$t" --out "$OUT") >"$OUT/build-$t.log" 2>&1 ||
        { tail -20 "$OUT/build-$t.log"; die "the $t wheel build failed (log: $OUT/build-$t.log)"; }
    wheel=$(ls "$OUT"/tresillo-*manylinux_2_17_"$arch".whl 2>/dev/null | head -1)
    rm -f "$ROOT/crates/tresillo-py/python/tresillo/bin/tresillo"
    [ -n "$wheel" ] || die "maturin made no manylinux_2_17_$arch wheel in $OUT (log: $OUT/build-$t.log)"
    say "$t wheel: $(basename "$wheel"), built in $(cat "$OUT/time-$t.txt")"
    auditwheel show "$wheel" >"$OUT/auditwheel-$t.txt" 2>&1 || true
    tr '\n' ' ' <"$OUT/auditwheel-$t.txt" | grep -q "platform tag: *\"manylinux_2_17_$arch\"" || {
        cat "$OUT/auditwheel-$t.txt"
        die "auditwheel show does not give manylinux_2_17_$arch for $wheel"
    }
    say "  auditwheel show: $(tr '\n' ' ' <"$OUT/auditwheel-$t.txt" | grep -o 'platform tag: *"[^"]*"')"
    "$VENV/bin/python" - "$wheel" <<'EOF' | tee -a "$REPORT"
import io, os, sys, zipfile
from elftools.elf.elffile import ELFFile
z = zipfile.ZipFile(sys.argv[1])
libs = [i for i in z.infolist() if i.filename.endswith(".so")]
if len(libs) != 1:
    sys.exit(f"error: expected one library in the wheel, found {[i.filename for i in libs]}")
lib = libs[0]
elf = ELFFile(io.BytesIO(z.read(lib)))
debug = [s.name for s in elf.iter_sections() if s.name.startswith(".debug") or s.name == ".symtab"]
print(f"  wheel {os.path.getsize(sys.argv[1]) / 1e6:.1f} MB, library {lib.filename} {lib.file_size / 1e6:.1f} MB, machine {elf['e_machine']}")
if debug:
    sys.exit(f"error: the library is not stripped: it has {', '.join(debug)} (strip in pyproject.toml)")
if lib.file_size > 30e6:
    sys.exit("error: the wheel's library is over 30 MB")
stale = [i.filename for i in z.infolist() if "__pycache__" in i.filename or i.filename.endswith(".pyc")]
if stale:
    sys.exit(f"error: the wheel packs bytecode: {stale[0]} (exclude in pyproject.toml)")
EOF
done

# ---- run them ------------------------------------------------------------------
rm -rf "$WORK"
mkdir -p "$WORK"
host=$(uname -m)
# The Python smoke test: the import and a 12-deal tournament of three agents (CI's),
# its summary printed so that two machines' runs compare.
cat >"$WORK/smoke.py" <<'EOF'
import json, sys, tresillo
rows = tresillo.tournament(["rule", "pimc:worlds=8", "random"], deals=12, seed=5, threads=2, out=sys.argv[1])
assert rows, "no rows"
print("tresillo", tresillo.__version__, "summary", json.dumps(rows, sort_keys=True))
EOF
# The commands compared byte for byte: `deal --seed 3` and a small tournament's files
# (its printed table is not compared: it ends with the measured times).
run_commands() { # NAME COMMAND...: output in $WORK/NAME/
    local d=$WORK/$1 start
    shift
    mkdir -p "$d"
    start=$(date +%s)
    "$@" --version >"$d/version.txt"
    "$@" deal --seed 3 >"$d/deal.txt"
    "$@" tournament --agents rule,pimc:worlds=8,random --deals 30 --seed 11 --threads 2 --quiet \
        --out "$d/tournament" >"$d/tournament.txt" 2>&1
    echo $(($(date +%s) - start)) >"$d/seconds"
}
compare() { # REF NAME
    local f
    for f in deal.txt tournament/deals.csv tournament/summary.csv tournament/pairs.csv; do
        cmp -s "$WORK/$1/$f" "$WORK/$2/$f" || die "$2's $f differs from $1's ($WORK/$1/$f, $WORK/$2/$f)"
    done
    say "  $2 ($(cat "$WORK/$2/version.txt"); $(cat "$WORK/$2/seconds") s): deal --seed 3 and the tournament's deals.csv, summary.csv, pairs.csv byte-identical to $1's"
}
compare_py() { # REF-ARCH ARCH
    cmp -s "$WORK/py-$1.txt" "$WORK/py-$2.txt" || die "the Python smoke test printed other results on $2 ($WORK/py-$2.txt)"
    for f in deals.csv summary.csv pairs.csv; do
        cmp -s "$WORK/py-$1-run/$f" "$WORK/py-$2-run/$f" || die "tresillo.tournament's $f differs on $2 ($WORK/py-$2-run/$f)"
    done
    say "  $2 Python tournament: its summary rows, deals.csv, summary.csv and pairs.csv byte-identical to $1's"
}
ran=""
for t in $TARGETS; do
    arch=$(arch_of "$t")
    wheel=$(ls "$OUT"/tresillo-*manylinux_2_17_"$arch".whl | head -1)
    bin=$ROOT/target/wheels-$t-cli/$t/release/tresillo
    if [ "$arch" = "$host" ]; then
        echo "== $t: native runs"
        python3 -m venv "$WORK/venv-$arch"
        "$WORK/venv-$arch/bin/pip" install -q --no-index "$wheel"
        (cd "$WORK" && /usr/bin/time -f "%e s" -o "$WORK/py-$arch.time" "$WORK/venv-$arch/bin/python" smoke.py "$WORK/py-$arch-run") >"$WORK/py-$arch.txt"
        say "$t wheel in a fresh venv: import and 12-deal tresillo.tournament ok ($(cat "$WORK/py-$arch.time"))"
        run_commands "wheel-$arch" "$WORK/venv-$arch/bin/tresillo"
        if [ "$CLI" = 1 ]; then run_commands "bin-$arch" "$bin"; fi
        ran="$ran $arch"
    elif [ "$arch" = aarch64 ]; then
        echo "== $t: under QEMU"
        command -v qemu-aarch64 >/dev/null || die "qemu-aarch64 is missing: apt-get install qemu-user"
        [ -e "$SYSROOT/lib/ld-linux-aarch64.so.1" ] ||
            die "no aarch64 glibc in $SYSROOT: apt-get install libc6-arm64-cross (or set AARCH64_SYSROOT)"
        if [ "$CLI" = 1 ]; then run_commands "bin-$arch" qemu-aarch64 -L "$SYSROOT" "$bin"; fi
        if [ -n "${AARCH64_PYTHON_ROOT:-}" ]; then
            pyroot=$(cd "$AARCH64_PYTHON_ROOT" && pwd)
            py=""
            for p in "$pyroot"/usr/bin/python3.*; do if [[ $p =~ python3\.[0-9]+$ ]]; then py=$p; fi; done
            [ -n "$py" ] || die "AARCH64_PYTHON_ROOT=$pyroot holds no usr/bin/python3.X"
            pyver=${py##*python}
            # This machine's pip installs the aarch64 wheel for that Python (no build).
            "$VENV/bin/pip" install -q --no-index --no-deps --only-binary=:all: --platform manylinux2014_aarch64 \
                --python-version "$pyver" --implementation cp --target "$WORK/site-$arch" "$wheel"
            qpy() { PYTHONPATH=$WORK/site-$arch qemu-aarch64 -L "$pyroot" "$py" "$@"; }
            (cd "$WORK" && qpy -c 'import platform, tresillo; print("import tresillo on", platform.machine(), "ok")') |
                tee -a "$REPORT"
            (cd "$WORK" && /usr/bin/time -f "%e s" -o "$WORK/py-$arch.time" env PYTHONPATH="$WORK/site-$arch" \
                qemu-aarch64 -L "$pyroot" "$py" smoke.py "$WORK/py-$arch-run") >"$WORK/py-$arch.txt"
            say "$t wheel under qemu-aarch64, Python $pyver: 12-deal tresillo.tournament ok ($(cat "$WORK/py-$arch.time"))"
            run_commands "wheel-$arch" qpy -m tresillo._cli
        else
            say "$t wheel: not run (no AARCH64_PYTHON_ROOT: docs/PYTHON.md says how to make one)"
        fi
        ran="$ran $arch"
    else
        say "$t: no way to run it here (neither this machine's architecture nor aarch64 under QEMU)"
    fi
done
# Every run against the host's wheel.
ref=wheel-$host
[ -d "$WORK/$ref" ] || die "nothing to compare with: the $host wheel was not built or run"
for arch in $ran; do
    for kind in bin wheel; do
        [ "$kind-$arch" = "$ref" ] || [ ! -d "$WORK/$kind-$arch" ] || compare "$ref" "$kind-$arch"
    done
    [ "$arch" = "$host" ] || [ ! -f "$WORK/py-$arch.txt" ] || compare_py "$host" "$arch"
done
say "ok:$(for w in "$OUT"/*.whl; do printf ' %s' "$(basename "$w")"; done)"
