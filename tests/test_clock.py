"""The phone's clock: a fixed start, stepped in envs, realtime over adb, kept by snapshots."""

from __future__ import annotations

import time

import pytest

from androidrl.device.virtual import STEP_SECONDS, VirtualDevice
from androidrl.spaces import EnvAction
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import DEFAULT_START, Clock


def test_a_new_phone_starts_at_the_fixed_instant_not_the_hosts_date():
    phone = VirtualPhone(360, 800, 160)
    stamp = int(phone.shell("date +%s").stdout)
    assert DEFAULT_START <= stamp < DEFAULT_START + 60
    assert phone.shell("date").stdout.decode().startswith("Mon Jun 15 09:00:")


def test_an_env_device_moves_its_clock_by_steps_only():
    device = VirtualDevice(width=360, height=800, density=160)
    before = device.shell("date +%s")
    time.sleep(1.1)  # the host's time passes; the phone's does not
    assert device.shell("date +%s") == before
    device.perform(EnvAction())
    device.perform(EnvAction())
    assert int(device.shell("date +%s")) == int(before) + 2 * STEP_SECONDS


def test_the_same_steps_give_the_same_times_in_files_and_log():
    def run() -> tuple[str, str]:
        device = VirtualDevice(width=360, height=800, density=160)
        device.perform(EnvAction())
        device.shell("touch /sdcard/a.txt")
        device.shell("svc wifi disable")  # WifiService logs the switch
        return device.shell("ls -l /sdcard/a.txt"), device.shell("logcat -d -v epoch -s WifiService")

    assert run() == run()


def test_a_snapshot_puts_back_the_time_and_the_log_with_it():
    device = VirtualDevice(width=360, height=800, density=160)
    device.save_snapshot("start")
    at_save = device.shell("date +%s")
    for _ in range(5):
        device.perform(EnvAction())
    device.shell("svc wifi disable")  # WifiService logs the switch
    assert "enable=false" in device.shell("logcat -d -s WifiService")
    device.load_snapshot("start")
    assert device.shell("date +%s") == at_save
    assert "enable=false" not in device.shell("logcat -d -s WifiService")


def test_a_realtime_clock_moves_with_the_host():
    clock = Clock()
    first = clock.now()
    time.sleep(0.05)
    assert clock.now() > first and not clock.stepped


def test_the_time_zone_property_sets_the_local_time():
    phone = VirtualPhone(360, 800, 160)
    phone.shell("setprop persist.sys.timezone Europe/Berlin")
    assert phone.shell("date +%H:%M").stdout == b"11:00\n"  # CEST, two hours ahead of UTC in June


def test_a_clock_never_runs_backwards():
    with pytest.raises(ValueError, match="only moves forward"):
        Clock(stepped=True).advance(-1)
