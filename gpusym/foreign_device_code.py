"""Programs whose device code the simulated device cannot run: built by
NVIDIA's nvcc, they hold PTX and SASS only.  Run as they are, their CUDA
runtime finds no GPU and every launch fails; the commands that run a
program on the simulated device say so in one line instead."""

from __future__ import annotations

from symbols.analysis import analyze
from symbols.errors import FormatError

#: The code objects' triple the simulated device runs.
_SIMULATED_TRIPLE = "x86_64-unknown-linux-gnu"
_NVIDIA_TRIPLE = "nvptx64-nvidia-cuda"
_SHOWN_KERNELS = 3


def nvidia_only(program: str) -> str | None:
    """Why `program` cannot run on the simulated device when its device code
    is NVIDIA's alone (naming its targets and kernels), else None (device
    code of gpusym's, none in the file, or a file that cannot be read)."""
    try:
        report = analyze(program, with_args=False, with_ptx=False).report
    except (OSError, FormatError):
        return None
    triples = {code_object.triple for code_object in report.code_objects}
    if _NVIDIA_TRIPLE not in triples or _SIMULATED_TRIPLE in triples:
        return None
    targets = sorted({code_object.target for code_object in report.code_objects if code_object.target})
    names = [kernel.demangled.split("(")[0] for kernel in report.kernels]
    shown = ", ".join(names[:_SHOWN_KERNELS]) + (
        f" and {len(names) - _SHOWN_KERNELS} more" if len(names) > _SHOWN_KERNELS else ""
    )
    kernels = f"kernel {shown} is" if len(names) == 1 else f"kernels {shown} are" if names else "kernels are"
    return (
        f"{program}: its {kernels} NVIDIA GPU code only ({', '.join(targets)}), which the simulated device "
        "cannot run: rebuild it with gpusym-nvcc"
    )
