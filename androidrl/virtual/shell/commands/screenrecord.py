"""``screenrecord``: the display recorded to an H.264 MP4 (or a raw stream), as Android's tool does.

It follows ``frameworks/av/cmds/screenrecord/screenrecord.cpp`` (Android 14): the options,
their errors and exit status 2, the default size (the display's, rounded down to even), the
time limit (180 s, 0 for none), ``--output-format mp4|h264|frames|raw-frames`` (``-`` writes
to stdout), ``--verbose`` on stdout, and a stop on Ctrl-C (the client going away) that
still finishes the file. Like SurfaceFlinger, it produces a frame only when the screen
changes. The encoder (:mod:`androidrl.virtual.media.h264`) is lossless, so ``--bit-rate`` is
checked but changes nothing.
"""

from __future__ import annotations

import re
import struct
import time

import numpy as np
from PIL import Image

from androidrl.virtual.media.h264 import H264Encoder, annexb, mp4
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command
from androidrl.virtual.system.window.display import DISPLAY_UNIQUE_ID

VERSION = "1.3"
MAX_TIME_LIMIT = 180
FRAME_SECONDS = 1 / 60  # how often the display is looked at (a 60 Hz panel)
HAL_PIXEL_FORMAT_RGB_888 = 3
USAGE = (
    "Usage: screenrecord [options] <filename>\n\n"
    f"Android screenrecord v{VERSION}.  Records the device's display to a .mp4 file.\n\n"
    "Options:\n"
    "--size WIDTHxHEIGHT\n"
    '    Set the video size, e.g. "1280x720".  Default is the device\'s main\n'
    "    display resolution (if supported), 1280x720 if not.  For best results,\n"
    "    use a size supported by the AVC encoder.\n"
    "--bit-rate RATE\n"
    "    Set the video bit rate, in bits per second.  Value may be specified as\n"
    "    bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default 20Mbps.\n"
    "--bugreport\n"
    "    Add additional information, such as a timestamp overlay, that is helpful\n"
    "    in videos captured to illustrate bugs.\n"
    "--time-limit TIME\n"
    f"    Set the maximum recording time, in seconds.  Default is {MAX_TIME_LIMIT}. Set to 0\n"
    "    to remove the time limit.\n"
    "--display-id ID\n"
    "    specify the physical display ID to record. Default is the primary display.\n"
    '    see "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n'
    "--verbose\n"
    "    Display interesting information on stdout.\n"
    "--version\n"
    "    Show Android screenrecord version.\n"
    "--help\n"
    "    Show this message.\n\n"
    "Recording continues until Ctrl-C is hit or the time limit is reached.\n\n"
)
_WITH_VALUE = {"size", "bit-rate", "time-limit", "output-format", "codec-name", "bframes", "display-id"}
_FLAGS = {"help", "verbose", "bugreport", "show-device-info", "show-frame-time", "rotate", "monotonic-time",
          "persistent-surface", "capture-secure", "version"}  # fmt: skip
_FORMATS = ("mp4", "h264", "webm", "3gpp", "frames", "raw-frames")


class _Usage(Exception):
    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message, self.code = message, code


def _parse(argv: list[str], display_ids: tuple[str, ...]) -> tuple[dict, str]:
    """getopt_long over screenrecord's long options; (options, file name)."""
    options: dict = {"format": "mp4", "limit": MAX_TIME_LIMIT, "limit_given": False, "size": None, "verbose": False}
    options["rate"] = 20_000_000
    args, operands = argv[1:], []
    while args:
        arg = args.pop(0)
        if arg == "--":
            operands += args
            break
        if not arg.startswith("--"):
            operands.append(arg)
            continue
        name, has_value, value = arg[2:].partition("=")
        if name not in _WITH_VALUE | _FLAGS:
            raise _Usage(f"{argv[0]}: unrecognized option '{arg}'\n")
        if name in _WITH_VALUE and not has_value:
            if not args:
                raise _Usage(f"{argv[0]}: option '{arg}' requires an argument\n")
            value = args.pop(0)
        if name == "help":
            raise _Usage(USAGE, 0)
        if name == "version":
            raise _Usage(f"{VERSION}\n", 0)
        if name == "verbose":
            options["verbose"] = True
        elif name == "size":
            match = re.fullmatch(r"(-?\d+)x(-?\d+)", value)
            if not match:
                raise _Usage(f"Invalid size '{value}', must be width x height\n")
            width, height = int(match[1]), int(match[2])
            if width <= 0 or height <= 0:
                raise _Usage(f"Invalid size {width}x{height}, width and height may not be zero\n")
            options["size"] = (width, height)
        elif name == "bit-rate":
            match = re.fullmatch(r"(-?\d+)([mM]?)", value)
            if not match:
                raise _Usage(f"Unrecognized value: {value}\n")
            rate = int(match[1]) * (1_000_000 if match[2] else 1)
            if not 100_000 <= rate <= 200_000_000:
                raise _Usage(f"Bit rate {rate}bps outside acceptable range [100000,200000000]\n")
            options["rate"] = rate
        elif name == "time-limit":
            if not re.fullmatch(r"-?\d+ ?", value):
                raise _Usage("Error parsing time limit argument\n")
            limit = int(value)
            if not 0 <= limit <= 0xFFFFFFFF:
                raise _Usage(f"Time limit {limit}s outside acceptable range [0,{0xFFFFFFFF}] seconds\n")
            options["limit"], options["limit_given"] = limit or None, True
        elif name == "output-format":
            if value not in _FORMATS:
                raise _Usage(f"Unknown format '{value}'\n")
            options["format"] = value
        elif name == "display-id" and value not in display_ids:
            raise _Usage("Invalid physical display ID\n")
    if len(operands) != 1:
        raise _Usage("Must specify output file (see --help).\n")
    return options, operands[0]


