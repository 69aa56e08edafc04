"""adbd for the virtual phone: the device side of adb's wire protocol, over TCP, in pure asyncio.

With an :class:`~androidrl.virtual.adbd.server.AdbdServer` listening, the real ``adb`` binary
treats a :class:`~androidrl.virtual.phone.VirtualPhone` as a device: ``adb connect
127.0.0.1:PORT``, then ``adb shell``, ``exec-out``, ``push``, ``pull``, ``ls``, ``install``,
``reboot``... (the wire format follows AOSP's ``adb/protocol.txt`` and ``SYNC.TXT``). Like an
emulator with ``ro.adb.secure=0`` it skips authentication, unless given host keys (``auth``,
``keys``): then only a host that signs the token with a trusted key gets in.

Rooms, bottom to top: ``auth`` (adb's RSA authentication), ``keys`` (the trusted key files,
and the requests of new hosts a user allows or denies), ``daemon`` (what one adbd's
connections and services share), ``transport`` (packets, the connection, its streams),
``shell`` and ``sync`` (the shell and file-transfer services), ``services`` (what an OPEN
starts, and the small services), ``server`` (the listening socket, which follows the
phone's power: a rebooting phone drops off the network and comes back on the same port;
it closes connections that do not sign in in time, or beyond a limit).
"""
