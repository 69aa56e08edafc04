"""Fault injection on virtual phones served over TCP: plans, and what the faults do to a real adb client."""

import contextlib
import json
import subprocess
import sys
import threading
import time

import pytest

from androidrl.device.adb import AdbDevice
from androidrl.device.adb_server import accepts, free_port
from androidrl.errors import DeviceError
from androidrl.virtual.adbd.server import AdbdThread
from androidrl.virtual.faults import KINDS, Fault, FaultPlan, FaultyLink
from androidrl.virtual.phone import VirtualPhone


def test_random_plans_are_seeded_and_cover_the_kinds():
    plan = FaultPlan.random(seed=3, phones=4, duration=300, every=2)
    assert plan == FaultPlan.random(seed=3, phones=4, duration=300, every=2)
    assert plan != FaultPlan.random(seed=4, phones=4, duration=300, every=2)
    assert {f.kind for f in plan.faults} == set(KINDS) and {f.phone for f in plan.faults} == {0, 1, 2, 3}
    assert [f.at for f in plan.faults] == sorted(f.at for f in plan.faults)
    assert FaultPlan.parse("seed=3,every=2,duration=300", 4) == plan


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seed=1,often=3", "expected a JSON file or seed=S"),
        ("seed=1,kinds=drop+flood", "fault kinds must be some of"),
        ("seed=x", "invalid literal"),
    ],
)
def test_bad_plans_are_clear_errors(text, message):
    with pytest.raises(ValueError, match=message):
        FaultPlan.parse(text, 2)


def test_a_json_plan_with_a_phone_out_of_range_is_refused(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps([{"at": 1, "phone": 5, "kind": "drop"}]))
    with pytest.raises(ValueError, match="bad fault"):
        FaultPlan.parse(str(path), 2)


@contextlib.contextmanager
def _in_use(devices):
    """The devices asked something over and over by a thread each, for the block's time."""
    done = threading.Event()

    def ask(device):
        while not done.is_set():
            with contextlib.suppress(DeviceError):
                device.shell("echo busy")

    threads = [threading.Thread(target=ask, args=(device,), daemon=True) for device in devices]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        done.set()  # (not joined: a call to a hung phone ends by its timeout, after the test's own call)


def test_served_phones_suffer_the_planned_faults_over_the_real_adb(tmp_path, adb_server):
    plan = [Fault(2.0, 0, "hang", 3.0), Fault(2.0, 1, "reboot")]
    path = tmp_path / "plan.json"
    path.write_text(json.dumps([f.__dict__ for f in plan]))
    port = free_port(count=2)
    command = [sys.executable, "-m", "androidrl.cli", "virtual", "--count", "2", "--port", str(port)]
    command += ["--width", "360", "--height", "800", "--density", "160", "--faults", str(path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        serials = [process.stdout.readline().strip() for _ in range(2)]
        devices = []
        for serial in serials:
            adb_server.adb("connect", serial)
            device = AdbDevice(serial, port=adb_server.port, timeout=1.0)
            device.wait_ready(timeout=10)
            devices.append(device)
        with _in_use(devices):  # (a fault strikes a phone in use: idle ones would keep it waiting 30 s)
            logged = [json.loads(process.stderr.readline()) for _ in range(2)]  # each fault, as it starts
        assert sorted((f["phone"], f["kind"], f["serial"]) for f in logged) == [
            (0, "hang", serials[0]),
            (1, "reboot", serials[1]),
        ]
        with pytest.raises(DeviceError):  # hung: no answer within the call's timeout
            devices[0].shell("echo hello")
        with pytest.raises(DeviceError):  # rebooting: offline
            devices[1].shell("echo hello")
        for device in devices:  # both come back
            device.wait_ready(timeout=20)
            assert device.shell("echo back") == "back\n"
    finally:
        process.terminate()
        process.communicate(timeout=10)  # (and closes the pipes)
        for serial in serials:
            adb_server.adb("disconnect", serial, check=False)


def test_a_link_is_off_the_network_while_its_phone_reboots_as_the_phone_is():
    phone = VirtualPhone(360, 800, 160)
    with AdbdThread() as adbd:
        server = adbd.serve(phone)
        link = adbd.run(FaultyLink(server, reboot=phone.reboot))
        assert accepts(link.port)
        phone.reboot()
        refused_while_offline = False
        deadline = time.monotonic() + 10
        while not phone.online and time.monotonic() < deadline:
            refused_while_offline = refused_while_offline or (not server.listening and not accepts(link.port))
            time.sleep(0.01)
        assert refused_while_offline  # (an adb server is told "refused", not let in and hung up on)
        while not accepts(link.port) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert phone.online and server.listening and accepts(link.port)
