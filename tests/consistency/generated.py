"""Scenarios generated for the consistency suite: the default scenario with a few of its inputs drawn at random
(a fixed seed, so the suite is the same every time), each a change the analytic model must follow.

Each scenario is (name, path, overrides) with --set overrides on configs/protodune_2020_large_batch.yaml.
"""
import os
import random

SEED = 20261205
COUNT = 6


def scenarios(repo):
    rng = random.Random(SEED)
    default = os.path.join(repo, "configs", "protodune_2020_large_batch.yaml")
    out = []
    for k in range(COUNT):
        group = "platform.server_groups.gke_4xt4"
        overrides = [
            "platform.wan.rtt=%dms" % rng.choice([2, 12, 30, 80]),
            "%s.pods=%d" % (group, rng.randint(1, 3)),
            "%s.devices.count=%d" % (group, rng.randint(1, 4)),
            "workload.pipeline.EmTrkMichelId.max_batch=%d" % rng.choice([256, 1024, 4096, 16384]),
            "workload.pipeline.EmTrkMichelId.preprocess=%ds" % rng.randint(1, 15),
            "workload.pipeline.EmTrkMichelId.groups=%d" % rng.choice([4, 16, 32]),
        ]
        if k % 2 == 1:
            # Shared worker nodes: jobs' threads on hyper-threaded cores (docs/model.md, "Client nodes").
            overrides += [
                "platform.jobs_per_node=%d" % rng.choice([4, 8]),
                "platform.client_node={physical_cores: %d, threads_per_core: 2, hyperthread_yield: 0.25}" %
                rng.choice([2, 4]),
            ]
        out.append(("generated_%d" % k, default, overrides))
    return out
