"""What ``pm install`` needs to know of an APK: is it one, which package it declares, how much it installs.

An APK is a zip holding ``AndroidManifest.xml`` in Android's binary XML (AXML); the
package name is the ``package`` attribute of its first element, ``<manifest>``. The chunk
layout follows AOSP ``frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h``.

Nothing is inflated beyond what the zip's directory declares, and the manifest only up to
:data:`MAX_MANIFEST_BYTES`: a small zip that inflates to gigabytes (a zip bomb) costs no memory.
"""

from __future__ import annotations

import io
import struct
import zipfile
from dataclasses import dataclass

_RES_XML_TYPE = 0x0003
_RES_STRING_POOL_TYPE = 0x0001
_RES_XML_START_ELEMENT_TYPE = 0x0102
_UTF8_FLAG = 1 << 8
#: The largest manifest read (real ones are well under 1 MiB; AOSP inflates it whole into memory).
MAX_MANIFEST_BYTES = 8 * 2**20


class ManifestTooLarge(ValueError):
    """The APK's ``AndroidManifest.xml`` inflates to more than :data:`MAX_MANIFEST_BYTES`."""


@dataclass(frozen=True)
class Apk:
    """What an install needs of an APK.

    Attributes:
        package: The package its manifest declares.
        native_bytes: The inflated size of its native libraries (``lib/``), which an install
            extracts onto ``/data``.
    """

    package: str
    native_bytes: int

    def installed_size(self, apk_bytes: int) -> int:
        """Bytes the install takes on ``/data``: the APK and its extracted native libraries.

        AOSP ``core/java/com/android/internal/content/InstallLocationUtils.java``
        ``calculateInstalledSize``.
        """
        return apk_bytes + self.native_bytes


def read_apk(data: bytes) -> Apk | None:
    """The APK in ``data``, or None if it is not one (or its manifest cannot be read).

    Raises:
        ManifestTooLarge: Its manifest inflates to more than MAX_MANIFEST_BYTES.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entry = archive.getinfo("AndroidManifest.xml")
            if entry.file_size > MAX_MANIFEST_BYTES:  # (zipfile never inflates past the declared size)
                raise ManifestTooLarge(f"AndroidManifest.xml inflates to {entry.file_size} bytes")
            with archive.open(entry) as file:
                manifest = file.read(MAX_MANIFEST_BYTES)
            native = sum(info.file_size for info in archive.infolist() if info.filename.startswith("lib/"))
    except (zipfile.BadZipFile, KeyError, OSError, RuntimeError, EOFError, NotImplementedError):
        return None
    try:
        package = _manifest_package(manifest)
    except (struct.error, IndexError, UnicodeDecodeError):
        return None
    return Apk(package, native) if package else None


def _manifest_package(axml: bytes) -> str | None:
    kind, header_size, _ = struct.unpack_from("<HHI", axml, 0)
    if kind != _RES_XML_TYPE:
        return None
    offset, strings = header_size, []
    while offset + 8 <= len(axml):
        kind, header_size, size = struct.unpack_from("<HHI", axml, offset)
        if size < 8:
            return None
        if kind == _RES_STRING_POOL_TYPE:
            strings = _string_pool(axml, offset)
        elif kind == _RES_XML_START_ELEMENT_TYPE:
            # ResXMLTree_node (16 bytes) then ResXMLTree_attrExt: ns, name, attributeStart, attributeSize, count...
            ext = offset + header_size
            _, _, attr_start, attr_size, count = struct.unpack_from("<iiHHH", axml, ext)
            for i in range(count):
                at = ext + attr_start + i * attr_size
                _, name, raw_value = struct.unpack_from("<iii", axml, at)
                if 0 <= name < len(strings) and strings[name] == "package" and 0 <= raw_value < len(strings):
                    return strings[raw_value]
            return None  # the first element is <manifest>: no package attribute
        offset += size
    return None


def _string_pool(data: bytes, offset: int) -> list[str]:
    _, header_size, _, count, _, flags, strings_start, _ = struct.unpack_from("<HHIIIIII", data, offset)
    offsets = struct.unpack_from(f"<{count}I", data, offset + header_size)
    base = offset + strings_start
    out = []
    for start in offsets:
        at = base + start
        if flags & _UTF8_FLAG:  # utf-16 length, then utf-8 length (each 1 or 2 bytes), then the bytes
            at += 2 if data[at] & 0x80 else 1
            length = data[at] & 0x7F
            if data[at] & 0x80:
                length = (length << 8) | data[at + 1]
                at += 1
            at += 1
            out.append(data[at : at + length].decode("utf-8"))
        else:
            length = struct.unpack_from("<H", data, at)[0]
            at += 2
            if length & 0x8000:
                length = ((length & 0x7FFF) << 16) | struct.unpack_from("<H", data, at)[0]
                at += 2
            out.append(data[at : at + 2 * length].decode("utf-16-le"))
    return out
