"""What an OPEN of a service name starts (:func:`route`), and the small services.

``abb_exec:`` (``adb install``), ``framebuffer:``, ``reboot:``, ``root:``/``unroot:`` and
``reverse:``; the shell services are in :mod:`~androidrl.virtual.adbd.shell`, file transfer
in :mod:`~androidrl.virtual.adbd.sync`.
"""

from __future__ import annotations

import asyncio
import functools
import shlex
import struct
from collections.abc import Awaitable, Callable

from androidrl.virtual.adbd.daemon import Adbd
from androidrl.virtual.adbd.shell import exec_service, shell_service
from androidrl.virtual.adbd.sync import sync_service
from androidrl.virtual.adbd.transport import Connection, Service, Stream, StreamClosed
from androidrl.virtual.shell.stdin import Stdin


def route(adbd: Adbd, name: str) -> Service | None:
    """The service that answers an OPEN of ``name``, or None to refuse it."""
    kind, sep, arg = name.partition(":")
    if not sep:
        return None
    base, *options = kind.split(",")
    if base == "shell":
        return functools.partial(shell_service, adbd, options, arg)
    handlers: dict[str, Callable[[Adbd, Stream, str], Awaitable[None]]] = {
        "exec": exec_service,
        "sync": sync_service,
        "abb_exec": _abb_exec_service,
        "framebuffer": _framebuffer_service,
        "reboot": _reboot_service,
        "root": _root_service,
        "unroot": _unroot_service,
        "reverse": _reverse_service,
    }
    handler = handlers.get(kind)
    return functools.partial(handler, adbd, arg=arg) if handler else None


async def _abb_exec_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    r"""``abb_exec:SERVICE\0ARG...``: a binder shell command (``cmd SERVICE ARG...``).

    With ``-S SIZE`` (``adb install``), the next SIZE bytes of the stream are the command's
    stdin, handed over as they arrive. What the command leaves unread (``pm install`` refusing
    an APK too big for the phone) is read and dropped, so the client gets to read the answer.
    """
    args = arg.split("\0")
    stdin: bytes | Stdin = b""
    sizes = [value for flag, value in zip(args, args[1:]) if flag == "-S"]
    feeder = None
    if sizes:
        size = sizes[-1]  # adb puts its own -S last, to override the user's
        if not size.isdigit():
            await stream.write(f"Error: invalid size {size!r} after -S\n".encode())
            return
        stdin = Stdin()
        feeder = asyncio.create_task(_feed_exactly(stream, stdin, int(size)))
    command = shlex.join(["cmd", *args])
    try:
        result = await adbd.run_shell(command, stdin=stdin, cancel=stream.cancel)
        if feeder is not None:
            stdin.close()  # the rest of the SIZE bytes, if any, is dropped as it comes
            await feeder
    finally:
        if feeder is not None:
            feeder.cancel()
    await stream.write(result.stdout + result.stderr)


async def _feed_exactly(stream: Stream, stdin: Stdin, size: int) -> None:
    """The next ``size`` bytes of the host's data into ``stdin`` (dropped once it is closed), then close it."""
    try:
        while size > 0 and (data := await stream.read()) is not None:
            data = data[:size]  # (a host's data beyond SIZE is not the command's)
            size -= len(data)
            stdin.feed(data)
    except StreamClosed:
        pass
    finally:
        stdin.close()


#: framebuffer_service.cpp's ``struct fbinfo`` for RGBA_8888: red, blue, green, alpha (offset, length) pairs.
_RGBA_CHANNELS = (0, 8, 16, 8, 8, 8, 24, 8)


async def _framebuffer_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    """``framebuffer:`` (packages/modules/adb daemon/framebuffer_service.cpp): ``screencap``'s frame, re-headed.

    adbd runs ``screencap`` and reads its raw header: width, height, format, and from
    Android 10 the colour space, which makes the reply's header version 2 (``bpp, colorSpace,
    size, width, height`` and the channels' offsets and lengths) instead of version 1 (no
    colour space); the pixels follow as they are. It reads nothing from the client: the
    byte AndroidViewClient and ddmlib send after the header goes nowhere, as on a device.
    """
    result = await adbd.run_shell("screencap", cancel=stream.cancel)
    data = result.stdout
    if result.exit_code != 0 or len(data) < 12:
        return  # (screencap failed: adbd closes the stream without a header)
    width, height, pixel_format = struct.unpack_from("<III", data)
    size = width * height * 4
    if pixel_format != 1:  # only RGBA_8888 is ever written here
        return
    if len(data) == 16 + size:
        (colorspace,) = struct.unpack_from("<I", data, 12)
        header = struct.pack("<14I", 2, 32, colorspace, size, width, height, *_RGBA_CHANNELS)
    else:
        header = struct.pack("<13I", 1, 32, size, width, height, *_RGBA_CHANNELS)
    await stream.write(header, memoryview(data)[len(data) - size :])