def _projection(source: tuple[int, int], size: tuple[int, int]) -> tuple[int, int, int, int]:
    """Where a ``source`` (width, height) display lands in a ``size`` video: (width, height, left, top).

    setDisplayProjection's fit: the aspect ratio kept, centred.
    """
    (src_w, src_h), (width, height) = source, size
    aspect = src_h / src_w
    if height > int(width * aspect):
        out_w, out_h = width, int(width * aspect)
    else:
        out_w, out_h = int(height / aspect), height
    return out_w, out_h, (width - out_w) // 2, (height - out_h) // 2


def _fit(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The frame scaled into a ``size`` video, centred on black."""
    if frame.shape[:2] == size[::-1]:
        return frame
    out_w, out_h, left, top = _projection((frame.shape[1], frame.shape[0]), size)
    canvas = np.zeros((size[1], size[0], 3), np.uint8)
    scaled = Image.fromarray(frame).resize((max(1, out_w), max(1, out_h)), Image.Resampling.BILINEAR)
    canvas[top : top + out_h, left : left + out_w] = np.asarray(scaled)[:out_h, :out_w]
    return canvas


@command("screenrecord")
def _screenrecord(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """The ``screenrecord`` command (see the module docstring)."""
    phone = sh.phone
    try:
        options, name = _parse(argv, (DISPLAY_UNIQUE_ID, "0"))
    except _Usage as usage:
        return b"", usage.message.encode(), usage.code
    form, verbose = options["format"], options["verbose"]
    to_stdout = name == "-" and form in ("h264", "frames", "raw-frames")
    if to_stdout and verbose:
        return b"", b"ERROR: verbose output and '-' not compatible", 255
    if form == "webm":  # MediaMuxer's WebM writer takes VP8/VP9 tracks, not the AVC track screenrecord makes
        return b"", b"ERROR: WebM holds VP8/VP9 video, not video/avc (use mp4, 3gpp, h264, frames or raw-frames)\n", 1
    path = None if to_stdout else sh.path(name)
    if path is not None:
        try:
            phone.fs.write(path, b"")  # created up front, as screenrecord does for its diagnostics
        except OSError as exc:
            return b"", f"Unable to open '{name}': {exc.strerror}\n".encode(), 1
    display_w, display_h = phone.size
    width, height = options["size"] or (display_w & ~1, display_h & ~1)
    width, height = width & ~1, height & ~1  # the AVC encoder takes even sizes only
    out: list[str] = []

    def say(text: str) -> None:
        if verbose and not sh.stream(text.encode()):
            out.append(text)

    if options["limit_given"]:
        say(f"Time limit set to {options['limit'] or 0xFFFFFFFF} seconds\n")
    say(f"Display is {display_w}x{display_h} @60.00fps (orientation=ROTATION_0), layerStack=0\n")
    raw_frames = form in ("frames", "raw-frames")
    encoder = None if raw_frames else H264Encoder(width, height)
    if encoder is not None:
        say(f"Configuring recorder for {width}x{height} video/avc at {options['rate'] / 1e6:.2f}Mbps\n")
    out_w, out_h, left, top = _projection((display_w, display_h), (width, height))
    say(f"Content area is {out_w}x{out_h} at offset x={left} y={top}\n")

    stream: list[bytes] = []  # raw output (h264, frames) kept for the file, or sent out live

    def emit(data: bytes) -> None:
        if not (to_stdout and sh.stream(data)):
            stream.append(data)

    if form == "h264":
        emit(annexb(encoder.sps, encoder.pps))
    samples: list[tuple[bytes, bool, float]] = []
    start = time.monotonic()
    deadline = None if options["limit"] is None else start + options["limit"]
    last = None
    while True:
        frame = phone.screenshot()
        if frame is not last:  # the display changed: a new frame
            last = frame
            now = time.monotonic() - start
            picture = _fit(np.asarray(frame), (width, height))
            if raw_frames:
                pixels = np.ascontiguousarray(picture).tobytes()
                header = b"" if form == "raw-frames" else struct.pack(
                    "<5I", 16 + len(pixels), width, height, width * 3, HAL_PIXEL_FORMAT_RGB_888
                )  # fmt: skip
                emit(header + pixels)
            else:
                coded = encoder.encode(picture, now)
                if coded is not None:
                    samples.append((coded[0], coded[1], now))
                    if form == "h264":
                        emit(annexb(coded[0]))
        if deadline is not None and time.monotonic() >= deadline:
            say("Time limit reached\n")
            break
        if sh.wait(FRAME_SECONDS if deadline is None else min(FRAME_SECONDS, max(0.0, deadline - time.monotonic()))):
            break  # Ctrl-C (the client went away) or the caller's deadline: finish the file
    elapsed = time.monotonic() - start
    count = len(samples) if encoder is not None else len(stream)
    say(f"Encoder stopping; recorded {count} frames in {int(elapsed)} seconds\nStopping encoder and muxer\n")
    if form in ("mp4", "3gpp"):
        data = mp4(encoder, samples, elapsed, brand=b"3gp4" if form == "3gpp" else b"mp42") if samples else b""
    else:
        data = b"" if to_stdout else b"".join(stream)
    if path is not None:
        try:
            phone.fs.write(path, data)
        except OSError as exc:  # the storage is full: the muxer's write fails with -errno
            return "".join(out).encode(), f"Failed writing data to muxer (err={-(exc.errno or 5)})\n".encode(), 1
        say(f"Executing: /system/bin/am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file://{path}\n")
    if to_stdout:
        return b"".join(stream), b"", 0
    return "".join(out).encode(), b"", 0
