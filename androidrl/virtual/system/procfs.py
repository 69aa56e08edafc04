"""``/proc``: the kernel's view of the phone, read-only and made from its state when read.

``/proc/uptime`` follows the phone's clock, ``/proc/meminfo`` the processes running,
``/proc/version`` and ``/proc/cpuinfo`` the kernel and CPU ``uname`` reports (an x86_64
emulator's). The formats are Linux's (``fs/proc/meminfo.c``, ``fs/proc/uptime.c``,
``fs/proc/version.c``, ``arch/x86/kernel/cpu/proc.c``).
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.system.clock import Clock
from androidrl.virtual.system.fs import MountedFiles
from androidrl.virtual.system.processes import Processes

CPUS = 4
MEM_TOTAL_KB = 4_015_516
_FREE_KB = 2_331_120  # free at boot, before any app runs
_APP_KB = 96_000  # what a running app's process holds
KERNEL = "6.1.23-android14"
VERSION = (
    f"Linux version {KERNEL} (android-build@androidrl) (Android (10087095, based on r487747c) clang version 17.0.2, "
    "LLD 17.0.2) #1 SMP PREEMPT Tue Sep  5 00:00:00 UTC 2023\n"
)
_FLAGS = (
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ss ht "
    "syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology nonstop_tsc cpuid tsc_known_freq pni "
    "pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm "
    "abm 3dnowprefetch fsgsbase bmi1 avx2 smep bmi2 erms invpcid rdseed adx smap clflushopt xsaveopt arat"
)


def meminfo(processes: Processes) -> bytes:
    """``/proc/meminfo``: 4 GB, less what the running apps hold (``show_val_kb``: a 16-wide name, 8-wide value)."""
    apps = max(0, len(processes.table()) - 10)
    free = _FREE_KB - apps * _APP_KB
    cached = 1_120_448 + apps * 12_000
    rows = [
        ("MemTotal", MEM_TOTAL_KB), ("MemFree", free), ("MemAvailable", free + cached - 120_000),
        ("Buffers", 9_348), ("Cached", cached), ("SwapCached", 0), ("Active", 702_116 + apps * _APP_KB),
        ("Inactive", 581_584), ("Unevictable", 3_228), ("Mlocked", 3_228), ("SwapTotal", 3_011_632),
        ("SwapFree", 3_011_632), ("Dirty", 96), ("Writeback", 0), ("AnonPages", 512_840 + apps * _APP_KB),
        ("Mapped", 501_620), ("Shmem", 8_316), ("KReclaimable", 44_560), ("Slab", 118_760),
        ("SReclaimable", 44_560), ("SUnreclaim", 74_200), ("KernelStack", 17_648), ("PageTables", 29_908),
        ("CommitLimit", 5_019_388), ("Committed_AS", 28_114_164), ("VmallocTotal", 34_359_738_367),
        ("VmallocUsed", 41_328), ("VmallocChunk", 0),
    ]  # fmt: skip
    return "".join(f"{name + ':':<16}{value:>8} kB\n" for name, value in rows).encode()


def uptime(clock: Clock) -> bytes:
    """``/proc/uptime``: seconds up and seconds the CPUs idled (most of it), two decimals each."""
    up = clock.uptime()
    return f"{up:.2f} {up * CPUS * 0.93:.2f}\n".encode()


def cpuinfo() -> bytes:
    """``/proc/cpuinfo`` of a 4-core x86_64 emulator."""
    blocks = []
    for cpu in range(CPUS):
        blocks.append(
            f"processor\t: {cpu}\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
            "model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nstepping\t: 7\nmicrocode\t: 0x1\ncpu MHz\t\t: 2200.000\n"
            f"cache size\t: 39424 KB\nphysical id\t: 0\nsiblings\t: {CPUS}\ncore id\t\t: {cpu}\n"
            f"cpu cores\t: {CPUS}\napicid\t\t: {cpu}\ninitial apicid\t: {cpu}\nfpu\t\t: yes\n"
            "fpu_exception\t: yes\ncpuid level\t: 13\nwp\t\t: yes\n"
            f"flags\t\t: {_FLAGS}\nbugs\t\t: spectre_v1 spectre_v2 spec_store_bypass swapgs\n"
            "bogomips\t: 4400.00\nclflush size\t: 64\ncache_alignment\t: 64\n"
            "address sizes\t: 46 bits physical, 48 bits virtual\npower management:\n\n"
        )
    return "".join(blocks).encode()


def proc_files(clock: Clock, processes: Processes) -> Callable[[], MountedFiles]:
    """The files of ``/proc`` (for :meth:`~androidrl.virtual.system.fs.VirtualFileSystem.mount`)."""
    files: MountedFiles = {
        "meminfo": (lambda: meminfo(processes), 0o444),
        "uptime": (lambda: uptime(clock), 0o444),
        "cpuinfo": (cpuinfo, 0o444),
        "version": (lambda: VERSION.encode(), 0o444),
        "loadavg": (lambda: b"0.52 0.48 0.41 1/1024 4100\n", 0o444),
    }
    return lambda: files
