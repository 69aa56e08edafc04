"""Hyperparameter tuning: ``androidrl tune --config X --trials N`` (Optuna, as rl-zoo3 tunes).

Each trial trains the config with sampled hyperparameters in its own run directory and is
scored by its evaluations' success rate (the last one; with ``--seeds``, the mean over
seeds). The pruner stops trials whose evaluations trail the median of earlier trials at
the same step; every trial's evaluations play the same seeded episodes, so trials differ by
their parameters, not by the luck of their episodes. The study lives in
``STUDY_DIR/study.db`` (SQLite): run the same command again to add trials to it. A study
compares trials of one budget only: the same command with another budget (steps,
evaluation frequency or episodes, seeds) is refused, naming what changed; give it a new
``--study-dir``. After each trial, ``STUDY_DIR/best.yaml`` is the config with
the best parameters so far, ready to train: ``androidrl train --config STUDY_DIR/best.yaml``.
"""

from __future__ import annotations

import argparse
import csv
import inspect
import math
import signal
import statistics
import sys
from pathlib import Path
from typing import Any

from androidrl.arguments import int_in, number_in, seed_arg
from androidrl.train.config import (
    OFF_POLICY,
    Config,
    ConfigError,
    algo_class,
    dump_config,
    load_config,
    parse_config,
)
from androidrl.train.runs import command_line

#: The search space by algorithm family: name -> (kind, choices or (low, high)).
ON_POLICY_SPACE: dict[str, tuple[str, Any]] = {
    "learning_rate": ("log", (1e-5, 3e-3)),
    "gamma": ("choice", (0.9, 0.95, 0.98, 0.99)),
    "ent_coef": ("log", (1e-4, 0.05)),
    "n_epochs": ("choice", (1, 4, 10)),
    "clip_range": ("choice", (0.1, 0.2, 0.3)),
    "gae_lambda": ("choice", (0.9, 0.95, 0.99)),
}
OFF_POLICY_SPACE: dict[str, tuple[str, Any]] = {
    "learning_rate": ("log", (1e-5, 3e-3)),
    "gamma": ("choice", (0.9, 0.95, 0.98, 0.99)),
    "train_freq": ("choice", (1, 4, 8)),
    "gradient_steps": ("choice", (1, 2)),
    "tau": ("choice", (0.005, 0.02, 1.0)),
}


def search_space(config: Config) -> dict[str, tuple[str, Any]]:
    """The hyperparameters a trial samples, and how: those the algorithm takes."""
    accepted = set(inspect.signature(algo_class(config.algo.name).__init__).parameters)
    space = OFF_POLICY_SPACE if config.algo.name in OFF_POLICY else ON_POLICY_SPACE
    return {name: how for name, how in space.items() if name in accepted}


def sample(trial: Any, space: dict[str, tuple[str, Any]]) -> dict[str, Any]:
    """One draw of the space from an Optuna trial."""
    params = {}
    for name, (kind, values) in space.items():
        if kind == "log":
            params[name] = trial.suggest_float(name, *values, log=True)
        else:
            params[name] = trial.suggest_categorical(name, list(values))
    return params


def with_params(config: Config, params: dict[str, Any], seed: int | None = None) -> Config:
    """``config`` with these hyperparameters (and seed), validated as any config is."""
    data = config.model_dump(mode="json")
    data["algo"]["hyperparams"] = {**data["algo"]["hyperparams"], **params}
    if seed is not None:
        data["seed"] = seed
    return parse_config(data, "tuned config")


def tune(
    config: Config,
    study_dir: Path,
    trials: int,
    seeds: list[int] | None = None,
    timeout: float | None = None,
    command: list[str] | None = None,
) -> Any:
    """Run ``trials`` more trials of the study in ``study_dir`` (made or resumed); the Optuna study.

    ``command`` is what each trial's run directory records as the command that made it.

    Raises:
        ConfigError: The config never evaluates (``training.eval_freq: 0``), Optuna is missing, or
            the study in ``study_dir`` was made with another budget.
        Interrupted: Ctrl-C or SIGTERM stopped a trial's training (the trial is failed, not scored).
    """
    try:
        import optuna
    except ImportError:
        raise ConfigError("tuning needs optuna: pip install 'androidrl[train]'") from None
    from androidrl.train.runs import Run
    from androidrl.train.training import Interrupted, train

    if not config.training.eval_freq:
        raise ConfigError("training.eval_freq: tuning scores trials by their evaluations; set it above 0")
    seeds = seeds or [config.seed]
    space = search_space(config)
    study = open_study(config, study_dir, seeds, trials)

    stopped: list[int] = []  # the signal that stopped a trial's training, if one did

    def objective(trial: Any) -> float:
        params = sample(trial, space)
        scores = []
        for seed in seeds:
            trial_config = with_params(config, params, seed)

            def report(steps: int, summary: dict, seed: int = seed) -> bool:
                if seed != seeds[0]:  # the pruner judges a trial on its first seed's evaluations
                    return True
                trial.report(summary["success_rate"], steps)
                return not trial.should_prune()

            directory = study_dir / f"trial_{trial.number}" / f"seed_{seed}"
            result = train(Run.create(trial_config, directory, command), on_evaluation=report)
            if result.stopped_by is not None:  # a half-trained trial is not scored: it fails, and tuning stops
                stopped.append(result.stopped_by)
                trial.set_user_attr("interrupted", signal.Signals(result.stopped_by).name)
                trial.study.stop()
                return math.nan
            scores.append(_last_success(result.run))
            if seed == seeds[0] and trial.should_prune():
                raise optuna.TrialPruned()
        trial.set_user_attr("scores", scores)
        return statistics.fmean(scores)

    def after(study: Any, trial: Any) -> None:
        _write_summary(study, config, study_dir)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study.optimize(objective, n_trials=trials, timeout=timeout, callbacks=[after], catch=(ConfigError,))
    if stopped:
        raise Interrupted(stopped[0])
    return study


