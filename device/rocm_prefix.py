"""A ROCm-shaped installation prefix over gpusym, for builds that look for
ROCm where it usually lives: Makefiles (``make ROCM_INSTALL_DIR=PREFIX``,
``g++ ... -LPREFIX/lib -lamdhip64``) and CMake projects
(``enable_language(HIP)``, ``find_package(hip)``, through
``-DCMAKE_TOOLCHAIN_FILE=PREFIX/gpusym-toolchain.cmake``).

Its layout is ROCm's; every entry leads to gpusym:

- ``bin/hipcc`` is ``gpusym-hipcc``; ``llvm/bin/clang++`` and ``clang`` are
  ``gpusym build`` (clang's defaults: CMake requires a compiler that is not
  named hipcc), the rest of ``llvm/bin`` is LLVM 19's; ``bin/hipconfig`` and ``bin/rocm_agent_enumerator`` answer
  as ROCm's do, for the simulated device;
- ``include`` is the simulated runtime's headers; ``lib/libamdhip64.so`` is
  the simulated runtime;
- ``lib/cmake/hip`` and ``lib/cmake/hip-lang`` are HIP's CMake packages,
  with ROCm's target names (``hip::host``, ``hip::device``,
  ``hip::amdhip64``, ``hip-lang::device``);
- ``lib/libhipblas.so`` and the other libraries of host_libraries.py, with
  their CMake packages (``find_package(hipblas)``: ``roc::hipblas``);
- ``cuda`` is a CUDA toolkit over gpusym-nvcc (cuda_toolkit_prefix.py).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from device import cuda_toolkit_prefix, host_libraries, runtime_library
from device.prefix_files import replace_with_link, write_script
from native import toolchain

#: The target the simulated device reports (``gcnArchName``).
DEVICE_ARCH = "gfx90a"
TOOLCHAIN_FILE = "gpusym-toolchain.cmake"
#: ``llvm/bin`` entries that are gpusym's driver; the other LLVM tools are
#: LLVM 19's own.
_DRIVERS = ("clang++", "clang")


class PrefixError(Exception):
    """The prefix cannot be written; the message says why."""


def default_prefix() -> Path:
    """``rocm`` inside the Python environment gpusym is installed in."""
    return Path(sys.prefix) / "rocm"


def _command(name: str) -> Path:
    """A console script of this installation (``gpusym``, ``gpusym-hipcc``)."""
    path = Path(sys.executable).parent / name
    if not path.exists():
        raise PrefixError(f"{path} is missing: install gpusym (make setup) before writing a prefix")
    return path


def _hipconfig(prefix: Path) -> str:
    quoted = shlex.quote(str(prefix))
    clang_path = shlex.quote(str(prefix / "llvm" / "bin"))
    cpp_config = shlex.quote(f"-D__HIP_PLATFORM_AMD__= -I{prefix / 'include'}")
    return f"""\
newline=""
answer() {{ printf '%s%b' "$1" "$newline"; }}
for arg in "$@"; do [ "$arg" = --newline ] || [ "$arg" = -n ] && newline='\\n'; done
for arg in "$@"; do
  case "$arg" in
    --newline|-n) ;;
    --path|-p|--rocmpath|-R) answer {quoted}; exit 0 ;;
    --hipclangpath|-l) answer {clang_path}; exit 0 ;;
    --platform|-P) answer amd; exit 0 ;;
    --compiler|-c) answer clang; exit 0 ;;
    --runtime|-r) answer rocclr; exit 0 ;;
    --version|-v) answer {runtime_library.HIP_VERSION}-gpusym; exit 0 ;;
    --cpp_config|--cxx_config|-C) answer {cpp_config}; exit 0 ;;
    --check) echo "HIP for the gpusym simulated device at "{quoted}": ok"; exit 0 ;;
    --full|-f) break ;;
    --help|-h)
      echo "usage: hipconfig [--path|--rocmpath|--hipclangpath|--platform|--compiler|--runtime|--version|--cpp_config|--check|--full] [--newline]"
      echo "Answers as ROCm's hipconfig does, for the gpusym simulated device."
      exit 0 ;;
    *) echo "hipconfig: unknown option $arg (hipconfig --help lists them)" >&2; exit 2 ;;
  esac
done
echo "HIP version: {runtime_library.HIP_VERSION}-gpusym"
echo "HIP_PATH: "{quoted}
echo "HIP_PLATFORM: amd (the gpusym simulated device, {DEVICE_ARCH})"
echo "HIP_COMPILER: clang (gpusym build over clang-19)"
echo "HIP_RUNTIME: rocclr"
"""  # noqa: E501 (hipconfig's usage line, as ROCm's prints it)


def _hip_config() -> str:
    """``lib/cmake/hip/hip-config.cmake``: ``find_package(hip)``."""
    return f"""\
