"""How tt-metal's kernel JIT compiles one kernel, reproduced with -fsyntax-only (metal-conformance.md): the
generated files of its build folder, the per-core wrapper (brisck.cc / ncrisck.cc / trisck.cc), the defines,
include paths and -Werror flags of libtt_metal.so, and the riscv32 type model."""

from __future__ import annotations

import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# tt::DataFormat values (tt_metal/hw/inc/internal/tt-1xx/wormhole/wormhole_b0_defines/tensix_types.h).
# tt::DataFormat codes (tt_metal/api/tt-metalium/tt_backend_api_types.hpp).
FORMAT_CODES = {"Float32": 0, "Float16": 1, "Float16_b": 5, "Tf32": 4, "Int32": 8, "UInt32": 24, "UInt16": 9,
                "UInt8": 30, "Bfp8_b": 6, "Bfp4_b": 7, "Bfp2_b": 15, "Invalid": 255}
INTEGER_CODES = {FORMAT_CODES[f] for f in ("Int32", "UInt32", "UInt16", "UInt8")}
BFP_CODES = {FORMAT_CODES[f] for f in ("Bfp8_b", "Bfp4_b", "Bfp2_b")}
MATH_FIDELITY = {"LoFi": 0, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}
MAX_CBS = 32

FLAGS = ("-std=c++17", "-ffast-math", "-fno-exceptions", "-fno-rtti", "-Wall", "-Werror",
         "-Wno-error=deprecated-declarations", "-Wno-error=multistatement-macros", "-Wno-error=parentheses",
         "-Wno-error=unused-but-set-variable", "-Wno-unused-variable", "-Wno-unused-function",
         # clang: GCC's -Wall has -Wsign-compare, clang's does not; flags only GCC knows are not errors.
         "-Wsign-compare", "-Wno-unknown-warning-option", "-Wno-unknown-pragmas", "-Wno-unused-command-line-argument",
         # the riscv32/newlib type model of tt-metal's toolchain; one header uses std::size_t without <cstddef>
         "-U__UINT32_TYPE__", "-D__UINT32_TYPE__=long unsigned int", "-U__INT32_TYPE__", "-D__INT32_TYPE__=long",
         "-ffreestanding", "-include", "cstddef",
         # attributes of tt-metal's own RISC-V GCC (rvtt_l1_ptr, ...) that clang does not know
         "-Wno-unknown-attributes")

# What tt-metal's HAL adds to a Tensix kernel's build per architecture (tt_metal/llrt/hal/tt-1xx/wormhole/wh_hal.cpp
# and blackhole/bh_hal.cpp, HalJitBuildQuery*::defines and ::includes): the architecture define and the include
# paths of ckernels/<arch>, hw/inc/internal/tt-1xx/<family>, tt-llk's tt_llk_<arch> (tt_metal/tt-llk in the wheel,
# tt_metal/third_party/tt_llk in 2025 wheels, which also kept hw/inc/tt-1xx and include/). Paths a wheel lacks are
# dropped (Blackhole's <family>_defines folder is gone from ttnn 0.81.1).
ARCH_DEFINES = {"wormhole_b0": "ARCH_WORMHOLE", "blackhole": "ARCH_BLACKHOLE"}
ARCH_FAMILIES = {"wormhole_b0": ("wormhole", "wormhole_b0_defines"), "blackhole": ("blackhole", "blackhole_defines")}


