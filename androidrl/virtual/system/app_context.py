"""The context the phone hands its apps: its services, as an app may use them.

Android gives every app a ``Context`` (``ContextImpl``) whose ``getSystemService`` returns the
app's face of each system service. Here one :class:`~androidrl.virtual.system.framework.app.Context`
serves every app of a phone; :func:`app_context` builds it from the phone core's parts, so the
core keeps the wiring of the services and apps see only what the context offers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from androidrl.virtual.system.clock import DEFAULT_TIMEZONE
from androidrl.virtual.system.framework.app import Context
from androidrl.virtual.system.framework.storage import SharedStorage
from androidrl.virtual.system.notifications import AppNotifications

if TYPE_CHECKING:
    from androidrl.virtual.system.core import PhoneCore


def app_context(core: PhoneCore) -> Context:
    """The apps' context on ``core``'s services.

    It may be built before the window manager: what it reaches through ``core.windows`` is looked
    up when an app asks (the locale, a toast).
    """
    clock = core.clock
    return Context(
        apps=core.apps,
        metrics=core.metrics,
        radios=core.radios,
        getprop=core.getprop,
        start_activity=core.start_activity,
        finish_activity=core.finish_activity,
        invalidate=core.invalidate,
        next_seed=core.next_seed,
        content=core.content.resolver,
        log=core.app_log,
        clipboard=core.clipboard,
        toast=lambda text, long: core.windows.toast(text, long),
        locale=lambda: core.windows.locale(),
        is_24_hour=core.is_24_hour,
        current_time_millis=clock.now_ms,
        timezone=lambda: core.getprop("persist.sys.timezone") or DEFAULT_TIMEZONE,
        storage=SharedStorage(core.fs, core.content.resolver),
        local_time=core.local_time,
        elapsed_realtime=lambda: round(clock.uptime() * 1000),
        alarms=core.alarm_manager,
        notifications=AppNotifications(core.notifications, core.processes.uid, clock.now),
        set_locale=lambda tag: _set_locale(core, tag),
        force_stop=core.force_stop,
        clear_data=core.packages.clear_data,
        uninstall=core.packages.uninstall,
        running=lambda package: core.processes.pid(package) is not None,
        lock_settings=core.lock_settings,
        expand_notifications=lambda: core.status_bar.expand_notifications(),
        start_activity_for_result=lambda intent, caller, code: core.activities.start_activity(intent, caller, code),
        check_permission=lambda package, permission: permission in core.packages.granted(package),
        set_permission=lambda package, permission, granted: (core.packages.grant if granted else core.packages.revoke)(
            package, permission
        ),
    )


def _set_locale(core: PhoneCore, tag: str) -> None:
    """``LocalePicker.updateLocales``: ``persist.sys.locale`` and ``system system_locales`` (ATMS)."""
    core.props["persist.sys.locale"] = tag
    core.settings.put("system", "system_locales", tag)
