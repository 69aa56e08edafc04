"""Features extractors for SB3 policies: the screen through a CNN, the instruction through an embedding.

Select one in a config with ``algo.policy_kwargs.features_extractor: instruction`` (and
``policy: MultiInputPolicy``, ``observation.instruction: {...}``).
"""

from __future__ import annotations

import gymnasium as gym
import torch
from stable_baselines3.common.preprocessing import is_image_space
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, NatureCNN
from torch import nn


class InstructionExtractor(BaseFeaturesExtractor):
    """Image keys through a NatureCNN each, ``instruction`` token ids through a mean EmbeddingBag, ``goal`` one-hot.

    The parts' features are concatenated: ``cnn_dim`` per image, ``embed_dim`` for the
    instruction and for the goal.

    Args:
        observation_space: The Dict space of :class:`~androidrl.wrappers.InstructionObservation`.
        cnn_dim: Features of each image.
        embed_dim: Size of the instruction's (and the goal's) embedding.
    """

    def __init__(self, observation_space: gym.spaces.Dict, cnn_dim: int = 256, embed_dim: int = 64) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or "instruction" not in observation_space.spaces:
            raise ValueError("InstructionExtractor needs the Dict observation of InstructionObservation")
        images = {k: s for k, s in observation_space.spaces.items() if is_image_space(s)}
        tokens = observation_space["instruction"]
        goal = observation_space.spaces.get("goal")
        size = cnn_dim * len(images) + embed_dim + (embed_dim if goal is not None else 0)
        super().__init__(observation_space, features_dim=size)
        self.cnns = nn.ModuleDict({k: NatureCNN(s, features_dim=cnn_dim) for k, s in images.items()})
        self.tokens = nn.EmbeddingBag(int(tokens.high.max()) + 1, embed_dim, mode="mean", padding_idx=0)
        self.goal = nn.Sequential(nn.Linear(int(sum(goal.nvec)), embed_dim), nn.ReLU()) if goal is not None else None

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        parts = [cnn(observations[key]) for key, cnn in self.cnns.items()]
        parts.append(self.tokens(observations["instruction"].long()))
        if self.goal is not None:
            parts.append(self.goal(observations["goal"].float()))  # (SB3 hands MultiDiscrete over one-hot)
        return torch.cat(parts, dim=1)


#: Extractors a config names (``algo.policy_kwargs.features_extractor``).
EXTRACTORS = {"instruction": InstructionExtractor}