def includes(arch: str) -> tuple[str, ...]:
    """The include folders (relative to the wheel's root) of a Tensix kernel for tt-metal architecture `arch`."""
    family, defines = ARCH_FAMILIES[arch]
    return ("", "tt_metal", "tt_metal/hw/inc", "tt_metal/hostdevcommon/api", "tt_metal/api",
            f"tt_metal/hw/ckernels/{arch}/metal/common", f"tt_metal/hw/ckernels/{arch}/metal/llk_io",
            f"tt_metal/hw/ckernels/{arch}/metal/llk_api", f"tt_metal/hw/ckernels/{arch}/metal/llk_api/llk_sfpu",
            "tt_metal/hw/inc/internal", "tt_metal/hw/inc/internal/tt-1xx", f"tt_metal/hw/inc/internal/tt-1xx/{family}",
            f"tt_metal/hw/inc/internal/tt-1xx/{family}/{defines}", f"tt_metal/hw/inc/internal/tt-1xx/{family}/noc",
            f"tt_metal/tt-llk/tt_llk_{arch}/common/inc", f"tt_metal/tt-llk/tt_llk_{arch}/llk_lib",
            "tt_metal/tt-llk/common", "tt_metal/tt-llk/tools/include",
            # older wheels (2025): compute_kernel_api/ and dataflow_api.h live here
            "tt_metal/include", "tt_metal/hw/inc/tt-1xx", f"tt_metal/hw/inc/tt-1xx/{family}",
            f"tt_metal/hw/inc/tt-1xx/{family}/{defines}", f"tt_metal/hw/inc/tt-1xx/{family}/noc",
            f"tt_metal/third_party/tt_llk/tt_llk_{arch}/common/inc",
            f"tt_metal/third_party/tt_llk/tt_llk_{arch}/llk_lib",
            "tt_metal/third_party/tt_llk/common")


def has_headers(headers: Path, arch: str) -> bool:
    """The wheel ships the device headers of `arch` (its ckernels folder)."""
    return (headers / "tt_metal" / "hw" / "ckernels" / arch).is_dir()


@dataclass(frozen=True)
class Target:
    """The device a kernel is built for: its architecture and the bank counts the JIT defines."""
    name: str
    arch: str
    dram_banks: int
    l1_banks: int


def target_of(plan: dict[str, Any]) -> Target:
    """The device record (specs/backends/tenstorrent.yaml, device.devices) of the device the plan names; its L1
    banks are its compute grid's cores (one bank per worker core of the allocator's grid)."""
    from tilelang.tenstorrent import device

    name = plan["device"]["name"]
    record = device.DEVICES[name]
    return Target(name, record.arch, record.dram_banks, record.core_grid[0] * record.core_grid[1])


def device_defines(target: Target) -> dict[str, str]:
    """The device defines of tt-metal's JIT (tt_metal/jit_build/build.cpp: the architecture's, the bank counts and
    LOG_BASE_2_OF_NUM_*_BANKS or IS_NOT_POW2_NUM_*_BANKS); the PCIe core and dispatch address are any integers for
    a syntax check."""
    defines = {ARCH_DEFINES[target.arch]: "1", "TENSIX_FIRMWARE": "1", "LOCAL_MEM_EN": "0", "KERNEL_BUILD": "1",
               "NUM_DRAM_BANKS": str(target.dram_banks), "NUM_L1_BANKS": str(target.l1_banks)}
    for kind, count in (("DRAM", target.dram_banks), ("L1", target.l1_banks)):
        if count & (count - 1) == 0:
            defines[f"LOG_BASE_2_OF_NUM_{kind}_BANKS"] = str(count.bit_length() - 1)
        else:
            defines[f"IS_NOT_POW2_NUM_{kind}_BANKS"] = "1"
    return {**defines, "PCIE_NOC_X": "0", "PCIE_NOC_Y": "3", "DISPATCH_MESSAGE_ADDR": "0",
            "PROGRAMMABLE_CORE_TYPE": "0"}


@dataclass(frozen=True)
class Core:
    """One RISC-V core a kernel is compiled for."""
    name: str        # BRISC, NCRISC, TRISC0, TRISC1, TRISC2
    wrapper: str     # the JIT's per-core translation unit
    defines: tuple[tuple[str, str], ...]
    needs_sfpi: bool = False


