# The PyTorch side of rocops' ops/pairwise BenchmarkGradient/surrogate=logistic
# (docs/benchmarks.md): the exact all-pairs logistic loss as a PyTorch user writes it, the full
# |B1| x |B0| matrix of margins x = f_i - f_j, softplus(-x) averaged, and its gradient by
# backward; float64, 2 threads. Batches as the Go benchmark draws them: n scores, 10%
# positives, negatives N(0, 1), positives N(1, 1). Prints wall and process CPU time per call
# (median of reps) for every n asked for.
#
#   logistic_pairs.py [reps] [n ...]
#
# By default 6 repetitions at n = 1024 and 16384, the sizes of the Go benchmark; docs/pytorch/README.md gives the
# command of the run reported.
import sys, time, statistics
import torch
torch.set_num_threads(2)
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 6
sizes = [int(a) for a in sys.argv[2:]] or [1024, 16384]
for n in sizes:
    g = torch.Generator().manual_seed(n)
    y = torch.rand(n, generator=g, dtype=torch.float64) < 0.1
    f = torch.randn(n, generator=g, dtype=torch.float64) + y.to(torch.float64)
    def call():
        s = f.clone().requires_grad_(True)
        x = s[y][:, None] - s[~y][None, :]
        loss = torch.nn.functional.softplus(-x).mean()
        loss.backward()
        return loss.item(), s.grad
    call()
    walls, cpus = [], []
    for _ in range(reps):
        w0, c0 = time.perf_counter(), time.process_time()
        call()
        walls.append((time.perf_counter() - w0) * 1e9)
        cpus.append((time.process_time() - c0) * 1e9)
    print(f"torch logistic all pairs n={n}: wall {statistics.median(walls):.0f} ns/op, cpu {statistics.median(cpus):.0f} cpu-ns/op (reps {[round(w) for w in walls]})")
