"""``getevent`` and ``sendevent``: the phone's input hardware, read and written.

The devices are :mod:`androidrl.virtual.system.input.evdev`'s.

``getevent`` follows AOSP's ``system/core/toolbox/getevent.c`` (its device listing, labels,
time stamps and flags); ``sendevent`` writes an event to a device as toybox's does.
"""

from __future__ import annotations

import re

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.input.evdev import (
    ABS_LABELS,
    EV_ABS,
    EV_KEY,
    EV_LABELS,
    EV_SYN,
    KEY_LABELS,
    KEY_VALUE_LABELS,
    SYN_LABELS,
    InputDevice,
    InputEvent,
)

# getevent.c's print flags
_ERRORS, _DEVICE, _NAME, _INFO, _VERSION, _POSSIBLE, _PROPS, _HID = (1 << i for i in range(8))
_ALL_INFO = (1 << 8) - 1
GETEVENT_USAGE = (
    "Usage: getevent [-t] [-n] [-s switchmask] [-S] [-v [mask]] [-d] [-p] [-i] [-l] [-q] [-c count] [-r] [device]\n"
    "    -t: show time stamps\n    -n: don't print newlines\n    -s: print switch states for given bits\n"
    "    -S: print all switch states\n"
    "    -v: verbosity mask (errs=1, dev=2, name=4, info=8, vers=16, pos. events=32, props=64)\n"
    "    -d: show HID descriptor, if available\n    -p: show possible events (errs, dev, name, pos. events)\n"
    "    -i: show all device info and possible events\n    -l: label event types and names in plain text\n"
    "    -q: quiet (clear verbosity mask)\n    -c: print given number of events then exit\n"
    "    -r: print rate events are received\n"
)


class _Options:
    def __init__(self) -> None:
        self.time = self.labels = self.rate = False
        self.newline = "\n"
        self.flags = 0
        self.flags_set = False
        self.block: bool | None = None  # None: not decided by a flag yet
        self.count = 0
        self.switches = 0
        self.device: str | None = None


def _parse_getevent(argv: list[str]) -> _Options | Result:
    """getopt(argc, argv, "tns:Sv::dpilqc:rh"), with getevent.c's meaning of each flag."""
    options, args = _Options(), argv[1:]
    operands: list[str] = []
    while args:
        arg = args.pop(0)
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        i = 1
        while i < len(arg):
            flag = arg[i]
            i += 1
            if flag in "sc":  # an argument: the rest of this word, or the next one
                value = arg[i:] or (args.pop(0) if args else None)
                i = len(arg)
                if value is None:
                    return b"", f"{argv[0]}: invalid option -{flag}\n{GETEVENT_USAGE}".encode(), 1
                if flag == "c":
                    options.count = int(value) if value.lstrip("-").isdigit() else 0
                    options.block = True
                else:
                    options.switches = int(value, 0) if re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", value) else 0
                    options.block = False if options.block is None else options.block
            elif flag == "v":  # an optional argument, attached only
                value, i = arg[i:], len(arg)
                options.flags |= int(value, 0) if value else _DEVICE | _NAME | _INFO | _VERSION
                options.flags_set = True
            elif flag in "pi":
                options.flags |= _ALL_INFO if flag == "i" else _ERRORS | _DEVICE | _NAME | _POSSIBLE | _PROPS
                options.flags_set = True
                options.block = False if options.block is None else options.block
            elif flag in "tnSdlqr":
                options.time |= flag == "t"
                options.labels |= flag == "l"
                options.rate |= flag == "r"
                options.newline = "" if flag == "n" else options.newline
                options.flags |= _HID if flag == "d" else 0
                options.flags_set |= flag == "q"
                if flag == "S":
                    options.switches = 0xFFFF
                    options.block = False if options.block is None else options.block
            else:  # -h, or an unknown option
                message = "" if flag == "h" else f"{argv[0]}: invalid option -{flag}\n"
                return b"", (message + GETEVENT_USAGE).encode(), 1
    if len(operands) > 1:
        return b"", GETEVENT_USAGE.encode(), 1
    options.device = operands[0] if operands else None
    return options


def _event_line(event: InputEvent, labels: bool) -> str:
    """``print_event``: ``type code value``, in hex or labelled."""
    value = event.value & 0xFFFFFFFF
    if not labels:
        return f"{event.type:04x} {event.code:04x} {value:08x}"
    codes = {EV_SYN: SYN_LABELS, EV_KEY: KEY_LABELS, EV_ABS: ABS_LABELS}.get(event.type, {})
    type_label, code_label = EV_LABELS.get(event.type), codes.get(event.code)
    value_label = KEY_VALUE_LABELS.get(event.value) if event.type == EV_KEY else None
    return (
        (f"{type_label:<12.12}" if type_label else f"{event.type:04x}        ")
        + (f" {code_label:<20.20}" if code_label else f" {event.code:04x}                ")
        + (f" {value_label:<20.20}" if value_label else f" {value:08x}            ")
    )