def budget(config: Config, seeds: list[int]) -> dict[str, Any]:
    """What makes trials comparable: their steps, how they are evaluated, their seeds."""
    train = config.training
    return {
        "training.total_timesteps": train.total_timesteps,
        "training.eval_freq": train.eval_freq,
        "training.eval_episodes": train.eval_episodes,
        "seeds": list(seeds),
    }


def open_study(config: Config, study_dir: Path, seeds: list[int], trials: int = 20) -> Any:
    """The study in ``study_dir``, made for this budget, or resumed if it has the same one.

    Raises:
        ConfigError: The study there was made with another budget (naming each difference).
    """
    import optuna

    study_dir.mkdir(parents=True, exist_ok=True)
    study = optuna.create_study(
        study_name=config.experiment,
        storage=f"sqlite:///{study_dir / 'study.db'}",
        load_if_exists=True,
        direction="maximize",
        sampler=optuna.samplers.TPESampler(seed=config.seed, n_startup_trials=min(5, max(1, trials // 3))),
        pruner=optuna.pruners.MedianPruner(n_startup_trials=2, n_warmup_steps=config.training.eval_freq),
    )
    wanted = budget(config, seeds)
    made = study.user_attrs.get("budget")
    if made is None:
        study.set_user_attr("budget", wanted)
    elif made != wanted:
        changed = ", ".join(
            f"{key} {made.get(key)} -> {value}" for key, value in wanted.items() if made.get(key) != value
        )
        raise ConfigError(
            f"the study in {study_dir} was made with another budget ({changed}), and trials of different budgets "
            f"do not compare: not adding to it. Start a new study with --study-dir, or tune with its budget"
        )
    return study


def _last_success(run: Any) -> float:
    """The success rate of the run's last evaluation (0 if it never evaluated)."""
    if not run.evaluations.exists():
        return 0.0
    with run.evaluations.open() as f:
        rows = list(csv.DictReader(f))
    return float(rows[-1]["success_rate"]) if rows else 0.0


def _write_summary(study: Any, config: Config, study_dir: Path) -> None:
    """``trials.csv`` (every trial) and ``best.yaml`` (the config with the best parameters)."""
    import optuna

    from androidrl.train.checkpoints import atomic_write_text

    done = [t for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)]
    names = sorted({k for t in done for k in t.params})
    lines = [",".join(["trial", "state", "value", *names])]
    for t in done:
        value = "" if t.value is None else f"{t.value:.4f}"
        lines.append(",".join([str(t.number), t.state.name.lower(), value, *(f"{t.params.get(n, '')}" for n in names)]))
    atomic_write_text(study_dir / "trials.csv", "\n".join(lines) + "\n")
    complete = [t for t in done if t.state == optuna.trial.TrialState.COMPLETE]
    if complete:
        best = max(complete, key=lambda t: t.value)
        tuned = with_params(config, best.params)
        note = f"# tuned: trial {best.number} of {study_dir}, success {best.value:.0%}\n"
        atomic_write_text(study_dir / "best.yaml", note + dump_config(tuned))


def main(argv: list[str] | None = None) -> int:
    """``androidrl tune``."""
    parser = argparse.ArgumentParser(
        prog="androidrl tune",
        description="Tune a config's hyperparameters with Optuna (sampler and median pruner on the evaluation "
        "success rate). The study is resumable: the same command adds trials.",
    )
    parser.add_argument("--config", required=True, help="the config to tune (a file, or a shipped name)")
    parser.add_argument("--trials", type=int_in(1, 100_000), default=20, help="trials to run now (default 20)")
    parser.add_argument(
        "--seeds", type=seed_arg, nargs="+", help="train each trial with each of these seeds; score: mean"
    )
    parser.add_argument(
        "--timeout", type=number_in(0, 365 * 86_400), help="stop starting trials after this many seconds"
    )
    parser.add_argument("--study-dir", type=Path, help="where the study lives (default: <run_dir>/<experiment>-tune)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY.PATH=VALUE", help="override a config key")
    args = parser.parse_args(argv)
    from androidrl.train.training import Interrupted, interrupt_on_sigterm

    study_dir = args.study_dir
    try:
        config = load_config(args.config, args.set)
        study_dir = study_dir or Path(config.run_dir) / f"{config.experiment}-tune"
        command = command_line("tune", sys.argv[1:] if argv is None else argv)
        with interrupt_on_sigterm():  # (between trials too, not only while one trains)
            study = tune(config, study_dir, args.trials, args.seeds, args.timeout, command)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Interrupted) as stop:
        print(f"\ninterrupted; the study in {study_dir} is kept: the same command goes on", file=sys.stderr)
        return 128 + (stop.signum if isinstance(stop, Interrupted) else signal.SIGINT)
    complete = [t for t in study.trials if t.value is not None and not math.isnan(t.value)]
    print(f"{len(study.trials)} trials in {study_dir / 'study.db'}; table: {study_dir / 'trials.csv'}")
    if complete:
        print(f"best: trial {study.best_trial.number}, success {study.best_value:.0%}, {study.best_params}")
        print(f"train it: androidrl train --config {study_dir / 'best.yaml'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
