"""``pm``: the package manager's tool, as Android's PackageManagerShellCommand answers.

``list packages|features|libraries``, ``path``, ``resolve-activity``, ``clear``, ``install``,
``uninstall``, ``grant``, ``revoke``, ``enable`` and ``disable``.
"""

from __future__ import annotations

import zlib

from androidrl.virtual.shell.commands.am import parse_intent  # (Intent.parseCommandArgs)
from androidrl.virtual.shell.commands.java import JavaException, argument_expected, java_exception_result
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.apk import ManifestTooLarge, read_apk
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import short_component
from androidrl.virtual.system.packages import FEATURES, GLES_VERSION, LIBRARIES


@command("pm")
def _pm(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return _package_command(sh, argv[1:], stdin)


_PM_FRAME = "com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:232)"
_SESSION_FRAME = "com.android.server.pm.PackageInstallerService.createSession(PackageInstallerService.java:964)"
_SIZE_FRAME = "com.android.server.pm.PackageManagerShellCommand.makeInstallParams(PackageManagerShellCommand.java:3365)"


def _package_command(sh: Shell, args: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    if not args:
        return ok(
            "Package manager (package) commands:\n  help\n    Print this help text.\n"
            "  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [FILTER]\n"
            "  path [--user USER_ID] PACKAGE\n  clear [--user USER_ID] PACKAGE\n"
        )
    sub, rest = args[0], args[1:]
    if sub == "list" and rest[:1] in (["features"], ["libraries"]):
        return ok(_list_system(rest[0]))
    if sub == "list" and rest and rest[0] in ("packages", "package"):
        flags = {a for a in rest[1:] if a.startswith("-")}
        words = [a for a in rest[1:] if not a.startswith("-")]
        needle = words[-1] if words else ""
        lines = []
        for app in phone.packages.installed():
            if ("-3" in flags and app.system) or ("-s" in flags and not app.system) or ("-d" in flags):
                continue
            if needle in app.package:
                prefix = f"{phone.packages.apk_path(app)}=" if "-f" in flags else ""
                uid = f" uid:{phone.processes.uid(app.package)}" if "-U" in flags else ""
                lines.append(f"package:{prefix}{app.package}{uid}\n")
        return ok("".join(lines))
    if sub == "resolve-activity":
        return _resolve_activity(phone, rest)
    if sub == "path":
        names = [a for a in rest if not a.startswith("--")]
        app = phone.packages.get(names[-1]) if names else None
        return ok(f"package:{phone.packages.apk_path(app)}\n") if app else (b"", b"", 1)
    if sub == "clear":
        names = [a for a in rest if not a.startswith("--")]
        if not names:
            return fail("Error: no package specified\n")
        return ok("Success\n") if phone.packages.clear_data(names[-1]) else fail("Failed\n")
    if sub in ("install", "install-streamed"):
        return _install(sh, rest, stdin)
    names = [a for a in rest if not a.startswith("-")]
    if sub == "uninstall":
        if "--user" in rest:
            names = names[1:]
        app = phone.packages.get(names[-1]) if names else None
        if app is None or app.system and "--user" not in rest:
            return _pm_failure("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
        phone.packages.uninstall(app.package)
        return ok("Success\n")
    try:
        if sub in ("grant", "revoke"):
            if len(names) < 2:
                raise JavaException("java.lang.IllegalArgumentException", "Error: no permission specified", _PM_FRAME)
            app = _known_package(phone, names[0])
            if not names[1].startswith("android.permission."):
                raise JavaException("java.lang.IllegalArgumentException", f"Unknown permission: {names[1]}", _PM_FRAME)
            (phone.packages.grant if sub == "grant" else phone.packages.revoke)(app.package, names[1])
            return ok()
        if sub in ("disable-user", "disable", "enable", "default-state"):
            if "--user" in rest:
                names = names[1:]
            app = _known_package(phone, names[-1] if names else "")
            phone.packages.set_enabled(app.package, not sub.startswith("disable"))
            state = "disabled-user" if sub == "disable-user" else "disabled" if sub == "disable" else "enabled"
            return ok(f"Package {app.package} new state: {state}\n")
    except JavaException as exc:
        return java_exception_result(sub, exc)
    return f"Unknown command: {sub}\n".encode(), b"", 255


def _list_system(what: str) -> str:
    """``pm list features`` (by name, the GL ES version first) or ``pm list libraries`` (by name).

    PackageManagerShellCommand.runListFeatures prints ``feature:NAME`` (``=VERSION`` when it
    has one) and the nameless ``reqGlEsVersion=0x...``; runListLibraries ``library:NAME``.
    """
    if what == "libraries":
        return "".join(f"library:{name}\n" for name in sorted(LIBRARIES))
    lines = [f"feature:reqGlEsVersion=0x{GLES_VERSION:x}\n"]
    lines += [f"feature:{name}{f'={version}' if version > 0 else ''}\n" for name, version in sorted(FEATURES)]
    return "".join(lines)


def _resolve_activity(phone: PhoneCore, args: list[str]) -> Result:
    """``pm resolve-activity [--brief|--components] [--user N] INTENT`` (PackageManagerShellCommand.printResolveInfo).

    With ``--brief``: the ResolveInfo's priority line, then the component; ``--components``:
    the component alone; without either, the ResolveInfo dump's first lines.
    """
    brief, components = "--brief" in args, "--components" in args
    rest = [a for a in args if a not in ("--brief", "--components")]
    if "--user" in rest:
        at = rest.index("--user")
        del rest[at : at + 2]
    intent, _ = parse_intent(rest)
    target = phone.resolve(intent)
    if target is None:
        return ok("No activity found\n")
    app, cls = target
    component = short_component(app.package, cls)
    if components:
        return ok(f"{component}\n")
    if brief:
        return ok(f"priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n{component}\n")
    return ok(
        f"priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\nActivityInfo:\n"
        f"  name={cls}\n  packageName={app.package}\n  enabled=true exported=true directBootAware=false\n"
    )


def _pm_failure(text: str) -> Result:
    """A failed install, uninstall or clear: PackageManagerShellCommand prints it on stdout and exits 1."""
    return text.encode(), b"", 1


def _known_package(phone: PhoneCore, package: str) -> App:
    app = phone.packages.get(package)
    if app is None:
        raise JavaException("java.lang.IllegalArgumentException", f"Unknown package: {package}", _PM_FRAME)
    return app


def _install(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """``pm install [-r] [-g] [-S SIZE] [PATH]``: the APK from a device file, or SIZE bytes of stdin (``adb install``).

    As AOSP ``PackageManagerShellCommand.doRunInstall``: stdin needs ``-S``; the session is made
    only if the APK fits on ``/data`` (``PackageInstallerService.createSession``, which throws
    otherwise); the commit parses the manifest and checks the installed size. At most SIZE
    bytes are read, and nothing is inflated beyond what is needed (a zip bomb costs nothing).
    """
    paths = [
        a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] not in ("-S", "--user", "-i"))
    ]
    fs = sh.phone.fs
    try:
        if "-S" in args[-1:]:
            raise argument_expected("-S", _SIZE_FRAME)
        sizes = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-S"]
        if sizes and not sizes[-1].isdigit():
            raise JavaException("java.lang.NumberFormatException", f'For input string: "{sizes[-1]}"', _SIZE_FRAME)
        if paths:
            try:
                data = fs.read(sh.path(paths[-1]))
            except OSError:
                return fail(f"Error: Can't open file: {paths[-1]}\nException occurred while executing 'install':\n", 1)
            size = len(data)
        elif not sizes:
            return _pm_failure("Error: must either specify a package size or an APK file\n")
        else:
            size = int(sizes[-1])
        if size > fs.free_bytes():  # InstallLocationUtils.resolveInstallVolume finds no room on /data
            raise JavaException(
                "android.os.ParcelableException",
                "java.io.IOException: No special requests, but no room on allowed volumes. "
                " allow3rdPartyOnInternal? true",
                _SESSION_FRAME,
            )
    except JavaException as exc:
        return java_exception_result("install", exc)
    if not paths:
        data = sh.read_stdin_until(stdin, lambda came: len(came) >= size)[:size]
    where = f"/data/app/vmdl{zlib.crc32(data) % 2_000_000_000}.tmp/base.apk"
    try:
        apk = read_apk(data)
    except ManifestTooLarge:  # (AOSP would inflate it whole into system_server's memory)
        return _pm_failure(
            "Failure [INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: Failed parse during installPackageLI: "
            f"Failed to read manifest from {where}]\n"
        )
    if apk is None:
        return _pm_failure(
            f"Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed parse during installPackageLI: {where} "
            f"(at Binary XML file line #-1): Failed to load asset path {where}]\n"
        )
    existing = sh.phone.packages.get(apk.package)
    if existing is not None and "-r" not in args and existing.system:
        return _pm_failure(
            f"Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install {apk.package} "
            "without first uninstalling.]\n"
        )
    if apk.installed_size(len(data)) > fs.free_bytes():  # InstallingSession.handleStartCopy
        return _pm_failure("Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE: Failed to override installation location]\n")
    sh.phone.packages.install(apk.package)
    return ok("Success\n")
