"""A lossless H.264 encoder and an MP4 muxer, in numpy: what the virtual phone's ``screenrecord`` writes.

The encoder codes every macroblock that changed as ``I_PCM`` (its samples as they are, the
one coding mode of H.264 that needs no transform or entropy coder) and skips the others
(``P_Skip``: copied from the previous frame), in Constrained Baseline profile with CAVLC.
Any H.264 decoder plays the result (ffmpeg, browsers, Android's own), pixel for pixel in
YUV 4:2:0 — at a size set by what changed rather than by a bit rate, which is large for
full-screen changes and small for a UI where a button changes. Frames are converted with
the BT.601 limited-range matrix, which the stream declares in its VUI.

References: ITU-T H.264 (7.3 syntax, 7.4.2.2 I_PCM, 7.3.4 slice data), ISO/IEC 14496-12
(MP4 boxes) and 14496-15 (``avcC``).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

import numpy as np

MB = 16  # a macroblock is 16x16 luma samples, 8x8 of each chroma
_PCM_BYTES = MB * MB + 2 * (MB // 2) ** 2  # 384
_I_PCM_IN_I, _I_PCM_IN_P = 25, 30  # mb_type of I_PCM in I and in P slices (Tables 7-11, 7-13)
_MAX_FRAME_NUM = 16  # log2_max_frame_num = 4
#: (level_idc, MaxFS in macroblocks) of Table A-1, smallest first.
_LEVELS = ((30, 1620), (31, 3600), (32, 5120), (40, 8192), (42, 8704), (50, 22080), (51, 36864), (60, 139264))
_EMULATION = re.compile(rb"\x00\x00(?=[\x00-\x03])")


class _Bits:
    """An RBSP being written, most significant bit first."""

    def __init__(self) -> None:
        self.value, self.length = 0, 0

    def u(self, bits: int, value: int) -> _Bits:
        self.value = (self.value << bits) | (value & ((1 << bits) - 1))
        self.length += bits
        return self

    def ue(self, value: int) -> _Bits:
        code = value + 1
        return self.u(2 * code.bit_length() - 1, code)

    def se(self, value: int) -> _Bits:
        return self.ue(2 * value - 1 if value > 0 else -2 * value)

    def align(self) -> _Bits:
        return self.u(-self.length % 8, 0)

    def trailing(self) -> _Bits:
        return self.u(1, 1).align()

    def bytes(self) -> bytes:
        assert self.length % 8 == 0, "not byte-aligned"
        return self.value.to_bytes(self.length // 8, "big")


def _nal(nal_ref_idc: int, nal_type: int, rbsp: bytes) -> bytes:
    """A NAL unit (no start code): header byte, then the RBSP with emulation prevention bytes."""
    return bytes([(nal_ref_idc << 5) | nal_type]) + _EMULATION.sub(b"\x00\x00\x03", rbsp)


def rgb_to_yuv420(rgb: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """BT.601 limited-range Y, Cb, Cr planes of an RGB frame, padded by edge repetition to whole macroblocks.

    The 8-bit integer form of the matrix (as libyuv's RGB-to-I420 uses), in 16-bit lanes for
    luma; chroma from the sum of each 2x2 block (sited between its pixels).

    Args:
        rgb: ``(height, width, 3)`` uint8.
        width: Coded width (a multiple of 16, at least the frame's).
        height: Coded height (a multiple of 16, at least the frame's).
    """
    r, g, b = (rgb[..., i].astype(np.uint16) for i in range(3))
    y = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16  # at most 56228: no overflow

    def quad(plane: np.ndarray) -> np.ndarray:
        return (plane[0::2, 0::2] + plane[1::2, 0::2] + plane[0::2, 1::2] + plane[1::2, 1::2]).astype(np.int32)

    rs, gs, bs = quad(r), quad(g), quad(b)
    cb = ((-38 * rs - 74 * gs + 112 * bs + 512) >> 10) + 128
    cr = ((112 * rs - 94 * gs - 18 * bs + 512) >> 10) + 128
    return _padded(y, width, height), _padded(cb, width // 2, height // 2), _padded(cr, width // 2, height // 2)


def _padded(plane: np.ndarray, width: int, height: int) -> np.ndarray:
    """``plane`` as uint8, its last column and row repeated out to ``width`` x ``height`` (the cropped margin)."""
    out = np.empty((height, width), np.uint8)
    rows, cols = plane.shape
    out[:rows, :cols] = plane
    out[:rows, cols:] = out[:rows, cols - 1 : cols]
    out[rows:] = out[rows - 1 : rows]
    return out


def _macroblocks(y: np.ndarray, cb: np.ndarray, cr: np.ndarray) -> np.ndarray:
    """Each macroblock's PCM samples in coding order: ``(count, 384)``, luma then Cb then Cr, raster within each."""
    rows, cols = y.shape[0] // MB, y.shape[1] // MB
    luma = y.reshape(rows, MB, cols, MB).transpose(0, 2, 1, 3).reshape(rows * cols, MB * MB)
    half = MB // 2
    chroma = [
        plane.reshape(rows, half, cols, half).transpose(0, 2, 1, 3).reshape(rows * cols, half * half)
        for plane in (cb, cr)
    ]
    return np.concatenate([luma, *chroma], axis=1)


@dataclass
class H264Encoder:
    """Encodes RGB frames of one size into H.264 access units (lossless ``I_PCM`` and ``P_Skip``).

    Args:
        width: Frame width in pixels (even).
        height: Frame height in pixels (even).
        keyframe_every: Seconds between IDR frames (screenrecord asks its encoder for 10).
    """

    width: int
    height: int
    keyframe_every: float = 10.0
    _previous: np.ndarray | None = field(default=None, init=False, repr=False)
    _frame_num: int = field(default=0, init=False)
    _idr_count: int = field(default=0, init=False)
    _last_idr: float = field(default=float("-inf"), init=False)

    def __post_init__(self) -> None:
        if self.width < 2 or self.height < 2 or self.width % 2 or self.height % 2:
            raise ValueError(
                f"H.264 4:2:0 frames need an even width and height of at least 2, got {self.width}x{self.height}"
            )
        self.coded = (-(-self.width // MB) * MB, -(-self.height // MB) * MB)
        self.sps = _nal(3, 7, self._sps())
        self.pps = _nal(3, 8, self._pps())

    def _sps(self) -> bytes:
        coded_w, coded_h = self.coded
        macroblocks = coded_w * coded_h // (MB * MB)
        level = next((idc for idc, most in _LEVELS if macroblocks <= most), 62)
        bits = _Bits().u(8, 66).u(8, 0xC0).u(8, level)  # Baseline, constraint_set0+1 (Constrained Baseline)
        bits.ue(0).ue(0).ue(2).ue(1).u(1, 0)  # sps id, log2_max_frame_num-4, POC type 2, 1 reference, no gaps
        bits.ue(coded_w // MB - 1).ue(coded_h // MB - 1).u(1, 1).u(1, 1)  # size, frame_mbs_only, direct_8x8
        crop_x, crop_y = (coded_w - self.width) // 2, (coded_h - self.height) // 2  # in 2-pixel units (4:2:0)
        bits.u(1, 1 if crop_x or crop_y else 0)
        if crop_x or crop_y:
            bits.ue(0).ue(crop_x).ue(0).ue(crop_y)
        # VUI: only the signal type: video_format unspecified (5), limited range, BT.601 (SMPTE 170M) colours
        bits.u(1, 1).u(1, 0).u(1, 0).u(1, 1).u(3, 5).u(1, 0).u(1, 1).u(8, 6).u(8, 6).u(8, 6)
        bits.u(1, 0).u(1, 0).u(1, 0).u(1, 0).u(1, 0).u(1, 0)  # no chroma loc, timing, HRD, pic_struct, restriction
        return bits.trailing().bytes()

    @staticmethod
    def _pps() -> bytes:
        bits = _Bits().ue(0).ue(0).u(1, 0).u(1, 0).ue(0)  # pps id, sps id, CAVLC, no field POC, one slice group
        bits.ue(0).ue(0).u(1, 0).u(2, 0).se(0).se(0).se(0)  # one reference each list, no weighting, QP 26
        bits.u(1, 1).u(1, 0).u(1, 0)  # deblocking control present (slices turn it off), no constrained intra
        return bits.trailing().bytes()

    def encode(self, rgb: np.ndarray, at: float) -> tuple[bytes, bool] | None:
        """The access unit (one slice NAL, no start code) for frame ``rgb`` shown at ``at`` seconds.

        Returns:
            ``(nal, is_keyframe)``, or None when nothing changed since the previous frame.
        """
        if rgb.shape != (self.height, self.width, 3):
            raise ValueError(f"frames of this stream are ({self.height}, {self.width}, 3), got {rgb.shape}")
        blocks = _macroblocks(*rgb_to_yuv420(rgb, *self.coded))
        if self._previous is None or at - self._last_idr >= self.keyframe_every:
            changed = None
        else:
            changed = np.flatnonzero((blocks != self._previous).any(axis=1))
            if len(changed) == 0:
                return None
            if len(changed) * 2 > len(blocks):  # mostly new: a key frame costs the same and helps seeking
                changed = None
        self._previous = blocks
        if changed is None:
            self._frame_num, self._last_idr = 0, at
            self._idr_count += 1
            return self._idr_slice(blocks), True
        self._frame_num = (self._frame_num + 1) % _MAX_FRAME_NUM
        return self._p_slice(blocks, changed), False

    def _idr_slice(self, blocks: np.ndarray) -> bytes:
        bits = _Bits().ue(0).ue(7).ue(0).u(4, 0).ue((self._idr_count - 1) % 2)  # first MB, I, pps, frame_num, idr id
        bits.u(1, 0).u(1, 0).se(0).ue(1)  # no_output_of_prior_pics, not long-term, qp delta, no deblocking
        bits.ue(_I_PCM_IN_I).align()
        # every later macroblock starts byte-aligned: ue(25) is 9 bits, then 7 alignment zeros
        body = np.empty((len(blocks), 2 + _PCM_BYTES), np.uint8)
        body[:, 0], body[:, 1], body[:, 2:] = 0x0D, 0x00, blocks
        data = bits.bytes() + body.tobytes()[2:] + b"\x80"  # the first block's mb_type is in the header bits
        return _nal(3, 5, data)

    def _p_slice(self, blocks: np.ndarray, changed: np.ndarray) -> bytes:
        bits = _Bits().ue(0).ue(5).ue(0).u(4, self._frame_num)  # first MB, P, pps, frame_num
        bits.u(1, 0).u(1, 0).u(1, 0).se(0).ue(1)  # no ref override, no list change, sliding window, qp, no deblock
        parts: list[bytes] = []
        previous = -1
        for index in changed.tolist():
            bits.ue(index - previous - 1).ue(_I_PCM_IN_P).align()  # skip run (P_Skip: copied), then I_PCM
            parts += [bits.bytes(), blocks[index].tobytes()]
            bits, previous = _Bits(), index
        if previous < len(blocks) - 1:
            bits.ue(len(blocks) - 1 - previous)  # the rest are skipped
        parts.append(bits.trailing().bytes())
        return _nal(2, 1, b"".join(parts))


# ------------------------------------------------------------------------------------ MP4


def _box(kind: bytes, *payload: bytes) -> bytes:
    body = b"".join(payload)
    return struct.pack(">I", 8 + len(body)) + kind + body


def _full_box(kind: bytes, version: int, flags: int, *payload: bytes) -> bytes:
    return _box(kind, struct.pack(">I", (version << 24) | flags), *payload)


_MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)


def mp4(encoder: H264Encoder, samples: list[tuple[bytes, bool, float]], end: float, brand: bytes = b"mp42") -> bytes:
    """An MP4 file of one H.264 track (or a 3GPP one, with ``brand=b"3gp4"``).

    Args:
        encoder: The encoder that made the samples (its SPS, PPS and size).
        samples: ``(nal, is_keyframe, time in seconds)`` of each frame, in order; the first at time 0.
        end: When the last frame stops showing (the recording's length), in seconds.
        brand: The file type brand.
    """
    timescale = 90_000
    times = [round(t * timescale) for _, _, t in samples] + [round(end * timescale)]
    durations = [max(1, b - a) for a, b in zip(times, times[1:])]
    data = [struct.pack(">I", len(nal)) + nal for nal, _, _ in samples]  # AVCC: length-prefixed NAL units
    mdat_size = 8 + sum(map(len, data))
    large = mdat_size > 0xFFFFFFFF
    ftyp = _box(b"ftyp", brand, struct.pack(">I", 0), b"isom" + brand)
    header = struct.pack(">I4sQ", 1, b"mdat", mdat_size + 8) if large else struct.pack(">I4s", mdat_size, b"mdat")
    starts = np.cumsum([0, *map(len, data[:-1])]).tolist()
    # The index goes before the data, as Android's MPEG4Writer puts it (the file plays from a pipe);
    # its size does not depend on the offsets it holds, so measure it once, then fill them in.
    moov = _moov(encoder, samples, durations, data, [0] * len(data), large)
    first = len(ftyp) + len(moov) + len(header)
    moov = _moov(encoder, samples, durations, data, [first + s for s in starts], large)
    return b"".join([ftyp, moov, header, *data])


def _moov(
    encoder: H264Encoder,
    samples: list[tuple[bytes, bool, float]],
    durations: list[int],
    data: list[bytes],
    offsets: list[int],
    large: bool,
) -> bytes:
    timescale = 90_000
    duration = sum(durations)
    width, height = encoder.width, encoder.height
    sps, pps = encoder.sps, encoder.pps
    avcc = _box(b"avcC", bytes([1, sps[1], sps[2], sps[3], 0xFF, 0xE1]), struct.pack(">H", len(sps)), sps,
                b"\x01", struct.pack(">H", len(pps)), pps)  # fmt: skip
    avc1 = _box(
        b"avc1", bytes(6), struct.pack(">H", 1), bytes(16), struct.pack(">HHII", width, height, 0x480000, 0x480000),
        bytes(4), struct.pack(">H", 1), bytes(32), struct.pack(">Hh", 0x18, -1), avcc,
    )  # fmt: skip
    runs: list[list[int]] = []
    for d in durations:
        if runs and runs[-1][1] == d:
            runs[-1][0] += 1
        else:
            runs.append([1, d])
    stbl = _box(
        b"stbl",
        _full_box(b"stsd", 0, 0, struct.pack(">I", 1), avc1),
        _full_box(b"stts", 0, 0, struct.pack(f">I{2 * len(runs)}I", len(runs), *(v for r in runs for v in r))),
        _full_box(b"stss", 0, 0, struct.pack(">I", sum(k for _, k, _ in samples)),
                  *(struct.pack(">I", i) for i, (_, k, _) in enumerate(samples, 1) if k)),
        _full_box(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, 1, 1)),  # a chunk per sample
        _full_box(b"stsz", 0, 0, struct.pack(f">II{len(data)}I", 0, len(data), *map(len, data))),
        _full_box(b"co64", 0, 0, struct.pack(f">I{len(offsets)}Q", len(offsets), *offsets))
        if large
        else _full_box(b"stco", 0, 0, struct.pack(f">I{len(offsets)}I", len(offsets), *offsets)),
    )  # fmt: skip
    minf = _box(
        b"minf", _full_box(b"vmhd", 0, 1, bytes(8)),
        _box(b"dinf", _full_box(b"dref", 0, 0, struct.pack(">I", 1), _full_box(b"url ", 0, 1))), stbl,
    )  # fmt: skip
    mdia = _box(
        b"mdia",
        _full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, timescale, duration, 0x55C4, 0)),  # language "und"
        _full_box(b"hdlr", 0, 0, bytes(4), b"vide", bytes(12), b"VideoHandle\x00"),
        minf,
    )
    movie_ms = duration * 1000 // timescale
    tkhd = _full_box(
        b"tkhd", 0, 3, struct.pack(">IIIII", 0, 0, 1, 0, movie_ms), bytes(8), struct.pack(">hhhH", 0, 0, 0, 0),
        _MATRIX, struct.pack(">II", width << 16, height << 16),
    )  # fmt: skip
    mvhd = _full_box(b"mvhd", 0, 0, struct.pack(">IIIIIH", 0, 0, 1000, movie_ms, 0x10000, 0x100), bytes(10),
                     _MATRIX, bytes(24), struct.pack(">I", 2))  # fmt: skip
    return _box(b"moov", mvhd, _box(b"trak", tkhd, mdia))


def annexb(*nals: bytes) -> bytes:
    """NAL units as a raw H.264 byte stream (``screenrecord --output-format=h264``)."""
    return b"".join(b"\x00\x00\x00\x01" + nal for nal in nals)
