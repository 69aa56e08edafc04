"""Ray is an optional extra: without it the ray backend names the extra to install, and its bad arguments are
refused before Ray is needed."""

import sys

import pytest

from androidrl.vector.cluster import ClusterError, connect, require_ray
from androidrl.vector.sb3 import make_sb3_vec_env


def test_without_ray_the_ray_backend_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # (as if it were not installed: importing it fails; restored after)
    for attempt in (
        require_ray,
        lambda: connect("127.0.0.1:6379"),
        lambda: make_sb3_vec_env(["virtual:360x800@160"], "tap-target", backend="ray"),
    ):
        with pytest.raises(ClusterError, match=r'the ray backend needs Ray: pip install "androidrl\[ray\]"'):
            attempt()


def test_the_ray_backend_refuses_the_local_workers_arguments():
    with pytest.raises(TypeError, match="adb_port, envs_per_worker: the ray backend does not take these"):
        make_sb3_vec_env(["virtual"], "tap-target", backend="ray", adb_port=5037, envs_per_worker=2)
    with pytest.raises(ValueError, match="backend must be 'async', 'ray', 'subproc' or 'dummy', got 'rey'"):
        make_sb3_vec_env(["virtual"], "tap-target", backend="rey")
