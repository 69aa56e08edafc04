"""The benchmark's ray suite runs on the session's Ray cluster and reports both backends and what Ray adds per step."""

import json

import pytest

ray = pytest.importorskip("ray")

from androidrl.bench import main  # noqa: E402
from androidrl.vector.cluster import cluster_devices  # noqa: E402

pytestmark = pytest.mark.slow


def test_the_ray_suite_reports_env_steps_the_cost_of_a_vector_step_and_what_ray_adds(ray_cluster, tmp_path, capsys):
    out = tmp_path / "bench.json"
    args = ["--quick", "--suite", "ray", "--rounds", "1", "--size", "180x400", "--density", "80", "--json", str(out)]
    assert main(args) == 0
    figures = {f["name"]: f for f in json.loads(out.read_text())["figures"]}
    rate = figures["ray backend: env-steps/s, 2 virtual phones 180x400"]
    per_step = figures["ray backend: ms per vector step (2 envs)"]
    added = figures["ray backend: ms it adds per vector step"]
    weight = figures["ray backend: KB per step and env over the wire"]
    assert set(rate["contenders"]) == set(per_step["contenders"]) == {"async (local)", "ray (actors)"}
    assert rate["unit"] == "steps/s" and per_step["unit"] == added["unit"] == "ms"
    for name in rate["contenders"]:  # a vector step steps both envs: env-steps/s = 2 x 1000 / ms per vector step
        rates, costs = rate["contenders"][name]["samples"], per_step["contenders"][name]["samples"]
        assert len(rates) == len(costs) >= 3
        assert all(r == pytest.approx(2 * 1000 / ms) for r, ms in zip(rates, costs))
    local, remote = (per_step["contenders"][n]["samples"] for n in ("async (local)", "ray (actors)"))
    assert added["contenders"]["ray - async"]["samples"] == pytest.approx([r - a for r, a in zip(remote, local)])
    answer, frame = (weight["contenders"][n]["median"] for n in ("pickled answer", "raw frame (not sent)"))
    assert 0 < answer < frame == 180 * 400 * 4 / 1024
    assert "ray backend: ms it adds per vector step" in capsys.readouterr().out
    assert ray.is_initialized()  # the suite used the session's cluster and left it connected
    assert not any(d.in_use for d in cluster_devices(ray))
