#!/usr/bin/env bash
# Installs what gpusym needs on Debian 12, only what is missing: the LLVM 19
# toolchain and gdb from Debian, and a Python environment (.venv) made
# from the interpreter gdb embeds, so that the gdb extension can import it.
set -euo pipefail
cd "$(dirname "$0")/.."

# libomp-19-dev: clang-19's -fopenmp (omp.h, and libomp.so to link; its
# libomp5-19 puts the runtime, libomp.so.5, on the loader's path).
# libopenblas-dev and libfftw3-dev: the CPU libraries gpusym's hipBLAS,
# hipSPARSE and hipFFT are built over (device/host_libraries.py).
# librocprim-dev, libhiprand-dev, librocrand-dev: ROCm's header libraries the
# tests build programs with (rocPRIM 5.3, hipRAND, rocRAND; they pull in
# ROCm 5.2's HIP headers at /usr/include/hip, which gpusym's always precede).
# libthrust-dev, libcub-dev: NVIDIA's Thrust and CUB 1.17, which CUDA
# programs include from the toolkit; gpusym-nvcc compiles them for the
# simulated device (their inline PTX through the inline_ptx pass).
# spirv-tools: spirv-as, which assembles the SPIR-V modules of the tests of
# HIP on SPIR-V (tests/symbols/test_spirv.py).
packages=(clang-19 lld-19 llvm-19 llvm-19-dev libclang-rt-19-dev libomp-19-dev liblz4-1 gdb python3-venv cmake
  libopenblas-dev libfftw3-dev librocprim-dev libhiprand-dev librocrand-dev libthrust-dev libcub-dev
  spirv-tools)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  echo "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python=$(gdb -nx -batch -ex 'python import sys; print(f"{sys.base_exec_prefix}/bin/python{sys.version_info[0]}.{sys.version_info[1]}")')
if ! .venv/bin/python -c "import sys; sys.exit(sys.base_exec_prefix + '/bin/python%d.%d' % sys.version_info[:2] != '$python')" 2>/dev/null; then
  rm -rf .venv
  "$python" -m venv .venv
fi

stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -e "$stamp" ]; then
  # Editable as a path (compat): setuptools' default import hook costs
  # every gpusym command 10 ms at start.
  if ! .venv/bin/pip install -q -e '.[test]' --config-settings editable_mode=compat >.venv/pip.log 2>&1; then
    cat .venv/pip.log >&2
    exit 1
  fi
  rm -f .venv/.installed-*
  touch "$stamp"
fi

# A ROCm-shaped prefix over gpusym for existing Makefiles and CMake projects
# (docs/build.md, "Existing builds: Makefiles and CMake").
.venv/bin/gpusym rocm-prefix >/dev/null

# The consumer the tests read gpusym capture's Chrome traces with
# (tests/capture/test_trace.py): Chrome DevTools' trace engine, on Node.js.
trace_engine=build/trace-engine
if [ ! -e "$trace_engine/node_modules/@paulirish/trace_engine/package.json" ]; then
  if ! command -v npm >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "installing nodejs npm"
    $sudo apt-get update -qq
    # Debian's nodejs comes without npm; NodeSource's has it and no npm package
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null ||
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs >/dev/null
  fi
  mkdir -p "$trace_engine"
  npm install --prefix "$trace_engine" --no-audit --no-fund --silent @paulirish/trace_engine@0.0.65
fi

# Byte-compiled modules, as a non-editable install leaves them: an
# environment that does not write bytecode would otherwise compile every
# module at every start (a third of a small query's time).
.venv/bin/python -m compileall -q -j 0 symbols crafted native real_binaries text_tables device sample_apps capture gdbext gpusym >/dev/null

# The C loops of ELF reading (symbols/elf_scan.c), built now rather than by
# the first query; without them, queries read more slowly, with the same answers.
.venv/bin/python -c 'from symbols import elf_scan; elf_scan.build()'
