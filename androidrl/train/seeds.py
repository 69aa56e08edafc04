"""Every seed a run derives from its own: the training's, the evaluation phones', each evaluation's episodes.

The training envs' phones and episodes take the config's ``seed`` (env ``i``: ``seed + i``),
as SB3 seeds a model's env. Evaluations play on phones of their own, and each evaluation's
episodes come from the run's seed and the evaluation's index (:func:`evaluation_seed`):
the same config and seed give the same evaluations, on every backend, whatever else ran.
"""

from __future__ import annotations

import numpy as np

#: The seed streams of evaluations: the periodic ones during training, and those made afterwards.
PERIODIC, AFTERWARDS = 0, 1
#: Added to the run's seed for the evaluation phones: the periodic evaluations', and the later ones'.
PERIODIC_PHONES, LATER_PHONES = 10_000, 20_000


def evaluation_seed(run_seed: int, index: int, stream: int = PERIODIC) -> int:
    """The seed of evaluation ``index`` of a run: its first episode's (env ``i`` of the evaluation env: ``+ i``).

    Derived with NumPy's ``SeedSequence`` from the run's seed, the stream (periodic, or
    afterwards) and the index, so evaluations repeat neither one another nor the training's
    episodes, and the same run seed always gives the same ones.
    """
    return int(np.random.SeedSequence([run_seed, stream, index]).generate_state(1)[0])
