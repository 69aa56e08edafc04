import copy
import pickle

import numpy as np
import pytest
from gymnasium import spaces
from pydantic import ValidationError

from androidrl.spaces import (
    DISTS,
    ORIENTS,
    EnvAction,
    EnvActionType,
    EnvObsParams,
    EnvObsType,
    PrintableText,
    get_action_space,
    get_observation_space,
)


def test_action_types_keep_metagpt_values_and_add_home_and_enter():
    assert [t.value for t in EnvActionType][:7] == list(range(7))
    assert [t.name for t in EnvActionType][:7] == [
        "NONE",
        "SYSTEM_BACK",
        "SYSTEM_TAP",
        "USER_INPUT",
        "USER_LONGPRESS",
        "USER_SWIPE",
        "USER_SWIPE_TO",
    ]
    assert EnvActionType.SYSTEM_HOME > EnvActionType.USER_SWIPE_TO
    assert EnvActionType.SYSTEM_ENTER > EnvActionType.USER_SWIPE_TO
    assert [t.value for t in EnvObsType] == [0, 1, 2]


def test_action_space_holds_real_pixels():
    space = get_action_space((1080, 2400))
    coord = space["coord"]
    assert coord.dtype == np.int64
    assert coord.high.tolist() == [1079, 2399]
    assert coord.contains(np.array([1079, 2399]))
    assert not coord.contains(np.array([1080, 0]))
    assert isinstance(space["orient"], spaces.Discrete) and space["orient"].n == len(ORIENTS)
    assert isinstance(space["dist"], spaces.Discrete) and space["dist"].n == len(DISTS)
    assert space["input_txt"].contains("")
    assert space["input_txt"].contains("héllo wörld, 你好! $(rm -rf /) 'q' \"d\"")


def test_observation_space_accepts_real_paths_and_empty():
    space = get_observation_space()
    assert space.contains({"screenshot": "/tmp/androidrl-x_1/screenshot_0.png", "xml": ""})
    assert space.contains({"screenshot": "/home/josé/数据/s.png", "xml": "C:\\a b\\x.xml"})
    assert not space.contains({"screenshot": "x" * 257, "xml": ""})


@pytest.mark.parametrize("shape", [(360, 800), (1080, 2400), (720, 1280)])
def test_every_sample_builds_an_action_that_round_trips(shape):
    space = get_action_space(shape)
    space.seed(1)
    for _ in range(200):
        sample = space.sample()
        action = EnvAction(**sample)
        assert space.contains(action.to_space_sample())
        assert EnvAction(**action.to_space_sample()) == action


def test_coordinates_accept_lists_tuples_and_arrays():
    for coord in ([10, 20], (10, 20), np.array([10, 20]), np.array([10.2, 19.7]), np.array([10, 20], dtype=np.int32)):
        action = EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=coord)
        assert action.coord.dtype == np.int64
        assert action.coord.tolist() == [10, 20]


def test_orient_dist_and_type_accept_names_and_indices():
    action = EnvAction(action_type="user_swipe", coord=(5, 5), orient=np.int64(2), dist="LONG")
    assert action.action_type is EnvActionType.USER_SWIPE
    assert (action.orient, action.dist) == ("left", "long")
    assert EnvAction(action_type=np.int64(2), coord=(5, 5)).action_type is EnvActionType.SYSTEM_TAP


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"action_type": 42}, ValidationError, "unknown action_type 42"),
        ({"action_type": "JUMP"}, ValidationError, "unknown action_type"),
        ({"action_type": True}, ValidationError, "unknown action_type"),
        ({"coord": [1, 2, 3]}, ValidationError, "shape (2,)"),
        ({"coord": [[1, 2]]}, ValidationError, "shape (2,)"),
        ({"coord": "12"}, TypeError, "two numbers"),
        ({"coord": [-1, 5]}, ValidationError, "non-negative"),
        ({"coord": [np.inf, 5]}, ValidationError, "finite"),
        ({"coord": [True, False]}, TypeError, "numbers"),
        ({"orient": "north"}, ValidationError, "orient must be one of"),
        ({"orient": 4}, ValidationError, "orient must be one of"),
        ({"dist": "short"}, ValidationError, "dist must be one of"),
        ({"input_txt": "x" * 257}, ValidationError, "at most 256"),
        ({"input_txt": 5}, TypeError, "input_txt must be a str"),
        ({"cord": [1, 2]}, ValidationError, "Extra inputs are not permitted"),
    ],
)
def test_bad_actions_are_rejected_with_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=None) as info:
        EnvAction(**kwargs)
    assert message in str(info.value)


def test_bad_device_shapes():
    with pytest.raises(TypeError, match="device_shape"):
        get_action_space("1080x2400")
    with pytest.raises(ValueError, match="positive"):
        get_action_space((0, 100))


def test_obs_params_defaults_match_metagpt():
    params = EnvObsParams()
    assert (params.obs_type, params.ss_name, params.xml_name, params.local_save_dir) == (EnvObsType.NONE, "", "", "")
    with pytest.raises(ValidationError):
        EnvObsParams(obs_typ=1)


def test_printable_text_is_cheap_to_copy_and_pickle():
    space = PrintableText(256)
    assert repr(space) == "PrintableText(0, 256)"
    assert len(pickle.dumps(space)) < 10_000
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space and clone.contains("ü/x y")
    twin = copy.deepcopy(space)
    space.seed(3)
    twin.seed(3)
    assert space.sample() == twin.sample()
    assert not space.contains("tab\there")  # control characters are not printable
