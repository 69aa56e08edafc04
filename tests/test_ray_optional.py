"""Ray is an optional extra: without it the ray backend names the extra to install, and its bad arguments are
refused before Ray is needed."""

import sys

import pytest

from androidrl.vector import VectorSettings
from androidrl.vector.cluster import ClusterError, connect, make_cluster_vector_env, require_ray
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
    with pytest.raises(ValueError, match="adb_host, adb_port: the ray backend's workers are actors"):
        make_sb3_vec_env(["virtual"], "tap-target", backend="ray", adb_port=5037)
    # One actor per device: envs_per_worker is refused by every way in, not dropped by one of them.
    two = VectorSettings(envs_per_worker=2)
    for attempt in (
        lambda: make_sb3_vec_env(["virtual"], "tap-target", backend="ray", settings=two),
        lambda: make_cluster_vector_env(["virtual"], "tap-target", settings=two),
    ):
        with pytest.raises(ValueError, match="envs_per_worker: the ray backend runs one actor per device"):
            attempt()
    with pytest.raises(ValueError, match="backend must be 'async', 'ray', 'subproc' or 'dummy', got 'rey'"):
        make_sb3_vec_env(["virtual"], "tap-target", backend="rey")