def _possible_events(device: InputDevice, labels: bool) -> list[str]:
    """``print_possible_events``: each event type the device reports, with its codes (and axes' ranges)."""
    lines = ["  events:"]
    axes = {code: (low, high) for code, low, high in device.axes}
    for type_, label, codes, names in (
        (EV_KEY, "KEY", device.keys, KEY_LABELS),
        (EV_ABS, "ABS", tuple(axes), ABS_LABELS),
    ):
        text = ""
        for count, code in enumerate(codes):
            if count == 0:
                text += f"    {label} ({type_:04x}):"
            elif count & (0x3 if labels else 0x7) == 0 or type_ == EV_ABS:
                text += "\n               "
            name = names.get(code) if labels else None
            if name:
                text += f" {name[:20]} " + " " * (20 - len(name[:20]))
            else:
                text += f" {code:04x} " + ("                " if labels else "")
            if type_ == EV_ABS:
                low, high = axes[code]
                text += f" : value 0, min {low}, max {high}, fuzz 0, flat 0, resolution 0"
        if text:
            lines.append(text)
    return lines


def _open_device(number: int, device: InputDevice, flags: int, labels: bool) -> str:
    """``open_device``: what getevent prints about a device as it opens it."""
    bus, vendor, product, version = device.ids
    lines = []
    if flags & _DEVICE:
        lines.append(f"add device {number}: {device.path}")
    if flags & _INFO:
        lines += [f"  bus:      {bus:04x}", f"  vendor    {vendor:04x}", f"  product   {product:04x}"]
        lines.append(f"  version   {version:04x}")
    if flags & _NAME:
        lines.append(f'  name:     "{device.name}"')
    if flags & _INFO:
        lines.append('  location: ""\n  id:       ""')
    if flags & _VERSION:
        lines.append("  version:  1.0.1")
    if flags & _POSSIBLE:
        lines += _possible_events(device, labels)
    if flags & _PROPS:
        lines += ["  input props:", *(f"    {p}" for p in device.props or ("<none>",))]
    return "".join(line + "\n" for line in lines)


@command("getevent")
def _getevent(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``getevent``: the input devices, then their events as they come, until stopped (or ``-c N`` events)."""
    parsed = _parse_getevent(argv)
    if not isinstance(parsed, _Options):
        return parsed
    options, evdev = parsed, sh.phone.evdev
    if options.device is not None:
        try:
            devices = [evdev.device(options.device)]
        except FileNotFoundError:
            return fail(f"could not open {options.device}, No such file or directory\n")
        flags = options.flags if options.flags_set else options.flags | _ERRORS
    else:
        devices = list(evdev.devices)
        flags = options.flags if options.flags_set else options.flags | _ERRORS | _DEVICE | _NAME
    out = [_open_device(i, d, flags, options.labels) for i, d in enumerate(devices, 1)]
    if options.switches:
        out += ["0000" + options.newline for _ in devices]  # no device has switches
    if options.block is False:
        return ok("".join(out))
    wanted = {d.path for d in devices}
    seen, printed, last_sync = evdev.last_seq, 0, 0.0  # before the heading: what follows it is reported
    text = "".join(out)
    kept = [] if sh.stream(text.encode()) else [text]  # collected, not streamed: returned when it ends
    while not sh.interrupted:
        if not evdev.wait(seen, 0.25):
            continue
        fresh = evdev.events(seen)
        seen = fresh[-1].seq if fresh else seen
        lines = []
        for event in (e for e in fresh if e.device in wanted):
            line = f"[{int(event.time):8d}.{int(event.time * 1e6) % 1_000_000:06d}] " if options.time else ""
            line += f"{event.device}: " if options.device is None else ""
            line += _event_line(event, options.labels)
            if options.rate and event.type == EV_SYN and event.code == 0:
                if last_sync:
                    line += f" rate {int(1 / max(event.time - last_sync, 1e-6))}"
                last_sync = event.time
            lines.append(line + options.newline)
            printed += 1
            if options.count and printed >= options.count:
                break
        chunk = "".join(lines)
        if chunk and not sh.stream(chunk.encode()):
            kept.append(chunk)
        if options.count and printed >= options.count:
            break
    return "".join(kept).encode(), b"", 0


@command("sendevent")
def _sendevent(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``sendevent DEVICE TYPE CODE VALUE``: one event written to an input device."""
    if len(argv) != 5:
        return fail(
            f"sendevent: {'Need' if len(argv) < 5 else 'Max'} 4 arguments\n"
            "usage: sendevent DEVICE TYPE CODE VALUE\n\nSends a Linux input event.\n"
        )
    numbers = []
    for text, low, high in ((argv[2], 0, 0xFFFF), (argv[3], 0, 0xFFFF), (argv[4], -(2**31), 2**31 - 1)):
        try:
            number = int(text, 0)
        except ValueError:
            return fail(f"sendevent: bad number '{text}'\n")
        if not low <= number <= high:
            return fail(f"sendevent: Number {text} {'<' if number < low else '>'} {low if number < low else high}\n")
        numbers.append(number)
    try:
        sh.phone.evdev.write(argv[1], *numbers)
    except FileNotFoundError:
        return fail(f"sendevent: {argv[1]}: No such file or directory\n")
    return ok()