# HIP's CMake package (find_package(hip) / find_package(HIP)) for the gpusym
# simulated device, written by gpusym rocm-prefix. Targets are ROCm's:
# hip::amdhip64 (the runtime), hip::host (headers and runtime, any C++
# compiler), hip::device (HIP compilation through this prefix's clang++).
get_filename_component(_gpusym_rocm "${{CMAKE_CURRENT_LIST_DIR}}/../../.." ABSOLUTE)
set(GPU_TARGETS "{DEVICE_ARCH}" CACHE STRING "AMDGPU targets to compile for")
set(AMDGPU_TARGETS "${{GPU_TARGETS}}" CACHE STRING "AMDGPU targets to compile for (older name)")
if(NOT TARGET hip::amdhip64)
  add_library(hip::amdhip64 SHARED IMPORTED)
  set_target_properties(hip::amdhip64 PROPERTIES
    IMPORTED_LOCATION "${{_gpusym_rocm}}/lib/libamdhip64.so"
    INTERFACE_INCLUDE_DIRECTORIES "${{_gpusym_rocm}}/include"
    INTERFACE_COMPILE_DEFINITIONS "__HIP_PLATFORM_AMD__=1")
  add_library(hip::host INTERFACE IMPORTED)
  set_target_properties(hip::host PROPERTIES INTERFACE_LINK_LIBRARIES hip::amdhip64)
  set(_gpusym_archs "")
  foreach(_gpusym_arch IN LISTS GPU_TARGETS)
    list(APPEND _gpusym_archs "$<$<COMPILE_LANGUAGE:CXX>:--offload-arch=${{_gpusym_arch}}>")
  endforeach()
  add_library(hip::device INTERFACE IMPORTED)
  set_target_properties(hip::device PROPERTIES
    INTERFACE_LINK_LIBRARIES hip::host
    INTERFACE_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CXX>:SHELL:-x hip>;${{_gpusym_archs}}")
endif()
set(hip_FOUND TRUE)
set(HIP_FOUND TRUE)
set(hip_VERSION "{runtime_library.HIP_VERSION}")
set(HIP_VERSION "{runtime_library.HIP_VERSION}")
set(HIP_PLATFORM "amd")
set(HIP_COMPILER "clang")
set(HIP_RUNTIME "rocclr")
set(HIP_ROOT_DIR "${{_gpusym_rocm}}")
set(ROCM_PATH "${{_gpusym_rocm}}")
set(HIP_CLANG_ROOT "${{_gpusym_rocm}}/llvm")
if(NOT HIP_CXX_COMPILER)
  set(HIP_CXX_COMPILER "${{CMAKE_CXX_COMPILER}}")
endif()
set(hip_INCLUDE_DIRS "${{_gpusym_rocm}}/include")
set(HIP_INCLUDE_DIRS "${{_gpusym_rocm}}/include")
set(hip_LIBRARIES hip::host)
set(HIP_LIBRARIES hip::host)
"""


def _hip_lang_config() -> str:
    """``lib/cmake/hip-lang/hip-lang-config.cmake``: what CMake's HIP
    language loads for its runtime."""
    return """\
# The runtime CMake's HIP language links (enable_language(HIP)), for the
# gpusym simulated device; written by gpusym rocm-prefix.
get_filename_component(_gpusym_rocm "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET hip-lang::amdhip64)
  add_library(hip-lang::amdhip64 SHARED IMPORTED)
  set_target_properties(hip-lang::amdhip64 PROPERTIES
    IMPORTED_LOCATION "${_gpusym_rocm}/lib/libamdhip64.so"
    INTERFACE_INCLUDE_DIRECTORIES "${_gpusym_rocm}/include"
    INTERFACE_COMPILE_DEFINITIONS "__HIP_PLATFORM_AMD__=1")
  add_library(hip-lang::device INTERFACE IMPORTED)
  set_target_properties(hip-lang::device PROPERTIES INTERFACE_LINK_LIBRARIES hip-lang::amdhip64)
endif()
set(_CMAKE_HIP_DEVICE_RUNTIME_TARGET "hip-lang::device")
set(hip-lang_FOUND TRUE)
"""


def _version_file(version: str) -> str:
    return f"""\
set(PACKAGE_VERSION "{version}")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
"""


def _library_config(library: host_libraries.HostLibrary) -> str:
    """``lib/cmake/NAME/NAME-config.cmake`` of one of gpusym's libraries
    (host_libraries.py), with ROCm's target name."""
    return f"""\
# {library.name}'s CMake package for the gpusym simulated device, written by
# gpusym rocm-prefix: the target {library.cmake_target}, as ROCm names it.
get_filename_component(_gpusym_rocm "${{CMAKE_CURRENT_LIST_DIR}}/../../.." ABSOLUTE)
if(NOT TARGET {library.cmake_target})
  add_library({library.cmake_target} SHARED IMPORTED)
  set_target_properties({library.cmake_target} PROPERTIES
    IMPORTED_LOCATION "${{_gpusym_rocm}}/lib/lib{library.name}.so"
    INTERFACE_INCLUDE_DIRECTORIES "${{_gpusym_rocm}}/include"
    INTERFACE_COMPILE_DEFINITIONS "__HIP_PLATFORM_AMD__=1")
endif()
set({library.name}_FOUND TRUE)
set({library.name}_INCLUDE_DIRS "${{_gpusym_rocm}}/include")
set({library.name}_LIBRARIES {library.cmake_target})
"""


#: The toolchain file: one setting for CMake.
_TOOLCHAIN = """\
# cmake -DCMAKE_TOOLCHAIN_FILE=<this file>: HIP projects build for the gpusym
# simulated device. HIP sources compile with this prefix's clang++ (gpusym
# build); find_package(hip) and enable_language(HIP) find this prefix.
get_filename_component(_gpusym_rocm "${CMAKE_CURRENT_LIST_DIR}" ABSOLUTE)
set(CMAKE_HIP_COMPILER "${_gpusym_rocm}/llvm/bin/clang++" CACHE FILEPATH "HIP compiler")
list(APPEND CMAKE_PREFIX_PATH "${_gpusym_rocm}")
set(ROCM_PATH "${_gpusym_rocm}" CACHE PATH "ROCm installation")
set(ROCM_ROOT "${_gpusym_rocm}" CACHE PATH "ROCm installation")
set(HIP_PATH "${_gpusym_rocm}" CACHE PATH "HIP installation")
# CUDA projects (enable_language(CUDA), find_package(CUDAToolkit)) build with
# the prefix's CUDA toolkit, whose nvcc is gpusym-nvcc.
set(CMAKE_CUDA_COMPILER "${_gpusym_rocm}/cuda/bin/nvcc" CACHE FILEPATH "CUDA compiler")
set(CUDAToolkit_ROOT "${_gpusym_rocm}/cuda" CACHE PATH "CUDA toolkit")
"""


def write(prefix: Path) -> Path:
    """Writes (or refreshes) the prefix at `prefix`; returns its absolute path.
    Raises PrefixError, runtime_library.RuntimeBuildError, OSError."""
    prefix = prefix.expanduser().absolute()
    gpusym, hipcc = _command("gpusym"), _command("gpusym-hipcc")
    runtime = runtime_library.runtime_path()
    quoted = shlex.quote(str(prefix))
    write_script(prefix / "bin" / "hipcc", f'exec {shlex.quote(str(hipcc))} "$@"\n')
    write_script(prefix / "bin" / "hipconfig", _hipconfig(prefix))
    write_script(
        prefix / "bin" / "rocm_agent_enumerator",
        f'[ "$1 $2" = "-t GPU" ] || echo gfx000\necho {DEVICE_ARCH}\n',
    )
    llvm_bin = prefix / "llvm" / "bin"
    for tool in toolchain.LLVM_BIN.iterdir():
        if tool.name not in _DRIVERS:
            replace_with_link(llvm_bin / tool.name, tool)
    for name in _DRIVERS:
        write_script(llvm_bin / name, f'exec {shlex.quote(str(gpusym))} build --rocm-path={quoted} "$@"\n')
    replace_with_link(prefix / "include", runtime_library.INCLUDE_DIR)
    replace_with_link(prefix / "lib" / "libamdhip64.so", runtime)
    cmake = prefix / "lib" / "cmake"
    for package, config in (("hip", _hip_config()), ("hip-lang", _hip_lang_config())):
        (cmake / package).mkdir(parents=True, exist_ok=True)
        (cmake / package / f"{package}-config.cmake").write_text(config)
        (cmake / package / f"{package}-config-version.cmake").write_text(_version_file(runtime_library.HIP_VERSION))
    for library in host_libraries.provided():
        replace_with_link(prefix / "lib" / f"lib{library.name}.so", host_libraries.library_path(library))
        (cmake / library.name).mkdir(parents=True, exist_ok=True)
        (cmake / library.name / f"{library.name}-config.cmake").write_text(_library_config(library))
        (cmake / library.name / f"{library.name}-config-version.cmake").write_text(_version_file(library.version))
    cuda_toolkit_prefix.write(prefix / "cuda", _command("gpusym-nvcc"), runtime)
    (prefix / TOOLCHAIN_FILE).write_text(_TOOLCHAIN)
    return prefix