DATA_MOVEMENT = {
    "RISCV_0": Core("BRISC", "brisck.cc", (("COMPILE_FOR_BRISC", "1"), ("PROCESSOR_INDEX", "0"),
                                           ("NOC_INDEX", "0"), ("NOC_MODE", "0"))),
    "RISCV_1": Core("NCRISC", "ncrisck.cc", (("COMPILE_FOR_NCRISC", "1"), ("PROCESSOR_INDEX", "1"),
                                            ("NOC_INDEX", "1"), ("NOC_MODE", "0"))),
}
TRISCS = tuple(
    Core(f"TRISC{i}", "trisck.cc", (("COMPILE_FOR_TRISC", str(i)), (f"UCK_CHLKC_{part.upper()}", "1"),
                                    ("NAMESPACE", f"chlkc_{part}"), ("PROCESSOR_INDEX", str(2 + i))),
         needs_sfpi=i < 2)
    for i, part in enumerate(("unpack", "math", "pack")))
TRISC_DEFINE = {"TRISC0": "TRISC_UNPACK", "TRISC1": "TRISC_MATH", "TRISC2": "TRISC_PACK"}


def compile_time_args(plan: dict[str, Any], role: str) -> list[int]:
    """The kernel's compile-time arguments as the host appends them: per tensor of an interleaved
    TensorAccessorArgs, [args-config (IsDram = 2), aligned page size]; of a sharded L1 one (tensor `l1_shard`,
    ttnn 0.81's tensor_accessor_args.h), [Sharded = 1, page size aligned to L1's 16 B, rank 2, banks, tensor pages
    (rows, cols), shard pages (rows, cols)] and a word per two banks' NoC coordinates (0 here: only a device knows
    them, as the ttnn dry run passes 0)."""
    tensors = {t["name"]: t for t in plan["tensors"]}
    args: list[int] = []
    for entry in plan["kernels"][role]["compile_time_args"]:
        t = tensors[entry["tensor"]]
        if "l1_shard" not in t:
            args += [2, t["page_bytes"]]
            continue
        (rows, cols), (blocks_x, blocks_y) = t["l1_shard"], plan["grid_blocks"][:2]
        banks = blocks_x * blocks_y
        args += [1, (t["page_bytes"] + 15) // 16 * 16, 2, banks, rows * blocks_y, cols * blocks_x, rows, cols]
        args += [0] * ((banks + 1) // 2)
    return args


def _formats(plan: dict[str, Any]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Per-CB unpack src/dst and pack src/dst format codes (unused CBs Invalid), as the JIT derives them."""
    fp32 = bool(plan["kernels"]["compute"].get("fp32_dest_acc"))
    src = [FORMAT_CODES["Invalid"]] * MAX_CBS
    for cb in plan["cbs"]:
        src[cb["index"]] = FORMAT_CODES[cb["data_format"]]
    # A block-float CB unpacks to and packs from Bfp8_b, fp32 accumulation or not (jit_build/data_format.cpp:
    # get_single_unpack_dst_format, get_single_pack_src_format without bfp8_pack_precise).
    unpack_dst = [FORMAT_CODES["Bfp8_b"] if f in BFP_CODES else
                  f if f != FORMAT_CODES["Float32"] else FORMAT_CODES["Tf32" if fp32 else "Float16_b"] for f in src]
    # An integer format packs from DST as itself (ckernels' data_format_derive.h infer_pack_src_format).
    pack_src = [FORMAT_CODES["Bfp8_b"] if f in BFP_CODES else
                f if f == FORMAT_CODES["Invalid"] or f in INTEGER_CODES else FORMAT_CODES["Float32"] if fp32 else
                (FORMAT_CODES["Float16_b"] if f == FORMAT_CODES["Float32"] else f) for f in src]
    return src, unpack_dst, pack_src, list(src)


def _array(ctype: str, name: str, values: list[int]) -> str:
    return f"constexpr {ctype} {name}[{MAX_CBS}] = {{{', '.join(map(str, values))}}};\n"


def descriptor_files(plan: dict[str, Any]) -> dict[str, str]:
    """The JIT's generated descriptors: math fidelity and modes, per-CB data formats and tile geometry (32x32,
    4 faces). Current wheels read one chlkc_descriptors.h, 2025 wheels one file per item; both are written."""
    compute = plan["kernels"]["compute"]
    unpack_src, unpack_dst, pack_src, pack_dst = _formats(plan)
    used = [f != FORMAT_CODES["Invalid"] for f in unpack_src]
    sizes = [next((cb["page_bytes"] for cb in plan["cbs"] if cb["index"] == i), 0) for i in range(MAX_CBS)]

    def geometry(unit: str) -> str:
        return _array("uint16_t", f"{unit}_tile_size", sizes) + "".join(
            _array("uint8_t", f"{unit}_{name}", [value if u else 0 for u in used])
            for name, value in (("tile_num_faces", 4), ("partial_face", 0), ("tile_face_r_dim", 16),
                                ("narrow_tile", 0), ("tile_r_dim", 32), ("tile_c_dim", 32), ("num_faces_r_dim", 2),
                                ("num_faces_c_dim", 2)))

    fidelity = MATH_FIDELITY[compute.get("math_fidelity", "HiFi4")]
    accum = "true" if compute.get("fp32_dest_acc") else "false"
    parts = {
        "unpack_data_format": _array("std::int32_t", "unpack_src_format", unpack_src)
        + _array("std::int32_t", "unpack_dst_format", unpack_dst),
        "pack_data_format": _array("unsigned char", "pack_src_format", pack_src)
        + _array("unsigned char", "pack_dst_format", pack_dst),
        "unpack_tile_dims": geometry("unpack"), "pack_tile_dims": geometry("pack"),
        "math_fidelity": f"constexpr std::int32_t MATH_FIDELITY = {fidelity};\n",
        "math_approx_mode": "constexpr bool APPROX = false;\n",
        "dst_accum_mode": f"constexpr bool DST_ACCUM_MODE = {accum};\n",
        "dst_sync_mode": "#define DST_SYNC_MODE DstSync::SyncHalf\n",
    }
    files = {f"chlkc_{name}.h": "#pragma once\n#include <cstdint>\n" + text for name, text in parts.items()}
    files["chlkc_descriptors.h"] = (
        "#pragma once\n#include <cstdint>\n#if defined(UCK_CHLKC_MATH)\n#include \"llk_defs.h\"\n"
        f"constexpr ckernel::MathFidelity MATH_FIDELITY = static_cast<ckernel::MathFidelity>({fidelity});\n"
        "constexpr bool APPROX = false;\n#endif\n" + parts["unpack_data_format"] + parts["pack_data_format"]
        + parts["unpack_tile_dims"] + parts["pack_tile_dims"] + parts["dst_accum_mode"] + parts["dst_sync_mode"]
        + "constexpr bool UnpackToDestEn = false;\n")
    return files


def descriptors(plan: dict[str, Any]) -> str:
    """All descriptor texts of a compute kernel, as one key for deduplication."""
    return "".join(text for _, text in sorted(descriptor_files(plan).items()))


def write_shared_files(folder: Path, plan: dict[str, Any]) -> None:
    """The generated files that do not depend on the kernel's text or role: descriptors, empty headers."""
    folder.mkdir(parents=True, exist_ok=True)
    for empty in ("named_args_generated.h", "kernel_args_generated.h", "kernel_bindings_generated.h"):
        (folder / empty).write_text("#pragma once\n")
    for name, text in descriptor_files(plan).items():  # the JIT writes them for every kernel
        (folder / name).write_text(text)


def write_build_folder(folder: Path, role: str, source: str, plan: dict[str, Any], shared: bool = False) -> None:
    """The files the JIT generates next to a kernel: the kernel, its include wrapper(s), defines, descriptors
    (with `shared`, the descriptors and empty headers are left to a folder of their own: write_shared_files)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kernel.cpp").write_text(source)
    # The kernel config's defines (the plan's, e.g. REDUCE_OP for the 2025 reduce.h), as the JIT generates them.
    kernel_defines = plan["kernels"][role].get("defines", {})
    (folder / "defines_generated.h").write_text("".join(f"#define {k} {v}\n" for k, v in kernel_defines.items()))
    if role == "compute":
        for part in ("unpack", "math", "pack", "isolate_sfpu"):
            define = f"TRISC_{part.upper()}"
            (folder / f"chlkc_{part}.cpp").write_text(f'#define {define}\n#include "defines_generated.h"\n'
                                                      '#include "kernel.cpp"\n')
    else:
        (folder / "kernel_includes.hpp").write_text('#include "kernel.cpp"\n')
    if not shared:
        write_shared_files(folder, plan)


def frontend(compiler: list[str], scratch: Path) -> list[str]:
    """The clang front-end (-cc1) command the driver runs for a riscv32 syntax check with FLAGS, without its
    input file. The zig driver caches object files and cannot run -fsyntax-only itself, so its front-end
    command (printed by `-###`) is run directly; computing it once saves a driver run per compile."""
    probe = scratch / "probe.cpp"
    probe.write_text("int probe;\n")
    # `-c`: compile only, so that the driver does not first build a C library to link against.
    cmd = [*compiler, "-target", "riscv32-linux-musl", *FLAGS, "-c", "-fsyntax-only", str(probe), "-###"]
    plan = subprocess.run(cmd, capture_output=True, text=True)
    front = [line for line in plan.stderr.splitlines() if '"-cc1"' in line and line.rstrip().endswith(f'"{probe}"')]
    if len(front) != 1:
        raise RuntimeError(f"cannot read the clang front-end command of {compiler[0]}:\n{plan.stderr[-2000:]}")
    args = shlex.split(front[0])
    if args[-1] != str(probe):
        raise RuntimeError(f"unexpected front-end command of {compiler[0]}: {front[0][-300:]}")
    return args[:-1]


def command(frontend_args: list[str], headers: Path, folder: Path, core: Core, ct_args: list[int],
            sfpi: Path | None, target: Target, shared: Path | None = None) -> list[str]:
    """The syntax-check command of one kernel for one core of `target` (`shared`: the folder of
    write_shared_files, when not `folder` itself)."""
    wrapper = headers / "tt_metal" / "hw" / "firmware" / "src" / "tt-1xx" / core.wrapper
    defines = {**device_defines(target), **dict(core.defines),
               "KERNEL_COMPILE_TIME_ARGS": ",".join(map(str, ct_args))}
    # The wheel's headers are system headers here: clang warns about things in them that tt-metal's GCC does not
    # (empty loop bodies, ...), while -Werror applies in full to the kernel and its generated files.
    system = [headers / d for d in includes(target.arch) if (headers / d).is_dir()]
    system += [sfpi] if sfpi is not None else []
    return [*frontend_args, *(f"-D{k}={v}" for k, v in defines.items()), f"-I{folder}",
            *([f"-I{shared}"] if shared is not None else []), *(f"-isystem{d}" for d in system), str(wrapper)]


SFPI_HEADERS = ("sfpi.h", "lltt.h", "tensix_builtins.def")


def run(cmd: list[str]) -> tuple[bool, str]:
    """Run one syntax check: (passed, diagnostics)."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.returncode == 0, done.stderr.strip()


def sfpi_release(headers: Path) -> str | None:
    """The SFPI release the wheel's tt-metal pins (`tt_metal/sfpi-version`, `sfpi_version='...'`): the wheel ships
    the pin and `download_sfpi.py`, which fetches that release from tenstorrent/sfpi on GitHub, not the headers."""
    pin = headers / "tt_metal" / "sfpi-version"
    found = re.search(r"^sfpi_version='([^']+)'", pin.read_text(), re.M) if pin.is_file() else None
    return found.group(1) if found else None


def missing_sfpi(diagnostics: str) -> str | None:
    """The SFPI header whose absence stopped the compile, if that is what stopped it."""
    for name in SFPI_HEADERS:
        if f"'{name}' file not found" in diagnostics:
            return name
    return None
