#!/usr/bin/env python3
"""A discrete-event model of the synthetic bench's schedule (issue 11's L = 500 ms workload), to tell what its wall
time above the critical path comes from without the noise of a measurement.

Each (mode, domain) chain runs its tasks one after another; a task's mode is a fixed list of phases (ARCHITECTURE.md,
the sweep; demo/.../SweepBounds.java); a phase runs its items `width` at a time, an item being a session and then its
rollout (or a session alone for the selection and the reflection). Every session holds a slot of the session limit
for L, every rollout a slot of the rollout limit for L. `overhead` is h2beam's own time before each slot is asked for
and before each phase (building evidence, copying trees, starting scripts), taken as fixed: contention for the CPU is
not modelled. Slots are granted first come, first served ("fifo", the JVM's fair semaphore) or to the chain with the
most steps left ("longest").

Usage: scripts/schedule-model.py [--limit 16] [--overheads 0,0.04,0.08] [--domains 8] [--tasks 5] [--k 3]
"""
import argparse
import heapq
import itertools


def phases(mode, k):
    item = ["s", "r"]
    if mode == "agg":
        return [[item] * (2 * k), [item] * k, [["s"]], [["s"]]]
    out = []
    for _ in range(k):
        out += [[item] * 2, [item]]
    return out + [[["s"]], [["s"]]]


def simulate(policy, overhead, a):
    queue, order = [], itertools.count()
    now = [0.0]
    free = {"s": a.limit, "r": a.limit}
    waiting = {"s": [], "r": []}
    end = [0.0]

    def at(t, f):
        heapq.heappush(queue, (t, next(order), f))

    def acquire(kind, priority, granted):
        if free[kind] > 0 and not waiting[kind]:
            free[kind] -= 1
            granted()
        else:
            heapq.heappush(waiting[kind], (-priority if policy == "longest" else 0, next(order), granted))

    def release(kind):
        free[kind] += 1
        while free[kind] > 0 and waiting[kind]:
            free[kind] -= 1
            heapq.heappop(waiting[kind])[2]()

    def steps(ph):
        return sum(max(len(i) for i in p) * -(-len(p) // a.width) for p in ph)

    def chain(mode):
        plan = phases(mode, a.k)
        state = {"task": 0, "phase": 0}

        def start_phase():
            if state["phase"] >= len(plan):
                state["task"] += 1
                state["phase"] = 0
                if state["task"] >= a.tasks:
                    end[0] = max(end[0], now[0])
                    return
            left = (a.tasks - state["task"] - 1) * steps(plan) + steps(plan[state["phase"]:])
            items = list(plan[state["phase"]])
            pending = [len(items)]

            def worker():
                if not items:
                    return
                item = items.pop(0)

                def step(j):
                    if j == len(item):
                        pending[0] -= 1
                        if items:
                            worker()
                        elif pending[0] == 0:
                            state["phase"] += 1
                            at(now[0] + overhead, start_phase)
                        return
                    kind = item[j]
                    at(now[0] + overhead, lambda: acquire(
                        kind, left, lambda: at(now[0] + a.latency, lambda: (release(kind), step(j + 1)))))

                step(0)

            for _ in range(min(a.width, len(items))):
                worker()

        at(-(-a.k // a.width) * a.latency, start_phase)   # the first task's bases

    for _ in range(a.domains):
        for mode in ("agg", "seq"):
            chain(mode)
    while queue:
        t, _, f = heapq.heappop(queue)
        now[0] = t
        f()
    return end[0]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--limit", type=int, default=16, help="session and rollout limit")
    p.add_argument("--overheads", default="0,0.02,0.04,0.06,0.08", help="seconds of h2beam's time per step")
    p.add_argument("--domains", type=int, default=8)
    p.add_argument("--tasks", type=int, default=5)
    p.add_argument("--k", type=int, default=3)
    p.add_argument("--width", type=int, default=2, help="phase width")
    p.add_argument("--latency", type=float, default=0.5, help="seconds a session or a rollout takes")
    a = p.parse_args()
    for o in (float(x) for x in a.overheads.split(",")):
        print(f"overhead {o * 1000:4.0f} ms per step: first come first served {simulate('fifo', o, a):5.1f} s,"
              f" longest chain first {simulate('longest', o, a):5.1f} s")


if __name__ == "__main__":
    main()