async def _reboot_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    """``reboot:[TARGET]``: every target (bootloader, recovery...) simply reboots the phone."""
    adbd.phone.reboot()
    adbd.drop_connections()


async def _root_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    """``root:``: as adbd, by build type: refused on ``user`` builds, else adbd restarts as root."""
    await _switch_root(adbd, stream, True)


async def _unroot_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    """``unroot:``: adbd restarts as the shell user."""
    await _switch_root(adbd, stream, False)


async def _switch_root(adbd: Adbd, stream: Stream, root: bool) -> None:
    phone = adbd.phone
    if root and phone.getprop("ro.build.type") == "user":
        await stream.write(b"adbd cannot run as root in production builds\n")
        return
    if phone.root == root:
        await stream.write(b"adbd is already running as root\n" if root else b"adbd not running as root\n")
        return
    await stream.write(b"restarting adbd as root\n" if root else b"restarting adbd as non root\n")
    await stream.wait_writable()
    phone.root = root
    # adbd restarts: every connection drops, and the host reconnects
    asyncio.get_running_loop().call_later(0.05, adbd.drop_connections)


def _protocol_string(text: str) -> bytes:
    data = text.encode()
    return b"%04x" % len(data) + data


async def _reverse_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    """``reverse:...`` (``adb reverse``): adbd's ``handle_forward_request`` on the device side.

    Listeners are kept per host connection, listed as ``host-N LOCAL REMOTE``, and go away with
    the connection, as adbd's do. Nothing on the virtual phone opens sockets, so no connection
    ever arrives at one; setting, listing and removing them answer as a device does.
    """
    try:
        reply = _reverse_request(adbd, stream.conn, arg)
    except _ReverseFailure as failure:
        reply = b"FAIL" + _protocol_string(str(failure))
    await stream.write(reply)


class _ReverseFailure(Exception):
    """An ``adb reverse`` request adbd refuses: answered ``FAIL`` and the message."""


def _reverse_request(adbd: Adbd, conn: Connection, arg: str) -> bytes:
    """Carry out one reverse request; its reply, or _ReverseFailure with adbd's message."""
    if arg == "list-forward":
        return _protocol_string("".join(f"{c.label} {local} {remote}\n" for local, (c, remote) in adbd.reverse.items()))
    if arg == "killforward-all":
        adbd.reverse = {local: entry for local, entry in adbd.reverse.items() if entry[0] is not conn}
        return b"OKAY"
    kill, rest = arg.startswith("killforward:"), arg.partition(":")[2]
    norebind = not kill and rest.startswith("norebind:")
    rest = rest.removeprefix("norebind:") if norebind else rest
    pieces = rest.split(";")
    if kill:
        if len(pieces) != 1 or not pieces[0]:
            raise _ReverseFailure(f"bad killforward: {rest}")
        if adbd.reverse.pop(pieces[0], None) is None:
            raise _ReverseFailure(f"listener '{rest}' not found")
        return b"OKAY"
    if not arg.startswith("forward:") or len(pieces) != 2 or not all(pieces) or pieces[1][0] == "*":
        raise _ReverseFailure(f"bad forward: {rest}")
    local, remote = pieces
    kind, _, port = local.partition(":")
    if kind not in ("tcp", "localabstract", "localreserved", "localfilesystem"):
        raise _ReverseFailure(f"cannot bind listener: unknown socket specification '{local}'")
    if kind == "tcp" and (not port.isdigit() or int(port) > 65535):
        raise _ReverseFailure(f"cannot bind listener: invalid port '{port}'")
    if norebind and local in adbd.reverse:
        raise _ReverseFailure("cannot rebind existing socket")
    resolved = b""
    if local == "tcp:0":  # adbd binds a free port and says which
        port = next(str(p) for p in range(38000, 65536) if f"tcp:{p}" not in adbd.reverse)
        local, resolved = f"tcp:{port}", _protocol_string(port)
    adbd.reverse[local] = (conn, remote)
    return b"OKAY" + resolved
